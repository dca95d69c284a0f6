"""The marker's vocabulary: what a marker at a real table enters for a stroke, stated once with one JSON codec.

A marker reports what a simulation cannot: a ball off the table (8f, 8g), a ball touched by a player (7b),
a jump over a masking ball (7e), the wrong cue ball (7i) and the referee's swap of the cue balls (or an expired
swap), a ball falling later by itself (8e), the referee restoring positions (7j), a double hit (7d), balls
stopped (-6 in the shoot-out, 6), a frozen cue ball and a broken setup (8b) and which section 5 fault a stroke
from hand made. Whether the called route was played
as called (including käkä, a moving ball and mankeli) is the marker's judgement.

:class:`MarkerFacts` holds those facts. :class:`Marks` is what the marker's page sends (the facts plus the
ball struck, where a ball in hand was placed and where balls came to rest); :class:`MarkerEntry` is the same
facts placed against the match's position (the start and final positions), which the referee rules and the
records store. Both are encoded by the one codec of this module (:func:`_encode` and :func:`_decode`), so the
API body, the stored action and the page all say the same field the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Self

from kaisa.call import Call
from kaisa.errors import ErrorText, FormatError, KaisaError
from kaisa.model import BallId, Position
from kaisa.referee.observe import CalledPotFacts, Facts, HandFacts, LateFall, Pot
from kaisa.referee.ruling import Text
from kaisa.table import PocketId, Point


class MarkerEntryError(KaisaError):
    """An entry that cannot describe a real stroke (a ball potted twice, a pocketed ball still on the table)."""

    code = "impossible-entry"
    kind = ErrorText("Kirjaus ei voi kuvata oikeaa lyöntiä.", "The entry cannot describe a real stroke.")


class HandFault(Enum):
    """Which section 5 rule a stroke from behind the head string broke, as the marker saw it."""

    BEHIND_BALL_FIRST = "behind-ball-first"
    """The first ball hit lay on or behind the head string (and no cushion came first)."""
    NOT_CROSSED = "not-crossed"
    """The cue ball neither crossed the head string nor hit a ball in front of it."""
    CUSHION_BEHIND = "cushion-behind"
    """Played via a cushion, the cue ball's first cushion was behind the head string."""

    def hand_facts(self) -> HandFacts:
        """The section 5 facts of a stroke that made this fault (and no other)."""
        return HandFacts(
            first_ball_in_front=self is not HandFault.BEHIND_BALL_FIRST,
            cushion_before_first_ball=self is HandFault.CUSHION_BEHIND,
            first_cushion_in_front=self is not HandFault.CUSHION_BEHIND,
            crossed_head_string=self is not HandFault.NOT_CROSSED,
        )

    @classmethod
    def parse(cls, value: object) -> HandFault:
        """The fault from its id. Records made before the faults were named hold the marker's words instead:
        those were ruled as a first ball behind the head string, so they read back as that."""
        if isinstance(value, str):
            for fault in cls:
                if fault.value == value:
                    return fault
            if value.strip() and " " in value.strip():
                return cls.BEHIND_BALL_FIRST
        raise FormatError(
            f"hand_fault is one of {[f.value for f in cls]} (the section 5 fault from hand), not {value!r}",
            fi="käsipallovirhe on jokin kohdan 5 virheistä.",
        )


NO_HAND_FAULT = HandFacts(
    first_ball_in_front=True, cushion_before_first_ball=False, first_cushion_in_front=True, crossed_head_string=True
)


