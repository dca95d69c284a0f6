"""Calls (maalaus, 1.3): which ball, into which pocket, by which route, and their text notation.

A route is the ordered *legs* of the shot up to the pot, each with the cushions of that leg. Without a
konsti there are two legs: the cue ball's (stroke to the called ball) and the called ball's (to the pocket).
A konsti adds one leg for the ball that moves:

- ``kyyti X``: the cue ball drives X into the called ball: legs cue -> X, X -> called ball, called ball -> pocket;
- ``kara X``: the cue ball comes off X onto the called ball: legs cue -> X, cue -> called ball, called -> pocket;
- ``kiss X``: the called ball comes off X into the pocket: legs cue -> called, called -> X, called -> pocket.

Each leg's cushions are an exact sequence (rails, or a jaw used as a cushion, 8h) or a count of any cushions.

Notation: tokens separated by spaces, written in the order the balls travel::

    [cushions] [kyyti|kara X [cushions]] BALL [cushions] [kiss X [cushions]] POCKET

``cushions`` is either a count (``2``) or rail codes and jaws in order: ``h f lh lf rh rf`` (head, foot,
left-head, left-foot, right-head, right-foot; the full rail ids are accepted too) and ``FR/f`` (the jaw of
``FR`` at the end of the foot rail). Examples::

    K FL              the kaisa straight into the foot-left corner
    K rf FL           the kaisa off the right-foot cushion into FL (a bank)
    R1 2 HR           red 1 into HR off any two cushions
    h K ML            the cue ball off the head cushion, then the kaisa straight into the left middle
    kyyti R1 K FL     the cue ball drives red 1 into the kaisa, which goes into FL
    kara R2 lh K FR   the cue ball comes off red 2, then off the left-head cushion, onto the kaisa, into FR
    K kiss R1 HL      the kaisa comes off red 1 into HL
    W2 HL/lh HR       the opponent's white off the jaw of HL at the end of the left-head rail, into HR

Balls and pockets may be typed in any case; :func:`format_call` writes them in upper case and rails in
lower case, so ``parse_call(format_call(c)) == c``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from kaisa.errors import ErrorText, KaisaError
from kaisa.model import BallId
from kaisa.table import OFFICIAL, PocketId, RailId


class CallError(KaisaError):
    """A call that cannot be accepted: ``en`` is the detail (the API's ``detail``), ``fi`` the same in Finnish,
    each saying what is wrong and what is allowed (:func:`kaisa.errors.error_text` puts the kind first)."""

    code = "bad-call"
    kind = ErrorText("Maalaus ei kelpaa.", "The call cannot be accepted.")

    def __init__(self, en: str, fi: str) -> None:
        super().__init__(en, fi=fi)


class CallSyntaxError(CallError):
    """The text is not a call: an unknown word, or words in the wrong order."""

    code = "call-syntax"
    kind = ErrorText("Maalausta ei voi lukea.", "The call cannot be read.")


class IllegalCallError(CallError):
    """A well-formed call that the rules forbid: one's own cue ball, a pocket that does not exist, two konsti."""

    code = "illegal-call"
    kind = ErrorText("Säännöt eivät salli tätä maalausta.", "The rules do not allow this call.")


class Konsti(StrEnum):
    """The three tricks of 2: at most one per pot. A cushion is not a konsti."""

    KYYTI = "kyyti"
    KARA = "kara"
    KISS = "kiss"


@dataclass(frozen=True)
class JawCushion:
    """A jaw of ``pocket`` used as a cushion (8h); ``side`` is the rail ending there, ``None`` for either."""

    pocket: PocketId
    side: RailId | None = None


Cushion: TypeAlias = RailId | JawCushion

RAIL_CODES: dict[RailId, str] = {
    RailId.HEAD: "h",
    RailId.FOOT: "f",
    RailId.LEFT_HEAD: "lh",
    RailId.LEFT_FOOT: "lf",
    RailId.RIGHT_HEAD: "rh",
    RailId.RIGHT_FOOT: "rf",
}
_RAIL_BY_CODE: dict[str, RailId] = {code: rail for rail, code in RAIL_CODES.items()} | {r.value: r for r in RailId}


@dataclass(frozen=True)
class Leg:
    """One leg of a route: its cushions exactly (``cushions``), or any ``count`` of them."""

    cushions: tuple[Cushion, ...] = ()
    count: int | None = None

    def __post_init__(self) -> None:
        if self.count is not None and (self.count < 0 or self.cushions):
            raise IllegalCallError(
                "a leg gives either its cushions or a count (a whole number >= 0), not both",
                "Osuudelle annetaan joko vallit tai niiden lukumäärä (kokonaisluku, vähintään 0), ei molempia.",
            )
        if self.count == 0:
            object.__setattr__(self, "count", None)  # "no cushions" has one form

    @property
    def cushion_count(self) -> int:
        return self.count if self.count is not None else len(self.cushions)

    def matches(self, actual: Sequence[Cushion]) -> bool:
        """Whether the cushions a ball really touched on this leg are the called ones."""
        if self.count is not None:
            return len(actual) == self.count
        if len(actual) != len(self.cushions):
            return False
        return all(_same_cushion(want, got) for want, got in zip(self.cushions, actual, strict=True))


def _same_cushion(want: Cushion, got: Cushion) -> bool:
    if isinstance(want, JawCushion) and isinstance(got, JawCushion):
        return want.pocket is got.pocket and (want.side is None or got.side is None or want.side is got.side)
    return want == got


LEG_ROLES: dict[Konsti | None, tuple[str, ...]] = {
    None: ("cue ball", "called ball"),
    Konsti.KYYTI: ("cue ball", "kyyti ball", "called ball"),
    Konsti.KARA: ("cue ball", "cue ball off the kara ball", "called ball"),
    Konsti.KISS: ("cue ball", "called ball", "called ball off the kiss ball"),
}
"""Which ball travels each leg, in order, for each kind of route."""


@dataclass(frozen=True)
class Call:
    """A call: ``ball`` into ``pocket`` along ``legs`` (see :data:`LEG_ROLES`), with at most one konsti."""

    ball: BallId
    pocket: PocketId
    konsti: Konsti | None = None
    via: BallId | None = None
    """The konsti ball (kyyti, kara or kiss ball)."""
    legs: tuple[Leg, ...] = ()

    def __post_init__(self) -> None:
        if (self.konsti is None) != (self.via is None):
            raise IllegalCallError(
                "a konsti needs its ball, and a ball to play via needs its konsti",
                "Konstiin tarvitaan konstipallo, ja pallon kautta lyöntiin tarvitaan konsti.",
            )
        if self.via is not None and self.via == self.ball:
            raise IllegalCallError(
                f"the called ball {self.ball.value} cannot also be the {self.konsti} ball",
                f"Maalattu pallo {self.ball.value} ei voi olla myös konstipallo ({self.konsti}).",
            )
        expected = len(LEG_ROLES[self.konsti])
        if not self.legs:
            object.__setattr__(self, "legs", tuple(Leg() for _ in range(expected)))
        elif len(self.legs) != expected:
            raise IllegalCallError(
                f"a call {'with ' + self.konsti if self.konsti else 'without konsti'} has "
                f"{expected} legs, got {len(self.legs)}",
                f"Maalauksessa {'konstilla ' + self.konsti if self.konsti else 'ilman konstia'} on "
                f"{expected} osuutta, ei {len(self.legs)}.",
            )

    @property
    def is_direct(self) -> bool:
        """No cushion on any leg and no konsti (2.1: only a direct kaisa scores the middle-pocket value)."""
        return self.konsti is None and all(leg.cushion_count == 0 for leg in self.legs)

    @property
    def cushion_count(self) -> int:
        return sum(leg.cushion_count for leg in self.legs)

    def check_shooter(self, cue_ball: BallId) -> None:
        """Raise :class:`IllegalCallError` if the call is impossible for the player of ``cue_ball``."""
        others = " ".join(b.value for b in BallId if b != cue_ball)
        if self.ball == cue_ball:
            raise IllegalCallError(
                f"{cue_ball.value} is your own cue ball: call an object ball ({others})",
                f"{cue_ball.value} on oma lyöntipallosi: maalaa jokin muu pallo ({others}).",
            )
        if self.via == cue_ball:
            raise IllegalCallError(
                f"{cue_ball.value} is your own cue ball; it cannot be the {self.konsti} ball",
                f"{cue_ball.value} on oma lyöntipallosi, joten se ei voi olla konstipallo ({self.konsti}).",
            )

    def __str__(self) -> str:
        return format_call(self)


# --- notation ------------------------------------------------------------------------------------------

_BALLS = {b.value: b for b in BallId}
_POCKETS = {p.value: p for p in PocketId}
_KONSTI = {"kyyti": Konsti.KYYTI, "kara": Konsti.KARA, "kiss": Konsti.KISS}
_BALL_LIST = " ".join(_BALLS)
_JAW = re.compile(r"^([A-Za-z]{2})/([A-Za-z-]*)$")


def _cushion_token(token: str) -> Cushion | None:
    if token.lower() in _RAIL_BY_CODE:
        return _RAIL_BY_CODE[token.lower()]
    match = _JAW.match(token)
    if match:
        pocket_text, side_text = match.group(1).upper(), match.group(2).lower()
        if pocket_text not in _POCKETS:
            raise IllegalCallError(
                f"jaw {token!r}: pocket {pocket_text} does not exist; pockets are {' '.join(_POCKETS)}",
                f"Haaki {token}: pussia {pocket_text} ei ole; pussit ovat {' '.join(_POCKETS)}.",
            )
        pocket = _POCKETS[pocket_text]
        if not side_text:
            return JawCushion(pocket)
        if side_text not in _RAIL_BY_CODE:
            raise CallSyntaxError(
                f"jaw {token!r}: {side_text!r} is not a rail; rails are {' '.join(RAIL_CODES.values())}",
                f"Haaki {token}: {side_text} ei ole valli; vallit ovat {' '.join(RAIL_CODES.values())}.",
            )
        side = _RAIL_BY_CODE[side_text]
        if side not in OFFICIAL.rails_adjacent_to(pocket):
            ending = " ".join(RAIL_CODES[r] for r in OFFICIAL.rails_adjacent_to(pocket))
            raise IllegalCallError(
                f"jaw {token!r}: the {side.value} rail does not end at {pocket.value}; the rails ending there are "
                f"{ending}",
                f"Haaki {token}: valli {RAIL_CODES[side]} ei pääty pussiin {pocket.value}; siihen päättyvät vallit "
                f"{ending}.",
            )
        return JawCushion(pocket, side)
    return None


def parse_call(text: str) -> Call:
    """Read a call in the notation above. Raises :class:`CallSyntaxError` or :class:`IllegalCallError`."""
    tokens = text.split()
    if not tokens:
        raise CallSyntaxError(
            "empty call: write at least the ball and the pocket, e.g. 'K FL'",
            "Maalaus on tyhjä: kirjoita ainakin pallo ja pussi, esimerkiksi K FL.",
        )
    pocket_text = tokens[-1].upper()
    if pocket_text not in _POCKETS:
        if re.fullmatch(r"[A-Z]{2}", pocket_text) and pocket_text not in _BALLS:
            raise IllegalCallError(
                f"pocket {pocket_text} does not exist; pockets are {' '.join(_POCKETS)}",
                f"Pussia {pocket_text} ei ole; pussit ovat {' '.join(_POCKETS)}.",
            )
        raise CallSyntaxError(
            f"a call ends with the pocket ({' '.join(_POCKETS)}), not {tokens[-1]!r}",
            f"Maalaus päättyy pussiin ({' '.join(_POCKETS)}), ei sanaan {tokens[-1]}.",
        )
    pocket = _POCKETS[pocket_text]

    # Split the middle tokens into groups: balls (with an optional konsti keyword before) and cushion runs.
    legs: list[list[str]] = [[]]
    stations: list[tuple[str | None, BallId]] = []  # (konsti keyword, ball) in play order
    pending: str | None = None
    for token in tokens[:-1]:
        word = token.lower()
        if word in _KONSTI:
            if pending is not None:
                raise CallSyntaxError(
                    f"{pending!r} must be followed by a ball, not {token!r}",
                    f"Sanan {pending} jälkeen tulee pallo ({_BALL_LIST}), ei {token}.",
                )
            pending = word
            continue
        if token.upper() in _BALLS:
            stations.append((pending, _BALLS[token.upper()]))
            pending = None
            legs.append([])
            continue
        if pending is not None:
            raise CallSyntaxError(
                f"{pending!r} must be followed by a ball ({_BALL_LIST}), not {token!r}",
                f"Sanan {pending} jälkeen tulee pallo ({_BALL_LIST}), ei {token}.",
            )
        legs[-1].append(token)
    if pending is not None:
        raise CallSyntaxError(
            f"{pending!r} must be followed by a ball before the pocket",
            f"Sanan {pending} jälkeen tulee pallo ennen pussia.",
        )

    read_legs = tuple(_leg(words) for words in legs)  # an unknown word is named before the balls are counted
    konsti_stations = [(k, b) for k, b in stations if k is not None]
    plain = [b for k, b in stations if k is None]
    if len(konsti_stations) > 1:
        used = ", ".join(f"{k} {b.value}" for k, b in konsti_stations)
        raise IllegalCallError(
            f"a pot may use only one konsti (2): {used}",
            f"Pussituksessa saa käyttää vain yhtä konstia (2), nyt {used}.",
        )
    if not plain:
        raise CallSyntaxError(
            "a call names the ball to pot before the pocket, e.g. 'K FL'",
            "Maalauksessa kerrotaan pussitettava pallo ennen pussia, esimerkiksi K FL.",
        )
    if len(plain) > 1:
        raise CallSyntaxError(
            f"a call names one ball to pot, got {' and '.join(b.value for b in plain)}; "
            "a ball played via needs its konsti word (kyyti, kara or kiss)",
            f"Maalauksessa on yksi pussitettava pallo, nyt {' ja '.join(b.value for b in plain)}; pallon "
            "kautta lyötäessä pallon eteen kirjoitetaan konsti (kyyti, kara tai kiss).",
        )
    ball = plain[0]
    konsti: Konsti | None = None
    via: BallId | None = None
    if konsti_stations:
        word, via = konsti_stations[0]
        assert word is not None
        konsti = _KONSTI[word]
        order = [b for _, b in stations]
        if konsti is Konsti.KISS and order != [ball, via]:
            raise CallSyntaxError(
                "'kiss X' comes after the called ball: e.g. 'K kiss R1 HL'",
                "Kiss ja sen pallo kirjoitetaan maalatun pallon jälkeen, esimerkiksi K kiss R1 HL.",
            )
        if konsti in (Konsti.KYYTI, Konsti.KARA) and order != [via, ball]:
            raise CallSyntaxError(
                f"'{konsti} X' comes before the called ball: e.g. '{konsti} R1 K FL'",
                f"{konsti.value.capitalize()} ja sen pallo kirjoitetaan ennen maalattua palloa, esimerkiksi "
                f"{konsti} R1 K FL.",
            )
    return Call(ball=ball, pocket=pocket, konsti=konsti, via=via, legs=read_legs)


def _is_count(word: str) -> bool:
    return re.fullmatch(r"[0-9]+", word) is not None


def _leg(words: list[str]) -> Leg:
    if len(words) == 1 and _is_count(words[0]):
        return Leg(count=int(words[0]))
    cushions: list[Cushion] = []
    for word in words:
        if _is_count(word):
            raise CallSyntaxError(
                f"a cushion count ({word}) stands alone in its leg, not among rails",
                f"Vallien lukumäärä ({word}) kirjoitetaan osuudelle yksinään, ei vallien joukkoon.",
            )
        cushion = _cushion_token(word)
        if cushion is None:
            raise CallSyntaxError(
                f"unknown word {word!r}: expected a ball ({_BALL_LIST}), a konsti (kyyti kara kiss), "
                f"a rail ({' '.join(RAIL_CODES.values())}), a jaw like FR/f, or a cushion count",
                f"Tuntematon sana {word}: maalauksessa on palloja ({_BALL_LIST}), konsteja (kyyti kara kiss), "
                f"valleja ({' '.join(RAIL_CODES.values())}), haakeja kuten FR/f tai vallien lukumäärä.",
            )
        cushions.append(cushion)
    return Leg(cushions=tuple(cushions))


def _format_leg(leg: Leg) -> list[str]:
    if leg.count is not None:
        return [str(leg.count)] if leg.count else []
    out = []
    for c in leg.cushions:
        if isinstance(c, JawCushion):
            out.append(f"{c.pocket.value}/{RAIL_CODES[c.side]}" if c.side else f"{c.pocket.value}/")
        else:
            out.append(RAIL_CODES[c])
    return out


def format_call(call: Call) -> str:
    """The canonical text of ``call``; :func:`parse_call` reads it back to an equal call."""
    legs = [_format_leg(leg) for leg in call.legs]
    words: list[str] = list(legs[0])
    if call.konsti in (Konsti.KYYTI, Konsti.KARA):
        assert call.via is not None
        words += [call.konsti.value, call.via.value, *legs[1], call.ball.value, *legs[2]]
    elif call.konsti is Konsti.KISS:
        assert call.via is not None
        words += [call.ball.value, *legs[1], "kiss", call.via.value, *legs[2]]
    else:
        words += [call.ball.value, *legs[1]]
    words.append(call.pocket.value)
    return " ".join(words)
