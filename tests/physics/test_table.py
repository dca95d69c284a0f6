"""The official table (REFERENCE.md section 1): dimensions, pockets and jaws, rails, lines, spots, helpers."""

import math

import pytest

from kaisa.table import (
    CONTACT_TOLERANCE,
    OFFICIAL,
    PLACEMENT_GAP,
    BallSize,
    PocketId,
    RailId,
    SpotId,
    TableSpec,
    table_to_json,
)

W, L, R = OFFICIAL.width, OFFICIAL.length, OFFICIAL.ball_radius


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def test_official_dimensions_and_ball():
    assert (W, L) == (1.42, 2.84)
    assert OFFICIAL.ball_diameter == 0.068
    assert OFFICIAL.ball_mass == 0.225
    assert OFFICIAL.cushion_height == pytest.approx(0.64 * 0.068)


def test_ball_size_option_67mm():
    spec = TableSpec(ball_size=BallSize.MM67)
    assert spec.ball_radius == pytest.approx(0.0335)
    # the table itself does not change with the ball
    assert spec.pockets[PocketId.HL].mouth == OFFICIAL.pockets[PocketId.HL].mouth


@pytest.mark.parametrize("pocket", list(PocketId))
def test_mouth_is_measured_between_the_jaw_points(pocket):
    p = OFFICIAL.pockets[pocket]
    expected = 0.072 if pocket.is_corner else 0.082
    assert distance(p.jaws[0].point, p.jaws[1].point) == pytest.approx(expected)
    assert p.mouth == expected
    assert p.haaki_line.start == p.jaws[0].point
    assert p.haaki_line.end == p.jaws[1].point


@pytest.mark.parametrize("pocket", list(PocketId))
def test_jaw_points_lie_on_the_nose_lines_of_their_rails(pocket):
    for jaw in OFFICIAL.pockets[pocket].jaws:
        x, y = jaw.point
        if jaw.side is RailId.HEAD:
            assert y == 0
        elif jaw.side is RailId.FOOT:
            assert y == L
        elif jaw.side.value.startswith("left"):
            assert x == 0
        else:
            assert x == W


def test_rails_adjacent_to_each_pocket():
    assert set(OFFICIAL.rails_adjacent_to(PocketId.HL)) == {RailId.HEAD, RailId.LEFT_HEAD}
    assert set(OFFICIAL.rails_adjacent_to(PocketId.HR)) == {RailId.HEAD, RailId.RIGHT_HEAD}
    assert set(OFFICIAL.rails_adjacent_to(PocketId.ML)) == {RailId.LEFT_HEAD, RailId.LEFT_FOOT}
    assert set(OFFICIAL.rails_adjacent_to(PocketId.MR)) == {RailId.RIGHT_HEAD, RailId.RIGHT_FOOT}
    assert set(OFFICIAL.rails_adjacent_to(PocketId.FL)) == {RailId.FOOT, RailId.LEFT_FOOT}
    assert set(OFFICIAL.rails_adjacent_to(PocketId.FR)) == {RailId.FOOT, RailId.RIGHT_FOOT}


def test_each_rail_runs_between_its_two_pockets():
    for rail in OFFICIAL.rails.values():
        ends = [OFFICIAL.pockets[p] for p in rail.pockets]
        assert all(rail.id in p.adjacent_rails for p in ends)
        # the nose stops where the rounded jaw tips begin, just short of the jaw points
        jaw_points = sorted(j.point for p in ends for j in p.jaws if j.side is rail.id)
        assert distance(rail.nose.start, jaw_points[0]) < OFFICIAL.jaw_radius + 1e-12
        assert distance(rail.nose.end, jaw_points[1]) < OFFICIAL.jaw_radius + 1e-12
    assert not RailId.HEAD.is_long
    assert RailId.LEFT_FOOT.is_long


@pytest.mark.parametrize("pocket", list(PocketId))
def test_pocket_axis_points_away_from_the_bed_and_capture_lies_past_the_jaws(pocket):
    p = OFFICIAL.pockets[pocket]
    centre = (W / 2, L / 2)
    assert p.depth_of(centre) < 0
    # the capture circle's nearest point is exactly one ball radius past the haaki line
    nearest = (p.capture_centre[0] - p.axis[0] * p.capture_radius, p.capture_centre[1] - p.axis[1] * p.capture_radius)
    assert p.depth_of(nearest) == pytest.approx(OFFICIAL.capture_depth)
    assert OFFICIAL.capture_depth == pytest.approx(R)


def test_pocket_kinds():
    assert [p for p in PocketId if p.is_middle] == [PocketId.ML, PocketId.MR]


