"""A Gymnasium environment: one agent against a built-in computer player, a whole match from the break.

See :mod:`kaisa.envs.encoding` for the observation, the calls and the stroke, and ``docs/ENVIRONMENTS.md``
for the card. One step is one stroke of the agent, followed by the opponent's strokes until the agent is at
the table again (or the match is over).

Every episode is a match session in memory (:meth:`kaisa.session.registry.Sessions.unrecorded`), started at the break as
:meth:`kaisa.game.Match.at_break` starts it. The environment applies no noise and no rules: the agent's stroke
goes into the match as the intended stroke of a :class:`~kaisa.game.Shot`, the match's chance step executes it
with the noise of the agent's seat, and the referee rules it, exactly as for any player.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kaisa.envs.encoding import BALL_ROWS, FLAGS, N_CALLS, STROKE_SIZE, call_at, decode_stroke, observe_state
from kaisa.game import Match, MatchConfig, MatchState, Phase, Shot
from kaisa.layouts import starting_position
from kaisa.model import BallId
from kaisa.players import (
    COMPUTER_KINDS,
    HUMAN,
    BaselinePlayer,
    decide_action,
    player_kind,
    push_nudged,
    seat_noise,
)
from kaisa.records.storage import PlayerInfo
from kaisa.session import Ruling, opponent_of
from kaisa.session.match import MatchSession
from kaisa.session.registry import Sessions
from kaisa.session.view import Played

REWARDS = ("net", "stroke")
SEED_WORDS = 2**63
"""Match seeds are drawn below this (the chance step's seeds are 64-bit integers)."""
AGENT = HUMAN
"""The session's kind for an agent's seat: not a computer player of the session (the agent sends its own
actions); the environment gives the seat its execution noise itself."""


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


def check_noise(noise: float) -> float:
    """``noise`` as a float; ``ValueError`` unless it is a finite number >= 0."""
    try:
        value = float(noise)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"noise is a finite number >= 0 (0: strokes are played exactly), not {noise!r}")
    return value


def break_state(config: MatchConfig) -> MatchState:
    """The match at the break (:meth:`Match.at_break`): W2 where the baseline places it, W1 to break from hand."""
    w2 = BaselinePlayer("placer").place_w2(starting_position(config.spec), config.spec, config.options)
    return Match.at_break(w2, config).state


def start_state(options: Mapping[str, Any] | None) -> MatchState | None:
    """The state an episode starts from: ``options["state"]`` (a :class:`MatchState` in play) or None (the
    break)."""
    state = (options or {}).get("state")
    if state is None:
        return None
    if not isinstance(state, MatchState) or state.phase not in (Phase.PLAY, Phase.SHOOTOUT) or state.owners is None:
        raise ValueError("options['state'] is a kaisa.game.MatchState in play (a stroke to play), or absent")
    return state


def open_episode(
    players: tuple[PlayerInfo, PlayerInfo], noise: tuple[float, float], seed: int, state: MatchState | None = None
) -> MatchSession:
    """An episode: a match session in memory between ``players`` (in seat order) with the seats' execution
    ``noise``, its chance step seeded with ``seed``, from ``state`` (default: the break). Each episode has its
    own :class:`Sessions`, so its computer players are made afresh from ``seed``."""
    config = MatchConfig(players=(players[0].name, players[1].name), noise=noise, seed=seed)
    return Sessions().unrecorded(players, config, state=state or break_state(config))


def push_shot(session: MatchSession, shot: Shot) -> Played:
    """Play ``shot`` through the session: the one place the environments play a stroke. A stroke the physics
    engine cannot play faithfully, which the wild strokes of a learning agent occasionally are, is nudged and
    pushed again (:func:`kaisa.players.push_nudged`)."""
    return push_nudged(session.push, shot)


def computer_plays(session: MatchSession) -> Played:
    """The computer player in the seat to move decides its stroke and plays it (:func:`push_shot`)."""
    seat = session.state.to_move
    player = None if seat is None else session.computer(seat)
    if player is None:
        raise RuntimeError("no computer player is to move")
    action = decide_action(session.match, [player, player])
    assert isinstance(action, Shot)  # in play, a player's action is a stroke
    return push_shot(session, action)


def stroke_info(played: Played) -> dict[str, Any]:
    """What ``played`` gave, for ``info``: the clauses, the points, the intended and the executed stroke."""
    ruling = ruling_of(played)
    shot = played.action
    assert isinstance(shot, Shot)
    return {"clauses": ruling.clauses, "points": ruling.points, "stroke": shot.stroke, "executed": shot.played}


def ruling_of(played: Played) -> Ruling:
    ruling = played.outcome.ruling
    assert ruling is not None  # a simulated stroke is always ruled
    return ruling


def render_text(match: Match) -> str:
    """The scores, who is to play and where the balls are, in one line (the ``ansi`` render mode)."""
    state = match.state
    scores = state.game.scores
    balls = " ".join(f"{b.value}({p[0]:.2f},{p[1]:.2f})" for b, p in state.position.items())
    return f"W1 {scores[BallId.W1]} - W2 {scores[BallId.W2]}, {state.game.shooter.value} to play: {balls}"


class KaisaEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    """Kaisa against a computer player (``opponent``: baseline, beginner, club or master).

    ``agent``: the agent's cue ball, ``W1`` (breaks), ``W2`` or ``random`` (drawn at each reset). ``reward``:
    ``net`` (default) is the change of the agent's lead over the step, its stroke's points minus the points the
    opponent made before the agent is back at the table, so a fouled stroke and a run left to the opponent both
    cost; ``stroke`` is only the points of the agent's stroke. ``noise`` is the execution noise of the agent's
    seat (0: its strokes are played exactly); the opponent's seat has its kind's noise times ``noise``. The
    match's chance step applies both, seeded from the reset's seed. Episodes end when the match is over
    (terminated) or after ``max_strokes`` strokes of both players (truncated).

    ``reset(options={"state": state})`` starts from a :class:`~kaisa.game.MatchState` in play instead of the
    break (player ``i`` has ``state.owners[i]``). ``info`` after a step holds the agent's intended ``stroke``
    and the ``executed`` one.
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
        if not player_kind(opponent).computer:  # an unknown kind fails here, not at reset
            raise ValueError(f"the opponent is a computer player, one of {', '.join(COMPUTER_KINDS)}; not {opponent!r}")
        self.opponent_kind, self.agent_choice, self.reward_kind = opponent, agent, reward
        self.noise = check_noise(noise)
        self.max_strokes = max_strokes
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = action_space()
        self.me = BallId.W1
        self.session = self._open(0, None)
        self._seen: MatchState | None = None
        self._view: dict[str, Any] = {}

    @property
    def match(self) -> Match:
        """The episode's match."""
        return self.session.match

    # --- the Gymnasium API --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        state = start_state(options)
        rng = self.np_random
        self.me = (
            BallId(self.agent_choice) if self.agent_choice != "random" else (BallId.W1, BallId.W2)[int(rng.integers(2))]
        )
        self.session = self._open(int(rng.integers(SEED_WORDS)), state)
        self._opponent_plays()
        observation = self._observe()
        return observation, self._info(observation)

    def step(self, action: dict[str, Any]) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.match.over or self.match.state.game.shooter is not self.me:
            raise RuntimeError("the episode is over: call reset()")
        state = self.match.state
        index = int(action["call"])
        if not 0 <= index < N_CALLS:
            raise ValueError(f"a call is an index 0..{N_CALLS - 1}, got {index}")
        legal = bool(self._observe()["call_mask"][index])  # the observation the agent acted on
        call = call_at(index, self.me) if legal else None
        stroke = decode_stroke(action["stroke"], self.me, state.position, state.game, self.match.config.spec)
        lead = self._lead()
        played = push_shot(self.session, Shot(call, stroke))  # the match's chance step executes the stroke
        if not self.match.over:
            self._opponent_plays()
        points = ruling_of(played).points
        reward = float(points) if self.reward_kind == "stroke" else float(self._lead() - lead)
        terminated = self.match.over
        truncated = not terminated and self.match.state.strokes >= self.max_strokes
        observation = self._observe()
        info = self._info(observation)
        info.update(stroke_info(played))
        info["illegal_call"] = not legal
        return observation, reward, terminated, truncated, info

    def render(self) -> str | None:
        return render_text(self.match) if self.render_mode == "ansi" else None

    # --- helpers ------------------------------------------------------------------------------------

    def _open(self, seed: int, state: MatchState | None) -> MatchSession:
        owners = (BallId.W1, BallId.W2) if state is None or state.owners is None else state.owners
        agent = owners.index(self.me)
        opponent = PlayerInfo(self.opponent_kind, self.opponent_kind)
        players = (PlayerInfo("agent", AGENT), opponent) if agent == 0 else (opponent, PlayerInfo("agent", AGENT))
        theirs = seat_noise(self.opponent_kind, self.noise)
        noise = (self.noise, theirs) if agent == 0 else (theirs, self.noise)
        return open_episode(players, noise, seed, state)

    def _opponent_plays(self) -> None:
        other = opponent_of(self.me)
        while not self.match.over and self.match.state.game.shooter is other:
            if self.match.state.strokes >= self.max_strokes:
                return
            computer_plays(self.session)

    def _lead(self) -> int:
        scores = self.match.state.game.scores
        return scores[self.me] - scores[opponent_of(self.me)]

    def _observe(self) -> dict[str, Any]:
        """The agent's observation of the match as it is, computed once per state."""
        state = self.match.state
        if state is not self._seen:
            self._view = observe_state(state.position, state.game, self.me, self.match.config.spec)
            self._seen = state
        return self._view

    def _info(self, observation: dict[str, Any]) -> dict[str, Any]:
        state = self.match.state
        info: dict[str, Any] = {
            "agent": self.me.value,
            "scores": {b.value: s for b, s in state.game.scores.items()},
            "call_mask": observation["call_mask"],
        }
        if state.result is not None:
            info["winner"] = state.result.winner.value
        return info
