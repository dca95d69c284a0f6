"""Paper and files (KAAVIO 9): the pelipöytäkirja and the results as A4 PDF, the results and placings as CSV."""

from __future__ import annotations

import csv
import io

import pytest

from kaisa.competition import CompetitionError, Kaavio, KaavioType, Settings
from kaisa.competition.paper import (
    SHEETS_PER_PAGE,
    placings_csv,
    results_csv,
    results_pdf,
    scoresheets_pdf,
)
from kaisa.competition.simulate import run
from kaisa.spreadsheet import csv_text


def pages(pdf: bytes) -> int:
    assert pdf.startswith(b"%PDF-")
    return pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type /Page>")


def night(n: int = 9) -> Kaavio:
    k = Kaavio(Settings(name="Viikkokisa", date="2026-12-03", club="PVK", tables=("1", "2", "3")))
    for i in range(n):
        k.add_player(f"Pelaaja {i + 1}", club="PVK")
    k.draw(3)
    return k


def test_9_scoresheets_ten_per_a4_page_with_blank_sheets() -> None:
    k = night()
    to_play = [g for g in k.games if g.player2 is not None]
    assert len(to_play) == 9
    assert pages(scoresheets_pdf(k)) == 1
    assert pages(scoresheets_pdf(k, blanks=1)) == 1  # 10 fit on one page: the counter counts 10, not 8
    assert pages(scoresheets_pdf(k, blanks=2)) == 2
    assert pages(scoresheets_pdf(k, "en", games=[1, 2], blanks=SHEETS_PER_PAGE * 2 - 2)) == 2
    with pytest.raises(CompetitionError) as e:
        scoresheets_pdf(k, games=[99])
    assert e.value.code == "no_such_game"


def test_9_the_scoresheet_names_its_fields_in_finnish_and_english() -> None:
    k = night()
    fi = scoresheets_pdf(k, "fi", games=[1])
    en = scoresheets_pdf(k, "en", games=[1])
    assert fi != en
    # matplotlib embeds the text as glyph runs; the PDF's own metadata is the same in both
    assert pages(fi) == pages(en) == 1


def test_results_pdf_while_running_and_at_the_end() -> None:
    k = night()
    assert pages(results_pdf(k)) == 1
    done, _ = run(40, KaavioType.DOUBLE, seed=4, tables=4)
    assert done.finished
    assert pages(results_pdf(done, "fi")) >= 2  # 40 players' games and placings do not fit on one page
    assert pages(results_pdf(done, "en")) == pages(results_pdf(done, "fi"))


def read(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # a byte order mark, so a spreadsheet reads ä and ö
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_results_csv_one_row_per_game_in_finnish_and_english() -> None:
    done, _ = run(11, KaavioType.KO3, seed=2, tables=3)
    fi, en = read(results_csv(done, "fi")), read(results_csv(done, "en"))
    assert fi[0][:3] == ["peli", "kierros", "pelaajan 1 kierros"]
    assert en[0][:3] == ["game", "round", "player 1 round"]
    assert len(fi) == len(en) == len(done.games) + 1
    row = dict(zip(en[0], en[1], strict=True))
    g = done.games[0]
    assert (int(row["game"]), row["points 1"], row["points 2"]) == (g.number, g.points1, g.points2)
    assert row["winner"] in (done.player(g.player1).name, done.player(g.player2 or 0).name)
    assert {r[fi[0].index("tila")] for r in fi[1:]} == {"pelattu"}


def test_placings_csv_with_ranking_points() -> None:
    done, _ = run(11, KaavioType.DOUBLE, seed=2, tables=3)
    rows = read(placings_csv(done, "en"))
    assert rows[0] == ["place", "number", "player", "club", "wins", "points", "games", "ranking points"]
    assert len(rows) == 12
    assert rows[1][0] == "1"
    assert read(placings_csv(night(), "fi")) == [read(placings_csv(done, "fi"))[0]]  # running: header only


def test_csv_cells_that_look_like_formulas_are_text() -> None:
    assert csv_text('=HYPERLINK("x")') == '\'=HYPERLINK("x")'
    for bad in ("+1", "-1", "@x", "\tx", "\rx"):
        assert csv_text(bad) == "'" + bad
    assert csv_text("Virtanen") == "Virtanen"
    k = Kaavio(Settings(name="=kisa", tables=("1",)))
    for name in ("=cmd|' /C calc'!A0", "@SUM(1)", "Aho", "Berg"):
        k.add_player(name, club="+PVK")
    k.draw(1)
    rows = read(results_csv(k, "en"))
    cells = [c for r in rows[1:] for c in r]
    assert "'=cmd|' /C calc'!A0" in cells
    assert "'@SUM(1)" in cells
    assert "'+PVK" in cells
    assert not any(c[:1] in ("=", "+", "@") for c in cells)


def test_dates_are_written_as_people_write_them_and_a_hand_pairings_reason_in_its_language() -> None:
    from kaisa.competition.paper import _results_pages, _sheet_pages, date_text

    assert (date_text("2026-12-03", "fi"), date_text("2026-12-03", "en")) == ("3.12.2026", "3 Dec 2026")
    assert (date_text("", "fi"), date_text("joulukuu", "en")) == ("", "joulukuu")
    k = night(6)
    for lang, written in (("fi", "3.12.2026"), ("en", "3 Dec 2026")):
        texts = [
            t.get_text() for fig in _results_pages(k, lang) + _sheet_pages(k, lang, [k.game(1)]) for t in fig.texts
        ]
        assert any(written in t for t in texts), texts[:4]
        assert not any("2026-12-03" in t for t in texts)
    for g in list(k.ready()):
        k.record(g.number, "60", "1")
    free = [x for x in k.numbers() if k.still_in(x) and not any(g.involves(x) for g in k.unfinished())]
    g = k.pair_by_hand(free[0], free[1], "Pelaaja lähtee junalle")
    rows = {"fi": read(results_csv(k, "fi")), "en": read(results_csv(k, "en"))}
    assert rows["fi"][g.number][-1] == "Haettu käsin: Pelaaja lähtee junalle"
    assert rows["en"][g.number][-1] == "Paired by hand: Pelaaja lähtee junalle"
