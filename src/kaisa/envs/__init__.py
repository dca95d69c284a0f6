"""Environments for AI research: a Gymnasium environment (one agent against a computer player), the
single-stroke task ``kaisa/KaisaShot-v0``, flat-space wrappers of the game for off-the-shelf libraries, and a
PettingZoo AEC environment (two agents). The card is ``docs/ENVIRONMENTS.md``.

The environments are registered with Gymnasium on ``import gymnasium`` (:mod:`kaisa.gym_registration`, run by
the ``kaisa-gymnasium.pth`` file installed with kaisa), and again, idempotently, on ``import kaisa.envs``:
``gymnasium.make("kaisa/Kaisa-v0")``, ``"kaisa/KaisaShot-v0"``, ``"kaisa/KaisaFlat-v0"``.
"""

from __future__ import annotations

from kaisa.envs.aec_env import KaisaAECEnv, env
from kaisa.envs.encoding import (
    N_CALLS,
    STROKE_SIZE,
    call_at,
    call_index,
    call_mask,
    decode_stroke,
    encode_stroke,
    observe_state,
)
from kaisa.envs.gym_env import KaisaEnv
from kaisa.envs.shot_env import SHOT_ENV_ID, KaisaShotEnv
from kaisa.envs.wrappers import BoxAction, FlatObservation, MultiDiscreteAction, flat, make_flat
from kaisa.gym_registration import ENVS, register_envs

ENV_ID = "kaisa/Kaisa-v0"
FLAT_ENV_ID = "kaisa/KaisaFlat-v0"

register_envs()

__all__ = [
    "ENVS",
    "ENV_ID",
    "FLAT_ENV_ID",
    "N_CALLS",
    "SHOT_ENV_ID",
    "STROKE_SIZE",
    "BoxAction",
    "FlatObservation",
    "KaisaAECEnv",
    "KaisaEnv",
    "KaisaShotEnv",
    "MultiDiscreteAction",
    "call_at",
    "call_index",
    "call_mask",
    "decode_stroke",
    "encode_stroke",
    "env",
    "flat",
    "make_flat",
    "observe_state",
    "register_envs",
]
