"""Rich rendering of the commands' results: tables and live views, no commands."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kaisa.call import format_call
from kaisa.cli.common import console
from kaisa.model import BallId, ShotRecord

if TYPE_CHECKING:
    from kaisa.players.search import Evaluation
    from kaisa.records.stats import PlayerTotals
    from kaisa.records.storage import MatchInfo
    from kaisa.table import TableSpec


EVENT_WORDS = {
    "strike": ("lyönti", "strike"),
    "ball": ("osuma palloon", "ball"),
    "rail": ("valli", "rail"),
    "jaw": ("haaki", "jaw"),
    "pocket": ("pussiin", "pocket"),
    "off": ("pois pöydältä", "off the table"),
}
"""The physics' events as a referee names them, (fi, en)."""


def print_record(record: ShotRecord, title: str, lang: str = "en") -> None:
    fi = lang == "fi"
    events = Table(title=title, title_justify="left")
    events.add_column("t (s)", justify="right")
    events.add_column("tapahtuma" if fi else "event")
    events.add_column("pallo" if fi else "ball")
    events.add_column("mihin" if fi else "with")
    for e in record.events:
        fields = e.fields_json()
        other = " ".join(str(v) for k, v in fields.items() if k != "ball")
        words = EVENT_WORDS.get(e.type, (e.type, e.type))
        events.add_row(f"{e.t:.3f}".replace(".", "," if fi else "."), words[not fi], fields["ball"], Text(other))
    console.print(events)
    final = Table(title="Loppuasema" if fi else "Final position", title_justify="left")
    final.add_column("pallo" if fi else "ball")
    final.add_column("x (m)", justify="right")
    final.add_column("y (m)", justify="right")
    for ball in record.position:
        if ball in record.final:
            x, y = record.final[ball]
            xs, ys = f"{x:.4f}", f"{y:.4f}"
            final.add_row(ball.value, xs.replace(".", ",") if fi else xs, ys.replace(".", ",") if fi else ys)
        else:
            final.add_row(ball.value, Text("pussissa" if fi else "pocketed", style="dim"), "")
    console.print(final)
    settled = f"{record.duration:.2f}"
    if fi:
        console.print(f"pallot pysähtyivät {settled.replace('.', ',')} s kuluttua", style="dim", markup=False)
    else:
        console.print(f"balls settled after {settled} s", style="dim", markup=False)


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


PHASES = {
    "lag": ("teikkaus", "lag"),
    "choose": ("lyöntipallon valinta", "choosing the cue ball"),
    "place-w2": ("W2:n asettaminen", "placing W2"),
    "play": ("peli", "play"),
    "shootout-lag": ("rangaistuslyöntien teikkaus", "shoot-out lag"),
    "shootout": ("rangaistuslyönnit", "penalty shoot-out"),
    "over": ("päättynyt", "over"),
}
"""The match's phases as the live view names them, (fi, en)."""

WORDS = {
    "fi": {
        "player": "pelaaja", "ball": "pallo", "score": "pisteet", "innings": "lyöntivuorot", "stroke": "lyönti",
        "run": "sarja", "no points": "ei pisteitä", "clock": "kello", "left": "jäljellä",
        "final innings": "viimeiset lyöntivuorot", "scoresheet": "Pöytäkirja", "points": "pisteet",
        "recorded": "pöytäkirjaan", "winner": "voittaja", "with": "pallolla",
        "legend": "pisteet: pistetilanne lopussa; pöytäkirjaan: merkittävä tulos (voittajalle {target} tai yli "
        "merkitään {target}, kohta 3)",
    },
    "en": {
        "player": "player", "ball": "ball", "score": "score", "innings": "innings", "stroke": "stroke", "run": "run",
        "no points": "no points", "clock": "clock", "left": "left", "final innings": "final innings",
        "scoresheet": "Scoresheet", "points": "points", "recorded": "recorded", "winner": "winner", "with": "with",
        "legend": "points: the score at the end; recorded: the scoresheet's figure (a winner at {target} or more is "
        "written {target}, rule 3)",
    },
}  # fmt: skip
"""The live view's and the scoresheet's words in Finnish and English."""


