"""Pictures of the table with matplotlib: the bed, pockets and spots, and a stroke's ball paths with its events
(``kaisa table --plot``, ``kaisa simulate --plot``). matplotlib is imported only here, when a picture is asked."""

from __future__ import annotations

from pathlib import Path

from kaisa.model import BallContactEvent, JawEvent, PocketEvent, RailEvent, ShotRecord
from kaisa.table import TableSpec

COLOURS = {"W1": "#f5f5f0", "W2": "#f0d060", "R1": "#c0392b", "R2": "#e74c3c", "K": "#f39c12"}
MARKS = {BallContactEvent: ("o", "ball contact"), RailEvent: ("s", "cushion"), JawEvent: ("^", "jaw"),
         PocketEvent: ("X", "pocket")}  # fmt: skip


def plot_table(spec: TableSpec, path: Path, record: ShotRecord | None = None, title: str = "") -> None:
    """Draw the table (and the stroke's paths and events when ``record`` has trajectories) into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Rectangle

    figure, axes = plt.subplots(figsize=(4.2, 7.6))
    axes.add_patch(Rectangle((0, 0), spec.width, spec.length, facecolor="#1f6b3a", edgecolor="#5a3a1a", lw=6))
    for pocket in spec.pockets.values():
        x, y = pocket.mouth_centre
        axes.add_patch(Circle((x, y), pocket.mouth / 2, color="black", zorder=2))
        axes.annotate(pocket.id.value, (x, y), color="white", ha="center", va="center", fontsize=6, zorder=3)
    for spot, (x, y) in spec.spots.items():
        axes.plot(x, y, "+", color="white", ms=5, zorder=2)
        del spot
    r = spec.ball_radius
    if record is not None:
        for ball, (x, y) in record.position.items():
            axes.add_patch(Circle((x, y), r, facecolor="none", edgecolor=COLOURS[ball.value], ls="--", zorder=4))
        if record.trajectories is not None:
            for ball, samples in record.trajectories.balls.items():
                xs = [p[0] for p in samples if p is not None]
                ys = [p[1] for p in samples if p is not None]
                axes.plot(xs, ys, color=COLOURS[ball.value], lw=1.2, zorder=4, label=f"{ball.value} path")
        for ball, (x, y) in record.final.items():
            axes.add_patch(Circle((x, y), r, color=COLOURS[ball.value], zorder=5))
            axes.annotate(ball.value, (x, y), ha="center", va="center", fontsize=5, zorder=6)
        shown: set[str] = set()
        for event in record.events:
            mark = MARKS.get(type(event))
            where = event.positions.get(event.ball) if event.positions else None
            if mark is None or where is None:
                continue
            symbol, label = mark
            axes.plot(*where, symbol, color="white", mec="black", ms=6, zorder=7,
                      label=None if label in shown else label)  # fmt: skip
            shown.add(label)
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=3, fontsize=6, frameon=False)
    axes.set_xlim(-0.08, spec.width + 0.08)
    axes.set_ylim(-0.08, spec.length + 0.08)
    axes.set_aspect("equal")
    axes.set_xlabel("x (m)")
    axes.set_ylabel("y (m): head at 0, foot at the top")
    axes.set_title(title or "Kaisa table", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
