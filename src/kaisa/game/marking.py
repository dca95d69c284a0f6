"""What a marker enters for a stroke at a real table, and corrections of strokes already entered.

A marker does not measure positions: :class:`Marks` says what happened (the balls that dropped and where, the
first ball hit, the nakki balls, the rare events) and, optionally, where balls came to rest near a spot, which
is all the referee needs to know about positions (which spots are free, 4). :func:`entry_for` turns the
marks into the referee's :class:`~kaisa.referee.MarkerEntry` against the match's current position, and
:func:`marks_of` reads them back from an entry, so that :func:`correct` can replay a match with one stroke
changed and every later stroke re-entered against the positions the correction led to.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from kaisa.call import Call
from kaisa.game.match import IllegalActionError, Match
from kaisa.game.state import Action, MarkedShot, MatchState
from kaisa.model import BallId, Position
from kaisa.referee import LateFall, MarkerEntry, MarkerEntryError
from kaisa.referee.opening import IllegalPlacementError
from kaisa.table import OFFICIAL, PocketId, Point, TableSpec

OVERLAP_TOLERANCE = 0.002
"""Metres two balls may seem to overlap in a marker's rough placing (1 mm each way) and still be accepted."""


@dataclass(frozen=True)
class Marks:
    """One stroke as the marker saw it. ``struck`` defaults to the player's own cue ball; ``place`` is where a
    cue ball in hand was put (approximately); ``moves`` are where balls came to rest, where it matters."""

    struck: BallId | None = None
    pots: tuple[tuple[BallId, PocketId], ...] = ()
    off_table: tuple[BallId, ...] = ()
    first_contact: BallId | None = None
    nakki: frozenset[BallId] = frozenset()
    called_as_called: bool = True
    place: Point | None = None
    moves: Mapping[BallId, Point] = field(default_factory=dict)
    mankeli: bool = False
    frozen_short_of_haaki: bool = False
    konsti_ball_frozen_to_cushion: bool = False
    konsti_pair_frozen: bool = False
    cushion_pots: frozenset[BallId] = frozenset()
    hand_fault: str | None = None
    talonmies_angle: float | None = None
    touched_by_player: bool = False
    jump_over_mask: bool = False
    restored_by_referee: bool = False
    late_fall: LateFall | None = None


SHARED_FIELDS = tuple(f.name for f in fields(Marks) if f.name not in ("struck", "place", "moves"))


def entry_for(state: MatchState, marks: Marks, spec: TableSpec = OFFICIAL) -> MarkerEntry:
    """The referee's entry for ``marks`` played from ``state``: the start is the match's position (with the cue
    ball in hand at ``place``), the final position is the start without the balls that left the table, moved
    where ``moves`` says."""
    game = state.game
    start = state.position
    if game.from_hand:
        if marks.place is None:
            raise IllegalActionError(
                f"{game.shooter.value} plays from hand: say where it was placed behind the head string"
            )
        start = start.with_ball(game.shooter, marks.place)
    elif marks.place is not None:
        raise IllegalActionError(f"{game.shooter.value} is on the table and is played from where it lies (no place)")
    gone = {b for b, _ in marks.pots} | set(marks.off_table)
    for ball in marks.moves:
        if ball in gone:
            raise IllegalActionError(f"{ball.value} left the table, so it has no place to come to rest")
        if ball not in start:
            raise IllegalActionError(f"{ball.value} is not on the table")
    final = Position({b: marks.moves.get(b, p) for b, p in start.items() if b not in gone})
    for ball, point in marks.moves.items():
        if not spec.ball_fits(point):
            raise IllegalPlacementError(
                f"{ball.value} cannot come to rest at ({point[0]:.3f}, {point[1]:.3f}): that is not on the bed"
            )
        for other, q in final.items():
            if other != ball and math.dist(point, q) < spec.ball_diameter - OVERLAP_TOLERANCE:
                raise IllegalPlacementError(
                    f"{ball.value} cannot come to rest at ({point[0]:.3f}, {point[1]:.3f}): it would overlap "
                    f"{other.value}; balls at rest are at least a ball's width apart"
                )
    return MarkerEntry(cue_ball=marks.struck or game.shooter, start=start, final=final, **_shared(marks))


