"""Shared helpers. The physics is always the real pooltool engine: there are no mocks in this suite."""

import math

import pytest

from kaisa.model import BallId, Position, ShotRecord, Stroke
from kaisa.table import OFFICIAL, PocketId


@pytest.fixture(scope="session", autouse=True)
def _compiled_physics():
    """Compile or load the engine's kernels once, before any test times out waiting on numba."""
    from kaisa.physics import warm_up

    warm_up()


def shot_at_pocket(pocket: PocketId, offset: float, distance: float = 0.5, speed: float = 1.5) -> ShotRecord:
    """W1 rolled straight along ``pocket``'s axis from ``distance`` away, its path shifted ``offset`` metres
    sideways across the mouth."""
    from kaisa.physics import simulate

    p = OFFICIAL.pockets[pocket]
    (cx, cy), (ax, ay) = p.mouth_centre, p.axis
    start = (cx - ax * distance - ay * offset, cy - ay * distance + ax * offset)
    return simulate(Position({"W1": start}), Stroke(BallId.W1, speed, math.degrees(math.atan2(ay, ax))))


def signature(record: ShotRecord) -> list[tuple[str, ...]]:
    """The event log without times and positions, e.g. ``[("strike", "W1"), ("rail", "W1", "foot")]``."""
    return [(e.type, *(str(v) for v in e.fields_json().values())) for e in record.events]


def pocketed(record: ShotRecord, ball: BallId = BallId.W1) -> PocketId | None:
    from kaisa.model import PocketEvent

    for e in record.events:
        if isinstance(e, PocketEvent) and e.ball is ball:
            return e.pocket
    return None
