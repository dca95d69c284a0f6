"""Glossary: the Finnish terms of art this package uses, each defined once here.

Identifiers are English; where English has no exact word, the code keeps the Finnish term. Finnish texts
(rulings, pages) use one word per concept: the ones below, *lyöntivuoro* for a turn at the table and *kirjuri*
for the person who enters a real match's strokes (never *merkitsijä*); rails and pockets by their names
(``kaisa.referee.catalogue``), their codes only in the call notation.

haaki
    A jaw point of a pocket: where a rail's nose line meets the pocket's facing. The mouth of a pocket
    is measured between its two haaki points, and the *haaki line* joins them (rulebook 7g, Kuva 2).
huilaaja
    In a kaavio, the player who waits a round when the number still in at his game count is odd, and later
    plays someone a round ahead (KAAVIO 1, 4.2). There are no free byes.
kaavio
    The draw sheet of a competition, hence the competition run on it: after rounds 1-2 the games are searched
    after each result, and a player is out after two losses (``kaisa.competition``, KAAVIO.md).
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
kieppi
    The twist of a kaavio's round 2 when the number of players leaves 2 over a multiple of 4: the last four
    are paired crosswise first, (N-4)-(N-1) and (N-2)-N (KAAVIO 3.5).
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
pelipöytäkirja
    The paper scoresheet of one kaavio game: the players, both results, longest run, table and round, ten to
    an A4 page (KAAVIO 9; ``kaisa.competition.paper``).
pudari
    A kaavio where, from a set personal round on (2-6), one loss puts a player out (*Pudari3Kierros*: from his
    third game); before that round two losses do (KAAVIO 2).
rankkari
    The penalty shoot-out (rangaistuslyöntiratkaisu) that decides a match unfinished when time is up (6).
röpötys
    A jaw rattle at the called pocket just before the drop; needs no call (1.3).
talonmies
    A push shot (also *saattolyönti*, *talkkari*): the cue ball frozen to a ball and struck towards it
    (7d, 8a).
teikkaus
    The lag that decides who chooses the cue ball (1.1).
tuplakaavio
    The double-elimination kaavio: out after two losses, to the end (KAAVIO 2).
valli
    A cushion (rail).
ylimennyt
    A ball off the table: it did not stop on the bed (8f).
"""
