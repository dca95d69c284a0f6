"""A stroke the physics engine cannot play (its models, as pooltool's, cannot resolve a few contacts) neither crashes a
match nor stops it: the engine reports a SimulationError, and every path that pushes a computer's or an
agent's stroke (:func:`kaisa.players.push_nudged`) nudges it and plays it."""

from __future__ import annotations

import pytest

from kaisa.errors import SimulationError
from kaisa.game import Match, MatchConfig, MatchState, Phase, Shot
from kaisa.model import BallId
from kaisa.physics import simulate
from kaisa.players import push_nudged
from kaisa.players.base import NUDGES
from kaisa.referee import GameState
from tests.refused_stroke import POSITION, STROKE

pytestmark = pytest.mark.slow


def test_a_contact_the_engine_cannot_resolve_is_a_simulation_error_not_a_crash():
    with pytest.raises(SimulationError) as refused:
        simulate(POSITION, STROKE)
    assert refused.value.code == "simulation-failed"
    assert "could not resolve a contact" in str(refused.value)
    assert "a slightly different stroke can be played" in str(refused.value)


def test_the_stroke_is_nudged_and_played_and_the_match_goes_on():
    state = MatchState(
        phase=Phase.PLAY,
        position=POSITION,
        game=GameState(shooter=BallId.W1),
        owners=(BallId.W1, BallId.W2),
        innings={BallId.W1: 1, BallId.W2: 0},
    )
    match = Match(MatchConfig(noise=(0.0, 0.0)), state=state)
    with pytest.raises(SimulationError):
        match.push(Shot(None, STROKE))
    assert match.state == state  # a refused push changes nothing
    push_nudged(match.push, Shot(None, STROKE))
    assert len(match.stack) == 1
    played = match.stack[-1].action
    assert isinstance(played, Shot)
    assert played.stroke.direction in [STROKE.direction + nudge for nudge in NUDGES]  # the first nudge that plays
    assert abs(played.stroke.direction - STROKE.direction) <= 0.1
