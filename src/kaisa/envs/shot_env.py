"""``kaisa/KaisaShot-v0``: one called stroke from a random position, the smallest Kaisa task to learn.

Each episode is a random 5-ball layout (:func:`kaisa.layouts.random_layout`) with W1 at the table (not from
hand, not the opening) and one stroke. The episode is a match session in memory started at that position
(:meth:`kaisa.session.registry.Sessions.unrecorded`): the agent's stroke is the intended stroke of a
:class:`~kaisa.game.Shot`, the match's chance step executes it with the noise of the agent's seat, and the
referee rules it, exactly as in a match.

``call="given"`` (the default): the task draws the call, uniformly among the direct pots (``BALL POCKET``)
that the baseline player's geometry calls makeable (clear paths, cut at most 65 degrees:
:func:`kaisa.players.baseline.candidates`); layouts with none are drawn again. The observation says which.
``call="agent"``: the agent calls too, among the 24 direct calls (4 object-ball slots by 6 pockets).

Observation (``Box(-1, 1, (OBS_SIZE,))``, float32): the five balls as in :func:`~kaisa.envs.encoding.observe_state`
(own cue ball, the other white, R1, R2, the kaisa; x, y in [-1, 1] and 1 for on the table), then the called
ball's slot (one-hot over the other white, R1, R2, K) and the called pocket (one-hot over HL HR ML MR FL FR),
zeros when the agent calls.

Action (``Box(-1, 1, (5,))``, or ``(5 + 24,)`` with ``call="agent"``): the first five numbers of the
environments' stroke (speed, direction, elevation, side, follow: :func:`~kaisa.envs.encoding.decode_stroke`);
with ``call="agent"`` the call is the direct call with the largest of the 24 further numbers.

Reward: ``points`` (default) is the stroke's points as ruled (negative for a foul); ``shaped`` adds, when the
stroke scored nothing, how much nearer the called pocket the called ball came, in [0, 0.5]. ``info["success"]``
is whether the called pot was made (a legal pot). ``baseline_action()`` is the action of the baseline
player's ghost-ball stroke at the current call, for comparing on the same positions and the same noise.
"""

from __future__ import annotations

import math
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kaisa.call import Call
from kaisa.envs.encoding import SLOTS, call_at, decode_stroke, encode_stroke, observe_state
from kaisa.envs.gym_env import AGENT, SEED_WORDS, check_noise, push_shot, ruling_of, stroke_info
from kaisa.errors import SimulationError
from kaisa.game import MatchConfig, MatchState, Phase, Shot
from kaisa.layouts import random_layout
from kaisa.model import BallId, Position, Stroke
from kaisa.players.baseline import Candidate, candidates
from kaisa.records.storage import PlayerInfo
from kaisa.session import GameState
from kaisa.session.match import MatchSession
from kaisa.session.registry import Sessions
from kaisa.session.study import rule_stroke
from kaisa.table import OFFICIAL, PocketId

SHOT_ENV_ID = "kaisa/KaisaShot-v0"
CALL_MODES = ("given", "agent")
SHOT_REWARDS = ("points", "shaped")
POCKETS = tuple(PocketId)
DIRECT_CALLS = 1 + np.arange(len(SLOTS) * len(POCKETS))
"""Indexes of the direct calls among the environments' calls (:data:`kaisa.envs.encoding.TEMPLATES`): the
24 after "no call", slot by slot, pocket by pocket."""
BALLS_SIZE = 15
OBS_SIZE = BALLS_SIZE + len(SLOTS) + len(POCKETS)
"""25: five balls by (x, y, on the table), the called ball's slot, the called pocket."""
STROKE_PARTS = 5
"""Speed, direction, elevation, side, follow: a cue ball never in hand needs no place."""
SHAPING = 0.5
"""The most the ``shaped`` reward adds to a stroke that scored nothing."""
ME = BallId.W1


def shot_state(position: Position) -> MatchState:
    """A match in play at ``position`` with W1 at the table, first inning each, scores 0-0."""
    return MatchState(
        phase=Phase.PLAY,
        position=position,
        game=GameState(shooter=ME),
        owners=(ME, BallId.W2),
        innings={BallId.W1: 1, BallId.W2: 1},
    )


def makeable_calls(position: Position) -> list[Candidate]:
    """The direct pots the baseline player's geometry sees for W1 at ``position``, easiest first."""
    return candidates(position[ME], position, GameState(shooter=ME), OFFICIAL, ME)


