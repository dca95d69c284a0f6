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

from kaisa.cli.common import MAX_INPUT_BYTES, console, fail, read_json

if TYPE_CHECKING:
    from kaisa.competition import Kaavio
    from kaisa.competition.model import Share

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
) -> None:
    """Create a competition file."""
    from kaisa.competition import Kaavio, KaavioType, PlacingMode, Seeding, Settings

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
        )
    except ValueError as exc:
        fail(
            f"{exc}; types: {', '.join(t.value for t in KaavioType)}; placings: points, finalists, top3, cup; "
            "seeding: none, 8, 24"
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


_PLACING_WORDS = {
    "fi": ("Sijoitukset", ("sija", "pelaaja", "seura", "voitot", "pisteet", "ranking")),
    "en": ("Placings", ("place", "player", "club", "wins", "points", "ranking")),
}
_RANKING_WORDS = {
    "fi": ("Rankingsarja", ("sija", "pelaaja", "kilpailuja", "pisteet")),
    "en": ("Ranking series", ("rank", "player", "competitions", "points")),
}


_PRIZE_WORDS = {
    "fi": (
        "Rahanjako",
        ("sija", "pelaaja", "palkinto"),
        ("osallistumismaksut", "SBiL:n osuus", "seuran osuus", "jaettavana"),
    ),
    "en": ("Prize split", ("place", "player", "prize"), ("entry fees", "SBiL's share", "club's share", "to split")),
}


def _share(text: str | None) -> Share | None:
    from kaisa.competition import CompetitionError
    from kaisa.competition.model import Share

    if text is None:
        return None
    try:
        return Share.parse(text)
    except CompetitionError as error:
        fail(str(error))


@app.command("placings")
def placings_cmd(
    path: FileArg,
    lang: Annotated[str, typer.Option("--lang", help="Language of the table: fi or en.")] = "en",
    prizes: Annotated[
        bool, typer.Option("--prizes", help="Also the prize split (KAAVIO 10): the competition's settings, or:")
    ] = False,
    fee: Annotated[int | None, typer.Option("--fee", min=0, max=10000, help="Entry fee a player, euros.")] = None,
    sbil: Annotated[str | None, typer.Option("--sbil", help="SBiL's share: euros (20) or a percentage (10%).")] = None,
    club: Annotated[
        str | None, typer.Option("--club", help="The club's share, of what SBiL leaves: 20 or 10%.")
    ] = None,
    winner_weight: Annotated[
        int | None, typer.Option("--winner-weight", min=0, max=100, help="Winner weight v in percent (default 50).")
    ] = None,
    paid: Annotated[
        int | None, typer.Option("--paid", min=1, max=128, help="Paid places (default 3; ties on the last are paid).")
    ] = None,
) -> None:
    """Placings and ranking points once the competition has ended; with --prizes (or any prize option) the prize
    split of the entry fees."""
    from dataclasses import replace

    from kaisa.competition.placings import placings, ranking_points
    from kaisa.competition.placings import prizes as prize_table

    lang = _doc_lang(lang)
    k = _load(path)
    if not k.finished:
        fail("the competition has not ended yet; placings are given when one player is left")
    pts = ranking_points(k)
    title, heads = _PLACING_WORDS[lang]
    t = Table(title=Text(f"{title}: {k.settings.name}"))
    for i, c in enumerate(heads):
        t.add_column(c, justify="left" if i in (1, 2) else "right", overflow="fold")
    for p in placings(k):
        _row(t, p.place, p.name, k.player(p.number).club, p.wins, p.points, pts[p.number])
    console.print(t)
    given = (fee, sbil, club, winner_weight, paid)
    if not prizes and all(v is None for v in given):
        return
    was = k.settings.prizes
    settings = replace(
        was,
        sbil=_share(sbil) or was.sbil,
        club=_share(club) or was.club,
        winner_weight=was.winner_weight if winner_weight is None else winner_weight,
        paid_places=paid or was.paid_places,
    )
    if fee is not None:
        k.settings = replace(k.settings, entry_fee=fee)
    if k.settings.entry_fee <= 0:
        fail("no entry fee: give the fee a player with --fee (euros)")
    split = prize_table(k, settings=settings)
    ptitle, pheads, sums = _PRIZE_WORDS[lang]
    t = Table(title=Text(f"{ptitle}: {k.settings.name}"))
    for i, c in enumerate(pheads):
        t.add_column(c, justify="left" if i == 1 else "right", overflow="fold")
    for pl, amount in split.rows:
        _row(t, pl.place, pl.name, f"{amount} €")
    console.print(t)
    for word, amount in zip(sums, (split.entry_fees, split.sbil, split.club, split.pot), strict=True):
        _say(f"{word}: {amount} €")


@app.command("ranking")
def ranking_cmd(
    paths: Annotated[list[Path], typer.Argument(help="The competitions' JSON files (a series: month, year, ...).")],
    lang: Annotated[str, typer.Option("--lang", help="Language of the table: fi or en.")] = "en",
    beat_1: Annotated[int, typer.Option("--beat-1", min=0, max=100, help="Bonus for a win over the series' 1st.")] = 0,
    beat_2: Annotated[int, typer.Option("--beat-2", min=0, max=100, help="Bonus for a win over the series' 2nd.")] = 0,
    beat_3: Annotated[int, typer.Option("--beat-3", min=0, max=100, help="Bonus for a win over the series' 3rd.")] = 0,
    ko2_round1: Annotated[
        int, typer.Option("--ko2-round1", min=0, max=100, help="Bonus for a round-1 win in a Pudari2 bracket.")
    ] = 0,
) -> None:
    """A ranking series over several ended competitions: the Kaisa default points summed per player, with the
    optional bonuses (KAAVIO 10; the series' ranking before each competition, by date, decides who is 1st-3rd)."""
    from kaisa.competition.placings import RankingOptions, ranking_series

    lang = _doc_lang(lang)
    ks = [_load(p) for p in paths]
    for p, k in zip(paths, ks, strict=True):
        if not k.finished:
            fail(f"the competition in {p} has not ended yet; a series counts ended competitions only")
    taken: dict[str, int] = {}
    for k in ks:
        for pl in k.players:
            taken[pl.name] = taken.get(pl.name, 0) + 1
    title, heads = _RANKING_WORDS[lang]
    t = Table(title=f"{title} ({len(ks)})")
    for i, c in enumerate(heads):
        t.add_column(c, justify="left" if i == 1 else "right", overflow="fold")
    for rank, name, total in ranking_series(ks, RankingOptions(beat_1, beat_2, beat_3, ko2_round1)):
        _row(t, rank, name, taken.get(name, 0), total)
    console.print(t)


@app.command("export")
def export(path: FileArg, out: Annotated[Path, typer.Argument(help="KaisaKaavio XML file to write.")]) -> None:
    """Write the competition as a KaisaKaavio 1.0 file."""
    from kaisa.competition.kaisakaavio import to_xml

    _write_out(out, to_xml(_load(path)).encode("utf-8"))
    _say(f"wrote {out}")


def _read_kaisakaavio(src: Path) -> Kaavio:
    """A KaisaKaavio file read as bytes (its XML declaration names the encoding; KaisaKaavio writes UTF-8 with a
    byte order mark); a file that cannot be read is one line with a code, as a file that is not KaisaKaavio's."""
    from kaisa.competition.kaisakaavio import from_xml

    if src.is_dir() or (src.exists() and not src.is_file()):
        fail(f"{src} is not a file saved on disk: give the KaisaKaavio file [file_unreadable]")
    try:
        with src.open("rb") as stream:
            data = stream.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        fail(f"cannot read the KaisaKaavio file {src}: {exc.strerror or exc} [file_unreadable]")
    if len(data) > MAX_INPUT_BYTES:
        fail(
            f"the KaisaKaavio file {src} is larger than {MAX_INPUT_BYTES} bytes, the most that is read [file_too_large]"
        )
    return _guard(lambda: from_xml(data))


@app.command("import")
def import_(
    src: Annotated[Path, typer.Argument(help="KaisaKaavio XML file.")],
    path: Annotated[
        Path | None, typer.Argument(help="The competition's JSON file to write (not with --db).", show_default=False)
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Import into the club's database instead (it then joins the club's ranking series): "
            "a database URL or the path of an SQLite file.",
        ),
    ] = None,
) -> None:
    """Read a KaisaKaavio 1.0 file into a competition file, or into the club's database with --db."""
    if (path is None) == (db is None):
        fail("give either the competition file to write or --db with the club's database, not both")
    if path is not None and path.exists():
        fail(f"{path} already exists; choose another file name")
    k = _read_kaisakaavio(src)
    if path is not None:
        _save(path, k)
        _say(f"imported {k.settings.name}: {len(k.players)} players, {len(k.games)} games")
        return
    import secrets

    from kaisa.competition.store import CompetitionStore
    from kaisa.errors import KaisaError
    from kaisa.records.storage import open_store

    try:
        store = open_store(db)
        competitions = CompetitionStore(store)
        same = competitions.same_as(k)
        if same is not None:
            fail(f"this competition has already been imported as competition {same} in {store.url} [already_imported]")
        token = secrets.token_urlsafe(18)
        cid = competitions.create(k, token)
    except KaisaError as exc:
        fail(exc)
    _say(f"imported {k.settings.name} as competition {cid}: {len(k.players)} players, {len(k.games)} games")
    _say(f"director's link: /kaavio#/director/{cid}/{token}")


