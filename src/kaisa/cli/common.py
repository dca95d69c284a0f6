"""What every command shares: the consoles, failing with exit code 2, reading JSON, warming up the physics."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

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

from kaisa.players.kinds import COMPUTER_KINDS

console = Console()
err_console = Console(stderr=True)

KIND_NAMES = ", ".join(COMPUTER_KINDS)
"""Every computer player's kind, weakest first, as each command's help and errors list them
(:data:`kaisa.players.kinds.COMPUTER_KINDS`: the same names for --p1, --level, --players and --kinds)."""
KIND_HELP = f"a computer player: {KIND_NAMES} (weakest first; the README's table of levels says how strong each is)"

MAX_ID = 2**63 - 1
"""The largest match id a database holds (SQLite's INTEGER, PostgreSQL's bigint): a larger one is refused as an
option's range, not sent to the database."""


def parse_match_id(text: str) -> int:
    """A match id as typed: digits only, 1 to :data:`MAX_ID` (``1.0``, ``+1``, ``1e3`` or ``0x1`` are not ids,
    though a lax integer parser would take some of them)."""
    digits = text.strip()
    if not digits.isascii() or not digits.isdigit() or len(digits) > 19 or not 1 <= int(digits) <= MAX_ID:
        raise typer.BadParameter(f"a match id is a whole number from 1 to {MAX_ID}, not {text!r}")
    return int(digits)


DB_HELP = "Database URL, or the path of an SQLite file (default: $KAISA_DB, else SQLite in the user data dir)."
"""The help of every --db option."""

LANGS = ("fi", "en")
"""The languages rulings and views are printed in."""
Lang = Annotated[str, typer.Option("--lang", help="Language of the rulings and the view: fi or en.")]
"""The --lang option of every command that prints a ruling."""


_language = {"lang": "en"}
"""The language the command was asked to speak (``--lang``, set by :func:`check_lang`): its errors too."""


def start_command() -> None:
    """A command begins in English until its ``--lang`` says otherwise (one process may run several)."""
    _language["lang"] = "en"


def fail(message: str | Exception) -> NoReturn:
    """Say what is wrong on one line of stderr and exit with status 2. ``message`` is plain text: a name or
    a call such as ``[/]`` in it is printed as written, never read as rich markup. An error for an unknown match
    also says which command lists the stored ones. Under ``--lang fi`` an error of the package (which has its
    Finnish) is said in Finnish, with its code."""
    from kaisa.errors import KaisaError, error_text

    if isinstance(message, KaisaError) and _language["lang"] == "fi":
        from kaisa.records.storage.errors import UnknownMatchError

        hint = " (kaisa matches luettelee tallennetut ottelut)" if isinstance(message, UnknownMatchError) else ""
        said = " ".join(f"{error_text(message).fi}{hint} [{message.code}]".split())
        err_console.print(f"[bold red]virhe:[/] {escape(said)}", soft_wrap=True)
        raise typer.Exit(code=2)
    if isinstance(message, Exception):
        from kaisa.records.storage.errors import UnknownMatchError

        hint = " (kaisa matches lists the stored ones)" if isinstance(message, UnknownMatchError) else ""
        message = f"{message}{hint}"
    first = " ".join(message.split()) or "failed"
    err_console.print(f"[bold red]error:[/] {escape(first)}", soft_wrap=True)
    raise typer.Exit(code=2)


MAX_INPUT_BYTES = 50_000_000
"""Largest input file read (a match record of thousands of strokes is well under a megabyte)."""


def read_text(path: Path, what: str) -> str:
    """A UTF-8 text file, or one clear error line: missing, unreadable, too large or not UTF-8."""
    try:
        if path.exists() and not path.is_file() and not path.is_dir():  # /dev/zero, a pipe: no end to wait for
            fail(f"the {what} file {path} is not a regular file: give a file saved on disk")
        with path.open("rb") as stream:
            data = stream.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            fail(f"the {what} file {path} is larger than {MAX_INPUT_BYTES} bytes, the most that is read")
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
    """Compile the physics kernels on first use, with a spinner instead of a silent pause; ``quiet`` (--json,
    --csv: stdout stays the document) leaves it to the physics' own one line on stderr."""
    from kaisa.session.study import physics_ready as kernels_cached
    from kaisa.session.study import warm_up_physics as warm_up

    if kernels_cached():
        return
    if quiet:
        warm_up()  # the physics says on stderr, once, that it compiles its kernels
        return
    with err_console.status(
        "Compiling the physics engine's kernels (first run only, under a minute; cached afterwards)...", spinner="dots"
    ):
        warm_up(notice=False)


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        fail(f"--lang is fi or en, not {lang!r}")
    _language["lang"] = lang  # the command's errors from here on are said in this language (fail)
    return lang


def check_kinds(option: str, kinds: Sequence[str]) -> list[str]:
    """``kinds`` if each is a computer player's kind; else one error line naming them all."""
    unknown = [k for k in kinds if k not in COMPUTER_KINDS]
    if unknown:
        fail(f"{option}: unknown player kind {', '.join(map(repr, unknown))}; the computer players are {KIND_NAMES}")
    return list(kinds)


def split_kinds(option: str, text: str) -> list[str]:
    """Comma-separated kinds, checked (``club,club``: a kind twice plays itself)."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    if not kinds:
        fail(f"{option} takes comma-separated kinds of computer player: {KIND_NAMES}")
    return check_kinds(option, kinds)


# --- where many matches run: the options kaisa tournament and kaisa dataset share ---------------------------

Backend = Annotated[str, typer.Option("--backend", help="Where the matches run: local (process pool) or ray.")]
Address = Annotated[
    str | None, typer.Option("--address", help="Ray cluster to join (host:port, ray://host:port or auto).")
]
Workers = Annotated[
    int | None,
    typer.Option(
        "--workers", min=1, max=256, help="Parallel matches (local pool, or a local Ray's CPUs); default min(2, cores)."
    ),
]
RunSeed = Annotated[int, typer.Option("--seed", help="Seed of the whole run (>= 0).")]
Noise = Annotated[float, typer.Option("--noise", help="Stroke-noise scale (1 = the convention).")]
Games = Annotated[
    int, typer.Option("--games", min=1, max=10_000, help="Matches per pair of players (sides alternate).")
]


def check_run(
    kinds: Sequence[str], games: int, seed: int, noise: float, backend: str, workers: int | None, address: str | None
) -> None:
    """Refuse a tournament or data set that cannot run, before anything runs: the players, games, seed and noise
    (the schedule), the backend and its workers, and Ray's presence and address."""
    from kaisa.tournament import TournamentError, check_address, import_ray, make_backend, schedule

    try:
        schedule(list(kinds), games, seed, noise)
        make_backend(backend, workers=workers, address=address)
        if backend == "ray":
            import_ray()
            if address is not None:
                check_address(address)
    except TournamentError as exc:
        fail(exc)