def result_reason(reason: str, lang: str) -> str:
    """How the match ended, in ``lang``: the match states it in English (stored as such), so the Finnish is
    looked up here (an unknown reason is shown as stored)."""
    if lang == "en":
        return reason
    fixed = {
        "penalty shoot-out: higher score after the innings (6)": (
            "rangaistuslyöntiratkaisu: enemmän pisteitä kymmenen lyöntivuoron jälkeen (6)"
        ),
    }
    if reason in fixed:
        return fixed[reason]
    if (won := re.fullmatch(r"(\d+) points \(3\)", reason)) is not None:  # 60, or a competition's target
        return f"{won[1]} pistettä (3)"
    clause, _, rest = reason.partition(": ")
    if rest.endswith(" forfeits"):
        return f"{clause}: {rest.removesuffix(' forfeits')}-pelaaja on hävinnyt ottelun kohdan {clause} mukaisesti"
    return reason


def match_view(match: Any, entry: Any = None, lang: str = "en") -> Group:
    state = match.state
    names = match.config.players
    w = WORDS[lang]
    phase = PHASES.get(state.phase.value, (state.phase.value, state.phase.value))[lang == "en"]
    table = Table(title=Text(f"Kaisa: {names[0]} v {names[1]}  ({phase})"), title_justify="left")
    table.add_column(w["player"])
    table.add_column(w["ball"])
    table.add_column(w["score"], justify="right")
    table.add_column(w["innings"], justify="right")
    for i, name in enumerate(names):
        ball = state.owners[i] if state.owners else None
        at_table = state.owners is not None and state.game.shooter is ball and state.phase.value in ("play", "shootout")
        table.add_row(
            Text(("▶ " if at_table else "  ") + name),
            ball.value if ball else "-",
            str(state.game.scores[ball]) if ball else "0",
            str(state.innings[ball]) if ball else "0",
        )
    ruling = entry.outcome.ruling if entry is not None else None
    line = ""
    if ruling is not None:
        last = "; ".join(f"{x.clause}: {getattr(x, lang)}" for x in (*ruling.items, *ruling.fouls))
        line = f"{w['stroke']} {state.strokes}, {w['run']} {state.run}: {last or w['no points']}"
    parts: list[Any] = [table, Text(line, style="dim")]
    if match.config.clock.mode != "off":
        clock = state.clock
        left = max(0.0, clock.limit - clock.elapsed)
        final = (
            ""
            if not clock.final_innings  # none yet, or all played
            else f"; {w['final innings']}: {' '.join(b.value for b in clock.final_innings)}"
        )
        parts.append(
            Text(
                f"{w['clock']} {_mmss(clock.elapsed)} / {_mmss(clock.limit)} ({_mmss(left)} {w['left']}){final}",
                style="cyan",
            )
        )
    return Group(*parts)


