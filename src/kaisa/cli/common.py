"""What every command shares: the consoles, failing with exit code 2, reading JSON, warming up the physics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

console = Console()
err_console = Console(stderr=True)


def fail(message: str) -> NoReturn:
    """Say what is wrong on one line of stderr and exit with status 2. ``message`` is plain text: a name or
    a call such as ``[/]`` in it is printed as written, never read as rich markup."""
    first = " ".join(message.split()) or "failed"
    err_console.print(f"[bold red]error:[/] {escape(first)}", soft_wrap=True)
    raise typer.Exit(code=2)


MAX_INPUT_BYTES = 50_000_000
"""Largest input file read (a match record of thousands of strokes is well under a megabyte)."""


def read_text(path: Path, what: str) -> str:
    """A UTF-8 text file, or one clear error line: missing, unreadable, too large or not UTF-8."""
    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            fail(f"the {what} file {path} is {size} bytes; at most {MAX_INPUT_BYTES} are read")
        data = path.read_bytes()
    except OSError as exc:
        fail(f"cannot read the {what} file {path}: {exc.strerror or exc}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail(f"the {what} file {path} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})")


def read_json(path: Path, what: str) -> Any:
    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"the {what} file {path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")
    except RecursionError:
        fail(f"the {what} file {path} nests its JSON too deeply")
    except ValueError as exc:  # e.g. an integer of more digits than Python reads
        fail(f"the {what} file {path} is not usable JSON: {exc}")


def progress(quiet: bool = False) -> Progress:
    """A progress bar on stderr with the time left, for long work (hidden with ``quiet``, e.g. for --json)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err_console,
        disable=quiet,
        transient=True,
    )


def ensure_physics_ready(quiet: bool = False) -> None:
    """Compile the physics kernels on first use, with a spinner instead of a silent pause."""
    from kaisa.session import physics_ready as kernels_cached
    from kaisa.session import warm_up_physics as warm_up

    if kernels_cached():
        return
    if quiet:  # --json, --csv: stdout stays the document, but stderr still says why nothing happens for a while
        err_console.print(
            "compiling the physics engine's kernels (first run only, about a minute; cached afterwards)...",
            markup=False,
        )
        warm_up()
        return
    with err_console.status(
        "Compiling the physics engine's kernels (first run only, about a minute; cached afterwards)...", spinner="dots"
    ):
        warm_up()
