"""issue 16: ``TableSpec`` itself refuses values that hang or crash the physics (a record's Table tag was bounded,
the table was not): ``cushion_height_ratio`` 100 ran a replay for over 180 s, ``ball_mass`` -1 was a pooltool
assertion. Each option has its range in :data:`kaisa.table.TABLE_RANGES`; the error says which and what is
allowed, with the code ``invalid-table``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kaisa.errors import KaisaError
from kaisa.table import OFFICIAL, TABLE_RANGES, BallSize, TableSpec, TableSpecError


def test_tablespec_cushion_height_ratio_100_is_refused_saying_the_range() -> None:
    with pytest.raises(TableSpecError, match=r"cushion_height_ratio is a number from 0\.55 to 0\.75 .* not 100"):
        TableSpec(cushion_height_ratio=100)


def test_tablespec_negative_ball_mass_is_refused_not_a_pooltool_assertion() -> None:
    with pytest.raises(TableSpecError, match=r"ball_mass is a number from 0\.1 to 0\.4 \(official 0\.225\), not -1"):
        TableSpec(ball_mass=-1)


@pytest.mark.parametrize("name", sorted(TABLE_RANGES))
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), True, 10**400, "1", None])
def test_tablespec_refuses_every_option_out_of_range_or_not_a_number(name: str, bad: object) -> None:
    with pytest.raises(TableSpecError, match=name) as caught:
        TableSpec(**{name: bad})  # type: ignore[arg-type]
    assert caught.value.code == "invalid-table"
    assert isinstance(caught.value, KaisaError)


@pytest.mark.parametrize("name", sorted(TABLE_RANGES))
def test_tablespec_takes_both_ends_of_each_range_where_the_table_stays_a_table(name: str) -> None:
    low, high = TABLE_RANGES[name]
    for value in (low, high):
        if name in ("corner_mouth", "middle_mouth") and value <= OFFICIAL.ball_diameter:
            continue  # a mouth must also be wider than the ball
        assert getattr(TableSpec(**{name: value}), name) == value  # type: ignore[arg-type]
    with pytest.raises(TableSpecError):
        TableSpec(**{name: high + (high - low)})  # type: ignore[arg-type]


def test_tablespec_from_json_round_trips_and_refuses_unknown_options() -> None:
    spec = TableSpec(BallSize.MM67, ball_mass=0.21, cushion_height_ratio=0.62)
    assert TableSpec.from_json(spec.to_json()) == spec
    assert TableSpec.from_json({}) == OFFICIAL
    with pytest.raises(TableSpecError, match="cushion: not a table option; the options are ball_size, ball_mass"):
        TableSpec.from_json({"cushion": 1})
    with pytest.raises(TableSpecError, match="ball_size is one of 68mm, 67mm"):
        TableSpec.from_json({"ball_size": "70mm"})
    with pytest.raises(TableSpecError, match="a table is a JSON object"):
        TableSpec.from_json([1, 2])


HUNG = """
from kaisa.model import BallId, Position, Stroke
from kaisa.physics import simulate
from kaisa.table import TableSpec, TableSpecError
try:
    spec = TableSpec(cushion_height_ratio=100)
except TableSpecError as refused:
    print(refused.code)
else:
    simulate(Position({"W1": (0.71, 0.71), "K": (0.71, 1.42)}), Stroke(BallId.W1, 3.0, 90.0), spec=spec)
    print("simulated")
"""


@pytest.mark.slow
def test_the_table_that_hung_replay_is_refused_in_a_process_bounded_in_time() -> None:
    """The table of the hung replay, made and simulated as a Python user would, in a subprocess with a
    timeout: before the fix it ran for minutes (TimeoutExpired fails the test); now it is refused at once."""
    done = subprocess.run([sys.executable, "-c", HUNG], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "invalid-table"