@dataclass(frozen=True, kw_only=True)
class MarkerFacts:
    """The facts a marker enters about one stroke, apart from the positions of the balls."""

    pots: tuple[tuple[BallId, PocketId], ...] = ()
    off_table: tuple[BallId, ...] = ()
    first_contact: BallId | None = None
    nakki: frozenset[BallId] = frozenset()
    called_as_called: bool = True
    """The marker's judgement: the called ball went in along the called route (no käkä, no moving ball)."""
    mankeli: bool = False
    frozen_short_of_haaki: bool = False
    konsti_ball_frozen_to_cushion: bool = False
    konsti_pair_frozen: bool = False
    cushion_pots: frozenset[BallId] = frozenset()
    """Dropped balls that touched a cushion first (matters for middle-pocket extras from hand)."""
    hand_fault: HandFault | None = None
    """The section 5 fault a stroke from hand made, or None."""
    talonmies_angle: float | None = None
    touched_by_player: bool = False
    jump_over_mask: bool = False
    restored_by_referee: bool = False
    late_fall: LateFall | None = None
    double_hit: bool = False
    """7d: the cue tip struck the cue ball twice (kaksoiskosketus)."""
    swapped_by_referee: bool = False
    """7i: after a stroke with the wrong cue ball the referee swapped the cue balls' places."""
    swap_expired: bool = False
    """7i: the cue balls were found swapped from earlier than the previous stroke (the error has expired)."""
    stopped_balls: bool = False
    """6: the player stopped moving balls (-6 after a miss in the shoot-out; elsewhere a touch, 7b)."""
    cannot_strike_away: bool = False
    """8b: the cue ball was frozen so that no stroke could go away from the balls it was frozen to."""
    setup_broken: bool = False
    """8b: moving the frozen balls broke the opponent's setup (7j)."""

    def to_json(self) -> dict[str, Any]:
        """Every field by its name, in the one codec's form (defaults included, so the form is explicit)."""
        return {f.name: _CODEC[f.name][0](getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The value from :meth:`to_json`'s form; a missing field takes its default; an unknown field or a bad
        value raises :class:`FormatError` naming the field."""
        if not isinstance(data, dict):
            raise FormatError(
                f"a marker's entry is an object with the fields {sorted(cls.field_names())}",
                fi="Kirjurin kirjaus on nimettyjen kenttien joukko (JSON-olio).",
            )
        known = cls.field_names()
        unknown = sorted(set(data) - known)
        if unknown:
            raise FormatError(
                f"unknown marker entry fields {unknown}; the fields are {sorted(known)}",
                fi=f"Kirjauksessa on tuntemattomia kenttiä ({', '.join(map(str, unknown))}).",
            )
        values: dict[str, Any] = {}
        for name, value in data.items():
            try:
                values[name] = _CODEC[name][1](value)
            except FormatError as exc:
                raise FormatError(
                    f"marker entry field {name}: {exc}", fi=f"Kirjauksen kohta ”{field_name(name).fi}”: {exc.fi_detail}"
                ) from None
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise FormatError(
                    f"marker entry field {name} is malformed ({exc}): {repr(value)[:80]}",
                    fi=f"Kirjauksen kohta ”{field_name(name).fi}” on väärän muotoinen.",
                ) from None
        try:
            return cls(**values)
        except TypeError as exc:
            raise FormatError(f"a marker's entry needs more fields: {exc}") from None

    @classmethod
    def field_names(cls) -> set[str]:
        return {f.name for f in fields(cls)}

    def facts(self) -> dict[str, Any]:
        """The shared facts as keyword arguments (to move them from marks to an entry and back)."""
        return {f.name: getattr(self, f.name) for f in fields(MarkerFacts)}


@dataclass(frozen=True, kw_only=True)
class Marks(MarkerFacts):
    """One stroke as the marker's page sends it: ``struck`` defaults to the player's own cue ball; ``place`` is
    where a cue ball in hand was put (approximately); ``moves`` are where balls came to rest, where it matters
    (a ball the marker moves was touched in the stroke)."""

    struck: BallId | None = None
    place: Point | None = None
    moves: Mapping[BallId, Point] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class MarkerEntry(MarkerFacts):
    """One stroke as a marker saw it, placed against the match: where the balls stood and where they stopped."""

    cue_ball: BallId
    """The ball the player struck (7i if it is not theirs)."""
    start: Position
    final: Position
    """Where the balls stopped on the table (approximate is fine: it decides only which spots are free)."""

    def to_facts(self, call: Call | None) -> Facts:
        dropped = [b for b, _ in self.pots]
        twice = sorted({b.value for b in dropped if dropped.count(b) > 1})
        if twice:
            raise MarkerEntryError(f"{', '.join(twice)} cannot drop twice in one stroke")
        both = sorted(b.value for b in set(dropped) & set(self.off_table))
        if both:
            raise MarkerEntryError(f"{', '.join(both)} cannot both drop and leave the table")
        still = sorted(b.value for b in set(dropped) | set(self.off_table) if b in self.final)
        if still:
            raise MarkerEntryError(f"{', '.join(still)} left the table, so it cannot be in the final position")
        if self.cue_ball not in self.start and self.late_fall is None:  # 8e: nothing was struck
            raise MarkerEntryError(f"the struck ball {self.cue_ball.value} was not on the table")
        named = [*dropped, *self.off_table, *self.nakki]
        if self.first_contact is not None:
            named.append(self.first_contact)
        if self.late_fall is not None:
            named.append(self.late_fall.ball)
        for b in named:
            if b not in self.start:
                raise MarkerEntryError(f"{b.value} was not on the table at the stroke")
        if (self.konsti_ball_frozen_to_cushion or self.konsti_pair_frozen) and (call is None or call.konsti is None):
            # 7h and 8c are about the konsti ball the call names: a call with none has nothing they could be about
            raise MarkerEntryError(
                "a konsti ball frozen to a cushion (7h) or to the called ball (8c) needs a konsti call",
                fi="Konstipallo kiinni vallissa (7h) tai pallossa (8c) voidaan kirjata vain konstimaalaukseen.",
            )
        called = None
        if call is not None and (call.ball, call.pocket) in self.pots:
            called = CalledPotFacts(
                route_ok=self.called_as_called,
                route_problem=None if self.called_as_called else Text("kirjuri arvioi niin", "the kirjuri judged so"),
                mankeli=self.mankeli,
                frozen_short_of_haaki=self.frozen_short_of_haaki,
                konsti_ball_frozen_to_cushion=self.konsti_ball_frozen_to_cushion,
                konsti_pair_frozen=self.konsti_pair_frozen,
            )
        return Facts(
            cue_ball=self.cue_ball,
            start=self.start,
            final=self.final,
            pots=tuple(Pot(b, p, b in self.cushion_pots) for b, p in self.pots),
            off_table=self.off_table,
            first_contact=self.first_contact,
            nakki=self.nakki - {self.cue_ball},
            called=called,
            hand=NO_HAND_FAULT if self.hand_fault is None else self.hand_fault.hand_facts(),
            kaisa_touched=self.kaisa_touched,
            talonmies_angle=self.talonmies_angle,
            touched_by_player=self.touched_by_player,
            jump_over_mask=self.jump_over_mask,
            restored_by_referee=self.restored_by_referee,
            late_fall=self.late_fall,
            double_hit=self.double_hit,
            swapped_by_referee=self.swapped_by_referee,
            swap_expired=self.swap_expired,
            stopped_balls=self.stopped_balls,
            cannot_strike_away=self.cannot_strike_away,
            setup_broken=self.setup_broken,
        )

    @property
    def kaisa_touched(self) -> bool:
        """Whether anything moved the kaisa in the stroke (4: a waiting kaisa stays off the centre spot until
        it is touched): hit first, a nakki, dropped, off the table, or come to rest somewhere else."""
        k = BallId.K
        moved = k in self.start and k in self.final and self.start[k] != self.final[k]
        gone = k in self.start and k not in self.final
        return moved or gone or k in self.nakki or self.first_contact is k


# --- the one codec ------------------------------------------------------------------------------------------


def _ball(value: object) -> BallId:
    if not isinstance(value, str) or value not in BallId.__members__:
        balls = " ".join(b.value for b in BallId)
        raise FormatError(f"a ball is one of {balls}, not {value!r}", fi=f"pallo on jokin näistä: {balls}, ei {value}.")
    return BallId(value)


def _pocket(value: object) -> PocketId:
    known = [p.value for p in PocketId]
    if not isinstance(value, str) or value not in known:
        raise FormatError(
            f"a pocket is one of {' '.join(known)}, not {value!r}",
            fi=f"pussia {value} ei ole; pussit ovat {' '.join(known)}.",
        )
    return PocketId(value)


MAX_LISTED = 5
"""The most balls a list of the entry names: the table has five balls."""


def _balls(value: object) -> list[BallId]:
    if not isinstance(value, list):
        raise FormatError(
            f"a list of ball ids (W1 W2 R1 R2 K), not {value!r}", fi="luettelo palloista (W1 W2 R1 R2 K)."
        )
    if len(value) > MAX_LISTED:
        raise FormatError(
            f"a list of at most {MAX_LISTED} balls (the table has five), not {len(value)}",
            fi=f"enintään {MAX_LISTED} palloa (pöydällä on viisi palloa), ei {len(value)}.",
        )
    return [_ball(b) for b in value]


def _point(value: object) -> Point:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise FormatError(f"a point is [x, y] in metres, not {value!r}", fi="paikka on [x, y] metreinä.")
    x, y = float(value[0]), float(value[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise FormatError(f"a point has finite coordinates, not {value!r}", fi="paikan koordinaatit ovat lukuja.")
    return (x, y)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise FormatError(f"true or false, not {value!r}", fi="arvo on kyllä tai ei (true tai false).")
    return value


def _optional(decode: Callable[[object], Any]) -> Callable[[object], Any]:
    return lambda value: None if value is None else decode(value)


def _angle(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 180:
        raise FormatError(f"an angle in degrees from 0 to 180, not {value!r}", fi="kulma on 0–180 astetta.")
    return float(value)


def _late(value: object) -> LateFall:
    if not isinstance(value, dict) or not set(value) <= {"ball", "caused_by"}:
        raise FormatError(
            f'a late fall is {{"ball": ..., "caused_by": cue ball or null}}, not {value!r}',
            fi="myöhemmin pudonneesta kerrotaan pallo ja aiheuttaja (lyöntipallo tai ei kukaan).",
        )
    by = value.get("caused_by")
    return LateFall(_ball(value["ball"]), None if by is None else _ball(by))


def _moves(value: object) -> dict[BallId, Point]:
    if not isinstance(value, dict):
        raise FormatError(f'moves are {{"ball": [x, y], ...}}, not {value!r}', fi="pallo ja sen paikka [x, y].")
    return {_ball(b): _point(p) for b, p in value.items()}


def _pots(value: object) -> tuple[tuple[BallId, PocketId], ...]:
    if not isinstance(value, list) or not all(isinstance(p, list | tuple) and len(p) == 2 for p in value):
        raise FormatError(
            f'pots are [["ball", "pocket"], ...], not {value!r}', fi="jokaisesta pussiin menneestä pallo ja pussi."
        )
    if len(value) > MAX_LISTED:
        raise FormatError(
            f"at most {MAX_LISTED} balls dropped (the table has five), not {len(value)}",
            fi=f"enintään {MAX_LISTED} palloa voi pudota (pöydällä on viisi palloa), ei {len(value)}.",
        )
    return tuple((_ball(b), _pocket(p)) for b, p in value)


def _ids(balls: Any) -> list[str]:
    return [b.value for b in balls]


_Codec = tuple[Callable[[Any], Any], Callable[[object], Any]]
_CODEC: dict[str, _Codec] = {
    "pots": (lambda v: [[b.value, p.value] for b, p in v], _pots),
    "off_table": (_ids, lambda v: tuple(_balls(v))),
    "first_contact": (lambda v: None if v is None else v.value, _optional(_ball)),
    "nakki": (lambda v: sorted(_ids(v)), lambda v: frozenset(_balls(v))),
    "called_as_called": (bool, _flag),
    "mankeli": (bool, _flag),
    "frozen_short_of_haaki": (bool, _flag),
    "konsti_ball_frozen_to_cushion": (bool, _flag),
    "konsti_pair_frozen": (bool, _flag),
    "cushion_pots": (lambda v: sorted(_ids(v)), lambda v: frozenset(_balls(v))),
    "hand_fault": (lambda v: None if v is None else v.value, _optional(HandFault.parse)),
    "talonmies_angle": (lambda v: v, _optional(_angle)),
    "touched_by_player": (bool, _flag),
    "jump_over_mask": (bool, _flag),
    "restored_by_referee": (bool, _flag),
    "late_fall": (
        lambda v: (
            None
            if v is None
            else {"ball": v.ball.value, "caused_by": None if v.caused_by is None else v.caused_by.value}
        ),
        _optional(_late),
    ),
    "double_hit": (bool, _flag),
    "swapped_by_referee": (bool, _flag),
    "swap_expired": (bool, _flag),
    "stopped_balls": (bool, _flag),
    "cannot_strike_away": (bool, _flag),
    "setup_broken": (bool, _flag),
    "struck": (lambda v: None if v is None else v.value, _optional(_ball)),
    "place": (lambda v: None if v is None else [v[0], v[1]], _optional(_point)),
    "moves": (lambda v: {b.value: [p[0], p[1]] for b, p in v.items()}, _moves),
    "cue_ball": (lambda v: v.value, _ball),
    "start": (lambda v: v.to_json(), Position.from_json),
    "final": (lambda v: v.to_json(), Position.from_json),
}


_FIELD_NAMES: dict[str, Text] = {
    "pots": Text("pussiin menneet pallot", "balls potted"),
    "off_table": Text("yli laidan menneet pallot", "balls off the table"),
    "first_contact": Text("ensimmäinen osuma", "first contact"),
    "nakki": Text("nakit", "nakki balls"),
    "called_as_called": Text("meni kuten maalattu", "went in as called"),
    "cushion_pots": Text("pussiin vallin kautta", "potted off a cushion"),
    "hand_fault": Text("käsipallovirhe", "fault from hand"),
    "talonmies_angle": Text("lyöntikulma kiinni olevasta pallosta", "angle away from a frozen ball"),
    "late_fall": Text("myöhemmin pudonnut pallo", "ball falling later"),
    "struck": Text("lyöty pallo", "ball struck"),
    "place": Text("käsipallon paikka", "place of the ball in hand"),
    "moves": Text("pallojen pysähtymispaikat", "where balls came to rest"),
    "cue_ball": Text("lyöntipallo", "cue ball"),
    "start": Text("asema ennen lyöntiä", "position before the stroke"),
    "final": Text("asema lyönnin jälkeen", "position after the stroke"),
    "mankeli": Text("mankeli (7f)", "mankeli (7f)"),
    "frozen_short_of_haaki": Text("kiinni vallissa haakilinjan ulkopuolella (7g)", "frozen short of haaki line (7g)"),
    "konsti_ball_frozen_to_cushion": Text("konstipallo kiinni vallissa (7h)", "konsti ball frozen to a cushion (7h)"),
    "konsti_pair_frozen": Text("pallot kiinni toisissaan (8c)", "balls frozen together (8c)"),
    "touched_by_player": Text("pelaaja kosketti palloa (7b)", "a ball touched by a player (7b)"),
    "jump_over_mask": Text("hyppylyönti maskipallon yli (7e)", "jump over a masking ball (7e)"),
    "restored_by_referee": Text("tuomari palautti pallot (7j)", "balls put back by the referee (7j)"),
    "double_hit": Text("kaksoiskosketus (7d)", "double hit (7d)"),
    "swapped_by_referee": Text("tuomari vaihtoi lyöntipallot (7i)", "cue balls swapped by the referee (7i)"),
    "swap_expired": Text("lyöntipallojen vaihtuminen vanhentunut (7i)", "expired swap of the cue balls (7i)"),
    "stopped_balls": Text("pelaaja pysäytti pallon (6)", "a ball stopped by the player (6)"),
    "cannot_strike_away": Text("ei voinut lyödä poispäin (8b)", "could not strike away (8b)"),
    "setup_broken": Text("asetus rikkoutui (8b)", "setup broken (8b)"),
}
"""Every field of the marker's entry as a person names it (the errors about a field name it so)."""


def field_name(name: str) -> Text:
    """A field of the marker's entry in words (its API name only for a field this module does not know)."""
    return _FIELD_NAMES.get(name, Text(name, name))


# --- how the page asks the yes/no facts -------------------------------------------------------------------------


@dataclass(frozen=True)
class FlagQuestion:
    """A yes/no fact of :class:`MarkerFacts` as the marker's page asks it: the field, its clause, its words."""

    name: str
    clause: str
    text: Text

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "clause": self.clause, "fi": self.text.fi, "en": self.text.en}


FLAG_QUESTIONS: tuple[FlagQuestion, ...] = (
    FlagQuestion(
        "touched_by_player",
        "7b",
        Text(
            "Pelaajan keho, vaate tai keppi kosketti palloa (7b)",
            "A ball touched by a player's body, clothes or cue (7b)",
        ),
    ),
    FlagQuestion(
        "double_hit",
        "7d",
        Text(
            "Kaksoiskosketus: kepin kärki osui lyöntipalloon kahdesti (7d)",
            "Double hit: the cue tip struck the cue ball twice (7d)",
        ),
    ),
    FlagQuestion(
        "jump_over_mask",
        "7e",
        Text("Pussitus hyppylyönnillä maskipallon yli (7e)", "Pot by jumping over a masking ball (7e)"),
    ),
    FlagQuestion(
        "mankeli",
        "7f",
        Text(
            "Mankeli: maalattu pallo vieri vallia pitkin pussiin (7f)",
            "Mankeli: the called ball ran along the cushion into the pocket (7f)",
        ),
    ),
    FlagQuestion(
        "frozen_short_of_haaki",
        "7g",
        Text(
            "Maalattu pallo oli kiinni vallissa haakilinjan ulkopuolella (7g)",
            "The called ball was frozen to a cushion short of the haaki line (7g)",
        ),
    ),
    FlagQuestion(
        "konsti_ball_frozen_to_cushion",
        "7h",
        Text("Pussitus vallissa kiinni olevan pallon kautta (7h)", "Pot off a ball frozen to a cushion (7h)"),
    ),
    FlagQuestion(
        "swapped_by_referee",
        "7i",
        Text(
            "Väärällä lyöntipallolla lyönnin jälkeen tuomari vaihtoi lyöntipallojen paikat keskenään (7i)",
            "After the stroke with the wrong cue ball the referee swapped the cue balls' places (7i)",
        ),
    ),
    FlagQuestion(
        "swap_expired",
        "7i",
        Text(
            "Lyöntipallot huomattiin vaihtuneiksi jo ennen edellistä lyöntiä: virhe on vanhentunut, pallojen "
            "paikat vaihdetaan keskenään ja peli jatkuu (7i)",
            "The cue balls were found swapped from before the previous stroke: the error has expired, their "
            "places are swapped back and play goes on (7i)",
        ),
    ),
    FlagQuestion(
        "restored_by_referee",
        "7j",
        Text("Tuomari palautti pallot paikoilleen (7j)", "The referee put the balls back (7j)"),
    ),
    FlagQuestion(
        "cannot_strike_away",
        "8b",
        Text(
            "Lyöntipallo oli kiinni pallossa niin, ettei siitä voinut lyödä poispäin (8b)",
            "The cue ball was frozen to a ball so that it could not be struck away from it (8b)",
        ),
    ),
    FlagQuestion(
        "setup_broken",
        "8b",
        Text(
            "Kiinni olevien pallojen liikuttaminen rikkoi vastustajan asetuksen (8b, 7j)",
            "Moving the frozen balls broke the opponent's setup (8b, 7j)",
        ),
    ),
    FlagQuestion(
        "konsti_pair_frozen",
        "8c",
        Text(
            "Kyyti tai pallon kautta, pallot kiinni toisissaan (8c)",
            "Kyyti or off a ball, the two balls frozen together (8c)",
        ),
    ),
    FlagQuestion(
        "stopped_balls",
        "6",
        Text(
            "Pelaaja pysäytti liikkuvan pallon kädellä tai kepillä (6: rankkarissa ohilyönnin jälkeen −6)",
            "The player stopped a moving ball by hand or cue (6: −6 after a miss in the shoot-out)",
        ),
    ),
)
"""Every yes/no fact a marker enters, in the order the page asks them (``called_as_called`` is asked with the
call). The API publishes these (``GET /api/club/marker-facts``); the page builds its questions from them."""
