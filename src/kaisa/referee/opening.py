"""The rules before and around the first stroke: the lag (teikkaus, 1.1), W2's placement (1.2) and where a
ball in hand may be placed (5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kaisa.errors import ErrorText, FormatError, KaisaError
from kaisa.model import BallContactEvent, BallId, JawEvent, OffTableEvent, PocketEvent, Position, RailEvent
from kaisa.referee import catalogue as cat
from kaisa.referee.observe import StrokeLog
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.ruling import Text
from kaisa.table import OFFICIAL, PocketId, Point, RailId, TableSpec


class IllegalPlacementError(KaisaError):
    """A ball placed where the rules do not allow it (says where it may go). ``text`` is the message in Finnish
    and English; ``str()`` is the English."""

    code = "illegal-placement"
    kind = ErrorText("Palloa ei saa asettaa tähän.", "The ball may not be placed there.")

    def __init__(self, message: str, text: Text | None = None) -> None:
        super().__init__(message)
        self.text = text if text is not None else Text(message, message)

    @classmethod
    def of(cls, clause: str, key: str, /, **params: object) -> IllegalPlacementError:
        """The error from the catalogue's wording ``key`` of ``clause``, its clause named at the end."""
        text = cat.CATALOGUE[clause].say(key, **params)
        text = Text(f"{cat.upper_first(text.fi)} ({clause})", f"{cat.upper_first(text.en)} ({clause})")
        return cls(text.en, text)


# --- the lag (1.1, REFERENCE.md section 8) ---------------------------------------------------------------


@dataclass(frozen=True)
class LagFacts:
    """One player's lag ball: what it touched, and where it went."""

    ball: BallId
    touched_ball: bool
    long_cushion: bool
    dropped: bool
    head_contacts: int
    foot_contacts: int
    crossed_long_centre_line: bool
    final_y: float | None


def observe_lag(log: StrokeLog, half: str, xs: Sequence[float], spec: TableSpec = OFFICIAL) -> LagFacts:
    """``half`` is ``"left"`` (x < W/2) or ``"right"``; ``xs`` the ball's sampled x positions over the lag."""
    ball = log.cue_ball
    rails = [e.rail for e in log.events if isinstance(e, RailEvent) and e.ball == ball]
    mid = spec.long_axis
    crossed = any((x >= mid) if half == "left" else (x <= mid) for x in xs)
    return LagFacts(
        ball=ball,
        touched_ball=any(isinstance(e, BallContactEvent) and ball in (e.ball, e.other) for e in log.events),
        long_cushion=any(r.is_long for r in rails)
        or any(isinstance(e, JawEvent) and e.ball == ball for e in log.events),
        dropped=any(isinstance(e, (PocketEvent, OffTableEvent)) and e.ball == ball for e in log.events),
        head_contacts=rails.count(RailId.HEAD),
        foot_contacts=rails.count(RailId.FOOT),
        crossed_long_centre_line=crossed,
        final_y=log.final[ball][1] if ball in log.final else None,
    )


@dataclass(frozen=True)
class LagResult:
    """``winner`` is the index (0 or 1) of the player who won the lag, ``None``: lag again."""

    winner: int | None
    reasons: tuple[tuple[Text, ...], tuple[Text, ...]]
    """Why each lag was lost (empty: a good lag)."""

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reasons": [[t.to_json() for t in r] for r in self.reasons]}

    @classmethod
    def from_json(cls, data: object) -> LagResult:
        """Read what :meth:`to_json` writes; a reason stored as English words only (records written before the
        reasons were bilingual) is matched to its fault."""
        if not isinstance(data, dict) or not isinstance(data.get("reasons"), list) or len(data["reasons"]) != 2:
            raise FormatError('a lag result is an object {"winner": 0 | 1 | null, "reasons": [[...], [...]]}')
        winner = data.get("winner")
        if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
            raise FormatError(f"the lag's winner is player 0 or 1, or null (lag again), not {winner!r}")
        first, second = (tuple(_lag_reason(r) for r in _list(side)) for side in data["reasons"])
        return cls(winner, (first, second))


TOUCHED_BALL = cat.say("1.1", "touched_ball")
LONG_CUSHION = cat.say("1.1", "long_cushion")
DROPPED = cat.say("1.1", "dropped")
END_CUSHION_TWICE = cat.say("1.1", "end_twice")
CROSSED_CENTRE_LINE = cat.say("1.1", "crossed")
NO_FOOT_CUSHION = cat.say("1.1", "no_foot")
LAG_FAULT_TEXTS = (TOUCHED_BALL, LONG_CUSHION, DROPPED, END_CUSHION_TWICE, CROSSED_CENTRE_LINE, NO_FOOT_CUSHION)
"""The lag faults (catalogue clause 1.1). Their English is what records have stored since the first release, so
a reason stored as English words only reads back as its fault."""
ENGLISH_BEFORE = {
    "touched an end cushion more than once (1.1d)": END_CUSHION_TWICE,
}
"""English wordings of earlier releases, read back as their fault."""


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise FormatError("a player's lag reasons are a list")
    return value