def test_lines_and_spots():
    assert OFFICIAL.head_string == L / 4
    assert OFFICIAL.centre_line == L / 2
    assert OFFICIAL.foot_string == 3 * L / 4
    spots = OFFICIAL.spots
    assert spots[SpotId.CENTRE] == (W / 2, L / 2)
    assert spots[SpotId.HEAD_STRING] == (W / 2, L / 4)
    assert spots[SpotId.FOOT_STRING] == (W / 2, 3 * L / 4)
    assert spots[SpotId.HEAD_END] == (W / 2, L / 8)
    assert spots[SpotId.FOOT_END] == (W / 2, 7 * L / 8)


def test_end_spots_are_options():
    spec = TableSpec(head_end_spot_fraction=0.1, foot_end_spot_fraction=0.9)
    assert spec.spots[SpotId.HEAD_END] == (W / 2, 0.1 * L)
    assert spec.spots[SpotId.FOOT_END] == (W / 2, 0.9 * L)


def test_behind_the_head_string_is_strict():
    assert OFFICIAL.is_behind_head_string((0.3, L / 4 - 1e-9))
    assert not OFFICIAL.is_behind_head_string((0.3, L / 4))  # on the line is not behind it
    assert not OFFICIAL.is_behind_head_string((0.3, L / 2))


def test_spot_is_free_when_a_placed_ball_would_touch_nothing():
    centre = OFFICIAL.spots[SpotId.CENTRE]
    assert OFFICIAL.spot_is_free(SpotId.CENTRE, [])
    assert OFFICIAL.spot_is_free(SpotId.CENTRE, [(centre[0] + 2 * R + 0.001, centre[1])])
    assert not OFFICIAL.spot_is_free(SpotId.CENTRE, [(centre[0] + 2 * R, centre[1])])  # would touch
    assert not OFFICIAL.spot_is_free(SpotId.CENTRE, [(centre[0] + 2 * R + CONTACT_TOLERANCE / 2, centre[1])])
    assert not OFFICIAL.spot_is_free(SpotId.CENTRE, [centre])


def test_rail_gaps_and_frozen_rails():
    gaps = OFFICIAL.rail_gaps((R, 1.0))
    assert gaps[RailId.LEFT_HEAD] == pytest.approx(0)
    assert gaps[RailId.RIGHT_HEAD] == pytest.approx(W - 2 * R)
    assert OFFICIAL.frozen_rails((R + 0.0002, 1.0)) == [RailId.LEFT_HEAD]
    assert OFFICIAL.frozen_rails((R + 0.002, 1.0)) == []
    # a ball in the head-left corner region near both rails
    assert set(OFFICIAL.frozen_rails((0.2, R))) == {RailId.HEAD}


def test_ball_fits_on_the_bed_and_in_the_jaws_but_not_in_a_cushion():
    assert OFFICIAL.ball_fits((W / 2, L / 2))
    assert OFFICIAL.ball_fits((R, 1.0))
    assert not OFFICIAL.ball_fits((R - 0.001, 1.0))
    assert OFFICIAL.ball_fits((R - 0.001, 1.0), tolerance=0.002)
    assert not OFFICIAL.ball_fits((-0.5, 1.0))
    # a ball resting in the mouth of HL, on the pocket's axis, past the haaki line
    in_jaws = (0.02, 0.02)
    assert OFFICIAL.pocket_containing(in_jaws) is PocketId.HL
    assert OFFICIAL.ball_fits(in_jaws)
    # in the mouth of ML but off-centre by more than the 7 mm the 82 mm mouth leaves: in a jaw
    assert not OFFICIAL.ball_fits((-0.005, L / 2 + 0.010))


def test_push_off_cushions_keeps_a_micrometre_gap():
    p = OFFICIAL.push_off_cushions((R, 1.0))
    assert OFFICIAL.cushion_gap(p) == pytest.approx(PLACEMENT_GAP, abs=1e-9)
    assert p[1] == 1.0
    far = (0.5, 0.5)
    assert OFFICIAL.push_off_cushions(far) == far


def test_invalid_table_spec_is_refused_with_reasons():
    with pytest.raises(ValueError, match="must be wider than the ball"):
        TableSpec(corner_mouth=0.060)
    with pytest.raises(ValueError, match="jaw_radius"):
        TableSpec(jaw_radius=-1)


def test_table_json_names_every_pocket_rail_and_spot():
    data = table_to_json(OFFICIAL)
    assert set(data["pockets"]) == {p.value for p in PocketId}
    assert set(data["rails"]) == {r.value for r in RailId}
    assert set(data["spots"]) == {s.value for s in SpotId}
    assert data["pockets"]["ML"]["jaws"][0]["side"] == "left-head"