def marks_of(entry: MarkerEntry, before: MatchState) -> Marks:
    """The marks an entry was made from (``before`` is the state it was played from)."""
    shooter = before.game.shooter
    place = entry.start.get(shooter) if before.game.from_hand else None
    moves = {b: p for b, p in entry.final.items() if entry.start.get(b) != p}
    return Marks(
        struck=None if entry.cue_ball is shooter else entry.cue_ball, place=place, moves=moves, **_shared(entry)
    )


def _shared(facts: Marks | MarkerEntry) -> dict[str, Any]:
    """The fields marks and entries share: everything but where the balls were and which ball was struck."""
    return {name: getattr(facts, name) for name in SHARED_FIELDS}


def marked_shot(state: MatchState, call: Call | None, marks: Marks, seconds: float = 0.0) -> MarkedShot:
    """The action for ``marks``. A ball falling later by itself (8e) happens between strokes, so it is an entry
    of its own: with a call or anything else of a stroke it is refused rather than half-ruled."""
    if marks.late_fall is not None and (
        call is not None or marks.pots or marks.off_table or marks.first_contact is not None or marks.nakki
    ):
        raise MarkerEntryError(
            "a ball falling later (8e) is entered on its own, with no call, pots or contacts: enter the stroke "
            "first, then the late fall as the next entry"
        )
    return MarkedShot(call, entry_for(state, marks), seconds)


def correct(match: Match, index: int, replacement: Action | Marks | None) -> Match:
    """``match`` (with its stack) replayed with action ``index`` replaced (or removed, with ``None``); a
    :class:`Marks` replacement is entered against the state at ``index`` with the old stroke's call and
    seconds. Every later marked stroke is re-entered from its marks against the new positions, so a changed
    respot moves with the correction. Raises :class:`IllegalActionError` naming the first action that no longer
    fits (for example a later stroke from hand after the correction leaves its cue ball on the table)."""
    if not 0 <= index < len(match.stack):
        raise IllegalActionError(f"the match has {len(match.stack)} actions: there is no action {index} to correct")
    fixed = Match(match.config, match.stack[0].before)
    fixed.trajectory_rate = match.trajectory_rate
    for entry in match.stack[:index]:
        fixed.push(entry.action)
    old = match.stack[index]
    if isinstance(replacement, Marks):
        if not isinstance(old.action, MarkedShot):
            raise IllegalActionError(f"action {index} is not a marked stroke: replace it with an action")
        replacement = marked_shot(fixed.state, old.action.call, replacement, old.action.seconds)
    if replacement is not None:
        _push(fixed, replacement, index)
    for later, entry in enumerate(match.stack[index + 1 :], start=index + 1):
        action = entry.action
        if isinstance(action, MarkedShot):
            now, then = fixed.state.game.shooter, entry.before.game.shooter
            if not fixed.over and now is not then:
                raise IllegalActionError(
                    f"after the correction, action {later} would be {now.value}'s stroke, but it was entered as "
                    f"{then.value}'s: undo back to it, or correct it too"
                )
            marks = marks_of(action.entry, entry.before)
            try:
                action = marked_shot(fixed.state, action.call, marks, action.seconds)
            except IllegalActionError as exc:
                raise IllegalActionError(f"after the correction, action {later} no longer fits: {exc}") from None
        if fixed.over:
            raise IllegalActionError(
                f"after the correction the match is over at action {len(fixed.stack) - 1}: undo the later actions first"
            )
        _push(fixed, action, later)
    return fixed


def _push(match: Match, action: Action, index: int) -> None:
    try:
        match.push(action)
    except IllegalActionError as exc:
        raise IllegalActionError(f"after the correction, action {index} no longer fits: {exc}") from None
    except ValueError as exc:  # placement and call errors are KaisaErrors
        raise IllegalActionError(f"after the correction, action {index} no longer fits: {exc}") from None


__all__ = ["Marks", "correct", "entry_for", "marked_shot", "marks_of"]
