"""The full game for libraries that take only flat spaces: a ``Box`` observation and a ``Box`` or
``MultiDiscrete`` action around :class:`~kaisa.envs.gym_env.KaisaEnv`.

Stable-Baselines3, CleanRL and RLlib's default models want one array in and one array out; the game's own
spaces are a ``Dict`` observation and a hybrid ``Dict`` action (a 385-way call and a 7-number stroke).

- :class:`FlatObservation`: ``Box(-1, 2, (OBS_FLAT,))`` float32: the five balls (15), the scores (2), the
  flags (5) and the call mask (385), in that order.
- :class:`BoxAction`: ``Box(-1, 1, (385 + 7,))``: one score per call (the call is the highest-scoring call
  whose balls are on the table, :func:`~kaisa.envs.encoding.call_mask`), then the stroke.
- :class:`MultiDiscreteAction`: ``MultiDiscrete([385] + [bins] * 7)``: the call's index, then each stroke
  number as one of ``bins`` evenly spaced values in [-1, 1].

``gymnasium.make("kaisa/KaisaFlat-v0", action="box" | "multidiscrete", **KaisaEnv options)`` makes the game
with both wrappers (:func:`make_flat`).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kaisa.envs.encoding import BALL_ROWS, FLAGS, N_CALLS, STROKE_SIZE
from kaisa.envs.gym_env import KaisaEnv

OBS_FLAT = BALL_ROWS * 3 + 2 + len(FLAGS) + N_CALLS
"""407: balls, scores, flags, call mask."""
ACTIONS = ("box", "multidiscrete")


def flatten_observation(observation: dict[str, Any]) -> np.ndarray:
    """The game's ``Dict`` observation as one float32 vector (balls, scores, flags, call mask)."""
    return np.concatenate(
        [
            np.asarray(observation["balls"], dtype=np.float32).reshape(-1),
            np.asarray(observation["scores"], dtype=np.float32),
            np.asarray(observation["flags"], dtype=np.float32),
            np.asarray(observation["call_mask"], dtype=np.float32),
        ]
    )


class FlatObservation(gym.ObservationWrapper[np.ndarray, dict[str, Any], dict[str, Any]]):
    """The game's observation as ``Box(-1, 2, (407,))``; the call mask stays in ``info["call_mask"]`` too."""

    def __init__(self, env: gym.Env[dict[str, Any], dict[str, Any]]) -> None:
        super().__init__(env)
        self.observation_space = spaces.Box(-1.0, 2.0, shape=(OBS_FLAT,), dtype=np.float32)

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        return flatten_observation(observation)


class BoxAction(gym.ActionWrapper[Any, np.ndarray, dict[str, Any]]):
    """One ``Box(-1, 1, (392,))`` action: a score per call, then the stroke. The call played is the
    highest-scoring call whose balls are on the table, so every action is a legal call."""

    def __init__(self, env: gym.Env[Any, dict[str, Any]]) -> None:
        super().__init__(env)
        self.action_space = spaces.Box(-1.0, 1.0, shape=(N_CALLS + STROKE_SIZE,), dtype=np.float32)
        self._mask = np.ones(N_CALLS, dtype=bool)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self._mask = np.asarray(info["call_mask"], dtype=bool)
        return observation, info

    def step(self, action: np.ndarray) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = super().step(action)
        self._mask = np.asarray(info["call_mask"], dtype=bool)
        return observation, reward, terminated, truncated, info

    def action(self, action: np.ndarray) -> dict[str, Any]:
        values = np.asarray(action, dtype=np.float64).reshape(-1)
        if values.shape != (N_CALLS + STROKE_SIZE,):
            raise ValueError(
                f"a Box action is {N_CALLS + STROKE_SIZE} numbers (call scores, stroke), got {values.shape}"
            )
        scores = np.where(self._mask, values[:N_CALLS], -np.inf)
        return {"call": int(np.argmax(scores)), "stroke": values[N_CALLS:].astype(np.float32)}


class MultiDiscreteAction(gym.ActionWrapper[Any, np.ndarray, dict[str, Any]]):
    """One ``MultiDiscrete([385] + [bins] * 7)`` action: the call's index, then each stroke number as one of
    ``bins`` values evenly spaced over [-1, 1] (odd ``bins`` include 0: no spin)."""

    def __init__(self, env: gym.Env[Any, dict[str, Any]], bins: int = 21) -> None:
        super().__init__(env)
        if bins < 2:
            raise ValueError(f"bins is at least 2, not {bins}")
        self.levels = np.linspace(-1.0, 1.0, bins, dtype=np.float32)
        self.action_space = spaces.MultiDiscrete([N_CALLS] + [bins] * STROKE_SIZE)

    def action(self, action: np.ndarray) -> dict[str, Any]:
        values = np.asarray(action, dtype=np.int64).reshape(-1)
        if values.shape != (1 + STROKE_SIZE,):
            raise ValueError(f"a MultiDiscrete action is {1 + STROKE_SIZE} integers, got {values.shape}")
        return {"call": int(values[0]), "stroke": self.levels[np.clip(values[1:], 0, len(self.levels) - 1)]}


def flat(env: gym.Env[dict[str, Any], dict[str, Any]], action: str = "box", bins: int = 21) -> gym.Env[Any, Any]:
    """``env`` (the game) with a flat observation and a ``box`` or ``multidiscrete`` action."""
    if action not in ACTIONS:
        raise ValueError(f"action is one of {ACTIONS}, not {action!r}")
    wrapped = FlatObservation(env)
    if action == "box":
        return BoxAction(wrapped)
    return MultiDiscreteAction(wrapped, bins)


def make_flat(action: str = "box", bins: int = 21, **options: Any) -> gym.Env[Any, Any]:
    """``kaisa/KaisaFlat-v0``: :class:`KaisaEnv` (``options``) with both wrappers."""
    return flat(KaisaEnv(**options), action, bins)
