"""What a player does in a match, and a driver that asks the right player for each action."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from kaisa.call import Call
from kaisa.errors import SimulationError
from kaisa.game import Action, Choose, Entry, IllegalActionError, Lag, Match, Phase, PlaceW2, Shot
from kaisa.model import BallId, Position, Stroke
from kaisa.referee import GameState, RuleOptions
from kaisa.table import Point, TableSpec


class Player(Protocol):
    """A player: a person at a keyboard, a computer player, or a script."""

    name: str

    def lag(self, ball: BallId, half: str, position: Position, spec: TableSpec, stroke_index: int) -> Stroke:
        """The lag stroke with ``ball`` from behind the head string in ``half`` (``left`` or ``right``)."""
        ...

    def choose_cue_ball(self) -> BallId:
        """Having won the lag: W1 (and break) or W2 (and place W2 first)."""
        ...

    def place_w2(self, position: Position, spec: TableSpec, options: RuleOptions) -> Point:
        """Where to put W2 before the break (1.2)."""
        ...

    def shot(
        self, position: Position, game: GameState, spec: TableSpec, stroke_index: int
    ) -> tuple[Call | None, Stroke]:
        """The call and the stroke; from hand, the stroke's ``place`` puts the cue ball behind the head string."""
        ...


class MatchStalledError(RuntimeError):
    """The match did not finish within the driver's limit of actions."""


def lag_stroke(player: Player, index: int, match: Match) -> Stroke:
    """Player ``index``'s lag stroke (player 1 lags W1 in the left half, player 2 W2 in the right)."""
    state = match.state
    objects = state.position.without(BallId.W1).without(BallId.W2)
    ball, half = ((BallId.W1, "left"), (BallId.W2, "right"))[index]
    return player.lag(ball, half, objects, match.config.spec, state.actions)


def decide_action(match: Match, players: Sequence[Player]) -> Action:
    """The next action of the match, asked of the player(s) whose turn it is.

    In a lag both players play at once; otherwise only ``players[match.state.to_move]`` is asked, so a
    driver with a person in the other seat may pass any object there. Raises ``IllegalActionError`` when the
    match is over.
    """
    state = match.state
    spec, options, clock = match.config.spec, match.config.options, match.config.clock
    if state.phase is Phase.OVER:
        raise IllegalActionError("the match is over: there is no next action")
    if state.phase in (Phase.LAG, Phase.SHOOTOUT_LAG):
        return Lag((lag_stroke(players[0], 0, match), lag_stroke(players[1], 1, match)))
    if state.phase is Phase.CHOOSE:
        assert state.lag_winner is not None
        return Choose(players[state.lag_winner].choose_cue_ball())
    if state.phase is Phase.PLACE_W2:
        return PlaceW2(players[state.player_of(BallId.W2)].place_w2(state.position, spec, options))
    mover = state.to_move
    assert mover is not None
    started = time.perf_counter()
    call, stroke = players[mover].shot(state.position, state.game, spec, state.actions)
    thought = time.perf_counter() - started
    seconds = {"off": 0.0, "sim": clock.seconds_per_stroke, "wall": thought}[clock.mode]
    return Shot(call, stroke, seconds)


NUDGES = (1e-3, -1e-2, 3e-2, -1e-1)
"""Degrees added to the direction of a stroke the physics engine cannot play faithfully, one after another
until it plays (:func:`push_nudged`): wider each time, either side, and never more than the direction noise
of a good player (0.125 degrees). One stroke the engine's cushion model refuses is refused for every direction
within 0.01 degrees of it."""

Pushed = TypeVar("Pushed")


def push_nudged(push: Callable[[Action], Pushed], action: Action) -> Pushed:
    """``push(action)``; a stroke the physics engine cannot play faithfully (a :class:`SimulationError`: a ball
    through a cushion, a shot that never settles, a contact the engine cannot resolve) is pushed again with its
    direction nudged by each of :data:`NUDGES` in turn, then the error is raised. The match is unchanged by a
    refused push and its chance step draws the same noise for the same action, so without the nudge a
    computer's stroke would fail the same way on every try and the match could not go on; the recorded
    intended and executed strokes are the ones played."""
    try:
        return push(action)
    except SimulationError:
        if not isinstance(action, Shot):
            raise
        refused = action
    for k, nudge in enumerate(NUDGES):
        try:
            return push(replace(refused, stroke=replace(refused.stroke, direction=refused.stroke.direction + nudge)))
        except SimulationError:
            if k == len(NUDGES) - 1:
                raise
    raise AssertionError("unreachable")


def play_match(
    match: Match,
    players: tuple[Player, Player],
    *,
    on_entry: Callable[[Match, Entry], None] | None = None,
    max_actions: int = 5000,
) -> Match:
    """Ask the players for actions until the match is over (or ``max_actions``)."""
    for _ in range(max_actions):
        if match.over:
            return match
        push_nudged(match.push, decide_action(match, players))
        if on_entry is not None:
            on_entry(match, match.stack[-1])
    if not match.over:
        raise MatchStalledError(f"the match did not finish within {max_actions} actions")
    return match
