"""Environments for AI research: a Gymnasium environment (one agent against a computer player) and a
PettingZoo AEC environment (two agents). The card is ``docs/ENVIRONMENTS.md``.

``import kaisa.envs`` registers ``kaisa/Kaisa-v0`` with Gymnasium (``gymnasium.make("kaisa/Kaisa-v0")``);
Gymnasium also finds it through the package's ``gymnasium.envs`` entry point.
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

ENV_ID = "kaisa/Kaisa-v0"


def register_envs() -> None:
    """Register the Gymnasium environment (idempotent)."""
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point="kaisa.envs.gym_env:KaisaEnv", max_episode_steps=None)


register_envs()

__all__ = [
    "ENV_ID",
    "N_CALLS",
    "STROKE_SIZE",
    "KaisaAECEnv",
    "KaisaEnv",
    "call_at",
    "call_index",
    "call_mask",
    "decode_stroke",
    "encode_stroke",
    "env",
    "observe_state",
    "register_envs",
]
