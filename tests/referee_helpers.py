"""A small language for hand-built event logs, so that each conformance test reads like the situation.

    ruling = rule(
        "K FL",
        "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1",
    )

Steps: ``strike B``, ``ball A B``, ``rail B RAIL``, ``jaw B POCKET [SIDE]``, ``pocket B POCKET``,
``off B``. Rails and sides may be codes (``lf``) or ids (``left-foot``). A step may end with ``@x,y``: the
position of its (first) ball at that moment (section 5 needs where the cue ball met a cushion). Steps are
0.1 s apart.
"""

from __future__ import annotations

from collections.abc import Mapping

from kaisa.call import RAIL_CODES, parse_call
from kaisa.model import (
    BallContactEvent,
    BallId,
    Event,
    JawEvent,
    OffTableEvent,
    PocketEvent,
    Position,
    RailEvent,
    StrikeEvent,
)
from kaisa.referee import DEFAULT_OPTIONS, GameState, MarkerEntry, RuleOptions, Ruling, StrokeLog, judge, observe
from kaisa.referee.observe import Facts
from kaisa.table import OFFICIAL, PocketId, Point, RailId, SpotId

W, L, R = OFFICIAL.width, OFFICIAL.length, OFFICIAL.ball_radius
SPOTS = OFFICIAL.spots

START: dict[str, Point] = {
    "W1": (0.40, 1.00),
    "W2": (1.10, 2.40),
    "R1": (0.30, 2.00),
    "R2": (1.00, 1.80),
    "K": (0.71, 1.42),
}
"""A position with every ball clear of the cushions, of each other, of the spots (except K on the centre)
and in front of the head string."""

_RAILS = {code: rail for rail, code in RAIL_CODES.items()} | {r.value: r for r in RailId}


def event(step: str, t: float) -> Event:
    words = step.split()
    at: dict[BallId, Point] = {}
    if words[-1].startswith("@"):
        x, y = words.pop()[1:].split(",")
        at = {BallId(words[1]): (float(x), float(y))}
    kind, ball = words[0], BallId(words[1])
    if kind == "strike":
        return StrikeEvent(t, ball, at)
    if kind == "ball":
        return BallContactEvent(t, ball, BallId(words[2]), at)
    if kind == "rail":
        return RailEvent(t, ball, _RAILS[words[2]], at)
    if kind == "jaw":
        side = _RAILS[words[3]] if len(words) > 3 else None
        return JawEvent(t, ball, PocketId(words[2]), side, at)
    if kind == "pocket":
        return PocketEvent(t, ball, PocketId(words[2]), at)
    if kind == "off":
        return OffTableEvent(t, ball, at)
    raise ValueError(f"unknown step {step!r}")


def stroke_log(
    steps: tuple[str, ...],
    start: Mapping[str, Point] | None = None,
    final: Mapping[str, Point] | None = None,
    direction: float | None = None,
) -> StrokeLog:
    position = Position(dict(start if start is not None else START))
    events = tuple(event(s, round(0.1 * i, 3)) for i, s in enumerate(steps))
    log = StrokeLog.from_events(position, events, None if final is None else Position(dict(final)))
    if direction is not None:
        log = StrokeLog(log.cue_ball, log.start, log.events, log.final, direction)
    return log


def facts_of(
    call: str | None,
    *steps: str,
    start: Mapping[str, Point] | None = None,
    final: Mapping[str, Point] | None = None,
    direction: float | None = None,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Facts:
    parsed = None if call is None else parse_call(call)
    return observe(stroke_log(steps, start, final, direction), parsed, options=options)


def rule(
    call: str | None,
    *steps: str,
    state: GameState | None = None,
    start: Mapping[str, Point] | None = None,
    final: Mapping[str, Point] | None = None,
    direction: float | None = None,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Ruling:
    """Observe and judge a hand-built stroke. Without ``final`` every ball rests where the log last saw it."""
    parsed = None if call is None else parse_call(call)
    log = stroke_log(steps, start, final, direction)
    return judge(observe(log, parsed, options=options), parsed, state or GameState(), options=options)


def rule_marker(call: str | None, entry: MarkerEntry, state: GameState | None = None) -> Ruling:
    parsed = None if call is None else parse_call(call)
    return judge(entry.to_facts(parsed), parsed, state or GameState())


def state(w1: int = 0, w2: int = 0, shooter: str = "W1", **flags: object) -> GameState:
    return GameState(scores={BallId.W1: w1, BallId.W2: w2}, shooter=BallId(shooter), **flags)  # type: ignore[arg-type]  # flags are GameState's keyword fields


def clauses(ruling: Ruling) -> set[str]:
    return set(ruling.clauses)


def assert_consistent(ruling: Ruling) -> None:
    """Invariants every ruling keeps."""
    assert ruling.points == sum(i.points for i in ruling.items) + sum(f.points for f in ruling.fouls)
    assert all(i.fi and i.en and i.clause for i in (*ruling.items, *ruling.fouls, *ruling.notes))
    if not ruling.legal_pot:
        assert ruling.items == ()
    assert ruling.game_over == (ruling.winner is not None)
    for ball in ruling.in_hand:
        assert ball not in ruling.position


__all__ = [
    "SPOTS",
    "START",
    "L",
    "R",
    "SpotId",
    "W",
    "assert_consistent",
    "clauses",
    "facts_of",
    "rule",
    "rule_marker",
    "state",
    "stroke_log",
]
