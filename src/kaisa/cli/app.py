"""The ``kaisa`` console script (Typer + rich).

Heavy imports (pooltool, numba) happen inside the commands, so ``kaisa --help`` stays fast.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from kaisa import __version__
from kaisa.call import format_call
from kaisa.errors import KaisaError
from kaisa.model import BallId, Position, ShotRecord, Stroke

app = typer.Typer(
    name="kaisa",
    help="Kaisa, the Finnish five-ball billiards game: simulate, referee and play.",
    no_args_is_help=True,
    add_completion=False,
)
bench_app = typer.Typer(help="Benchmarks that print speed ratios against a baseline measured side by side.")
app.add_typer(bench_app, name="bench")

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
    from kaisa.physics import kernels_cached, warm_up

    if kernels_cached():
        return
    if quiet:
        warm_up()
        return
    with err_console.status(
        "Compiling the physics engine's kernels (first run only, about 25 s; cached afterwards)...", spinner="dots"
    ):
        warm_up()


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        console.print(f"kaisa {__version__}")
        raise typer.Exit()


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


@app.command()
def simulate(
    position: Annotated[Path, typer.Option("--position", help='Position JSON: {"balls": {"W1": [x, y], ...}}.')],
    stroke: Annotated[
        Path, typer.Option("--stroke", help='Stroke JSON: {"ball": "W1", "speed": 2.0, "direction": 90.0, ...}.')
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the event log and final position as JSON.")] = False,
    trajectories: Annotated[
        float | None, typer.Option("--trajectories", help="Also sample ball paths at this rate (Hz), for animation.")
    ] = None,
) -> None:
    """Simulate one stroke and print its events and the final position."""
    from kaisa.physics import simulate as run

    try:
        pos = Position.from_json(read_json(position, "position"))
        stk = Stroke.from_json(read_json(stroke, "stroke"))
        ensure_physics_ready(quiet=as_json)
        record = run(pos, stk, trajectories=trajectories)
    except KaisaError as exc:
        fail(str(exc))
    except ValueError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(json.dumps(record.to_json(), indent=2) + "\n")
    else:
        print_record(record, f"{stk.ball.value} at {stk.speed} m/s, direction {stk.direction} deg")


@app.command()
def rule(
    position: Annotated[Path, typer.Option("--position", help="Starting position JSON.")],
    call: Annotated[str, typer.Option("--call", help="The call, e.g. 'K FL' or 'kyyti R1 K FR' (see README).")],
    stroke: Annotated[Path | None, typer.Option("--stroke", help="Stroke JSON: simulate it, then rule it.")] = None,
    events: Annotated[
        Path | None, typer.Option("--events", help="Event log JSON (a list, or simulate's output): rule it as given.")
    ] = None,
    state: Annotated[Path | None, typer.Option("--state", help="Game state JSON (scores, shooter, flags).")] = None,
    options: Annotated[
        Path | None, typer.Option("--options", help="Rule options JSON (see kaisa.referee.RuleOptions).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ruling as JSON (the stable contract).")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Language of the explanations: fi or en.")] = "en",
) -> None:
    """Rule one stroke by the 2014 rulebook: simulate --stroke, or take --events as they happened."""
    from kaisa.call import parse_call
    from kaisa.model import events_from_json
    from kaisa.referee import GameState, RuleOptions, StrokeLog, judge, observe

    if (stroke is None) == (events is None):
        fail("give exactly one of --stroke (simulate the stroke) or --events (rule a recorded event log)")
    if lang not in ("fi", "en"):
        fail(f"--lang must be fi or en, not {lang!r}")
    try:
        start = Position.from_json(read_json(position, "position"))
        the_call = None if call.strip().lower() in ("", "none", "-") else parse_call(call)
        game = GameState.from_json(read_json(state, "state")) if state else GameState()
        rules = RuleOptions.from_json(read_json(options, "options")) if options else RuleOptions()
        if stroke is not None:
            from kaisa.physics import simulate as run

            stk = Stroke.from_json(read_json(stroke, "stroke"))
            ensure_physics_ready(quiet=as_json)
            log = StrokeLog.of(run(start, stk))
        else:
            assert events is not None
            raw = read_json(events, "events")
            final = Position.from_json(raw["final"]) if isinstance(raw, dict) and "final" in raw else None
            log = StrokeLog.from_events(start, events_from_json(raw), final)
        ruling = judge(observe(log, the_call, options=rules), the_call, game, options=rules)
    except KaisaError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(json.dumps(ruling.to_json(), indent=2, ensure_ascii=False) + "\n")
        return
    print_ruling(ruling, lang)


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


@app.command("match")
def match_command(
    p1: Annotated[str, typer.Option("--p1", help="Player 1: a computer player kind (baseline).")] = "baseline",
    p2: Annotated[str, typer.Option("--p2", help="Player 2: a computer player kind (baseline).")] = "baseline",
    seed: Annotated[int, typer.Option("--seed", help="Seed for the players' decisions and noise.")] = 1,
    clock: Annotated[str, typer.Option("--clock", help="Competition clock: off, sim or wall.")] = "off",
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Also write the match notation to this file.")] = None,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store the match in a database.")] = False,
) -> None:
    """Play a whole match between computer players, with a live view, and print the scoresheet."""
    from rich.live import Live

    from kaisa.game import ClockConfig, Match, MatchConfig
    from kaisa.players import MatchStalledError, make_player, play_match

    if clock not in ("off", "sim", "wall"):
        fail(f"--clock must be off, sim or wall, not {clock!r}")
    try:
        players = (make_player(p1, f"{p1} 1", seed), make_player(p2, f"{p2} 2", seed + 1))
    except ValueError as exc:
        fail(str(exc))
    config = MatchConfig(players=(players[0].name, players[1].name), clock=ClockConfig(clock))
    ensure_physics_ready()
    match = Match(config)
    callbacks = []
    store_note = ""
    if not no_db:
        from kaisa.records.storage import StorageError, open_store

        try:
            store = open_store(db)
            match_id = store.create_match(config, seed=seed, kinds=(p1, p2))
        except StorageError as exc:
            fail(str(exc))
        callbacks.append(store.recorder(match_id))
        store_note = f"match {match_id} stored in {store.url}"
    with Live(match_view(match), console=console, refresh_per_second=8, transient=False) as live:

        def on_entry(m: Any, entry: Any) -> None:
            for callback in callbacks:
                callback(m, entry)
            live.update(match_view(m, entry))

        try:
            play_match(match, players, on_entry=on_entry)
        except MatchStalledError as exc:
            fail(str(exc))
    print_scoresheet(match)
    if store_note:
        console.print(f"[dim]{store_note}[/]")
    if record is not None:
        from kaisa.records.notation import write_match

        record.write_text(write_match(match), encoding="utf-8")
        console.print(f"[dim]notation written to {record}[/]")


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


@app.command("advise")
def advise_command(
    position: Annotated[Path, typer.Option("--position", help="Position JSON.")],
    state: Annotated[
        Path | None, typer.Option("--state", help="Game state JSON (default: W1 at the table, 0-0).")
    ] = None,
    level: Annotated[str, typer.Option("--level", help="Search level: beginner, club or master.")] = "master",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the noisy evaluation.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The best calls in a position with their pot probability, expected points and foul risk."""
    from kaisa.physics import validate_position
    from kaisa.players.search import LEVELS, WIN_VALUE, advise
    from kaisa.referee import GameState

    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
    try:
        pos = Position.from_json(read_json(position, "position"))
        game = GameState.from_json(read_json(state, "state")) if state else GameState()
        validate_position(pos)
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
    table = Table(title=f"Advice ({level}) for {game.shooter.value}", title_justify="left")
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
        f" passes; score = points + {LEVELS[level].position_weight:g} x leave + {WIN_VALUE:g} x win"
    )


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record in the match notation.")],
    store_it: Annotated[
        bool, typer.Option("--store", help="After verifying it, store the match in the database.")
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL for --store (default: SQLite in the user data dir).")
    ] = None,
) -> None:
    """Re-play a match record stroke by stroke and check that every ruling and the result come out the same."""
    from kaisa.records.notation import replay_record

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    ensure_physics_ready()
    try:
        with err_console.status("re-playing every stroke..."):
            match = replay_record(text)
    except KaisaError as exc:
        fail(str(exc))
    console.print(
        f"[green]verified[/]: {len(match.stack)} actions, {match.state.strokes} strokes, every ruling as recorded"
    )
    print_scoresheet(match)
    if store_it:
        from kaisa.records.storage import open_store

        try:
            store = open_store(db)
            match_id = store.import_match(match)
        except KaisaError as exc:
            fail(str(exc))
        console.print(f"[dim]stored as match {match_id} in {store.url}[/]")


