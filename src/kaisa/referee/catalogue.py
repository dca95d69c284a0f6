"""The rulebook as a catalogue: one typed entry per clause, with its wordings in Finnish and English.

Every sentence the referee writes lives here, under the clause it applies, as a :class:`Wording` with named
parameters; the judge (:mod:`kaisa.referee.judge`) only chooses entries and fills them in. A newcomer finds
rule 7c by its number in :data:`CATALOGUE`; ``docs/CLAUSES.md`` and the clause coverage test are generated
from it (``.venv/bin/python -m tests.rules.test_clause_coverage``).

Finnish is written as a Kaisa referee writes it: rails and pockets by name (their codes stay in the call
notation), one word per concept (*lyöntivuoro* for the turn, *kirjuri* for the marker), decimal commas.
A parameter may be a :class:`~kaisa.referee.ruling.Text` (rendered in each language), a number (a decimal
comma in Finnish) or a plain string (the same in both: ball ids, signed points).

Decisions this catalogue carries beyond REFERENCE.md section 10:

- 8b: a cue ball "cannot be struck away" when no direction is at least ``talonmies_no_points_below`` degrees
  (the rulebook's "poispäin") from every ball it is frozen to without running into or along a cushion it is
  frozen to (:func:`kaisa.referee.observe.cannot_strike_away`), e.g. pinned to a cushion by a ball. Then a
  stroke into the frozen ball is no talonmies; only the kirjuri can enter that the opponent's setup broke (7j).
- 6: stopping the balls is entered by the kirjuri (``Facts.stopped_balls``): -6 in the shoot-out, a touch
  (7b) elsewhere; a section 5 fault on the shoot-out's first stroke is cited 7c like any fault from hand.
- 3: the points that win are the rule option ``winning_score`` (the rulebook's 60 by default, a competition's
  target otherwise); the special cases keep their distance from it (55 is ``winning_score - 5``, 59 is
  ``winning_score - 1``) and every sentence of clause 3 names the actual numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kaisa.call import Cushion, JawCushion
from kaisa.model import BallId
from kaisa.referee.ruling import RulingItem, Text
from kaisa.table import PocketId, RailId, SpotId

# --- names: balls, pockets, rails and spots in both languages ---------------------------------------------


@dataclass(frozen=True)
class Name:
    """A thing's name in the forms a ruling needs: Finnish nominative, illative (into), genitive (of) and
    English."""

    fi: str
    fi_into: str
    fi_of: str
    en: str

    @property
    def text(self) -> Text:
        return Text(self.fi, self.en)

    @property
    def into(self) -> Text:
        """'into X' / 'X' with the Finnish illative ("kulmapussiin", "kaisaan")."""
        return Text(self.fi_into, self.en)

    @property
    def of(self) -> Text:
        return Text(self.fi_of, self.en)


BALL_NAMES: Mapping[BallId, Name] = {
    BallId.W1: Name("valkoinen W1", "valkoiseen W1", "valkoisen W1", "white W1"),
    BallId.W2: Name("valkoinen W2", "valkoiseen W2", "valkoisen W2", "white W2"),
    BallId.R1: Name("punainen R1", "punaiseen R1", "punaisen R1", "red R1"),
    BallId.R2: Name("punainen R2", "punaiseen R2", "punaisen R2", "red R2"),
    BallId.K: Name("kaisa", "kaisaan", "kaisan", "the kaisa"),
}

POCKET_NAMES: Mapping[PocketId, Name] = {
    PocketId.HL: Name(
        "aloituspään vasen kulmapussi",
        "aloituspään vasempaan kulmapussiin",
        "aloituspään vasemman kulmapussin",
        "the left head corner",
    ),
    PocketId.HR: Name(
        "aloituspään oikea kulmapussi",
        "aloituspään oikeaan kulmapussiin",
        "aloituspään oikean kulmapussin",
        "the right head corner",
    ),
    PocketId.ML: Name("vasen keskipussi", "vasempaan keskipussiin", "vasemman keskipussin", "the left middle pocket"),
    PocketId.MR: Name("oikea keskipussi", "oikeaan keskipussiin", "oikean keskipussin", "the right middle pocket"),
    PocketId.FL: Name(
        "alapään vasen kulmapussi",
        "alapään vasempaan kulmapussiin",
        "alapään vasemman kulmapussin",
        "the left foot corner",
    ),
    PocketId.FR: Name(
        "alapään oikea kulmapussi",
        "alapään oikeaan kulmapussiin",
        "alapään oikean kulmapussin",
        "the right foot corner",
    ),
}

RAIL_NAMES: Mapping[RailId, Name] = {
    RailId.HEAD: Name(
        "aloituspään päätyvalli", "aloituspään päätyvalliin", "aloituspään päätyvallin", "the head cushion"
    ),
    RailId.FOOT: Name("alapään päätyvalli", "alapään päätyvalliin", "alapään päätyvallin", "the foot cushion"),
    RailId.LEFT_HEAD: Name(
        "vasen sivuvalli aloituspään puolella",
        "vasempaan sivuvalliin aloituspään puolella",
        "vasemman sivuvallin aloituspään puolella",
        "the left cushion in the head half",
    ),
    RailId.LEFT_FOOT: Name(
        "vasen sivuvalli alapään puolella",
        "vasempaan sivuvalliin alapään puolella",
        "vasemman sivuvallin alapään puolella",
        "the left cushion in the foot half",
    ),
    RailId.RIGHT_HEAD: Name(
        "oikea sivuvalli aloituspään puolella",
        "oikeaan sivuvalliin aloituspään puolella",
        "oikean sivuvallin aloituspään puolella",
        "the right cushion in the head half",
    ),
    RailId.RIGHT_FOOT: Name(
        "oikea sivuvalli alapään puolella",
        "oikeaan sivuvalliin alapään puolella",
        "oikean sivuvallin alapään puolella",
        "the right cushion in the foot half",
    ),
}

SPOT_NAMES: Mapping[SpotId | None, Text] = {
    SpotId.CENTRE: Text("keskipilkulle", "on the centre spot"),
    SpotId.HEAD_STRING: Text("aloituslinjan pilkulle", "on the head-string spot"),
    SpotId.FOOT_STRING: Text("alalinjan pilkulle", "on the foot-string spot"),
    SpotId.HEAD_END: Text("aloituspään pilkulle", "on the head-end spot"),
    SpotId.FOOT_END: Text("alapään pilkulle", "on the foot-end spot"),
    None: Text("pöydän pitkälle keskiakselille", "on the long axis of the table"),
}


def ball(b: BallId) -> Name:
    return BALL_NAMES[b]


def pocket(p: PocketId) -> Name:
    return POCKET_NAMES[p]


def cushion_name(c: Cushion) -> Text:
    """A cushion contact by name: a rail, or a jaw used as a cushion (8h)."""
    if not isinstance(c, JawCushion):
        return RAIL_NAMES[c].text
    of = POCKET_NAMES[c.pocket]
    if c.side is None:
        return Text(f"{of.fi_of} haaki", f"a jaw of {of.en}")
    if c.pocket.is_middle:
        half = ("aloituspään", "head") if c.side in (RailId.LEFT_HEAD, RailId.RIGHT_HEAD) else ("alapään", "foot")
        return Text(f"{of.fi_of} haaki {half[0]} puolella", f"the {half[1]}-side jaw of {of.en}")
    end = c.side in (RailId.HEAD, RailId.FOOT)
    side = ("päätyvallin", "end-cushion") if end else ("sivuvallin", "side-cushion")
    return Text(f"{of.fi_of} haaki {side[0]} puolella", f"the {side[1]} jaw of {of.en}")


def cushion_list(cushions: Sequence[Cushion]) -> Text:
    """Cushion contacts in order ("no cushion" when there are none)."""
    if not cushions:
        return Text("ei yhtään", "none")
    names = [cushion_name(c) for c in cushions]
    return Text(", sitten ".join(n.fi for n in names), ", then ".join(n.en for n in names))


def cushion_count(n: int) -> Text:
    """A called number of cushions, any of them."""
    if n == 0:
        return Text("ei yhtään", "none")
    return Text(f"{n} mitä tahansa", f"any {n}")


def count(n: int, fi_one: str, fi_many: str, en_one: str, en_many: str) -> Text:
    """'1 haakiosuma' / '3 haakiosumaa' (Finnish takes the partitive after numbers above one)."""
    return Text(f"{n} {fi_one if n == 1 else fi_many}", f"{n} {en_one if n == 1 else en_many}")


def fi_number(value: float, decimals: int) -> str:
    """A number the Finnish way: decimal comma, minus sign kept as is."""
    return f"{value:.{decimals}f}".replace(".", ",")


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


class _FiNumber:
    """Formats like a float, with a decimal comma (for Finnish templates such as ``{angle:.0f}``)."""

    def __init__(self, value: float) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec).replace(".", ",")


# --- clauses ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wording:
    """One sentence of a ruling in both languages, with ``{named}`` parameters."""

    fi: str
    en: str

    def render(self, **params: object) -> Text:
        fi: dict[str, Any] = {}
        en: dict[str, Any] = {}
        for key, value in params.items():
            if isinstance(value, Text):
                fi[key], en[key] = value.fi, value.en
            elif isinstance(value, float):
                fi[key], en[key] = _FiNumber(value), value
            else:
                fi[key] = en[key] = value
        return Text(self.fi.format(**fi), self.en.format(**en))


@dataclass(frozen=True)
class Clause:
    """One clause of the rulebook: its number, what it is about, the points it sets and the rule options that
    set its thresholds, and every sentence the referee writes when it applies it."""

    id: str
    about: str
    """What the clause covers, in English (docs/CLAUSES.md)."""
    points: Mapping[str, int] = field(default_factory=dict)
    """Points or penalties the clause states, by name."""
    thresholds: tuple[str, ...] = ()
    """Names of the :class:`~kaisa.referee.options.RuleOptions` that set this clause's thresholds."""
    wordings: Mapping[str, Wording] = field(default_factory=dict)
    marker_only: bool = False
    """Only a kirjuri at a real table can enter the facts of this clause (a simulation never produces them)."""

    def say(self, key: str, /, **params: object) -> Text:
        return self.wordings[key].render(**params)

    def item(self, key: str, value: int = 0, /, **params: object) -> RulingItem:
        """A line of a ruling: this clause, ``value`` points, and the sentence ``key`` (first letter
        capitalised)."""
        text = self.say(key, **params)
        return RulingItem(self.id, value, upper_first(text.fi), upper_first(text.en), key)

    def void(self, key: str, /, **params: object) -> RulingItem:
        """A voided pot's line: "Pussitusta ei hyväksytä: <sentence key>"."""
        text = VOID.render(reason=self.say(key, **params))
        return RulingItem(self.id, 0, text.fi, text.en)


