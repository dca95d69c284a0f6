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
