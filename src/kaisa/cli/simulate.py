"""``kaisa simulate``, ``kaisa demo`` and ``kaisa table``: the physics and the table, no rules."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated

import typer

from kaisa import __version__
from kaisa.cli.common import Lang, check_lang, console, ensure_physics_ready, err_console, fail, read_json
from kaisa.cli.render import print_record, print_table_spec
from kaisa.errors import KaisaError
from kaisa.model import BallId, Position, Stroke


def simulate_command(
    position: Annotated[Path, typer.Option("--position", help='Position JSON: {"balls": {"W1": [x, y], ...}}.')],
    stroke: Annotated[
        Path, typer.Option("--stroke", help='Stroke JSON: {"ball": "W1", "speed": 2.0, "direction": 90.0, ...}.')
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the event log and final position as JSON.")] = False,
    trajectories: Annotated[
        float | None,
        typer.Option(
            "--trajectories", help="Also sample ball paths at this rate (Hz), for animation.", min=1, max=1000
        ),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the table with each ball's path and the events into this PNG.")
    ] = None,
    lang: Lang = "en",
) -> None:
    """Simulate one stroke and print its events and the final position."""
    from kaisa.session.study import simulate_stroke

    check_lang(lang)
    if plot is not None:
        from kaisa.cli.match import check_writable

        check_writable(plot, "--plot")
        trajectories = trajectories or 100.0
    try:
        pos = Position.from_json(read_json(position, "position"))
        stk = Stroke.from_json(read_json(stroke, "stroke"))
        ensure_physics_ready(quiet=as_json)
        record = simulate_stroke(pos, stk, trajectories=trajectories)
    except KaisaError as exc:
        fail(exc)
    except ValueError as exc:
        fail(exc)
    if as_json:
        sys.stdout.write(json.dumps(record.to_json(), indent=2) + "\n")
    else:
        title = {
            "fi": f"{stk.ball.value}, nopeus {stk.speed:g} m/s, suunta {stk.direction:g}°",
            "en": f"{stk.ball.value} at {stk.speed} m/s, direction {stk.direction} deg",
        }[lang]
        print_record(record, title.replace(".", ",") if lang == "fi" else title, lang)
    if plot is not None:
        from kaisa.cli.plot import plot_table
        from kaisa.table import OFFICIAL

        plot_table(OFFICIAL, plot, record, f"{stk.ball.value} at {stk.speed} m/s, direction {stk.direction:.1f}°")
        err_console.print(f"picture written to {plot}", markup=False)


def demo_command() -> None:
    """Break from the official starting position and show what happened (the main job, for now)."""
    from kaisa.layouts import starting_position
    from kaisa.session.study import simulate_stroke as run
    from kaisa.table import OFFICIAL, SpotId

    spots = OFFICIAL.spots
    start = starting_position().with_ball(BallId.W2, (OFFICIAL.width * 0.3, OFFICIAL.length * 0.62))
    # W1 from hand behind the head string, a half-ball hit on the kaisa's left side.
    place = (OFFICIAL.width * 0.62, OFFICIAL.length * 0.15)
    kaisa = spots[SpotId.CENTRE]
    distance = math.hypot(kaisa[0] - place[0], kaisa[1] - place[1])
    aim = math.degrees(math.atan2(kaisa[1] - place[1], kaisa[0] - place[0]))
    half_ball = math.degrees(math.asin(OFFICIAL.ball_radius / distance))
    stroke = Stroke(BallId.W1, speed=3.0, direction=aim + half_ball, follow=0.2, place=place)
    ensure_physics_ready()
    record = run(start, stroke)
    console.print(f"[bold]Kaisa {__version__}[/]: a break from the starting position on the official table")
    print_record(record, f"W1 from hand at {stroke.speed} m/s, direction {stroke.direction:.1f} deg")


def table_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the table spec as JSON.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the table into this PNG.")] = None,
) -> None:
    """Show the official table: size, pockets and their jaw points, rails, lines and spots."""
    from kaisa.table import OFFICIAL, table_to_json

    if plot is not None:
        from kaisa.cli.match import check_writable
        from kaisa.cli.plot import plot_table

        check_writable(plot, "--plot")
        plot_table(OFFICIAL, plot, None, "The official Kaisa table")
        err_console.print(f"picture written to {plot}", markup=False)

    data = table_to_json(OFFICIAL)
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    print_table_spec(OFFICIAL)