def _w(fi: str, en: str) -> Wording:
    return Wording(fi, en)


_CLAUSES: tuple[Clause, ...] = (
    Clause(
        "1.1",
        "the lag (teikkaus): who chooses the cue ball; in the shoot-out, who chooses who starts",
        wordings={
            "touched_ball": _w("osui toiseen palloon (1.1a)", "touched another ball (1.1a)"),
            "long_cushion": _w("osui sivuvalliin (1.1b)", "touched a long cushion (1.1b)"),
            "dropped": _w("meni pussiin (1.1c)", "dropped (1.1c)"),
            "end_twice": _w(
                "osui samaan päätyvalliin useammin kuin kerran (1.1d)",
                "touched the same end cushion more than once (1.1d)",
            ),
            "crossed": _w("ylitti pystysuunnassa keskilinjan (1.1e)", "crossed the long centre line (1.1e)"),
            "no_foot": _w(
                "ei osunut alapään päätyvalliin: teikkaus hylätään (1.1)", "never reached the foot cushion: void (1.1)"
            ),
        },
    ),
    Clause(
        "1.2",
        "opening: W2's placement, the break from behind the head string and its restrictions",
        wordings={
            "break_middle_kaisa": _w(
                "aloittaja ei saa pussittaa kaisaa suoraan keskelle",
                "the breaker may not pot the kaisa directly into a middle pocket",
            ),
            "break_fault": _w("Aloituslyönnissä virhe: {fault}", "Fault on the break: {fault}"),
            "w2_half": _w(
                "W2 asetetaan keskilinjan ja alapään päätyvallin väliin (y > {centre:.3f} m), ei kohtaan y = {y:.3f} m",
                "W2 must be placed between the centre line and the foot cushion (y > {centre:.3f} m), "
                "not at y = {y:.3f} m",
            ),
            "w2_corridor": _w(
                "W2 kohdassa ({x:.3f}; {y:.3f}) on kaisan linjalla {pocket}: sen on oltava vähintään "
                "{clearance:.0f} mm:n päässä linjasta (nyt {gap:.0f} mm)",
                "W2 at ({x:.3f}, {y:.3f}) blocks the kaisa's line to {pocket}: it must stay at least "
                "{clearance:.0f} mm from that line (it is {gap:.0f} mm away)",
            ),
        },
    ),
    Clause(
        "1.3",
        "calls: route matching, röpötys, käkä, a moving ball, the lyöntivuoro",
        wordings={
            "not_called": _w("lyöntiä ei maalattu", "the stroke was not called"),
            "wrong_pocket": _w(
                "maalattu pallo ({ball}) meni {went} eikä maalattuun pussiin ({called})",
                "the called ball ({ball}) went into {went}, not the called pocket ({called})",
            ),
            "not_as_called": _w("maalaus ei toteutunut ({why})", "the call was not played as called ({why})"),
            "kirjuri": _w("kirjurin arvio", "the kirjuri's judgement"),
            "route": _w("maalaus ei toteutunut, sillä {problem}", "the call was not played as called, as {problem}"),
            "hit_other": _w(
                "{role} osui {got} eikä maalattuun palloon ({want})",
                "{role} hit {got}, not the called ball ({want})",
            ),
            "hit_nothing": _w(
                "{role} ei osunut maalattuun palloon ({want})", "{role} did not reach the called ball ({want})"
            ),
            "hit_pocket": _w(
                "{role} meni {pocket} ennen maalattua palloa ({want})",
                "{role} dropped into {pocket} before the called ball ({want})",
            ),
            "cushions": _w(
                "{role} kosketti valleja toisin kuin maalattiin (maalattu {called}, toteutui {played})",
                "{role} touched other cushions than called (called {called}, played {played})",
            ),
            "uncalled_konsti": _w(
                "kohdepallo ({ball}) osui {other} ennen pussia (maalaamaton konsti)",
                "the called ball ({ball}) touched {other} before the pocket (an uncalled konsti)",
            ),
            "kyyti_touch": _w(
                "lyöntipallo {cue} osui kyydin jälkeen liikkuvaan kohdepalloon ({ball})",
                "the cue ball {cue} touched the called ball ({ball}), already moving after the kyyti",
            ),
            "kaka": _w(
                "käkä: lyöntipallo kosketti kohdepalloa kahdesti", "käkä: the cue ball touched the called ball twice"
            ),
            "moving": _w(
                "kohdepallo oli jo liikkeessä, kun se ohjattiin pussiin",
                "the called ball was already moving when it was driven in",
            ),
            "rattles": _w(
                "Röpötystä ({rattles}) ei tarvitse maalata", "Rattling in the jaws needs no call ({rattles})"
            ),
            "turn_passes": _w("Lyöntivuoro vaihtuu", "The turn passes"),
            "continues": _w("Sääntöjenmukainen pussitus: lyöntivuoro jatkuu", "A legal pot: the inning continues"),
        },
    ),
    Clause(
        "1.4",
        "the stroke: a foot on the floor, a cue of at most 200 cm; playing on with an over-long cue loses the "
        "match (a forfeit the kirjuri enters)",
        points={"cue_max_cm": 200},
        marker_only=True,
    ),
    Clause(
        "2",
        "points of a legal pot, nakki, one konsti",
        points={"nakki_white": 2, "nakki_red": 3, "nakki_kaisa": 6},
        wordings={
            "pot": _w(
                "Maalattu {ball} {pocket} {route}{nakki} ({points} p)",
                "Called {ball} into {pocket} {route}{nakki}: {points}",
            ),
            "nakki": _w("Nakki: {ball} ({points} p)", "Nakki on {ball}: {points}"),
            "second_konsti": _w("{problem} (kaksi konstia)", "{problem} (two konsti)"),
            "two_konsti": _w(
                "kohdepallo ({ball}) osui vielä {other} (kaksi konstia)",
                "the called ball ({ball}) also touched {other} (two konsti)",
            ),
        },
    ),
    Clause(
        "2.1",
        "direct middle kaisa twice, extra balls, no nakki by kyyti or off a ball, the 'only 6' kaisa",
        points={"extra_white": 2, "extra_red": 3},
        thresholds=("extra_kaisa_value",),
        wordings={
            "twice": _w(
                "kaisaa ei saa saman lyöntivuoron aikana pussittaa suoraan keskelle kahta kertaa peräkkäin",
                "the kaisa may not go directly into a middle pocket twice in a row in one inning",
            ),
            "only_corner": _w(
                "Muuten kuin suoraan keskelle pussitetusta kaisasta lasketaan vain kulmapussin pisteet",
                "A kaisa into a middle pocket other than directly scores as in a corner",
            ),
            "no_nakki": _w(
                "Kyydillä tai pallon kautta pussitetusta pallosta ei lasketa nakkeja",
                "No nakki counts for a pot by kyyti or off a ball",
            ),
            "extra": _w("Lisäpallo {ball} meni {pocket} ({points} p)", "Extra ball: {ball} into {pocket}: {points}"),
        },
    ),
    Clause(
        "3",
        "end of the game and its special cases",
        points={"winning_score": 60, "white_at_59": 2},
        thresholds=("winning_score",),
        wordings={
            "kyyti_55": _w(
                "{kyyti_at} pistettä tai enemmän: valkoinen kyydillä ja punainen tai kaisa pussiin lopettaa pelin",
                "At {kyyti_at} or more, a white by kyyti with a red or the kaisa dropping ends the game",
            ),
            "kyyti_other": _w(
                "Kyydillä pussitettu valkoinen: toinen pussiin mennyt kohdepallo korvaa nakin",
                "A white by kyyti: another object ball dropping takes the nakki's place",
            ),
            "white_off_ball": _w(
                "Pallon kautta pussitetulla valkoisella ei voi lopettaa peliä",
                "A white potted off a ball cannot finish the game",
            ),
            "white_59": _w(
                "{white_at} pistettä tai enemmän ja valkoinen ilman nakkia: +2 pistettä, peli ei pääty ja "
                "lyöntivuoro vaihtuu",
                "At {white_at} or more, a white with no nakki: +2, the game goes on and the turn passes",
            ),
            "white_60": _w(
                "{winning} pistettä valkoisella ilman nakkia: peli ei pääty, vaan lyöntivuoro jatkuu",
                "{winning} reached on a white with no nakki: the game goes on and so does the inning",
            ),
            "over": _w("Peli päättyi: {winning} pistettä saavutettu", "Game over: {winning} points reached"),
        },
    ),
    Clause(
        "4",
        "respotting: whites in hand, reds and the kaisa to their spots, the kaisa's return",
        wordings={
            "white_in_hand": _w("{ball} on käsipallo omistajalleen", "{ball}: its owner plays from hand"),
            "kaisa_back": _w(
                "Keskipilkku vapautui: kaisa palautetaan keskipilkulle",
                "The centre spot is free again: the kaisa goes back there",
            ),
            "spotted": _w("{ball} asetetaan {spot}", "{ball} is spotted {spot}"),
        },
    ),
    Clause(
        "4.1",
        "the kaisa is spotted before a red",
        wordings={"spotted": _w("{ball} asetetaan {spot}", "{ball} is spotted {spot}")},
    ),
    Clause(
        "5",
        "ball in hand",
        wordings={
            "fault": _w("Käsipallovirhe: {fault}", "Ball-in-hand fault: {fault}"),
            "on_break": _w(
                "Aloituslyönnissä ovat voimassa käsipallon säännöt (1.2), mutta virheestä ei seuraa uutta "
                "käsipalloa (7c: aloituslyönti ei ole käsipallo)",
                "The ball-in-hand rules apply on the break (1.2), but its fault gives no new ball in hand "
                "(7c: the break is not ball in hand)",
            ),
            "behind_ball": _w(
                "aloituslinjalla tai sen takana olevaa palloa saa pelata vain vallin tai linjan etupuolella olevan "
                "pallon kautta",
                "a ball on or behind the head string may be played only via a cushion or a ball in front of it",
            ),
            "not_crossed": _w(
                "lyöntipallon on ylitettävä aloituslinja tai osuttava sen etupuolella olevaan palloon",
                "the cue ball must cross the head string or hit a ball in front of it",
            ),
            "cushion_behind": _w(
                "vallin kautta lyötäessä lyöntipallon on osuttava valliin aloituslinjan etupuolella",
                "played via a cushion, the cue ball must hit the cushion in front of the head string",
            ),
            "middle": _w(
                "käsipallosta pisteitä tuovat vain pussitukset kulmiin tai vallin kautta keskelle",
                "from hand only corner pots, or middle pots via cushions, score",
            ),
            "extra_middle": _w(
                "Käsipallosta ilman vallia keskelle mennyt lisäpallo ({ball}) ei tuo pisteitä",
                "Extra ball {ball} into a middle pocket without a cushion scores nothing from hand",
            ),
            "place": _w(
                "Käsipallo {ball} asetetaan aloituslinjan taakse (y < {head:.3f} m), ei kohtaan y = {y:.3f} m",
                "{ball} in hand must be placed behind the head string (y < {head:.3f} m), not at y = {y:.3f} m",
            ),
            "place_cushion": _w(
                "{ball} kohdassa ({x:.3f}; {y:.3f}) ei mahdu pöydälle: keskipisteen on oltava vähintään {r:.0f} mm "
                "vallien sisäpuolella",
                "{ball} at ({x:.3f}, {y:.3f}) is not on the bed clear of the cushions: its centre must be at least "
                "{r:.0f} mm inside the cushion noses",
            ),
            "place_overlap": _w(
                "{ball} kohdassa ({x:.3f}; {y:.3f}) olisi päällekkäin pallon {blocker} kanssa",
                "{ball} at ({x:.3f}, {y:.3f}) would overlap {blocker}",
            ),
        },
    ),
    Clause(
        "6",
        "the competition clock, final innings, breaks and the penalty shoot-out (rankkari): the lag winner "
        "chooses who starts, the first pot of an inning is the kaisa from the centre spot into a corner, -6 or "
        "-2 for the cue ball down, -6 for stopping balls after a miss",
        points={"first_pot": 6, "cue_ball_down_kaisa_first": -6, "cue_ball_down": -2, "stopped_balls": -6},
        wordings={
            "first_pot": _w(
                "rangaistuslyöntivuoron ensimmäinen pussitus on kaisa keskipilkulta kulmaan",
                "the first pot of a shoot-out inning is the kaisa from the centre spot into a corner",
            ),
            "corner": _w(
                "Rangaistuslyönti: kaisa keskipilkulta {pocket} ({points} p)",
                "Shoot-out: the kaisa from the centre spot into {pocket}: {points}",
            ),
            "down": _w(
                "Rangaistuslyönneissä lyöntipallo {cue} meni {how} {first}: {points} pistettä",
                "In the shoot-out the cue ball {cue} went {how} {first}: {points} points",
            ),
            "stopped": _w(
                "Pelaaja pysäytti pallot ohilyönnin jälkeen: {points} pistettä",
                "The player stopped the balls after a miss: {points} points",
            ),
        },
    ),
    Clause(
        "7a",
        "the cue ball down: penalties",
        points={"no_ball": -2, "white": -2, "red": -3, "kaisa": -6},
        wordings={
            "down": _w(
                "Lyöntipallo {cue} meni {how} {first}: {points} pistettä ja käsipallo",
                "Cue ball {cue} went {how} {first}: {points} points, ball in hand",
            ),
            "pocket": _w("pussiin", "into a pocket"),
            "off": _w("yli laidan", "off the table"),
            "no_ball": _w("osumatta muihin palloihin", "touching no ball"),
            "first": _w("osuttuaan ensin {target}", "after first hitting {target}"),
        },
    ),
    Clause(
        "7b",
        "a ball touched by a player",
        marker_only=True,
        wordings={
            "touched": _w(
                "Pelaaja kosketti palloa (ruumiinosa, vaate tai keppi): lyöntivuoro vaihtuu",
                "The player touched a ball (body, clothing or cue): the turn passes",
            )
        },
    ),
    Clause(
        "7c",
        "a fault from hand",
        wordings={
            "fault": _w(
                "Virhe käsipallotilanteessa: lyöntivuoro vaihtuu ja virheen tekijä saa uuden käsipallon",
                "A fault from hand: the turn passes and the fouler plays from hand again next turn",
            )
        },
    ),
    Clause(
        "7d",
        "talonmies (a push) and the double hit (kaksoiskosketus)",
        thresholds=("talonmies_foul_below", "talonmies_no_points_below"),
        wordings={
            "foul": _w("Talonmies on virhe; katso 7j", "A talonmies is a foul; see 7j"),
            "away": _w(
                "vähintään puolen pallon leikkuulla poispäin lyöty tahallinen talonmies ({angle:.0f}°) ei ole virhe, "
                "mutta siitä ei saa pisteitä ja lyöntivuoro vaihtuu",
                "a deliberate push struck at least half-ball away ({angle:.0f}°) is no foul, but scores nothing and "
                "the turn passes",
            ),
            "double_hit": _w(
                "kaksoiskosketus: kepin kärki osui lyöntipalloon kahdesti, pussitus ei anna pisteitä ja lyöntivuoro "
                "vaihtuu",
                "a double hit: the cue tip struck the cue ball twice, the pot scores nothing and the turn passes",
            ),
        },
    ),
    Clause(
        "7e",
        "a jump over a masking ball",
        marker_only=True,
        wordings={"jump": _w("hyppylyönti maskipallon yli", "a jump over a masking ball")},
    ),
    Clause(
        "7f",
        "mankeli",
        wordings={
            "mankeli": _w(
                "mankeli: pallo vieri pussiin vallia pitkin", "mankeli: the ball ran along the cushion into the pocket"
            )
        },
    ),
    Clause(
        "7g",
        "a called ball frozen to a cushion",
        wordings={
            "frozen": _w(
                "kohdepallo oli kiinni vallissa eikä ylittänyt pussin haakilinjaa",
                "the called ball was frozen to a cushion and not past the pocket's haaki line",
            )
        },
    ),
    Clause(
        "7h",
        "a pot off a ball frozen to a cushion",
        wordings={
            "frozen": _w(
                "pussitus vallissa kiinni olleen pallon ({ball}) kautta",
                "potted off a ball frozen to a cushion ({ball})",
            )
        },
    ),
    Clause(
        "7i",
        "the wrong cue ball; the referee swapping the cue balls; a swap found too late (expired)",
        marker_only=True,
        wordings={
            "wrong": _w(
                "Pelattiin väärällä lyöntipallolla ({ball}): pussitusta ei hyväksytä, pallot jäävät paikoilleen ja "
                "lyöntivuoro vaihtuu",
                "Played with the wrong cue ball ({ball}): no pot counts, the balls stay where they are and the turn "
                "passes",
            ),
            "swapped": _w(
                "Tuomari vaihtoi lyöntipallojen paikat keskenään", "The referee swapped the cue balls' places"
            ),
            "expired": _w(
                "Lyöntipallot olivat vaihtuneet jo ennen edellistä lyöntiä: virhe on vanhentunut, pallojen paikat "
                "vaihdetaan takaisin ja peli jatkuu",
                "The cue balls were swapped before the previous stroke: the error has expired, their places are "
                "swapped back and the game goes on",
            ),
        },
    ),
    Clause(
        "7j",
        "the referee restores the balls after a foul that gained an advantage (in simulated play after every "
        "talonmies foul)",
        wordings={
            "foul": _w("Virheestä ei saa pisteitä ja lyöntivuoro vaihtuu", "A foul: no points, the turn passes"),
            "restored": _w(
                "Virhe: tuomari palautti pallot entisille paikoilleen ja lyöntivuoro vaihtuu",
                "A foul: the referee put the balls back where they were, and the turn passes",
            ),
            "restore_talonmies": _w(
                "Talonmiehestä koitui ansaitsematonta etua: pallot palautetaan entisille paikoilleen ja lyöntivuoro "
                "vaihtuu",
                "The push gained an unearned advantage: the balls go back where they stood and the turn passes",
            ),
            "setup": _w(
                "Kiinni olevia palloja siirrettäessä vastustajan asetus rikkoutui: virhe",
                "Moving the frozen balls broke the opponent's setup: a foul",
            ),
            "caused": _w(
                "Pallolla {ball} pelaava aiheutti pallon liikahtamisen: virhe",
                "The player of {ball} caused it: a foul",
            ),
        },
    ),
    Clause(
        "8a",
        "a cue ball frozen to a ball, struck towards it",
        thresholds=("talonmies_foul_below",),
        wordings={
            "towards": _w(
                "Lyöntipallo oli kiinni toisessa pallossa, ja lyönti suuntautui kohti tätä palloa ({angle:.0f}°): "
                "talonmies, virhe",
                "Cue ball frozen to a ball and struck towards it ({angle:.0f}°): talonmies, a foul",
            )
        },
    ),
    Clause(
        "8b",
        "a frozen cue ball that cannot be struck away may move the balls it is frozen to (breaking the "
        "opponent's setup is a foul, 7j)",
        wordings={
            "trapped": _w(
                "Lyöntipallo oli kiinni niin, ettei siitä voinut lyödä poispäin: kiinni olevia palloja sai liikuttaa",
                "The cue ball was frozen so that it could not be struck away: it may move the balls it is frozen to",
            )
        },
    ),
    Clause(
        "8c",
        "object balls frozen together",
        thresholds=("frozen_any_object_balls",),
        wordings={
            "frozen": _w(
                "kohdepallot olivat kiinni toisissaan: kyydillä tai pallon kautta lyöty pussitus ei anna pisteitä",
                "object balls frozen together: a kyyti or a pot off a ball scores nothing",
            )
        },
    ),
    Clause("8d", "a ball falling while others still move"),
    Clause(
        "8e",
        "a ball falling later by itself",
        marker_only=True,
        wordings={
            "fell": _w(
                "{ball} putosi pussiin tai liikkui itsestään: liikahtaneet pallot palautetaan paikoilleen",
                "{ball} fell or moved by itself: the moved balls go back where they were",
            )
        },
    ),
    Clause(
        "8f",
        "a ball off the table",
        wordings={
            "off": _w(
                "{ball} ei pysähtynyt pelialueelle: se on ylimennyt", "{ball} did not stop on the bed: off the table"
            )
        },
    ),
    Clause(
        "8g",
        "a nakki, kara or kyyti ball off the table: the pot counts, the lyöntivuoro passes",
        wordings={
            "off": _w(
                "{ball} on ylimennyt: pussitus hyväksytään, mutta lyöntivuoro vaihtuu",
                "{ball} left the table: the pot counts, but the turn passes",
            )
        },
    ),
    Clause("8h", "a jaw used as a cushion"),
)

CATALOGUE: Mapping[str, Clause] = {c.id: c for c in _CLAUSES}
"""Every clause the referee applies, in the rulebook's order."""

VOID = Wording("Pussitusta ei hyväksytä: {reason}", "The pot does not count: {reason}")
"""The frame of every voided pot."""


def clause(clause_id: str) -> Clause:
    return CATALOGUE[clause_id]


def say(clause_id: str, key: str, /, **params: object) -> Text:
    return CATALOGUE[clause_id].say(key, **params)


def points_text(points: int) -> str:
    """Signed points as a ruling writes them."""
    return str(points)


def all_wordings() -> list[tuple[str, str, Wording]]:
    """(clause, key, wording) for every sentence in the catalogue: for the golden file and the language tests."""
    out = [(c.id, key, w) for c in _CLAUSES for key, w in c.wordings.items()]
    out.append(("", "void", VOID))
    return out