@app.command("stats")
def stats_command(
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    record: Annotated[
        list[Path] | None, typer.Option("--record", help="Match record files instead of the database.")
    ] = None,
    match_id: Annotated[int | None, typer.Option("--match", help="Only this stored match.")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Statistics per player: points, innings, runs (sarja), points per inning, called-pot success, fouls."""
    from kaisa.game import replay
    from kaisa.records.stats import aggregate, match_stats, record_stats, to_csv, to_json

    ensure_physics_ready(quiet=as_csv or as_json)
    try:
        if record:
            matches = [record_stats(path.read_text(encoding="utf-8")) for path in record]
        else:
            from kaisa.records.storage import open_store

            store = open_store(db)
            ids = [match_id] if match_id is not None else [m.id for m in store.list_matches()]
            matches = []
            for mid in ids:
                config, _, actions = store.load(mid)
                matches.append(match_stats(replay(config, actions), event=f"match {mid}"))
    except (KaisaError, OSError) as exc:
        fail(str(exc))
    totals = aggregate(matches)
    if as_csv:
        sys.stdout.write(to_csv(totals))
        return
    if as_json:
        sys.stdout.write(to_json(totals) + "\n")
        return
    table = Table(title=f"Statistics over {len(matches)} match(es)", title_justify="left")
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


@app.command("play")
def play_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (only this machine by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
) -> None:
    """The browser table: serve the page and its API, and open it in the browser (the main job)."""
    serve(host, port, db, no_browser, "/")


@app.command("club")
def club_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (0.0.0.0 for the club's tablets).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
) -> None:
    """Scorekeeping for real club matches: the same server, opening the marker's page (/club); the spectator
    scoreboard is at /scoreboard."""
    serve(host, port, db, no_browser, "/club")


def serve(host: str, port: int, db: str | None, no_browser: bool, page: str) -> None:
    import socket
    import threading
    import webbrowser

    import uvicorn

    from kaisa.records.storage import StorageError, open_store
    from kaisa.web import create_app

    try:
        store = open_store(db)
    except StorageError as exc:
        fail(str(exc))
    ensure_physics_ready()
    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port (0 picks a free one)")
    bound = sock.getsockname()[1]
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{bound}{page}"
    what = "the marker's page" if page == "/club" else "the table"
    console.print(f"[bold]Kaisa {__version__}[/]: {what} is at [link={url}]{url}[/link]  (matches in {store.url})")
    console.print("[dim]Ctrl+C stops the server; matches are saved after every stroke.[/]")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(create_app(store, close_store=True), log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        from kaisa.players.search import close_pool

        close_pool()  # the computer players' and the advisor's worker processes go with the server


@app.command()
def demo() -> None:
    """Break from the official starting position and show what happened (the main job, for now)."""
    from kaisa.layouts import starting_position
    from kaisa.physics import simulate as run
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


@app.command("table")
def table_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the table spec as JSON.")] = False,
) -> None:
    """Show the official table: size, pockets and their jaw points, rails, lines and spots."""
    from kaisa.table import OFFICIAL, table_to_json

    data = table_to_json(OFFICIAL)
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    console.print(
        f"Playing area {OFFICIAL.width * 1000:.0f} x {OFFICIAL.length * 1000:.0f} mm, "
        f"balls {OFFICIAL.ball_diameter * 1000:.0f} mm / {OFFICIAL.ball_mass * 1000:.0f} g"
    )
    pockets = Table(title="Pockets", title_justify="left")
    for col in ("pocket", "mouth (mm)", "jaw points (m)", "adjacent rails"):
        pockets.add_column(col)
    for p in OFFICIAL.pockets.values():
        jaws = "  ".join(f"({j.point[0]:.4f}, {j.point[1]:.4f})" for j in p.jaws)
        pockets.add_row(p.id.value, f"{p.mouth * 1000:.0f}", jaws, ", ".join(r.value for r in p.adjacent_rails))
    console.print(pockets)
    spots = Table(title="Spots", title_justify="left")
    spots.add_column("spot")
    spots.add_column("x, y (m)")
    for sid, (x, y) in OFFICIAL.spots.items():
        spots.add_row(sid.value, f"{x:.4f}, {y:.4f}")
    console.print(spots)


@bench_app.command("physics")
def bench_physics(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes per side.")] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the stroke set.")] = 2014,
) -> None:
    """Our simulate vs raw pooltool on the same seeded 5-ball strokes, alternating, in one process."""
    from kaisa.bench.physics import physics_benchmark, print_physics_report

    ensure_physics_ready()
    print_physics_report(physics_benchmark(strokes=strokes, seed=seed, console=console), console)


@bench_app.command("referee")
def bench_referee(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes to simulate and rule.")] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the strokes and calls.")] = 2014,
) -> None:
    """Observe + judge vs simulate on the same seeded strokes: the referee's share of a stroke's cost."""
    from kaisa.bench.referee import print_referee_report, referee_benchmark

    ensure_physics_ready()
    print_referee_report(referee_benchmark(strokes=strokes, seed=seed, console=console), console)


@bench_app.command("web")
def bench_web(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=10_000, help="Strokes to answer over HTTP.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts, strokes and calls.")] = 2014,
) -> None:
    """The browser table's answer to a stroke (simulate, rule, paths, record) vs the bare simulate call."""
    from kaisa.bench.web import print_web_report, web_benchmark

    ensure_physics_ready()
    print_web_report(web_benchmark(strokes=strokes, seed=seed, console=console), console)


@bench_app.command("env")
def bench_env(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes to play both ways.")] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts, strokes and calls.")] = 2014,
) -> None:
    """Environment steps per second next to bare simulate-and-rule calls on the same strokes."""
    from kaisa.bench.env import env_benchmark, print_env_report

    ensure_physics_ready()
    print_env_report(env_benchmark(strokes=strokes, seed=seed, console=console), console)


