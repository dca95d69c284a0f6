"""``kaisa kaavio pdf|csv|placings|ranking``: documents written from a competition file, tables that fit 80
columns in Finnish and English, and bad input answered with one clear line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kaisa.cli.app import app
from kaisa.competition import KaavioType
from kaisa.competition.simulate import run

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, ["kaavio", *args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def bad(*args: str) -> str:
    result = runner.invoke(app, ["kaavio", *args], env={"COLUMNS": "80"})
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 or "Usage" in result.output, result.output
    return result.output


@pytest.fixture
def ended(tmp_path: Path) -> list[Path]:
    """Two ended competitions saved as files, with long names and clubs, as a club's month would have."""
    paths = []
    for i, kind in enumerate((KaavioType.KO3, KaavioType.DOUBLE)):
        k, _ = run(12, kind, seed=30 + i, tables=3)
        k.players = [
            p.__class__(p.number, f"{p.name} Väinämöinen-Ilmarinen Lemminkäinen", "Porvoon Kaisaseura ry", p.seed)
            for p in k.players
        ]
        path = tmp_path / f"kisa{i}.json"
        path.write_text(json.dumps(k.to_json(), ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def test_pdf_and_csv_are_written(ended: list[Path], tmp_path: Path) -> None:
    f = str(ended[0])
    for what, lang in (("results", "fi"), ("sheets", "en")):
        out = tmp_path / f"{what}.pdf"
        ok("pdf", f, str(out), "--what", what, "--lang", lang, *(["--blanks", "3"] if what == "sheets" else []))
        assert out.read_bytes().startswith(b"%PDF-")
    for what in ("results", "placings"):
        out = tmp_path / f"{what}.csv"
        ok("csv", f, str(out), "--what", what, "--lang", "en")
        assert out.read_bytes().startswith(b"\xef\xbb\xbf")
    assert "Väinämöinen" in (tmp_path / "placings.csv").read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_placings_and_ranking_fit_80_columns(ended: list[Path], lang: str) -> None:
    placings = ok("placings", str(ended[0]), "--lang", lang)
    ranking = ok("ranking", *map(str, ended), "--lang", lang)
    for out in (placings, ranking):
        assert max(len(line) for line in out.splitlines()) <= 80, out
        assert "Väinämöinen" in out
    assert ("Sijoitukset" if lang == "fi" else "Placings") in placings
    assert ("Rankingsarja" if lang == "fi" else "Ranking series") in ranking
    assert ("seura" if lang == "fi" else "club") in placings


def test_bad_input_is_one_clear_line_and_exit_2(ended: list[Path], tmp_path: Path) -> None:
    f = str(ended[0])
    assert "fi or en" in bad("pdf", f, str(tmp_path / "x.pdf"), "--lang", "sv")
    assert "results or sheets" in bad("pdf", f, str(tmp_path / "x.pdf"), "--what", "[bold]kaikki[/]")
    assert "results or placings" in bad("csv", f, str(tmp_path / "x.csv"), "--what", "pelit")
    assert "does not exist" in bad("pdf", f, str(tmp_path / "no" / "x.pdf"))
    assert "is a folder" in bad("csv", f, str(tmp_path))
    assert "no_such_game" in bad("pdf", f, str(tmp_path / "x.pdf"), "--what", "sheets", "--games", "99999999999999")
    assert "game numbers" in bad("pdf", f, str(tmp_path / "x.pdf"), "--what", "sheets", "--games", "1,[x]")
    bad("pdf", f, str(tmp_path / "x.pdf"), "--what", "sheets", "--blanks", "10000000000000000000000")
    assert "cannot read" in bad("csv", str(tmp_path / "puuttuu.json"), str(tmp_path / "x.csv"))
    assert "fi or en" in bad("placings", f, "--lang", "[red]")
    assert "cannot read" in bad("ranking", f, str(tmp_path / "puuttuu.json"))
    running = tmp_path / "kesken.json"
    ok("new", str(running), "--name", "Kesken")
    for name in ("A", "B", "C", "D"):
        ok("add", str(running), name)
    ok("draw", str(running), "--seed", "1")
    assert "not ended" in bad("ranking", f, str(running))
    assert "not ended" in bad("csv", str(running), str(tmp_path / "x.csv"), "--what", "placings")
    assert not list(tmp_path.glob("x.*"))  # nothing half-written


def test_names_with_brackets_print_as_written_and_huge_numbers_are_refused(tmp_path: Path) -> None:
    f = str(tmp_path / "kisa.json")
    ok("new", f, "--name", "[bold]Kisa[/]")
    for name in ("[/]", "[bold]Aho", "Berg [x]", "Dahl"):
        assert name in ok("add", f, name)
    out = ok("draw", f, "--seed", "1")
    assert "[bold]Aho" in out
    assert "[/]" in out
    assert "[bold]Kisa[/]" in ok("show", f)
    assert "no_such_game" in bad("start", f, "99999999999999999999999")
    assert "no_such_game" in bad("result", f, "99999999999999999999999", "60", "1")
    assert "no_such_player" in bad("pair", f, "99999999999999999999999", "1", "--reason", "x")
    bad("result", f, "1", "60", "1", "--innings", "99999999999999999999999")
    assert "bad_points" in bad("result", f, "1", "[/]", "1")


def test_replay_a_kaisakaavio_file(tmp_path: Path) -> None:
    from tests.competition.test_kaisakaavio_xml import kaisakaavio_file

    xml = tmp_path / "viikkokisa.xml"
    xml.write_text(kaisakaavio_file(), encoding="utf-8")
    assert "the same games" in ok("replay", str(xml), "--tables", "2")
    assert "cannot read" in bad("replay", str(tmp_path / "puuttuu.xml"))
    (tmp_path / "outo.xml").write_text("<Turnaus/>", encoding="utf-8")
    assert "bad_kaisakaavio_file" in bad("replay", str(tmp_path / "outo.xml"))
    bad("replay", str(xml), "--tables", "100000000000000000000")


@pytest.mark.parametrize("target", ["9", "201"])
def test_a_target_outside_10_to_200_is_refused_as_on_the_web_page(tmp_path: Path, target: str) -> None:
    """The target points (KAAVIO 2) are 10 to 200 everywhere: the web form, its API, and this command (a marker's
    club match plays to the target, the rule option winning_score, which allows the same)."""
    path = tmp_path / "kisa.json"
    said = bad("new", str(path), "--name", "Kisa", "--target", target)
    assert "--target" in said
    assert ("greater than or equal to 10" if target == "9" else "less than or equal to 200") in said
    assert not path.exists()
    ok("new", str(path), "--name", "Kisa", "--target", "10")
    assert json.loads(path.read_text(encoding="utf-8"))["settings"]["target"] == 10
