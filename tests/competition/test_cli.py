"""``kaisa kaavio`` end to end on a file: a 5-player night from creation to placings, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kaisa.cli.app import app

runner = CliRunner()


def kaavio(*args: str) -> str:
    result = runner.invoke(app, ["kaavio", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_night_from_the_command_line(tmp_path: Path) -> None:
    f = str(tmp_path / "kisa.json")
    kaavio("new", f, "--name", "Viikkokisa", "--type", "Pudari3Kierros", "--tables", "1,2", "--placing", "top3")
    for name in ("Aho", "Berg", "Cajander", "Dahl", "Eskola"):
        kaavio("add", f, name, "--club", "PVK")
    kaavio("draw", f, "--seed", "7")
    for _ in range(30):
        data = json.loads(Path(f).read_text(encoding="utf-8"))
        ready = [g for g in data["games"] if g["state"] == "ready"]
        if not ready:
            break
        g = ready[0]
        kaavio("start", f, str(g["number"]))
        kaavio("result", f, str(g["number"]), "60", "35")
        kaavio("result", f, str(g["number"]), "60", "35")  # sent twice: recorded once
    out = kaavio("placings", f)
    assert "Placings" in out
    xml = tmp_path / "kisa.xml"
    kaavio("export", f, str(xml))
    kaavio("import", str(xml), str(tmp_path / "back.json"))
    assert json.loads((tmp_path / "back.json").read_text(encoding="utf-8")) == json.loads(
        Path(f).read_text(encoding="utf-8")
    )


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    f = str(tmp_path / "kisa.json")
    kaavio("new", f, "--name", "X")
    for name in ("A", "B", "C", "D"):
        kaavio("add", f, name)
    kaavio("draw", f, "--seed", "1")
    bad = runner.invoke(app, ["kaavio", "result", f, "1", "6o", "2"])
    assert bad.exit_code == 2
    assert "bad_points" in bad.output
    assert "Traceback" not in bad.output
    dup = runner.invoke(app, ["kaavio", "add", f, "A"])
    assert dup.exit_code == 2
    early = runner.invoke(app, ["kaavio", "placings", f])
    assert early.exit_code == 2
    wrong = runner.invoke(app, ["kaavio", "new", str(tmp_path / "y.json"), "--name", "Y", "--type", "Outo"])
    assert wrong.exit_code == 2


def night(tmp_path: Path) -> str:
    f = str(tmp_path / "kisa.json")
    kaavio("new", f, "--name", "Ilta", "--date", "2026-12-03", "--club", "KS", "--tables", "1,2")
    kaavio("add", f, "Virtanen Matti", "--club", "KS")
    kaavio("add", f, "Virtanen Matti", "--club", "PVK")
    for name in ("Aho", "Berg", "Cajander"):
        kaavio("add", f, name)
    kaavio("draw", f, "--seed", "3")
    return f


def test_a_score_that_decides_nothing_says_the_game_goes_on(tmp_path: Path) -> None:
    f = night(tmp_path)
    out = " ".join(kaavio("result", f, "1", "38", "39").split())
    assert out.startswith("Game 1 goes on: neither player has reached the target (60 points), so 38-39 is kept")
    fi = " ".join(kaavio("result", f, "1", "38", "39", "--lang", "fi").split())
    assert fi.startswith("Peli 1 jatkuu: kumpikaan ei ole saavuttanut tavoitetta (60 pistettä)")
    assert " ".join(kaavio("result", f, "1", "60", "39").split()).startswith("Game 1's result is recorded.")


def test_show_names_the_columns_numbers_clubs_and_waiting_players_in_either_language(tmp_path: Path) -> None:
    f = night(tmp_path)
    fi = kaavio("show", f, "--lang", "fi")
    for word in ("peli", "kierros", "pelaaja 1", "tulos", "pelaaja 2", "tila", "pöytä", "3.12.2026", "Tuplakaavio"):
        assert word in fi, word
    games = fi[: fi.index("Ilmoittautuneet")]
    assert "(PVK)" in games  # the same name twice: the club tells them apart in the games
    assert "(KS)" in games
    assert "Aho (" not in games
    assert "Odottavat vastustajaa:" in fi
    assert "Pudonneet:" in fi
    assert "valmis" in fi
    en = kaavio("show", f)
    for word in ("game", "round", "player 1", "result", "3 Dec 2026", "Waiting for an opponent:", "ready to"):
        assert word in en, word
    assert "Aho" in en
    assert "1 Virtanen" in en


def test_a_table_not_in_the_competition_and_an_unreadable_file_are_one_line_with_a_code(tmp_path: Path) -> None:
    f = night(tmp_path)
    bad = runner.invoke(app, ["kaavio", "start", f, "2", "--table", "9"])
    assert bad.exit_code == 2
    assert "the tables are 1, 2. [unknown_table]" in " ".join(bad.output.split())
    missing = runner.invoke(app, ["kaavio", "import", str(tmp_path / "none.xml"), str(tmp_path / "x.json")])
    assert missing.exit_code == 2
    assert "[file_unreadable]" in missing.output
    broken = tmp_path / "broken.xml"
    broken.write_text("<Kilpailu><Pelit>", encoding="utf-8")
    cut = runner.invoke(app, ["kaavio", "import", str(broken), str(tmp_path / "x.json")])
    assert cut.exit_code == 2
    assert "line 1, column 17. [bad_kaisakaavio_file]" in " ".join(cut.output.split())


def test_import_into_the_clubs_database_joins_the_ranking_once(tmp_path: Path) -> None:
    from kaisa.competition.store import CompetitionStore
    from kaisa.records.storage import open_store

    f = str(tmp_path / "kisa.json")
    kaavio("new", f, "--name", "Viikkokisa", "--date", "2024-04-10", "--tables", "1")
    for name in ("Aho", "Berg", "Cajander", "Dahl"):
        kaavio("add", f, name)
    kaavio("draw", f, "--seed", "2")
    for _ in range(20):
        ready = [g for g in json.loads(Path(f).read_text(encoding="utf-8"))["games"] if g["state"] == "ready"]
        if not ready:
            break
        kaavio("result", f, str(ready[0]["number"]), "60", "12")
    xml = tmp_path / "kisa.xml"
    kaavio("export", f, str(xml))
    db = str(tmp_path / "club.sqlite3")
    out = " ".join(kaavio("import", str(xml), "--db", db).split())
    assert "imported Viikkokisa as competition 1" in out
    assert "/kaavio#/director/1/" in out
    again = runner.invoke(app, ["kaavio", "import", str(xml), "--db", db])
    assert again.exit_code == 2
    assert "[already_imported]" in again.output
    both = runner.invoke(app, ["kaavio", "import", str(xml), str(tmp_path / "y.json"), "--db", db])
    assert both.exit_code == 2
    store = open_store(db)
    try:
        stored = CompetitionStore(store).all()
        assert [(c.kaavio.settings.name, c.kaavio.finished) for c in stored] == [("Viikkokisa", True)]
        from kaisa.competition.placings import ranking_series

        assert {name for _, name, _ in ranking_series([c.kaavio for c in stored])} == {
            "Aho",
            "Berg",
            "Cajander",
            "Dahl",
        }
    finally:
        store.close()


def test_too_few_players_for_the_draw_is_said_in_good_english(tmp_path: Path) -> None:
    f = str(tmp_path / "kisa.json")
    kaavio("new", f, "--name", "X")
    said = []
    for name in ("", "Aho", "Berg"):
        if name:
            kaavio("add", f, name)
        said.append(" ".join(runner.invoke(app, ["kaavio", "draw", f]).output.split()))
    assert "at least 4 players; none is registered. [too_few_players]" in said[0]
    assert "at least 4 players; only 1 is registered. [too_few_players]" in said[1]
    assert "at least 4 players; 2 are registered. [too_few_players]" in said[2]


def test_writing_to_a_missing_folder_or_onto_a_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """issue 29: new, import and export gave a FileNotFoundError or IsADirectoryError traceback."""
    f = str(tmp_path / "kisa.json")
    kaavio("new", f, "--name", "Viikkokisa")
    xml = tmp_path / "kisa.xml"
    kaavio("export", f, str(xml))
    missing = str(tmp_path / "no-such-folder" / "x.json")
    for args in (
        ["new", missing, "--name", "Kisa"],
        ["export", f, str(tmp_path / "no-such-folder" / "x.xml")],
        ["export", f, str(tmp_path)],
        ["import", str(xml), missing],
        ["import", str(xml), str(tmp_path)],
    ):
        result = runner.invoke(app, ["kaavio", *args])
        assert result.exit_code == 2, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert len(result.output.strip().splitlines()) == 1, (args, result.output)


def test_a_competition_file_naming_an_unknown_player_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    f = tmp_path / "kisa.json"
    kaavio("new", str(f), "--name", "Viikkokisa")
    for name in ("Aho", "Berg", "Cajander", "Dahl"):
        kaavio("add", str(f), name)
    kaavio("draw", str(f), "--seed", "7")
    data = json.loads(f.read_text(encoding="utf-8"))
    data["games"][0]["player2"] = 999
    f.write_text(json.dumps(data), encoding="utf-8")
    before = f.read_text(encoding="utf-8")
    result = runner.invoke(app, ["kaavio", "result", str(f), "1", "60", "30"])
    assert result.exit_code == 2, result.output
    assert "not in the competition" in result.output
    assert f.read_text(encoding="utf-8") == before