@bench_app.command("ai")
def bench_ai(
    layouts: Annotated[
        int, typer.Option("--layouts", min=1, max=100_000, help="Seeded 5-ball layouts for the single-shot tests.")
    ] = 200,
    games: Annotated[
        int, typer.Option("--games", min=0, max=10_000, help="Matches of each kind against the baseline.")
    ] = 10,
    noise: Annotated[float, typer.Option("--noise", min=0.0, help="Stroke-noise scale (1 = the convention).")] = 1.0,
    kinds: Annotated[
        str | None,
        typer.Option("--kinds", help="Player kinds to compare with the baseline, comma-separated (default: all)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts and the players.")] = 2014,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Write a plot of the noise sweep's called-pot success (.png, .svg or .pdf)."),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option("--sweep", help="Noise scales for a sweep, e.g. 0.5,1,2 (with --plot: 0,0.5,1,2,4 if not given)."),
    ] = None,
) -> None:
    """Computer players side by side with the baseline on the same seeded layouts and matches."""
    from kaisa.bench.ai import DEFAULT_SWEEP, ai_benchmark, print_ai_report, write_sweep_plot
    from kaisa.players import PLAYER_KINDS

    chosen = [k.strip() for k in (kinds.split(",") if kinds is not None else PLAYER_KINDS) if k.strip()]
    unknown = [k for k in chosen if k not in PLAYER_KINDS]
    if unknown:
        fail(f"unknown player kind {', '.join(unknown)}; the kinds are {', '.join(PLAYER_KINDS)}")
    if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
        fail(f"--plot {plot}: the plot is written as .png, .svg or .pdf, chosen by the file's suffix")
    scales = list(DEFAULT_SWEEP) if plot is not None and sweep is None else []
    if sweep is not None:
        try:
            scales = [float(part) for part in sweep.split(",") if part.strip()]
        except ValueError:
            fail(f"--sweep takes comma-separated noise scales, e.g. 0.5,1,2, not {sweep!r}")
        if not scales or not all(math.isfinite(s) and s >= 0 for s in scales):
            fail(f"--sweep takes finite noise scales >= 0, not {sweep!r}")
    ensure_physics_ready()
    try:
        result = ai_benchmark(chosen, layouts, games, noise, seed, console, sweep=scales)
    except ValueError as exc:
        fail(str(exc))
    print_ai_report(result, console)
    if plot is not None:
        try:
            write_sweep_plot(result, plot)
        except OSError as exc:
            fail(f"cannot write {plot}: {exc.strerror or exc}")
        console.print(f"[dim]plot written to {plot}[/]")


