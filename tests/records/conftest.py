"""Matches the records tests share: played once per test session by the real match, referee and physics."""

from __future__ import annotations

import contextlib

import pytest

from kaisa.game import ClockConfig, Match, MatchConfig
from kaisa.players import BaselinePlayer, MatchStalledError, play_match


@pytest.fixture(scope="session")
def seeded_match() -> Match:
    """150 actions of a match between two baseline players with execution noise (a whole one takes a few
    hundred): lags, runs, fouls."""
    match = Match(MatchConfig(players=("Baseline A", "Baseline B"), noise=(1.0, 1.0), seed=2))
    with contextlib.suppress(MatchStalledError):
        play_match(match, (BaselinePlayer("Baseline A", seed=1), BaselinePlayer("Baseline B", seed=2)), max_actions=150)
    return match


@pytest.fixture(scope="session")
def shootout_match() -> Match:
    """A whole match on the simulated clock: time runs out, the final innings, a shoot-out, a result (6)."""
    match = Match(
        MatchConfig(players=("Baseline A", "Baseline B"), clock=ClockConfig("sim", 30.0), noise=(1.0, 1.0), seed=2)
    )
    play_match(match, (BaselinePlayer("Baseline A", seed=1), BaselinePlayer("Baseline B", seed=2)), max_actions=600)
    assert match.state.result is not None
    assert match.state.shootout is not None
    return match