@app.command("replay")
def replay_cmd(
    src: Annotated[Path, typer.Argument(help="A KaisaKaavio XML file of a played competition.")],
    tables: Annotated[int, typer.Option("--tables", min=1, max=64, help="Tables the games are started on.")] = 4,
) -> None:
    """Replay a recorded competition's results through this project's search: are the games the same?"""
    from kaisa.competition.replay import replay

    real = _read_kaisakaavio(src)
    if not real.games:
        fail(f"{src} has no games to replay")
    r = _guard(lambda: replay(real, tables))
    if r.ok:
        _say(f"the same games: {r.games} of {r.recorded} ({real.settings.name}, {tables} tables)")
    else:
        _say(f"different: {r.en} ({r.games} games made, {r.recorded} recorded)")
        raise typer.Exit(code=1)


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


def _game_numbers(text: str) -> list[int] | None:
    if not text.strip():
        return None
    try:
        return [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        fail(f"--games {text!r} is not a list of game numbers; give them comma separated, e.g. 12,13,15")


@app.command("pdf")
def pdf(
    path: FileArg,
    out: Annotated[Path, typer.Argument(help="The PDF file to write.")],
    what: Annotated[
        str, typer.Option("--what", help="results (the bracket by round, placings at the end) or sheets.")
    ] = "results",
    lang: Annotated[str, typer.Option("--lang", help="Language of the document: fi or en.")] = "en",
    games: Annotated[str, typer.Option("--games", help="sheets: these game numbers (default: all to play).")] = "",
    blanks: Annotated[int, typer.Option("--blanks", min=0, max=200, help="sheets: empty sheets to add.")] = 0,
) -> None:
    """Printable A4 PDF: the results by round, or the game scoresheets (pelipöytäkirjat, 10 per page)."""
    from kaisa.competition.paper import results_pdf, scoresheets_pdf

    lang = _doc_lang(lang)
    if what not in ("results", "sheets"):
        fail(f"--what {what!r} is not a document; use results or sheets")
    k = _load(path)
    numbers = _game_numbers(games)
    if what == "sheets":
        _write_out(out, _guard(lambda: scoresheets_pdf(k, lang, numbers, blanks)))
    else:
        _write_out(out, results_pdf(k, lang))
    _say(f"wrote {out}")


@app.command("csv")
def csv_(
    path: FileArg,
    out: Annotated[Path, typer.Argument(help="The CSV file to write.")],
    what: Annotated[str, typer.Option("--what", help="results (one row per game) or placings.")] = "results",
    lang: Annotated[str, typer.Option("--lang", help="Language of the column names and states: fi or en.")] = "en",
) -> None:
    """The results (or placings) as CSV, UTF-8, cells safe from spreadsheet formulas."""
    from kaisa.competition.paper import placings_csv, results_csv

    lang = _doc_lang(lang)
    if what not in ("results", "placings"):
        fail(f"--what {what!r} is not a table; use results or placings")
    k = _load(path)
    if what == "placings" and not k.finished:
        fail("the competition has not ended yet; placings are given when one player is left")
    _write_out(out, results_csv(k, lang) if what == "results" else placings_csv(k, lang))
    _say(f"wrote {out}")


def bench_kaavio(
    players: Annotated[int, typer.Option("--players", min=16, max=128)] = 128,
    samples: Annotated[int, typer.Option("--samples", min=1, max=200)] = 20,
    seed: Annotated[int, typer.Option("--seed")] = 2024,
) -> None:
    """The search after a result with 8 unfinished games: median and worst, against a one-scenario baseline."""
    from kaisa.bench.kaavio import kaavio_benchmark, print_kaavio_report

    print_kaavio_report(kaavio_benchmark(players, samples, seed, console), console)
