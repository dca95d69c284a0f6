"""``kaisa kaavio``: run a competition (kaavio) from the command line, on a JSON file.

kaisa kaavio new kisa.json --name "Viikkokisa" --type Pudari3Kierros --tables 1,2,3
kaisa kaavio add kisa.json "Virtanen Matti" --club PVK
kaisa kaavio draw kisa.json --seed 7
kaisa kaavio start kisa.json 3 --table 2
kaisa kaavio result kisa.json 3 60 41
kaisa kaavio show kisa.json [--lang fi]
kaisa kaavio placings kisa.json
kaisa kaavio export kisa.json kisa.xml   /   kaisa kaavio import kisa.xml kisa.json
kaisa kaavio import kilpailu.xml --db kaisa.sqlite3   # into the club's database: it joins the ranking series
kaisa kaavio pdf kisa.json tulokset.pdf [--what sheets --blanks 4] [--lang en]
kaisa kaavio csv kisa.json tulokset.csv [--what placings] [--lang en]
kaisa kaavio replay kilpailu.xml --tables 4      # a KaisaKaavio file's results through this search

The commands that give out and take in files (placings, ranking, export, import, replay, pdf, csv) are in
:mod:`kaisa.cli.kaavio_papers`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.table import Table
from rich.text import Text

from kaisa.cli.common import console, fail, read_json

if TYPE_CHECKING:
    from kaisa.competition import Kaavio

T = TypeVar("T")

app = typer.Typer(help="Competitions: the Finnish double-elimination draw (kaavio).", no_args_is_help=True)

FileArg = Annotated[Path, typer.Argument(help="The competition's JSON file.")]


def _say(message: str) -> None:
    """Print plain text: a name such as ``[bold]x`` or ``[/]`` is printed as written, never read as markup."""
    console.print(message, markup=False, highlight=False)


def _row(t: Table, *cells: object) -> None:
    t.add_row(*(Text(str(c)) for c in cells))


def _load(path: Path) -> Kaavio:
    from kaisa.competition import CompetitionError, Kaavio
    from kaisa.errors import KaisaError

    data = read_json(path, "competition")
    try:
        return Kaavio.from_json(data)
    except (KeyError, TypeError, ValueError, KaisaError, CompetitionError) as exc:
        fail(f"the competition file {path} is not a kaavio: {exc}")


def _save(path: Path, k: Kaavio) -> None:
    """Write atomically: nothing stored is half-written; a missing folder or a folder given is one clear line."""
    _write_out(path, json.dumps(k.to_json(), ensure_ascii=False, indent=1).encode("utf-8"))


def _guard(fn: Callable[[], T], lang: str = "en") -> T:
    from kaisa.competition import CompetitionError

    try:
        return fn()
    except CompetitionError as exc:
        fail(f"{exc.fi if lang == 'fi' else exc.en} [{exc.code}]")


LangOpt = Annotated[str, typer.Option("--lang", help="Language of what is printed: fi or en.")]


def _doc_lang(lang: str) -> str:
    if lang not in ("fi", "en"):
        fail(f"--lang {lang!r} is not a language of the documents; use fi or en")
    return lang


def _write_out(out: Path, data: bytes) -> None:
    """Write a document atomically; a missing folder or an unwritable file is one clear line."""
    if out.is_dir():
        fail(f"{out} is a folder; give the file to write")
    if not out.parent.is_dir():
        fail(f"the folder {out.parent} does not exist")
    tmp = out.with_name(out.name + ".tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, out)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")


@app.command("new")
def new(
    path: FileArg,
    name: Annotated[str, typer.Option("--name", help="The competition's name.")],
    kind: Annotated[
        str, typer.Option("--type", help="TuplaKaavio, Pudari2Kierros..Pudari6Kierros, KaksiKierrostaJaCup.")
    ] = "TuplaKaavio",
    date: Annotated[str, typer.Option("--date", help="YYYY-MM-DD.")] = "",
    club: Annotated[str, typer.Option("--club")] = "",
    tables: Annotated[str, typer.Option("--tables", help="Table numbers, comma separated.")] = "1",
    target: Annotated[int, typer.Option("--target", min=10, max=200, help="Points to win a game, 10 to 200.")] = 60,
    placing: Annotated[str, typer.Option("--placing", help="points, finalists, top3, cup.")] = "points",
    seeding: Annotated[str, typer.Option("--seeding", help="none, 8, 24.")] = "none",
    search_rerun: Annotated[
        str,
        typer.Option(
            "--search-rerun",
            help="kaisakaavio: the search runs once per result and once more when KaisaKaavio would (KAAVIO 4.3); "
            "until_settled: again until it adds nothing (games come out earlier, sometimes other pairs).",
        ),
    ] = "kaisakaavio",
) -> None:
    """Create a competition file."""
    from kaisa.competition import Kaavio, KaavioType, PlacingMode, SearchRerun, Seeding, Settings

    if path.exists():
        fail(f"{path} already exists; choose another file name")
    if not path.parent.is_dir():
        fail(f"the folder {path.parent} does not exist")
    try:
        settings = Settings(
            name=name,
            date=date,
            club=club,
            kind=KaavioType(kind),
            target=target,
            placing=PlacingMode(placing),
            seeding=Seeding(seeding),
            tables=tuple(t.strip() for t in tables.split(",") if t.strip()),
            search_rerun=SearchRerun(search_rerun),
        )
    except ValueError as exc:
        fail(
            f"{exc}; types: {', '.join(t.value for t in KaavioType)}; placings: points, finalists, top3, cup; "
            f"seeding: none, 8, 24; search rerun: {', '.join(SearchRerun)}"
        )
    _save(path, Kaavio(settings))
    _say(f"created {path}")


@app.command("add")
def add(
    path: FileArg,
    name: Annotated[str, typer.Argument(help="The player's name.")],
    club: Annotated[str, typer.Option("--club")] = "",
    seed: Annotated[int, typer.Option("--seed", min=0, max=24, help="Seed number (0 = unseeded).")] = 0,
) -> None:
    """Register a player (late entries until a round-2 game starts)."""
    k = _load(path)
    p = _guard(lambda: k.add_player(name, club, seed))
    _save(path, k)
    _say(f"{p.name} registered" + (f" as number {p.number}" if p.number else ""))


@app.command("draw")
def draw(path: FileArg, seed: Annotated[int | None, typer.Option("--seed", help="Seed of the draw.")] = None) -> None:
    """Draw numbers and make rounds 1 and 2."""
    k = _load(path)
    _guard(lambda: k.draw(seed))
    _save(path, k)
    _say(f"drawn with seed {k.draw_seed}: {len(k.games)} games")
    _show(k)


@app.command("start")
def start(path: FileArg, game: int, table: Annotated[str, typer.Option("--table")] = "") -> None:
    """Start a ready game on a table (the first free one if none is given)."""
    k = _load(path)
    g = _guard(lambda: k.start(game, table))
    _save(path, k)
    _say(f"game {g.number} started on table {g.table or '-'}")


@app.command("result")
def result(
    path: FileArg,
    game: int,
    points1: str,
    points2: str,
    innings: Annotated[int, typer.Option("--innings", min=0, max=10_000)] = 0,
    lang: LangOpt = "en",
) -> None:
    """Record (or correct) a game's result; the search runs and its new games are listed. A score that decides
    nothing (neither at the target, no v or h) is kept as an interim score, and said so."""
    from kaisa.competition.kaavio import interim_text

    lang = _doc_lang(lang)
    k = _load(path)
    added = _guard(lambda: k.record(game, points1, points2, innings=innings), lang)
    _save(path, k)
    interim = interim_text(k, game)
    if interim is not None:
        _say(interim.fi if lang == "fi" else interim.en)
        return
    fi = lang == "fi"
    _say(f"Pelin {game} tulos on kirjattu." if fi else f"Game {game}'s result is recorded.")
    for g in added:
        other = _who(k, g.player2) if g.player2 is not None else "w.o."
        new = f"uusi peli {g.number}" if fi else f"new game {g.number}"
        _say(f"{new}: {_who(k, g.player1)} – {other} ({'kierros' if fi else 'round'} {g.round})")
    winner = k.winner()
    if winner is not None:
        name = _who(k, winner)
        _say(f"Kilpailu on päättynyt; voittaja {name}." if fi else f"The competition is over; winner {name}.")


@app.command("pair")
def pair(path: FileArg, a: int, b: int, reason: Annotated[str, typer.Option("--reason")]) -> None:
    """Pair two players by hand (hae käsin), with the reason recorded."""
    k = _load(path)
    g = _guard(lambda: k.pair_by_hand(a, b, reason))
    _save(path, k)
    _say(f"game {g.number} made by hand")


_SHOW_COLUMNS = {
    "fi": (
        ("peli", "kierros", "pelaaja 1", "tulos", "pelaaja 2", "tila", "pöytä"),
        ("nro", "pelaaja", "seura", "voitot–tappiot", "tilanne"),
    ),
    "en": (
        ("game", "round", "player 1", "result", "player 2", "state", "table"),
        ("no.", "player", "club", "won–lost", "status"),
    ),
}
_SHOW_WORDS = {
    "fi": {
        "registered": "Ilmoittautuneet",
        "out": "Pudonneet",
        "waiting": "Odottavat vastustajaa",
        "in": "mukana",
        "is_out": "pudonnut",
        "waits": "odottaa vastustajaa",
        "playing": "pelaa",
        "winner": "voittaja",
        "by_hand": "haettu käsin",
        "none": "ei ketään",
    },
    "en": {
        "registered": "Registered",
        "out": "Out",
        "waiting": "Waiting for an opponent",
        "in": "in",
        "is_out": "out",
        "waits": "waiting for an opponent",
        "playing": "playing",
        "winner": "winner",
        "by_hand": "paired by hand",
        "none": "nobody",
    },
}


def _who(k: Kaavio, number: int) -> str:
    """A player as the terminal names him: draw number and name, with the club where another has the same name."""
    p = k.player(number)
    same = sum(1 for q in k.players if q.name.casefold() == p.name.casefold()) > 1
    name = f"{p.name} ({p.club})" if same and p.club else p.name
    return f"{p.number} {name}" if p.number else name


def _show(k: Kaavio, lang: str = "en") -> None:
    from kaisa.competition.model import hand_reason
    from kaisa.competition.paper import WORDS

    w, states = _SHOW_WORDS[lang], WORDS[lang]
    s = k.settings
    head = " · ".join(x for x in (s.name, _date_text(s.date, lang), s.club, s.kind.label(lang)) if x)
    if k.games:
        t = Table(title=Text(head))
        for i, c in enumerate(_SHOW_COLUMNS[lang][0]):
            t.add_column(c, justify="right" if i < 2 else "center" if i == 3 else "left", overflow="fold")
        for g in k.games:
            n2 = _who(k, g.player2) if g.player2 is not None else "w.o."
            state = states["walkover"] if g.player2 is None else states[g.state.value]
            reason = hand_reason(g.comment)
            if reason is not None:
                state += f"; {w['by_hand']}: {reason}" if reason else f"; {w['by_hand']}"
            score = f"{g.points1 or '0'}–{g.points2 or '0'}" if g.points1 or g.points2 else ""
            _row(t, g.number, g.round, _who(k, g.player1), score, n2, state, g.table)
        console.print(t)
    players = Table(title=Text(f"{w['registered']} ({len(k.players)})"))
    for i, c in enumerate(_SHOW_COLUMNS[lang][1]):
        players.add_column(c, justify="right" if i == 0 else "left", overflow="fold")
    busy = {x for g in k.unfinished() for x in g.pair() if x is not None}
    playing = {x for g in k.running() for x in g.pair() if x is not None}
    winner = k.winner()
    for p in k.players:
        if not k.drawn:
            status = ""
        elif p.number == winner:
            status = w["winner"]
        elif not k.still_in(p.number):
            status = w["is_out"]
        elif p.number in playing:
            status = w["playing"]
        elif p.number not in busy and not k.finished:
            status = w["waits"]
        else:
            status = w["in"]
        record = f"{k.wins(p.number)}–{k.losses(p.number)}" if k.drawn else ""
        _row(players, p.number or "", p.name, p.club, record, status)
    console.print(players)
    if k.drawn and not k.finished:
        out = [_who(k, p.number) for p in k.players if not k.still_in(p.number)]
        waiting = [_who(k, p.number) for p in k.players if k.still_in(p.number) and p.number not in busy]
        _say(f"{w['out']}: " + (", ".join(out) or w["none"]))
        _say(f"{w['waiting']}: " + (", ".join(waiting) or w["none"]))


def _date_text(iso: str, lang: str) -> str:
    from kaisa.competition.paper import date_text

    return date_text(iso, lang)


@app.command("show")
def show(path: FileArg, lang: LangOpt = "en") -> None:
    """The bracket in the terminal: every game with its draw numbers, points, state and table; the players with
    their clubs, wins and losses; who is out and who waits for an opponent."""
    _show(_load(path), _doc_lang(lang))


def bench_kaavio(
    players: Annotated[int, typer.Option("--players", min=16, max=128)] = 128,
    competitions: Annotated[
        int, typer.Option("--competitions", min=1, max=500, help="Random competitions to run (about 10-40 s each).")
    ] = 20,
    tables: Annotated[int, typer.Option("--tables", min=1, max=32)] = 8,
    seed: Annotated[int, typer.Option("--seed")] = 2024,
) -> None:
    """The slowest search over random competitions with games started at random as tables free up."""
    from kaisa.bench.kaavio import kaavio_benchmark, print_kaavio_report

    print_kaavio_report(kaavio_benchmark(players, competitions, seed, tables, console), console)
