"""A Gymnasium environment: one agent against a built-in computer player, a whole match from the break.

See :mod:`kaisa.envs.encoding` for the observation, the calls and the stroke, and ``docs/ENVIRONMENTS.md``
for the card. One step is one stroke of the agent, followed by the opponent's strokes until the agent is at
the table again (or the match is over). The rules are the referee's: the environment only pushes actions
through :class:`kaisa.game.Match`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kaisa.envs.encoding import BALL_ROWS, FLAGS, N_CALLS, STROKE_SIZE, call_at, decode_stroke, observe_state
from kaisa.errors import SimulationError
from kaisa.game import Match, MatchConfig, MatchState, Phase, Shot
from kaisa.model import BallId, Position
from kaisa.physics import StrokeNoise
from kaisa.players import BaselinePlayer, Player, make_player
from kaisa.referee import GameState, Ruling, opponent_of
from kaisa.table import OFFICIAL, SpotId

REWARDS = ("net", "stroke")
RETRIES = 3
"""Times a stroke the engine cannot play faithfully is nudged (by a thousandth of a degree) and tried again."""


def observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "balls": spaces.Box(-1.0, 1.0, shape=(BALL_ROWS, 3), dtype=np.float32),
            "scores": spaces.Box(-1.0, 2.0, shape=(2,), dtype=np.float32),
            "flags": spaces.MultiBinary(len(FLAGS)),
            "call_mask": spaces.MultiBinary(N_CALLS),
        }
    )


def action_space() -> spaces.Dict:
    return spaces.Dict(
        {"call": spaces.Discrete(N_CALLS), "stroke": spaces.Box(-1.0, 1.0, shape=(STROKE_SIZE,), dtype=np.float32)}
    )


def opening_state(rng: np.random.Generator) -> MatchState:
    """A match at the break: the starting position with W2 placed by the baseline's rule, W1 to break from hand."""
    spots = OFFICIAL.spots
    start = Position({"K": spots[SpotId.CENTRE], "R1": spots[SpotId.HEAD_STRING], "R2": spots[SpotId.FOOT_STRING]})
    placer = BaselinePlayer("placer", seed=int(rng.integers(2**31)))
    w2 = placer.place_w2(start, OFFICIAL, MatchConfig().options)
    return MatchState(
        phase=Phase.PLAY,
        position=start.with_ball(BallId.W2, w2),
        game=GameState(shooter=BallId.W1, opening=True),
        owners=(BallId.W1, BallId.W2),
        innings={BallId.W1: 1, BallId.W2: 0},
    )


def render_text(match: Match) -> str:
    """The scores, who is to play and where the balls are, in one line (the ``ansi`` render mode)."""
    state = match.state
    scores = state.game.scores
    balls = " ".join(f"{b.value}({p[0]:.2f},{p[1]:.2f})" for b, p in state.position.items())
    return f"W1 {scores[BallId.W1]} - W2 {scores[BallId.W2]}, {state.game.shooter.value} to play: {balls}"


def play_stroke(match: Match, shot: Shot) -> Ruling:
    """Push ``shot``; a stroke the engine cannot play faithfully is nudged slightly and tried again."""
    for attempt in range(RETRIES + 1):
        try:
            outcome = match.push(shot)
        except SimulationError:
            if attempt == RETRIES:
                raise
            shot = replace(shot, stroke=replace(shot.stroke, direction=shot.stroke.direction + 1e-3))
            continue
        assert outcome.ruling is not None
        return outcome.ruling
    raise AssertionError("unreachable")


class KaisaEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    """Kaisa against a computer player (``opponent``: baseline, beginner, club or master).

    ``agent``: the agent's cue ball, ``W1`` (breaks), ``W2`` or ``random`` (drawn at each reset). ``reward``:
    ``net`` (default) is the change of the agent's lead over the step, its stroke's points minus the points the
    opponent made before the agent is back at the table, so a fouled stroke and a run left to the opponent both
    cost; ``stroke`` is only the points of the agent's stroke. ``noise`` scales the seeded execution noise on
    the agent's strokes (0: strokes are played exactly). Episodes end when the match is over (terminated) or
    after ``max_strokes`` strokes of both players (truncated).
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        opponent: str = "baseline",
        agent: str = "W1",
        reward: str = "net",
        noise: float = 1.0,
        max_strokes: int = 400,
        render_mode: str | None = None,
    ) -> None:
        if agent not in ("W1", "W2", "random"):
            raise ValueError(f"agent is W1, W2 or random, not {agent!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        make_player(opponent, "check", 0)  # an unknown kind fails here, not at reset
        self.opponent_kind, self.agent_choice, self.reward_kind = opponent, agent, reward
        self.noise = StrokeNoise(noise)
        self.max_strokes = max_strokes
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = action_space()
        self.match = Match(MatchConfig(players=("agent", opponent)), opening_state(np.random.default_rng(0)))
        self.me = BallId.W1
        self._opponent: Player = make_player(opponent, opponent, 0)

    # --- the Gymnasium API --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.me = (
            BallId(self.agent_choice) if self.agent_choice != "random" else (BallId.W1, BallId.W2)[int(rng.integers(2))]
        )
        names = ("agent", self.opponent_kind) if self.me is BallId.W1 else (self.opponent_kind, "agent")
        self.match = Match(MatchConfig(players=names), opening_state(rng))
        self._opponent = make_player(self.opponent_kind, self.opponent_kind, int(rng.integers(2**31)))
        self._opponent_plays()
        return self._observation(), self._info(None)

    def step(self, action: dict[str, Any]) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.match.over or self.match.state.game.shooter is not self.me:
            raise RuntimeError("the episode is over: call reset()")
        state = self.match.state
        index = int(action["call"])
        if not 0 <= index < N_CALLS:
            raise ValueError(f"a call is an index 0..{N_CALLS - 1}, got {index}")
        legal = bool(observe_state(state.position, state.game, self.me)["call_mask"][index])
        call = call_at(index, self.me) if legal else None
        stroke = decode_stroke(action["stroke"], self.me, state.position, state.game)
        stroke = self.noise.apply(stroke, self.np_random, OFFICIAL)
        lead = self._lead()
        ruling = play_stroke(self.match, Shot(call, stroke))
        if not self.match.over:
            self._opponent_plays()
        reward = float(ruling.points) if self.reward_kind == "stroke" else float(self._lead() - lead)
        terminated = self.match.over
        truncated = not terminated and self.match.state.strokes >= self.max_strokes
        info = self._info(ruling)
        info["illegal_call"] = not legal
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        return render_text(self.match) if self.render_mode == "ansi" else None

    # --- helpers ------------------------------------------------------------------------------------

    def _opponent_plays(self) -> None:
        other = opponent_of(self.me)
        while not self.match.over and self.match.state.game.shooter is other:
            if self.match.state.strokes >= self.max_strokes:
                return
            state = self.match.state
            call, stroke = self._opponent.shot(state.position, state.game, OFFICIAL, state.actions)
            play_stroke(self.match, Shot(call, stroke))

    def _lead(self) -> int:
        scores = self.match.state.game.scores
        return scores[self.me] - scores[opponent_of(self.me)]

    def _observation(self) -> dict[str, Any]:
        state = self.match.state
        return observe_state(state.position, state.game, self.me)

    def _info(self, ruling: Ruling | None) -> dict[str, Any]:
        state = self.match.state
        info: dict[str, Any] = {
            "agent": self.me.value,
            "scores": {b.value: s for b, s in state.game.scores.items()},
            "call_mask": observe_state(state.position, state.game, self.me)["call_mask"],
        }
        if ruling is not None:
            info["clauses"] = ruling.clauses
            info["points"] = ruling.points
        if state.result is not None:
            info["winner"] = state.result.winner.value
        return info
