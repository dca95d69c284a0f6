"""``kaisa advise``: the best calls in a position, as a computer player of the chosen level sees them."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kaisa.call import format_call
from kaisa.cli.common import KIND_HELP, check_kinds, ensure_physics_ready, fail, progress, read_json
from kaisa.cli.render import print_advice
from kaisa.errors import KaisaError
from kaisa.model import Position

if TYPE_CHECKING:
    from collections.abc import Callable

    from kaisa.players.search import Evaluation

ADVICE_SECONDS = {"baseline": 0.5, "beginner": 1.5, "club": 3.0, "master": 6.0}
"""Typical seconds of advice per level, once the physics is loaded (measured on examples/rule-position.json on
a loaded two-core machine: 0.08, 0.5, 1.7 and 4.0 s): the progress bar's estimate of the time left."""


def _with_progress(work: Callable[[], list[Evaluation]], level: str, quiet: bool) -> list[Evaluation]:
    """``work`` in a thread while a progress bar shows the time left, estimated from the level's typical time
    (the search cannot say how far it is; the bar waits near its end if this position takes longer)."""
    if quiet:
        return work()
    answer: list[list[Evaluation]] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(work())
        except BaseException as exc:  # handed to the main thread, which reports it
            failure.append(exc)

    thread = threading.Thread(target=run, name="kaisa-advise", daemon=True)
    expected = ADVICE_SECONDS.get(level, 10.0)
    start = time.monotonic()
    with progress() as bar:
        task = bar.add_task(f"{level} is studying the position (estimated)", total=expected)
        thread.start()
        while thread.is_alive():
            thread.join(0.1)
            bar.update(task, completed=min(time.monotonic() - start, 0.97 * expected))
        bar.update(task, completed=expected)
    if failure:
        raise failure[0]
    return answer[0]


def advise_command(
    position: Annotated[Path, typer.Option("--position", help="Position JSON.")],
    state: Annotated[
        Path | None, typer.Option("--state", help="Game state JSON (default: W1 at the table, 0-0).")
    ] = None,
    level: Annotated[str, typer.Option("--level", help=f"Whose advice: {KIND_HELP}.")] = "master",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the noisy evaluation.", min=0, max=2**63 - 1)] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The best calls in a position with their pot probability, expected points and foul risk (for baseline: the
    one stroke the baseline player would play, with the same odds)."""
    from kaisa.players.levels import LEVELS
    from kaisa.players.search import WIN_VALUE
    from kaisa.session import GameState
    from kaisa.session.aids import advise
    from kaisa.session.study import check_position

    check_kinds("--level", [level])
    try:
        pos = Position.from_json(read_json(position, "position"))
        game = GameState.from_json(read_json(state, "state")) if state else GameState()
        check_position(pos)
        if not game.from_hand and game.shooter not in pos:
            fail(f"{game.shooter.value} is at the table but not in the position; put it there or set in_hand")
        ensure_physics_ready(quiet=as_json)
        ranked = _with_progress(lambda: advise(pos, game, level=level, seed=seed), level, as_json)
    except KaisaError as exc:
        fail(exc)
    rows = [
        {
            "call": None if e.call is None else format_call(e.call),
            "kind": e.kind,
            "stroke": e.stroke.to_json(),
            "window_deg": round(e.window, 4),
            "p_pot": round(e.p_pot, 3),
            "expected_points": round(e.expected_points, 3),
            "p_foul": round(e.p_foul, 3),
            "p_win": round(e.p_win, 3),
            "penalties": e.penalties,
            "position_value": round(e.position_value, 3),
            "score": round(e.score, 3),
        }
        for e in ranked
    ]
    if as_json:
        sys.stdout.write(json.dumps({"level": level, "advice": rows}, indent=2) + "\n")
        return
    weight = LEVELS[level].position_weight if level in LEVELS else 0.0  # the baseline never weighs the position
    print_advice(ranked, level, game.shooter, weight, WIN_VALUE)