@app.command("tournament")
def tournament_command(
    players: Annotated[
        str, typer.Option("--players", help="Computer players, comma-separated kinds, e.g. baseline,beginner,club.")
    ],
    games: Annotated[int, typer.Option("--games", help="Games per pair of players (sides alternate).")] = 2,
    backend: Annotated[
        str, typer.Option("--backend", help="Where the games run: local (process pool) or ray.")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="Ray cluster to join (host:port, ray://host:port or auto).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Parallel games (local pool, or a local Ray's CPUs); default min(2, cores)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole tournament (>= 0).")] = 2014,
    noise: Annotated[float, typer.Option("--noise", help="Stroke-noise scale (1 = the convention).")] = 1.0,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write results.csv, results.json and ratings.png into this directory.")
    ] = None,
) -> None:
    """A round robin between computer players: every match stored, players rated (Bradley-Terry, Elo scale)."""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kaisa.records.storage import StorageError, open_store
    from kaisa.tournament import (
        GameResult,
        TournamentError,
        check_address,
        import_ray,
        make_backend,
        print_tournament,
        run_tournament,
        schedule,
        write_outputs,
    )

    kinds = [k.strip() for k in players.split(",") if k.strip()]
    try:
        schedule(kinds, games, seed, noise)  # checks the players, games, seed and noise before anything runs
        make_backend(backend, workers=workers, address=address)
        if backend == "ray":
            import_ray()
            if address is not None:
                check_address(address)
    except TournamentError as exc:
        fail(escape(str(exc)))
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)  # before the games, not after them
        except OSError as exc:
            fail(escape(f"--out {out}: cannot make the results directory: {exc.strerror or exc}"))
    try:
        store = open_store(db)
    except StorageError as exc:
        fail(escape(str(exc)))
    ensure_physics_ready()
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else "a local Ray instance (about 10 s)"
        console.print(f"[dim]starting {where}...[/]")
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True,
    )  # fmt: skip
    task = progress.add_task(f"tournament on the {backend} backend", total=None)

    def on_start(total: int) -> None:  # after the local pool's workers are forked
        progress.update(task, total=total)
        progress.start()

    def on_game(result: GameResult) -> None:
        progress.update(task, advance=1, description=f"{result.spec.names[0]} v {result.spec.names[1]}")

    try:
        with store:
            result = run_tournament(
                kinds, games, seed=seed, noise=noise, backend=backend, workers=workers, address=address,
                store=store, on_start=on_start, on_game=on_game,
            )  # fmt: skip
    except (TournamentError, StorageError) as exc:
        progress.stop()
        fail(escape(str(exc)))
    progress.stop()
    print_tournament(result, console)
    if out is not None:
        try:
            paths = write_outputs(result, out)
        except OSError as exc:
            fail(escape(f"cannot write the results into {out}: {exc.strerror or exc}"))
        console.print(f"[dim]results written to {out}: {', '.join(p.name for p in paths)}[/]")


def main() -> None:
    app()
