"""Registers the kaisa environments with Gymnasium as soon as Gymnasium is imported, so that
``gymnasium.make("kaisa/Kaisa-v0")`` works in a script that never imports kaisa.

Gymnasium 0.26 to 0.29 called the functions of the ``gymnasium.envs`` entry-point group on import; Gymnasium
1.0 dropped that plugin loading (its ``envs/registration.py`` no longer reads entry points), so an entry point
alone registers nothing. Instead the ``kaisa-gymnasium.pth`` file installed next to kaisa imports this small
module when Python starts. It imports nothing heavy: it puts a finder on ``sys.meta_path`` that, when
``gymnasium`` is first imported, lets Gymnasium load and then registers the environments by name (string entry
points, so kaisa's environments themselves load only when one is made).
"""

from __future__ import annotations

import importlib.machinery
import sys

TYPE_CHECKING = False  # not typing's: importing typing costs every Python start-up 7 ms
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType
    from typing import Any

ENVS: dict[str, dict[str, Any]] = {
    "kaisa/Kaisa-v0": {"entry_point": "kaisa.envs.gym_env:KaisaEnv"},
    "kaisa/KaisaShot-v0": {"entry_point": "kaisa.envs.shot_env:KaisaShotEnv", "max_episode_steps": 1},
    "kaisa/KaisaFlat-v0": {"entry_point": "kaisa.envs.wrappers:make_flat"},
}
"""The environments' ids and how Gymnasium makes them."""


def register_envs() -> None:
    """Register every kaisa environment with Gymnasium (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for env_id, spec in ENVS.items():
        if env_id not in registry:
            register(id=env_id, **spec)


class _AfterGymnasium:
    """A finder on ``sys.meta_path`` (not an ``importlib.abc.MetaPathFinder``, whose import costs every Python
    start-up 25 ms): finds ``gymnasium`` as the path finder does and registers the environments once it has
    loaded."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        uninstall()
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = None if spec is None else spec.loader
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        load = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            load(module)
            try:
                register_envs()
            except Exception as exc:  # never let kaisa break a Gymnasium import
                print(f"kaisa: could not register its Gymnasium environments: {exc}", file=sys.stderr)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Register now if Gymnasium is loaded, else as soon as it is (idempotent)."""
    if "gymnasium.envs.registration" in sys.modules:
        register_envs()
    elif not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())


def uninstall() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AfterGymnasium)]


install()
