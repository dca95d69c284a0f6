"""A PettingZoo AEC environment: two agents, ``W1`` and ``W2``, a whole match from the break.

The agent at the table acts; after a legal pot the same agent keeps the turn, as in the game. Each agent sees
the table from its own side (:mod:`kaisa.envs.encoding`). Rewards: the shooter gets its stroke's points and,
with ``zero_sum`` (the default), the other agent their negative, so the sum is zero and a foul's penalty
counts for the opponent too.

Every episode is a match session in memory, as in the Gymnasium environment (:mod:`kaisa.envs.gym_env`): an
agent's stroke is the intended stroke of a :class:`~kaisa.game.Shot`, and the match's chance step executes it
with the noise of the agent's seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from kaisa.envs.encoding import N_CALLS, call_at, decode_stroke, observe_state
from kaisa.envs.gym_env import (
    AGENT,
    SEED_WORDS,
    action_space,
    check_noise,
    observation_space,
    open_episode,
    push_shot,
    render_text,
    ruling_of,
    start_state,
    stroke_info,
)
from kaisa.game import Match, MatchState, Shot
from kaisa.model import BallId
from kaisa.records.storage import PlayerInfo
from kaisa.session import opponent_of
from kaisa.session.match import MatchSession

AGENTS = ("W1", "W2")


class KaisaAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """Kaisa for two agents. ``noise`` is the execution noise of both seats, applied by the match's chance step
    and seeded from the reset's seed; episodes end when the match is over (terminations) or after
    ``max_strokes`` strokes (truncations). ``reset(options={"state": state})`` starts from a
    :class:`~kaisa.game.MatchState` in play instead of the break. The acting agent's ``infos`` after a step hold
    its intended ``stroke`` and the ``executed`` one."""

    metadata = {"name": "kaisa_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self, noise: float = 1.0, max_strokes: int = 400, zero_sum: bool = True, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.noise = check_noise(noise)
        self.max_strokes = max_strokes
        self.zero_sum = zero_sum
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._observation_space = observation_space()
        self._action_space = action_space()
        self._rng = np.random.default_rng()
        self._seen: MatchState | None = None
        self._views: dict[str, dict[str, Any]] = {}
        self.session = self._open(0, None)

    @property
    def match(self) -> Match:
        """The episode's match."""
        return self.session.match

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        state = start_state(options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._action_space.seed(seed)
        self.session = self._open(int(self._rng.integers(SEED_WORDS)), state)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.match.state.game.shooter.value
        self._refresh_infos()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation of the match as it is, computed once per state and agent."""
        state = self.match.state
        if state is not self._seen:
            self._views = {}
            self._seen = state
        view = self._views.get(agent)
        if view is None:
            view = self._views[agent] = observe_state(state.position, state.game, BallId(agent), self.match.config.spec)
        return view

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
        legal = bool(self.observe(agent)["call_mask"][index])
        stroke = decode_stroke(action["stroke"], me, state.position, state.game, self.match.config.spec)
        self._cumulative_rewards[agent] = 0.0
        played = push_shot(self.session, Shot(call_at(index, me) if legal else None, stroke))
        points = ruling_of(played).points
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(points)
        if self.zero_sum:
            self.rewards[opponent_of(me).value] = -float(points)
        over = self.match.over
        cut = not over and self.match.state.strokes >= self.max_strokes
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = cut
        self._refresh_infos()
        self.infos[agent].update(stroke_info(played))
        self.infos[agent]["illegal_call"] = not legal
        self.agent_selection = self.match.state.game.shooter.value
        self._accumulate_rewards()

    def render(self) -> str | None:
        return render_text(self.match) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass

    def _open(self, seed: int, state: MatchState | None) -> MatchSession:
        owners = (BallId.W1, BallId.W2) if state is None or state.owners is None else state.owners
        players = (PlayerInfo(owners[0].value, AGENT), PlayerInfo(owners[1].value, AGENT))
        return open_episode(players, (self.noise, self.noise), seed, state)

    def _refresh_infos(self) -> None:
        state = self.match.state
        for a in self.agents:
            self.infos[a] = {
                "scores": {b.value: s for b, s in state.game.scores.items()},
                "call_mask": self.observe(a)["call_mask"],
            }
            if state.result is not None:
                self.infos[a]["winner"] = state.result.winner.value


def env(**kwargs: Any) -> KaisaAECEnv:
    """The AEC environment wrapped in PettingZoo's order-enforcing and bounds checks."""
    from pettingzoo.utils import wrappers

    wrapped: Any = KaisaAECEnv(**kwargs)
    return wrappers.OrderEnforcingWrapper(wrapped)  # type: ignore[no-any-return]