def observed_shot(observation: np.ndarray) -> tuple[Position, Call | None]:
    """The position and the call that a ``KaisaShot-v0`` observation shows (the balls to the observation's
    float32 precision, under a micrometre). With :func:`pots` and the seat's noise (:class:`~kaisa.game.chance.StrokeNoise`
    scaled by the environment's ``noise``) it is all a policy needs to plan its stroke on the task's model at
    decision time, as game agents that search do, without reaching into the environment."""
    values = np.asarray(observation, dtype=np.float64).reshape(-1)
    if values.shape != (OBS_SIZE,) or not np.all(np.isfinite(values)):
        raise ValueError(f"a KaisaShot-v0 observation is {OBS_SIZE} finite numbers, got shape {values.shape}")
    rows = values[:BALLS_SIZE].reshape(-1, 3)
    balls = (ME, BallId.W2, BallId.R1, BallId.R2, BallId.K)
    position = Position(
        {
            ball: ((x + 1) / 2 * OFFICIAL.width, (y + 1) / 2 * OFFICIAL.length)
            for ball, (x, y, on) in zip(balls, rows, strict=True)
            if on > 0.5
        }
    )
    slot, pocket = values[BALLS_SIZE : BALLS_SIZE + len(SLOTS)], values[BALLS_SIZE + len(SLOTS) :]
    if slot.max() < 0.5 or pocket.max() < 0.5:
        return position, None
    name = SLOTS[int(np.argmax(slot))]
    ball = BallId.W2 if name == "other" else BallId(name)
    return position, Call(ball, POCKETS[int(np.argmax(pocket))])


def pots(position: Position, call: Call, stroke: Stroke) -> bool:
    """Whether W1's ``stroke``, played exactly, pots ``call`` legally at ``position``: the task's model, the
    physics and the referee that :meth:`KaisaShotEnv.step` plays and rules a stroke with at noise 0 (a stroke the
    engine cannot play faithfully counts as no pot here; the environment would nudge its direction)."""
    try:
        return rule_stroke(position, call, GameState(shooter=ME), stroke=stroke).legal_pot
    except SimulationError:
        return False


def slot_of(ball: BallId) -> int:
    return SLOTS.index("other") if ball.is_white else SLOTS.index(ball)


def direct_call_index(call: Call) -> int:
    """The index of the direct ``call`` among :data:`DIRECT_CALLS` (slot by slot, pocket by pocket)."""
    return slot_of(call.ball) * len(POCKETS) + POCKETS.index(call.pocket)


