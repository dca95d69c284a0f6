"""What every command shares: the consoles, failing with exit code 2, reading JSON, warming up the physics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

console = Console()
err_console = Console(stderr=True)


def fail(message: str) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(code=2)


def read_json(path: Path, what: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read the {what} file {path}: {exc.strerror or exc}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"the {what} file {path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")


def ensure_physics_ready(quiet: bool = False) -> None:
    """Compile the physics kernels on first use, with a spinner instead of a silent pause."""
    from kaisa.session import physics_ready as kernels_cached
    from kaisa.session import warm_up_physics as warm_up

    if kernels_cached():
        return
    if quiet:
        warm_up()
        return
    with err_console.status(
        "Compiling the physics engine's kernels (first run only, about 25 s; cached afterwards)...", spinner="dots"
    ):
        warm_up()
