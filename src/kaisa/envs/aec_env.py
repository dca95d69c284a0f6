"""A PettingZoo AEC environment: two agents, ``W1`` and ``W2``, a whole match from the break.

The agent at the table acts; after a legal pot the same agent keeps the turn, as in the game. Each agent sees
the table from its own side (:mod:`kaisa.envs.encoding`). Rewards: the shooter gets its stroke's points and,
with ``zero_sum`` (the default), the other agent their negative, so the sum is zero and a foul's penalty
counts for the opponent too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from kaisa.envs.encoding import N_CALLS, call_at, decode_stroke, observe_state
from kaisa.envs.gym_env import action_space, observation_space, opening_state, play_stroke, render_text
from kaisa.game import Match, MatchConfig, Shot
from kaisa.model import BallId
from kaisa.physics import StrokeNoise
from kaisa.referee import opponent_of
from kaisa.table import OFFICIAL

AGENTS = ("W1", "W2")


class KaisaAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """Kaisa for two agents. ``noise`` scales the seeded execution noise on every stroke; episodes end when the
    match is over (terminations) or after ``max_strokes`` strokes (truncations)."""

    metadata = {"name": "kaisa_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self, noise: float = 1.0, max_strokes: int = 400, zero_sum: bool = True, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.noise = StrokeNoise(noise)
        self.max_strokes = max_strokes
        self.zero_sum = zero_sum
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._observation_space = observation_space()
        self._action_space = action_space()
        self._rng = np.random.default_rng()
        self.match = Match(MatchConfig(players=AGENTS), opening_state(np.random.default_rng(0)))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._action_space.seed(seed)
        self.match = Match(MatchConfig(players=AGENTS), opening_state(self._rng))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.match.state.game.shooter.value
        self._refresh_infos()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.match.state
        return observe_state(state.position, state.game, BallId(agent))

    def step(self, action: dict[str, Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is at the table: its action is a call and a stroke, not None")
        me = BallId(agent)
        state = self.match.state
        index = int(action["call"])
        if not 0 <= index < N_CALLS:
            raise ValueError(f"a call is an index 0..{N_CALLS - 1}, got {index}")
        legal = bool(observe_state(state.position, state.game, me)["call_mask"][index])
        stroke = decode_stroke(action["stroke"], me, state.position, state.game)
        stroke = self.noise.apply(stroke, self._rng, OFFICIAL)
        self._cumulative_rewards[agent] = 0.0
        ruling = play_stroke(self.match, Shot(call_at(index, me) if legal else None, stroke))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(ruling.points)
        if self.zero_sum:
            self.rewards[opponent_of(me).value] = -float(ruling.points)
        over = self.match.over
        cut = not over and self.match.state.strokes >= self.max_strokes
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = cut
        self._refresh_infos()
        self.infos[agent].update({"clauses": ruling.clauses, "points": ruling.points, "illegal_call": not legal})
        self.agent_selection = self.match.state.game.shooter.value
        self._accumulate_rewards()

    def render(self) -> str | None:
        return render_text(self.match) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass

    def _refresh_infos(self) -> None:
        state = self.match.state
        for a in self.agents:
            self.infos[a] = {
                "scores": {b.value: s for b, s in state.game.scores.items()},
                "call_mask": observe_state(state.position, state.game, BallId(a))["call_mask"],
            }
            if state.result is not None:
                self.infos[a]["winner"] = state.result.winner.value


def env(**kwargs: Any) -> KaisaAECEnv:
    """The AEC environment wrapped in PettingZoo's order-enforcing and bounds checks."""
    from pettingzoo.utils import wrappers

    wrapped: Any = KaisaAECEnv(**kwargs)
    return wrappers.OrderEnforcingWrapper(wrapped)  # type: ignore[no-any-return]