class KaisaShotEnv(gym.Env[np.ndarray, np.ndarray]):
    """One called stroke from a random position (see the module's docstring). ``noise``: the execution noise
    of the agent's seat in multiples of the convention (1, the default, is the baseline player's; 0 plays
    strokes exactly), applied by the match's chance step and seeded from the reset's seed."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self, call: str = "given", reward: str = "points", noise: float = 1.0, render_mode: str | None = None
    ) -> None:
        if call not in CALL_MODES:
            raise ValueError(f"call is one of {CALL_MODES}, not {call!r}")
        if reward not in SHOT_REWARDS:
            raise ValueError(f"reward is one of {SHOT_REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.call_mode, self.reward_kind = call, reward
        self.noise = check_noise(noise)
        self.render_mode = render_mode
        self.action_size = STROKE_PARTS + (len(DIRECT_CALLS) if call == "agent" else 0)
        self.action_space = spaces.Box(-1.0, 1.0, shape=(self.action_size,), dtype=np.float32)
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.position = random_layout(np.random.default_rng(0))
        self.call: Call | None = None
        self.session: MatchSession | None = None
        self._chance_seed = 0
        self._done = True
        self._last = ""

    # --- the Gymnasium API --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new position (``options={"position": Position, "call": Call}`` sets them instead of drawing)."""
        super().reset(seed=seed)
        rng = self.np_random
        options = options or {}
        position = options.get("position")
        call = options.get("call")
        if position is not None and not isinstance(position, Position):
            raise ValueError("options['position'] is a kaisa.model.Position with W1 on the table")
        while position is None:
            drawn = random_layout(rng)
            found = makeable_calls(drawn) if self.call_mode == "given" else [None]
            if found:
                position = drawn
                if self.call_mode == "given" and call is None:
                    pick = found[int(rng.integers(len(found)))]
                    assert pick is not None
                    call = Call(pick.ball, pick.pocket)
        if ME not in position:
            raise ValueError("options['position'] needs W1 on the table: W1 is to play")
        if self.call_mode == "given" and call is None:
            found = makeable_calls(position)
            if not found:
                raise ValueError("no makeable direct pot in options['position']: give options['call'] too")
            call = Call(found[0].ball, found[0].pocket)
        if call is not None and (not isinstance(call, Call) or call != Call(call.ball, call.pocket)):
            raise ValueError("options['call'] is a direct call (kaisa.call.Call(ball, pocket))")
        self.position, self.call = position, call
        self._chance_seed = int(rng.integers(SEED_WORDS))
        self.session = None
        self._done = False
        observation = self._observe()
        return observation, {"call": None if call is None else str(call)}

    def step(self, action: np.ndarray) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the stroke has been played: call reset()")
        values = np.asarray(action, dtype=np.float64).reshape(-1)
        if values.shape != (self.action_size,) or not np.all(np.isfinite(values)):
            raise ValueError(f"an action is {self.action_size} finite numbers in [-1, 1], got {action!r}")
        call = self.call
        if self.call_mode == "agent":
            call = call_at(int(DIRECT_CALLS[int(np.argmax(values[STROKE_PARTS:]))]), ME)
        stroke = self.stroke_of(values[:STROKE_PARTS])
        session = self._open()
        played = push_shot(session, Shot(call, stroke))
        ruling = ruling_of(played)
        reward = float(ruling.points)
        if self.reward_kind == "shaped" and ruling.points <= 0 and call is not None:
            reward += self._closer(call, ruling.position)
        self._done = True
        info = stroke_info(played)
        info.update(
            call=None if call is None else str(call),
            success=bool(ruling.legal_pot and call is not None),
            position_after=ruling.position,
        )
        self._last = f"{call}: {ruling.points} points ({', '.join(ruling.clauses)})"
        return self._observe(), reward, True, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        balls = " ".join(f"{b.value}({p[0]:.2f},{p[1]:.2f})" for b, p in self.position.items())
        return f"W1 to play, call {self.call}: {balls}" + (f"; {self._last}" if self._done and self._last else "")

    # --- for baselines and scripts ----------------------------------------------------------------------

    def stroke_of(self, values: np.ndarray) -> Stroke:
        """The stroke for the five normalised stroke numbers of an action."""
        full = np.zeros(7)
        full[:STROKE_PARTS] = values
        state = shot_state(self.position)
        return decode_stroke(full, ME, self.position, state.game)

    def baseline_action(self) -> np.ndarray:
        """The action of the baseline player's ghost-ball stroke at the current call (with ``call="agent"``,
        at its own easiest call); a soft roll at the nearest ball when its geometry sees no such pot."""
        found = makeable_calls(self.position)
        if self.call is not None:
            found = [c for c in found if c.ball is self.call.ball and c.pocket is self.call.pocket]
        action = np.zeros(self.action_size, dtype=np.float32)
        if found:
            best = found[0]
            stroke = Stroke(ME, best.speed, best.direction, follow=-0.1)  # as BaselinePlayer.shot plays it
            if self.call_mode == "agent":
                action[STROKE_PARTS:] = -1.0
                action[STROKE_PARTS + direct_call_index(Call(best.ball, best.pocket))] = 1.0
        else:
            cue = self.position[ME]
            target = min(
                (p for b, p in self.position.items() if b is not ME),
                key=lambda p: math.hypot(p[0] - cue[0], p[1] - cue[1]),
            )
            stroke = Stroke(ME, 2.0, math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])))
        action[:STROKE_PARTS] = np.clip(encode_stroke(stroke)[:STROKE_PARTS], -1.0, 1.0)
        return action

    # --- helpers ------------------------------------------------------------------------------------

    def _open(self) -> MatchSession:
        players = (PlayerInfo("agent", AGENT), PlayerInfo("opponent", AGENT))
        config = MatchConfig(players=("agent", "opponent"), noise=(self.noise, 0.0), seed=self._chance_seed)
        self.session = Sessions().unrecorded(players, config, state=shot_state(self.position))
        return self.session

    def _observe(self) -> np.ndarray:
        view = observe_state(self.position, GameState(shooter=ME), ME)
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        out[:BALLS_SIZE] = view["balls"].reshape(-1)
        if self.call is not None:
            out[BALLS_SIZE + slot_of(self.call.ball)] = 1.0
            out[BALLS_SIZE + len(SLOTS) + POCKETS.index(self.call.pocket)] = 1.0
        return out

    def _closer(self, call: Call, after: Position) -> float:
        """How much nearer its pocket the called ball came, as a fraction of its distance, times :data:`SHAPING`."""
        mouth = OFFICIAL.pockets[call.pocket].mouth_centre
        before, now = self.position.get(call.ball), after.get(call.ball)
        if before is None or now is None:
            return 0.0
        start = math.hypot(before[0] - mouth[0], before[1] - mouth[1])
        end = math.hypot(now[0] - mouth[0], now[1] - mouth[1])
        return SHAPING * max(0.0, min(1.0, (start - end) / start)) if start > 0 else 0.0
