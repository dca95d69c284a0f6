"""``kaisa advise``: the best calls in a position, as the search sees them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from kaisa.call import format_call
from kaisa.cli.common import ensure_physics_ready, fail, read_json
from kaisa.cli.render import print_advice
from kaisa.errors import KaisaError
from kaisa.model import Position


def advise_command(
    position: Annotated[Path, typer.Option("--position", help="Position JSON.")],
    state: Annotated[
        Path | None, typer.Option("--state", help="Game state JSON (default: W1 at the table, 0-0).")
    ] = None,
    level: Annotated[str, typer.Option("--level", help="Search level: beginner, club or master.")] = "master",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the noisy evaluation.", min=0, max=2**63 - 1)] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The best calls in a position with their pot probability, expected points and foul risk."""
    from kaisa.players.levels import LEVELS
    from kaisa.players.search import WIN_VALUE
    from kaisa.session import GameState, advise, check_position

    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
    try:
        pos = Position.from_json(read_json(position, "position"))
        game = GameState.from_json(read_json(state, "state")) if state else GameState()
        check_position(pos)
        if not game.from_hand and game.shooter not in pos:
            fail(f"{game.shooter.value} is at the table but not in the position; put it there or set in_hand")
        ensure_physics_ready(quiet=as_json)
        ranked = advise(pos, game, level=level, seed=seed)
    except KaisaError as exc:
        fail(str(exc))
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
    print_advice(ranked, level, game.shooter, LEVELS[level].position_weight, WIN_VALUE)
