"""``kaisa kaavio`` continued: what a competition gives out and takes in.

kaisa kaavio placings kisa.json [--prizes ...]       the placings, ranking points and the prize split
kaisa kaavio ranking a.json b.json ...               a ranking series over ended competitions
kaisa kaavio export kisa.json kisa.xml   /   kaisa kaavio import kisa.xml kisa.json [--db kaisa.sqlite3]
kaisa kaavio replay kilpailu.xml --tables 4          a KaisaKaavio file's results through this search
kaisa kaavio pdf kisa.json tulokset.pdf [--what sheets --blanks 4] [--lang en]
kaisa kaavio csv kisa.json tulokset.csv [--what placings] [--lang en]

The commands join the ``kaisa kaavio`` group of :mod:`kaisa.cli.kaavio` (which runs the competition itself:
new, add, draw, start, result, pair, show) when the command line is assembled (:mod:`kaisa.cli.app`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from kaisa.cli.common import MAX_INPUT_BYTES, console, fail
from kaisa.cli.kaavio import FileArg, _doc_lang, _guard, _load, _row, _save, _say, _write_out, app

if TYPE_CHECKING:
    from kaisa.competition import Kaavio
    from kaisa.competition.model import Share


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
        if r.renumbered:
            _say(f"{r.renumbered} of them with another game number than the file's (numbers here are never changed)")
    else:
        _say(f"different: {r.en} ({r.games} games made, {r.recorded} recorded)")
        raise typer.Exit(code=1)


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
