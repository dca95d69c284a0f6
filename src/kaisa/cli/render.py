"""Rich rendering of the commands' results: tables and live views, no commands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from kaisa.call import format_call
from kaisa.cli.common import console
from kaisa.model import BallId, ShotRecord

if TYPE_CHECKING:
    from kaisa.players.search import Evaluation
    from kaisa.records.stats import PlayerTotals
    from kaisa.table import TableSpec


def print_record(record: ShotRecord, title: str) -> None:
    events = Table(title=title, title_justify="left")
    events.add_column("t (s)", justify="right")
    events.add_column("event")
    events.add_column("ball")
    events.add_column("with")
    for e in record.events:
        fields = e.fields_json()
        other = " ".join(str(v) for k, v in fields.items() if k != "ball")
        events.add_row(f"{e.t:.3f}", e.type, fields["ball"], other)
    console.print(events)
    final = Table(title="Final position", title_justify="left")
    final.add_column("ball")
    final.add_column("x (m)", justify="right")
    final.add_column("y (m)", justify="right")
    for ball in record.position:
        if ball in record.final:
            x, y = record.final[ball]
            final.add_row(ball.value, f"{x:.4f}", f"{y:.4f}")
        else:
            final.add_row(ball.value, "[dim]pocketed[/]", "")
    console.print(final)
    console.print(f"[dim]balls settled after {record.duration:.2f} s[/]")


def print_ruling(ruling: Any, lang: str) -> None:
    title, clause, points = {"fi": ("Tuomio", "kohta", "pisteet"), "en": ("Ruling", "clause", "points")}[lang]
    table = Table(title=f"{title}: {ruling.shooter.value}", title_justify="left")
    table.add_column(clause)
    table.add_column(points, justify="right")
    table.add_column("")
    for row in (*ruling.items, *ruling.fouls, *ruling.notes):
        table.add_row(row.clause, str(row.points) if row.points else "", getattr(row, lang))
    console.print(table)
    labels = {
        "fi": ("pisteet", "vuoro vaihtuu", "käsipallo", "peli päättyi, voittaja", ("ei", "kyllä")),
        "en": ("points", "turn passes", "ball in hand", "game over, winner", ("no", "yes")),
    }[lang]
    console.print(f"{labels[0]}: [bold]{ruling.points:+d}[/]   {labels[1]}: {labels[4][ruling.turn_passes]}")
    if ruling.in_hand:
        console.print(f"{labels[2]}: {' '.join(sorted(b.value for b in ruling.in_hand))}")
    if ruling.game_over:
        console.print(f"{labels[3]}: {ruling.winner.value}")


def match_view(match: Any, entry: Any = None) -> Group:
    state = match.state
    names = match.config.players
    table = Table(title=f"Kaisa: {names[0]} v {names[1]}  ({state.phase.value})", title_justify="left")
    table.add_column("player")
    table.add_column("ball")
    table.add_column("score", justify="right")
    table.add_column("innings", justify="right")
    for i, name in enumerate(names):
        ball = state.owners[i] if state.owners else None
        at_table = state.owners is not None and state.game.shooter is ball and state.phase.value in ("play", "shootout")
        table.add_row(
            ("▶ " if at_table else "  ") + name,
            ball.value if ball else "-",
            str(state.game.scores[ball]) if ball else "0",
            str(state.innings[ball]) if ball else "0",
        )
    ruling = entry.outcome.ruling if entry is not None else None
    line = ""
    if ruling is not None:
        last = "; ".join(f"{x.clause}: {x.en}" for x in (*ruling.items, *ruling.fouls)) or "no points"
        line = f"stroke {state.strokes}, run {state.run}: {last}"
    return Group(table, Text(line, style="dim"))


def print_scoresheet(match: Any) -> None:
    state = match.state
    result = state.result
    sheet = Table(title="Scoresheet", title_justify="left")
    for col in ("player", "ball", "points", "recorded", "innings"):
        sheet.add_column(col)
    for i, name in enumerate(match.config.players):
        ball = state.owners[i] if state.owners else None
        if ball is None:
            continue
        recorded = str(result.recorded[ball]) if result else "-"
        sheet.add_row(name, ball.value, str(state.game.scores[ball]), recorded, str(state.innings[ball]))
    console.print(sheet)
    if result is not None:
        console.print(
            f"winner: [bold]{match.config.players[state.player_of(result.winner)]}[/] ({result.winner.value}), {result.reason}"
        )


def print_advice(
    ranked: Sequence[Evaluation], level: str, shooter: BallId, position_weight: float, win_value: float
) -> None:
    table = Table(title=f"Advice ({level}) for {shooter.value}", title_justify="left")
    for col in ("call", "kind", "window", "pot", "points", "foul", "win", "leave", "score"):
        table.add_column(col, justify="left" if col in ("call", "kind") else "right")
    for e in ranked:
        table.add_row(
            "(safety)" if e.call is None else format_call(e.call), e.kind, f"{e.window:.2f}°",
            f"{100 * e.p_pot:.0f}%", f"{e.expected_points:+.2f}", f"{100 * e.p_foul:.0f}%",
            f"{100 * e.p_win:.0f}%", f"{e.position_value:+.2f}", f"{e.score:+.2f}",
        )  # fmt: skip
    console.print(table)
    console.print(
        "leave: the expected points of the next shot, ours (+) if the turn goes on, the opponent's (-) if it"
        f" passes; score = points + {position_weight:g} x leave + {win_value:g} x win"
    )


def print_stats(totals: Sequence[PlayerTotals], matches: int) -> None:
    table = Table(title=f"Statistics over {matches} match(es)", title_justify="left")
    columns = (
        "player",
        "matches",
        "points",
        "innings",
        "points/inning",
        "longest run",
        "2nd run",
        "pot success",
        "fouls",
    )
    for col in columns:
        table.add_column(col, justify="left" if col == "player" else "right")
    for t in totals:
        ppi, success = t.points_per_inning, t.called_pot_success
        table.add_row(
            t.name, str(t.matches), str(t.points), str(t.innings),
            "-" if ppi is None else f"{ppi:.2f}", str(t.longest_run), str(t.second_longest_run),
            "-" if success is None else f"{100 * success:.0f}%", str(t.fouls),
        )  # fmt: skip
    console.print(table)


def print_table_spec(spec: TableSpec) -> None:
    console.print(
        f"Playing area {spec.width * 1000:.0f} x {spec.length * 1000:.0f} mm, "
        f"balls {spec.ball_diameter * 1000:.0f} mm / {spec.ball_mass * 1000:.0f} g"
    )
    pockets = Table(title="Pockets", title_justify="left")
    for col in ("pocket", "mouth (mm)", "jaw points (m)", "adjacent rails"):
        pockets.add_column(col)
    for p in spec.pockets.values():
        jaws = "  ".join(f"({j.point[0]:.4f}, {j.point[1]:.4f})" for j in p.jaws)
        pockets.add_row(p.id.value, f"{p.mouth * 1000:.0f}", jaws, ", ".join(r.value for r in p.adjacent_rails))
    console.print(pockets)
    spots = Table(title="Spots", title_justify="left")
    spots.add_column("spot")
    spots.add_column("x, y (m)")
    for sid, (x, y) in spec.spots.items():
        spots.add_row(sid.value, f"{x:.4f}, {y:.4f}")
    console.print(spots)
