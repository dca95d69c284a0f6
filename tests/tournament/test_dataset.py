"""``kaisa dataset``: self-play strokes in Parquet with their schema and data card, the same on the local pool
and on a local Ray, readable by pandas, pyarrow and Hugging Face ``datasets``."""

from __future__ import annotations

import itertools
import json
import tempfile
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kaisa.cli import app
from kaisa.model import Position
from kaisa.referee import GameState
from kaisa.research import CARD_FILE, COLUMNS, DATA_FILE, SCHEMA, Dataset, MatchRows, match_rows, table_of
from kaisa.tournament import LocalBackend, schedule

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
SPECS = tuple(replace(s, max_actions=30) for s in schedule(["baseline", "baseline"], 2, seed=3))
"""Two short matches (30 actions each): enough rows to test, quick to play."""


@pytest.fixture(scope="module")
def rows() -> list[MatchRows]:
    return [match_rows(spec) for spec in SPECS]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    from kaisa.research.dataset import write_dataset

    out = tmp_path_factory.mktemp("data")
    return write_dataset(["baseline", "baseline"], 2, out, seed=3, max_actions=30)


def test_every_stroke_is_a_row_with_the_schema(rows: list[MatchRows]):
    table = table_of(rows)
    assert table.schema.equals(SCHEMA)
    assert table.num_rows == sum(len(r.rows) for r in rows) > 20
    assert [f.name for f in SCHEMA] == [name for name, _, _ in COLUMNS]
    assert all(f.metadata[b"description"] for f in SCHEMA)


def test_a_row_holds_position_state_call_strokes_ruling_and_next_position(rows: list[MatchRows]):
    data = table_of(rows).to_pylist()
    first = data[0]
    assert first["opening"]
    assert first["from_hand"]
    assert first["shooter"] == "W1"
    assert first["before_W1_x"] is None  # the breaker's cue ball is in hand
    assert first["intended_place_x"] is not None
    for row in data:
        assert GameState.from_json(json.loads(row["state"])).shooter.value == row["shooter"]
        ruling = json.loads(row["ruling"])
        assert ruling["points"] == row["points"]
        after = Position.from_json(ruling["position"])
        assert row["after_K_x"] == (None if "K" not in after else after["K"][0])
        if row["call"] is not None:
            assert row["call"].split()[:2] == [row["call_ball"], row["call_pocket"]]
    strokes = [(r["match"], r["stroke"]) for r in data]
    assert strokes == sorted(strokes)
    follows = [(a, b) for a, b in itertools.pairwise(data) if a["match"] == b["match"]]
    assert all(a["next_shooter"] == b["shooter"] for a, b in follows)
    assert all(a["after_R1_x"] == b["before_R1_x"] for a, b in follows if not b["from_hand"])


def test_the_executed_stroke_differs_from_the_intended_one_by_the_seats_noise(rows: list[MatchRows]):
    data = table_of(rows).to_pylist()
    assert all(r["noise"] > 0 for r in data)
    assert any(r["executed_speed"] != r["intended_speed"] for r in data)


def test_a_match_is_the_same_rows_in_any_process(rows: list[MatchRows]):
    with LocalBackend(2) as backend:
        pooled = dict(backend.play(SPECS, match_rows))
    assert [pooled[i] for i in range(len(SPECS))] == rows


def test_the_file_reads_back_in_pandas_with_the_data_card(written: Dataset):
    import pandas as pd  # type: ignore[import-untyped]

    assert written.path.name == DATA_FILE
    frame = pd.read_parquet(written.path)
    assert len(frame) == written.strokes
    assert list(frame.columns) == [name for name, _, _ in COLUMNS]
    assert set(frame["player"]) == {"baseline 1", "baseline 2"}
    assert frame["clauses"].map(len).gt(0).any()
    card = written.card.read_text(encoding="utf-8")
    assert written.card.name == CARD_FILE
    assert f"{written.strokes} strokes" in card
    assert all(f"`{name}`" in card for name, _, _ in COLUMNS)
    assert not list(written.path.parent.glob(".*.tmp"))  # written under a temporary name, then renamed


def test_the_file_reads_back_in_hugging_face_datasets(
    written: Dataset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    loaded = datasets.Dataset.from_parquet(str(written.path), cache_dir=str(tmp_path))
    assert loaded.num_rows == written.strokes
    assert loaded.column_names == [name for name, _, _ in COLUMNS]
    assert loaded[0]["match"] == 0


def test_docs_dataset_lists_every_column():
    text = (ROOT / "docs" / "DATASET.md").read_text(encoding="utf-8")
    missing = [name for name, _, _ in COLUMNS if f"`{name}`" not in text]
    assert not missing, f"docs/DATASET.md misses {missing}: paste kaisa.research.columns_table()"


def test_the_command_refuses_bad_options_with_one_line(tmp_path: Path):
    file = tmp_path / "file"
    file.write_text("x")
    for args, message in (
        (["--players", "baseline,nobody", "--out", str(tmp_path)], "unknown player kind 'nobody'"),
        (["--players", "baseline", "--out", str(tmp_path)], "at least two players"),
        (["--players", "baseline,baseline", "--out", str(file)], "is a file"),
        (["--players", "baseline,baseline", "--out", str(tmp_path), "--backend", "dask"], "unknown backend"),
    ):
        result = runner.invoke(app, ["dataset", *args], env={"COLUMNS": "200", "NO_COLOR": "1"})
        assert result.exit_code == 2, result.output
        assert message in result.output
        assert len(result.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_command_writes_the_file_and_the_card(tmp_path: Path):
    out = tmp_path / "club"
    result = runner.invoke(
        app, ["dataset", "--players", "baseline,baseline", "--games", "1", "--out", str(out)],
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    table = pq.read_table(out / DATA_FILE)
    assert table.num_rows > 50
    assert f"{table.num_rows} strokes of 1 matches" in result.output
    assert "kaisa dataset" in (out / CARD_FILE).read_text(encoding="utf-8")


# --- on a local Ray (last: Ray leaves threads in this process) ------------------------------------------------


@pytest.mark.slow
def test_a_local_ray_writes_the_same_rows_as_the_local_pool(rows: list[MatchRows]):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    from kaisa.tournament import RayBackend

    temp_dir = tempfile.mkdtemp(prefix="kaisa-ray-")  # short: Ray's socket paths must fit in 107 bytes
    options = {"num_cpus": 2, "include_dashboard": False, "log_to_driver": False, "_temp_dir": temp_dir}
    try:
        with RayBackend(workers=2, init_options=options) as backend:
            on_ray = dict(backend.play(SPECS, match_rows))
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert table_of([on_ray[i] for i in range(len(SPECS))]).equals(table_of(rows))