def _mmss(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def print_scoresheet(match: Any, lang: str = "en") -> None:
    state = match.state
    result = state.result
    w = WORDS[lang]
    sheet = Table(title=w["scoresheet"], title_justify="left")
    for col in ("player", "ball", "points", "recorded", "innings"):
        sheet.add_column(w[col])
    for i, name in enumerate(match.config.players):
        ball = state.owners[i] if state.owners else None
        if ball is None:
            continue
        recorded = str(result.recorded[ball]) if result else "-"
        sheet.add_row(Text(name), ball.value, str(state.game.scores[ball]), recorded, str(state.innings[ball]))
    console.print(sheet)
    if result is not None:
        winner = escape(match.config.players[state.player_of(result.winner)])
        reason = escape(result_reason(result.reason, lang))
        console.print(f"{w['winner']}: [bold]{winner}[/] {w['with']} {result.winner.value}; {reason}")
        console.print(w["legend"].format(target=match.config.options.winning_score), style="dim", markup=False)


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
    strokes = Table(title="How to play them", title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("call", "speed", "direction", "side", "follow", "elevation", "from hand at"):
        strokes.add_column(col, justify="left" if col == "call" else "right", no_wrap=True)
    for e in ranked:
        s = e.stroke
        strokes.add_row(
            Text("(safety)" if e.call is None else format_call(e.call)), f"{s.speed:.2f} m/s", f"{s.direction:.2f}°",
            f"{s.side:+.2f}", f"{s.follow:+.2f}", f"{s.elevation:.0f}°",
            "" if s.place is None else f"{s.place[0]:.3f}, {s.place[1]:.3f}",
        )  # fmt: skip
    console.print(strokes)
    console.print(
        "direction: degrees from +x (90 = towards the foot); side and follow: the tip's offset in ball radii "
        "(+ right / above centre, - left / draw)",
        style="dim",
    )
    console.print(
        "leave: the expected points of the next shot, ours (+) if the turn goes on, the opponent's (-) if it"
        f" passes; score = points + {position_weight:g} x leave + {win_value:g} x win"
    )


STATS_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "one": "Statistics over 1 match",
        "many": "Statistics over {n} matches",
        "columns": "player games won lost points inn. avg runs pots fouls",
        "key": "inn. = innings; avg = points per inning; runs = longest/second run (sarja); pots = called pots made",
    },
    "fi": {
        "one": "Tilastot, 1 ottelu",
        "many": "Tilastot, {n} ottelua",
        "columns": "pelaaja ott. V T pist. vuor. ka sarjat puss. virh.",
        "key": "ott. = ottelut; V = voitot; T = tappiot; pist. = pisteet; vuor. = lyöntivuorot; ka = pisteitä"
        " vuoroa kohden; sarjat = pisin/toiseksi pisin sarja; puss. = onnistuneet ilmoitetut pussitukset;"
        " virh. = virheet",
    },
}
"""The words of ``kaisa stats`` in each language (the columns space-separated, in order)."""


def print_stats(totals: Sequence[PlayerTotals], matches: int, lang: str = "en") -> None:
    """Per-player figures in columns that fit 80 characters: won-lost, points, innings, points per inning
    (avg), the two longest runs, called-pot success and fouls; Finnish with a decimal comma."""
    words = STATS_WORDS[lang]
    title = words["one"] if matches == 1 else words["many"].format(n=matches)
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    player, *columns = words["columns"].split()
    table.add_column(player, overflow="fold", max_width=20)
    for col in columns:
        table.add_column(col, justify="right", no_wrap=True)

    def decimal(value: float) -> str:
        text = f"{value:.2f}"
        return text.replace(".", ",") if lang == "fi" else text

    percent = "{:.0f} %" if lang == "fi" else "{:.0f}%"
    for t in totals:
        ppi, success = t.points_per_inning, t.called_pot_success
        table.add_row(
            Text(t.name), str(t.matches), str(t.wins), str(t.losses), str(t.points), str(t.innings),
            "-" if ppi is None else decimal(ppi), f"{t.longest_run}/{t.second_longest_run}",
            "-" if success is None else percent.format(100 * success), str(t.fouls),
        )  # fmt: skip
    console.print(table)
    console.print(Text(words["key"], style="dim"))


def print_match_list(infos: Sequence[MatchInfo], url: str) -> None:
    """Stored matches, one line each, in columns that fit 80 characters."""
    table = Table(title=f"Stored matches in {url}", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("id", justify="right", no_wrap=True)
    table.add_column("players", overflow="fold", max_width=30)
    table.add_column("status", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("acts", justify="right", no_wrap=True)
    table.add_column("updated (UTC)", no_wrap=True)
    for m in infos:
        players = Text(f"{m.players[0].name} ({m.players[0].kind}) v {m.players[1].name} ({m.players[1].kind})")
        result = "-"
        if m.result is not None:
            result = f"{m.result.winner.value} {m.result.recorded[BallId.W1]}-{m.result.recorded[BallId.W2]}"
        table.add_row(str(m.id), players, m.status, result, str(m.actions), m.updated_at.strftime("%Y-%m-%d %H:%M"))
    if not infos:
        console.print(Text(f"no stored matches in {url}"))
        return
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
