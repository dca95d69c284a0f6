"""Glossary: the Finnish terms of art this package uses, each defined once here.

Identifiers are English; where English has no exact word, the code keeps the Finnish term. Finnish texts
(rulings, pages) use one word per concept: the ones below, *lyöntivuoro* for a turn at the table and *kirjuri*
for the person who enters a real match's strokes (never *merkitsijä*); rails and pockets by their names
(``kaisa.referee.catalogue``), their codes only in the call notation.

haaki
    A jaw point of a pocket: where a rail's nose line meets the pocket's facing. The mouth of a pocket
    is measured between its two haaki points, and the *haaki line* joins them (rulebook 7g, Kuva 2).
kaisa
    The yellow ball (``K``), and the game itself.
kaksoiskosketus
    A double hit: the cue tip strikes the cue ball twice in one stroke; a pot scores nothing (7d).
kara
    A konsti: the cue ball comes off another ball (the *karapallo*) and then hits the called ball.
konsti
    A trick in a called pot: kyyti, kara or kiss. A cushion is not a konsti; at most one per pot (2).
kyyti
    A konsti: the cue ball drives another ball (the *kyytipallo*) into the called ball.
käkä
    The cue ball touching the called ball twice before it drops; voids the pot (1.3).
käsipallo
    Ball in hand: the owner of a pocketed cue ball plays it from behind the head string (5).
kirjuri
    The marker: the person who enters a real match's strokes and facts (the scorekeeping mode).
lyöntivuoro
    An inning: a player's turn at the table, which goes on after every legal pot (1.3).
maalaus
    The call: which ball, into which pocket, by which route (1.3).
mankeli
    The called ball running along a cushion into the pocket; scores nothing (7f).
nakki
    A distinct ball (other than the called ball and the shooter's own cue ball) that the shooter's cue ball
    touches after its first contact with the called ball, in a shot whose called pot is legal. Never called;
    adds points (2), but not for pots by kyyti or off a ball (2.1) (REFERENCE.md section 3).
rankkari
    The penalty shoot-out (rangaistuslyöntiratkaisu) that decides a match unfinished when time is up (6).
röpötys
    A jaw rattle at the called pocket just before the drop; needs no call (1.3).
talonmies
    A push shot (also *saattolyönti*, *talkkari*): the cue ball frozen to a ball and struck towards it
    (7d, 8a).
teikkaus
    The lag that decides who chooses the cue ball (1.1).
valli
    A cushion (rail).
ylimennyt
    A ball off the table: it did not stop on the bed (8f).
"""