def _lag_reason(value: object) -> Text:
    if isinstance(value, str):
        for text in LAG_FAULT_TEXTS:
            if value == text.en:
                return text
        if value in ENGLISH_BEFORE:
            return ENGLISH_BEFORE[value]
        raise FormatError(f"unknown lag fault {value[:60]!r}")
    return Text.from_json(value)


def lag_faults(f: LagFacts) -> tuple[Text, ...]:
    faults = []
    if f.touched_ball:
        faults.append(TOUCHED_BALL)
    if f.long_cushion:
        faults.append(LONG_CUSHION)
    if f.dropped:
        faults.append(DROPPED)
    if f.head_contacts > 1 or f.foot_contacts > 1:
        faults.append(END_CUSHION_TWICE)
    if f.crossed_long_centre_line:
        faults.append(CROSSED_CENTRE_LINE)
    if f.foot_contacts == 0:
        faults.append(NO_FOOT_CUSHION)
    return tuple(faults)


def judge_lag(first: LagFacts, second: LagFacts, spec: TableSpec = OFFICIAL) -> LagResult:
    """1.1: nearest the head cushion wins; a lost lag loses; both lost, or level within a millimetre: again."""
    reasons = (lag_faults(first), lag_faults(second))
    good = [not r for r in reasons]
    if good[0] and not good[1]:
        return LagResult(0, reasons)
    if good[1] and not good[0]:
        return LagResult(1, reasons)
    if not any(good):
        return LagResult(None, reasons)
    assert first.final_y is not None and second.final_y is not None
    if abs(first.final_y - second.final_y) < 0.001:
        return LagResult(None, reasons)
    return LagResult(0 if first.final_y < second.final_y else 1, reasons)


def lag_start_is_legal(point: Point, half: str, spec: TableSpec = OFFICIAL) -> bool:
    in_half = point[0] < spec.long_axis if half == "left" else point[0] > spec.long_axis
    return in_half and spec.is_behind_head_string(point) and spec.ball_fits(point)


# --- placements ----------------------------------------------------------------------------------------


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


def _check_free(point: Point, position: Position, ball: BallId, spec: TableSpec) -> None:
    if not spec.ball_fits(point):
        raise IllegalPlacementError.of(
            "5", "place_cushion", ball=ball.value, x=point[0], y=point[1], r=spec.ball_radius * 1000
        )
    for other, q in position.items():
        if other != ball and math.hypot(point[0] - q[0], point[1] - q[1]) < spec.ball_diameter:
            raise IllegalPlacementError.of(
                "5", "place_overlap", ball=ball.value, x=point[0], y=point[1], blocker=other.value
            )


def w2_corridors(
    position: Position, spec: TableSpec = OFFICIAL, options: RuleOptions = DEFAULT_OPTIONS
) -> list[tuple[PocketId, Point, Point, float]]:
    """1.2: the kaisa's lines to the foot corners that W2 must leave free, as (pocket, from, to, clearance):
    no part of W2 may come within ``clearance`` metres of the segment (none without a kaisa on the table)."""
    kaisa = position.get(BallId.K)
    if kaisa is None:
        return []
    clearance = options.w2_corridor_clearance * spec.ball_radius
    return [(p, kaisa, spec.pockets[p].mouth_centre, clearance) for p in (PocketId.FL, PocketId.FR)]


def check_w2_placement(
    position: Position, point: Point, spec: TableSpec = OFFICIAL, options: RuleOptions = DEFAULT_OPTIONS
) -> None:
    """1.2: W2 goes between the centre line and the foot cushion, leaving both lines from the kaisa to the
    foot corners clearly free (no part of W2 within half a ball of the path the kaisa would sweep)."""
    _check_free(point, position, BallId.W2, spec)
    if not point[1] > spec.centre_line:
        raise IllegalPlacementError.of("1.2", "w2_half", centre=spec.centre_line, y=point[1])
    for pocket, kaisa, mouth, clearance in w2_corridors(position, spec, options):
        gap = _segment_distance(point, kaisa, mouth)
        if gap < clearance:
            raise IllegalPlacementError.of(
                "1.2",
                "w2_corridor",
                x=point[0],
                y=point[1],
                pocket=Text(cat.pocket(pocket).fi_into, pocket.value),  # the English has always named it FL/FR
                clearance=clearance * 1000,
                gap=gap * 1000,
            )


def check_hand_placement(position: Position, ball: BallId, point: Point, spec: TableSpec = OFFICIAL) -> None:
    """5: a ball in hand (and the break, 1.2) is placed behind the head string, clear of the other balls."""
    _check_free(point, position, ball, spec)
    if not spec.is_behind_head_string(point):
        raise IllegalPlacementError.of("5", "place", ball=ball.value, head=spec.head_string, y=point[1])
