"""Start-up: the commands that need no physics do not import it, and ``kaisa play`` serves its page before
the heavy modules load (issue 20); reading a database whose schema is current imports no Alembic, a lone
stroke no database, and nothing imports pooltool at run time (issue 26).

Each command runs in a fresh Python process, which reports the heavy packages in ``sys.modules`` when it
exits; wall-clock times are the benchmark's (``kaisa bench``), never asserted here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pooltool", "numba", "scipy", "panda3d")
"""The physics engine and what it brings (seconds of start-up)."""
NEVER_AT_RUN_TIME = ("pooltool", "panda3d")
"""pooltool is the reference the engine is checked against, a development dependency only (issue 26)."""
DATABASE = ("sqlalchemy", "alembic")

PROBE = """
import atexit, json, sys
atexit.register(lambda: print("LOADED " + json.dumps(sorted({m.split(".")[0] for m in sys.modules})), file=sys.stderr))
from kaisa.cli import main
sys.argv = ["kaisa", *sys.argv[1:]]
main()
"""


def loaded_by(*args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The top-level packages a fresh ``kaisa ARGS`` process had imported when it exited."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
        check=False,
    )
    found = re.search(r"^LOADED (.*)$", done.stderr, re.MULTILINE)
    assert found, done.stderr[-2000:]
    return set(json.loads(found.group(1))), done


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database holding one match of a dozen strokes (played here, with the physics, in the test process)."""
    from kaisa.game import Match, MatchConfig
    from kaisa.players import BaselinePlayer, MatchStalledError, play_match
    from kaisa.records.storage import PlayerInfo, open_store

    db = f"sqlite:///{tmp_path_factory.mktemp('startup') / 'k.sqlite3'}"
    store = open_store(db)
    config = MatchConfig(players=("Aino", "Eero"), noise=(1.0, 1.0), seed=3)
    match_id = store.create_match(config, [PlayerInfo("Aino", "baseline"), PlayerInfo("Eero", "baseline")], seed=3)
    match = Match(config)
    with contextlib.suppress(MatchStalledError):  # a dozen strokes are enough
        play_match(
            match,
            (BaselinePlayer("Aino", 3), BaselinePlayer("Eero", 4)),
            max_actions=12,
            on_entry=store.recorder(match_id),
        )
    store.close()
    assert match_id == 1
    return db


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "shows"),
    [
        (("stats", "--db", "{db}"), "Aino"),
        (("stats", "--db", "{db}", "--json"), "Eero"),
        (("matches", "list", "--db", "{db}"), "Aino"),
        (("matches", "show", "1", "--db", "{db}"), "Aino"),
        (("matches", "export", "1", "--db", "{db}"), "W1"),  # the match notation
        (("kaavio", "new", "{tmp}/club.json", "--name", "Syyskisat"), "club.json"),
    ],
    ids=["stats", "stats-json", "matches-list", "matches-show", "notation-export", "kaavio-new"],
)
def test_commands_that_need_no_physics_do_not_import_it_nor_alembic_nor_numpy(
    stored: str, tmp_path: Path, args: tuple[str, ...], shows: str
) -> None:
    """The stored rulings are read as they are (no chance is drawn, so no numpy), and a database whose schema
    is current is opened without Alembic."""
    argv = [a.format(db=stored, tmp=tmp_path) for a in args]
    loaded, done = loaded_by(*argv)
    assert done.returncode == 0, done.stdout + done.stderr
    assert shows in done.stdout  # the command did its work
    unwanted = loaded & {*HEAVY, "alembic", "numpy"}
    assert not unwanted, f"kaisa {' '.join(args[:2])} imported {sorted(unwanted)}"


@pytest.mark.slow
def test_stats_on_a_new_database_imports_alembic_to_create_the_tables(tmp_path: Path) -> None:
    """The probe sees Alembic when the migrations run (so the test above can fail)."""
    loaded, done = loaded_by("stats", "--db", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Statistics over 0 matches" in done.stdout
    assert "alembic" in loaded


@pytest.mark.slow
def test_a_command_that_plays_a_stroke_loads_the_engine_but_no_database_and_no_pooltool(tmp_path: Path) -> None:
    """``kaisa simulate`` needs the engine (numba) and nothing of the records; the probe sees numba, so the
    tests above, which require it absent, can fail."""
    position = tmp_path / "position.json"
    stroke = tmp_path / "stroke.json"
    position.write_text(json.dumps({"balls": {"W1": [0.5, 1.0], "K": [0.5, 2.0]}}))
    stroke.write_text(json.dumps({"ball": "W1", "speed": 2.0, "direction": 90.0}))
    loaded, done = loaded_by("simulate", "--position", str(position), "--stroke", str(stroke))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "numba" in loaded
    unwanted = loaded & {*DATABASE, *NEVER_AT_RUN_TIME, "fastapi", "matplotlib"}
    assert not unwanted, f"kaisa simulate imported {sorted(unwanted)}"


def test_the_command_line_and_the_serving_path_import_neither_the_physics_nor_the_database() -> None:
    """What ``kaisa play`` imports before it serves its page: the command line, the server and the small web
    modules; SQLAlchemy, the web app and the physics load in the background (kaisa.cli.serve)."""
    code = (
        "import sys, json; import kaisa.cli.app, uvicorn, kaisa.web.security, kaisa.cli.serve; "
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    loaded = set(json.loads(done.stdout))
    assert "kaisa" in loaded
    assert not loaded & {*HEAVY, "sqlalchemy", "alembic", "fastapi", "numpy", "matplotlib"}, sorted(loaded)


def test_the_web_app_loads_without_matplotlib_numpy_or_the_physics() -> None:
    """What ``kaisa play`` and ``kaisa club`` load before their API answers: the scoresheet and kaavio PDFs
    import matplotlib when they are drawn, and the physics (numpy, numba) loads beside the app."""
    code = "import sys, json; from kaisa.web import create_app; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    loaded = set(json.loads(done.stdout))
    assert "fastapi" in loaded
    assert not loaded & {*HEAVY, "matplotlib", "numpy", "alembic"}, sorted(loaded)


@pytest.mark.slow
def test_play_with_a_database_it_cannot_open_stops_with_the_storage_error_and_status_2(tmp_path: Path) -> None:
    """The database opens in the background once the page is served; when it cannot be opened the server
    stops with the storage's one clear line and exit status 2, as when it opened before listening."""
    db = f"sqlite:///{tmp_path / 'missing' / 'k.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-c", "from kaisa.cli import main; main()", "play", "--no-browser", "--port", "0", "--db", db],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        check=False,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert f"cannot open the database at {db}" in " ".join(said.split())
    assert "Traceback" not in said
