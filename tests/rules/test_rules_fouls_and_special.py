"""Conformance, sections 7 and 8: fouls (7a-7j) and special situations (8a-8h), from hand-built event logs
and from a marker's entries, plus the validation of both inputs.

Each test is named after the clause it checks (REFERENCE.md sections 4 and 5, the 2014 rulebook).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from kaisa.model import BallId, Position
from kaisa.referee import (
    GameState,
    ImpossibleStateError,
    LateFall,
    MarkerEntry,
    MarkerEntryError,
    RuleOptions,
    Ruling,
)
from kaisa.table import CONTACT_TOLERANCE, OFFICIAL, PocketId, Point
from tests.referee_helpers import SPOTS, START, R, SpotId, assert_consistent, rule, rule_marker, state

D = 2 * R
"""Ball diameter."""
GAP = 0.0002
"""A gap well under the 0.5 mm that makes two surfaces frozen together."""

W1, W2, R1, R2, K = BallId.W1, BallId.W2, BallId.R1, BallId.R2, BallId.K


# --- helpers ---------------------------------------------------------------------------------------------


def layout(base: dict[str, Point] | None = None, *, drop: tuple[str, ...] = (), **moves: Point) -> dict[str, Point]:
    """``START`` (or ``base``) with some balls moved and some removed."""
    balls = dict(START if base is None else base)
    balls.update(moves)
    for ball in drop:
        del balls[ball]
    return balls


def frozen_to(ball: Point, angle_deg: float, gap: float = GAP) -> Point:
    """Where a ball lies that touches the ball at ``ball``, in direction ``angle_deg`` from it."""
    a = math.radians(angle_deg)
    return (ball[0] + (D + gap) * math.cos(a), ball[1] + (D + gap) * math.sin(a))


def in_mouth(pocket: PocketId, depth: float, lateral: float) -> Point:
    """A point ``depth`` past the haaki line of ``pocket`` and ``lateral`` across its axis."""
    p = OFFICIAL.pockets[pocket]
    (cx, cy), (ax, ay) = p.mouth_centre, p.axis
    return (cx + ax * depth + ay * lateral, cy + ay * depth - ax * lateral)


def entry(**fields: Any) -> MarkerEntry:
    """A marker's entry for W1's stroke; by default nothing happened and nothing moved."""
    fields.setdefault("cue_ball", W1)
    fields.setdefault("start", Position(START))
    fields.setdefault("final", fields["start"])
    return MarkerEntry(**fields)


def fouls(ruling: Ruling) -> list[tuple[str, int]]:
    return [(f.clause, f.points) for f in ruling.fouls]


def assert_turn_passes(ruling: Ruling, before: GameState | None = None) -> None:
    shooter = (before or GameState()).shooter
    assert ruling.turn_passes
    assert ruling.state.shooter != shooter
    assert "1.3" in ruling.clauses


def assert_inning_continues(ruling: Ruling, before: GameState | None = None) -> None:
    shooter = (before or GameState()).shooter
    assert not ruling.turn_passes
    assert ruling.state.shooter == shooter


# Where the cue ball W1 of START lies, and positions with a ball frozen to it.
W1_AT = START["W1"]
R2_FROZEN_AT_0 = layout(R2=frozen_to(W1_AT, 0.0))
"""R2 frozen to W1, the line of centres towards R2 pointing along +x (0 degrees)."""
R2_FROZEN_AT_135 = layout(R2=frozen_to(W1_AT, 135.0))
"""R2 frozen to W1, up and to the left of it (135 degrees)."""

# A kaisa and a red frozen together, well clear of the spots and the other balls.
K_AT = (0.90, 2.20)
R1_K_FROZEN = layout(K=K_AT, R1=frozen_to(K_AT, -90.0))
R1_K_APART = layout(K=K_AT, R1=frozen_to(K_AT, -90.0, gap=0.002))
# W2 and R2 frozen together: two object balls, neither of them the konsti ball or the called ball.
W2_R2_FROZEN = layout(R2=frozen_to(START["W2"], -90.0))

# Balls frozen to cushions.
K_ON_LEFT_FOOT_RAIL = (R + GAP, 2.70)
"""The kaisa frozen to the left-foot rail near FL, its centre well short of FL's haaki line."""
K_ON_HEAD_RAIL = (0.71, R + GAP)
K_NEAR_LEFT_FOOT_RAIL = (R + 0.0006, 2.70)
"""0.6 mm from the rail: not frozen."""
K_IN_FL_MOUTH = in_mouth(PocketId.FL, depth=0.012, lateral=OFFICIAL.corner_mouth / 2 - R - GAP)
"""The kaisa in FL's mouth, its centre past the haaki line, frozen to the pocket's facing."""
R1_ON_LEFT_FOOT_RAIL = (R + GAP, 2.00)
R1_IN_ML_MOUTH = in_mouth(PocketId.ML, depth=0.02, lateral=OFFICIAL.middle_mouth / 2 - R - GAP)
"""Red 1 in ML's mouth, frozen to a facing (a jaw surface, not a rail)."""


def test_fixture_geometry_is_what_the_tests_claim():
    fl, ml = OFFICIAL.pockets[PocketId.FL], OFFICIAL.pockets[PocketId.ML]
    for p in (K_ON_LEFT_FOOT_RAIL, K_ON_HEAD_RAIL, K_IN_FL_MOUTH, R1_ON_LEFT_FOOT_RAIL, R1_IN_ML_MOUTH):
        assert 0 <= OFFICIAL.cushion_gap(p) < CONTACT_TOLERANCE
    assert OFFICIAL.cushion_gap(K_NEAR_LEFT_FOOT_RAIL) > CONTACT_TOLERANCE
    assert fl.depth_of(K_ON_LEFT_FOOT_RAIL) < 0
    assert fl.depth_of(K_IN_FL_MOUTH) > 0
    assert ml.depth_of(R1_IN_ML_MOUTH) > 0
    assert OFFICIAL.frozen_rails(R1_IN_ML_MOUTH) == []  # frozen to the jaw's facing only
    for balls in (R2_FROZEN_AT_0, R2_FROZEN_AT_135):
        gap = math.dist(balls["W1"], balls["R2"]) - D
        assert 0 <= gap < CONTACT_TOLERANCE
    assert 0 <= math.dist(R1_K_FROZEN["R1"], R1_K_FROZEN["K"]) - D < CONTACT_TOLERANCE
    assert math.dist(R1_K_APART["R1"], R1_K_APART["K"]) - D > CONTACT_TOLERANCE
    assert 0 <= math.dist(W2_R2_FROZEN["W2"], W2_R2_FROZEN["R2"]) - D < CONTACT_TOLERANCE


# --- 7a: the shooter's cue ball drops or leaves the table ----------------------------------------------------


def test_7a_cue_ball_pocketed_touching_no_ball_costs_2():
    ruling = rule("K FL", "strike W1", "rail W1 rf", "pocket W1 FR")
    assert fouls(ruling) == [("7a", -2)]
    assert ruling.points == -2
    assert not ruling.legal_pot
    assert "7a" in ruling.clauses
    assert ruling.state.scores[W1] == -2
    assert ruling.state.scores[W2] == 0
    assert_turn_passes(ruling)
    assert_consistent(ruling)


@pytest.mark.parametrize(
    ("first", "penalty"),
    [("W2", -2), ("R1", -3), ("R2", -3), ("K", -6)],
    ids=["white-first", "red1-first", "red2-first", "kaisa-first"],
)
def test_7a_penalty_by_the_first_ball_touched(first, penalty):
    ruling = rule("K FL", "strike W1", f"ball W1 {first}", "pocket W1 HR")
    assert fouls(ruling) == [("7a", penalty)]
    assert ruling.points == penalty
    assert ruling.state.scores == {W1: penalty, W2: 0}
    assert not ruling.legal_pot
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7a_penalty_counts_the_first_ball_only():
    ruling = rule("R1 HL", "strike W1", "ball W1 W2", "ball W1 K", "ball W1 R1", "pocket W1 ML")
    assert fouls(ruling) == [("7a", -2)]


def test_7a_cue_ball_off_the_table_is_penalised_like_a_pot_and_cites_8f():
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", "rail W1 rf", "off W1")
    assert fouls(ruling) == [("7a", -3)]
    assert {"7a", "8f"} <= set(ruling.clauses)
    assert W1 in ruling.in_hand
    assert W1 not in ruling.position
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7a_no_pot_of_that_stroke_scores_not_even_the_called_ball():
    ruling = rule(
        "K FL",
        "strike W1",
        "ball W1 K",
        "pocket K FL",
        "ball W1 R1",
        "pocket R1 HR",
        "pocket W1 FR",
    )
    assert not ruling.legal_pot
    assert ruling.items == ()
    assert fouls(ruling) == [("7a", -6)]
    assert ruling.points == -6
    # the potted object balls go back to their spots
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE], R1: SPOTS[SpotId.HEAD_STRING]}
    assert ruling.position[K] == SPOTS[SpotId.CENTRE]
    assert ruling.position[R1] == SPOTS[SpotId.HEAD_STRING]
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7a_turn_passes_and_the_owner_plays_from_hand():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket W1 FL")
    assert ruling.in_hand == frozenset({W1})
    assert ruling.state.in_hand == frozenset({W1})
    assert W1 not in ruling.position
    assert set(ruling.position) == {W2, R1, R2, K}
    assert ruling.state.shooter is W2
    assert not ruling.state.from_hand  # W2 plays from where its ball lies; W1 is in hand for its next turn
    assert_consistent(ruling)


def test_7a_applies_to_the_second_player_too():
    before = state(w1=10, w2=5, shooter="W2")
    ruling = rule("R2 HL", "strike W2", "ball W2 R2", "pocket W2 FR", state=before)
    assert fouls(ruling) == [("7a", -3)]
    assert ruling.state.scores == {W1: 10, W2: 2}
    assert ruling.in_hand == frozenset({W2})
    assert W2 not in ruling.position
    assert_turn_passes(ruling, before)
    assert_consistent(ruling)


def test_7a_score_may_go_negative():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket W1 FL", state=state(w1=3))
    assert ruling.state.scores[W1] == -3


def test_7a_opponents_white_pocketed_in_the_same_stroke_is_in_hand_for_its_owner_too():
    ruling = rule("R1 HL", "strike W1", "ball W1 W2", "pocket W2 FR", "pocket W1 FL")
    assert fouls(ruling) == [("7a", -2)]
    assert ruling.in_hand == frozenset({W1, W2})
    assert W1 not in ruling.position
    assert W2 not in ruling.position
    assert ruling.state.in_hand == frozenset({W1, W2})
    assert_consistent(ruling)


def test_7a_from_a_marker_entry():
    final = Position(layout(drop=("W1",)))
    ruling = rule_marker("R1 HL", entry(final=final, pots=((W1, PocketId.ML),), first_contact=R1))
    assert fouls(ruling) == [("7a", -3)]
    assert W1 in ruling.in_hand
    assert W1 not in ruling.position
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7a_off_the_table_from_a_marker_entry():
    final = Position(layout(drop=("W1",)))
    ruling = rule_marker("K FL", entry(final=final, off_table=(W1,), first_contact=K))
    assert fouls(ruling) == [("7a", -6)]
    assert {"7a", "8f"} <= set(ruling.clauses)
    assert W1 in ruling.state.in_hand


# --- 7b: a ball touched by the player ------------------------------------------------------------------------


def test_7b_ball_touched_by_the_player_is_a_foul_the_pot_does_not_count():
    final = Position(layout(drop=("K",)))
    ruling = rule_marker("K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K, touched_by_player=True))
    assert fouls(ruling) == [("7b", 0)]
    assert "7b" in ruling.clauses
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE]}
    assert ruling.in_hand == frozenset()
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7b_touch_without_a_pot_passes_the_turn_with_no_penalty_points():
    ruling = rule_marker(None, entry(first_contact=R1, touched_by_player=True), state(w1=20, w2=7))
    assert fouls(ruling) == [("7b", 0)]
    assert ruling.state.scores == {W1: 20, W2: 7}
    assert_turn_passes(ruling)


def test_7b_touch_while_in_hand_gives_the_fouler_a_new_ball_in_hand():
    start = Position(layout(W1=(0.50, 0.30)))
    before = state(in_hand=frozenset({W1}))
    ruling = rule_marker(None, entry(start=start, first_contact=R1, touched_by_player=True), before)
    assert ("7b", 0) in fouls(ruling)
    assert_turn_passes(ruling, before)
    assert W1 in ruling.state.in_hand
    assert W1 not in ruling.position


# --- 7d / 8a: talonmies -----------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", [0.0, 20.0, 44.9, -30.0, 330.0])
def test_7d_talonmies_below_45_degrees_is_a_foul_with_no_penalty_points(direction):
    before = state(w1=12, w2=4)
    ruling = rule(
        "R2 FR",
        "strike W1",
        "ball W1 R2",
        "pocket R2 FR",
        start=R2_FROZEN_AT_0,
        direction=direction,
        state=before,
    )
    assert fouls(ruling) == [("8a", 0)]
    assert {"7d", "7j", "8a"} <= set(ruling.clauses)
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.state.scores == {W1: 12, W2: 4}
    assert ruling.in_hand == frozenset()
    # 7j in simulated play (REFERENCE 10): the balls go back where they stood, nothing is respotted
    assert ruling.respots == {}
    assert ruling.position == Position(R2_FROZEN_AT_0)
    assert_turn_passes(ruling, before)
    assert_consistent(ruling)


@pytest.mark.parametrize("direction", [45.0, 60.0, 89.9, -45.0, 300.0])
def test_7d_talonmies_from_45_to_under_90_degrees_is_no_foul_but_no_points_and_the_turn_passes(direction):
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=R2_FROZEN_AT_0, direction=direction)
    assert ruling.fouls == ()
    assert "7d" in ruling.clauses
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert_turn_passes(ruling)
    assert_consistent(ruling)


@pytest.mark.parametrize("direction", [90.0, 120.0, 180.0, 270.0, -90.0])
def test_7d_stroke_90_degrees_or_more_from_the_frozen_ball_is_a_normal_stroke(direction):
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=R2_FROZEN_AT_0, direction=direction)
    assert ruling.fouls == ()
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7d" not in ruling.clauses
    assert "8a" not in ruling.clauses
    assert_inning_continues(ruling)
    assert_consistent(ruling)


@pytest.mark.parametrize(
    ("direction", "band"),
    [(150.0, "foul"), (100.0, "foul"), (195.0, "no points"), (75.0, "no points"), (40.0, "normal"), (315.0, "normal")],
)
def test_7d_angle_is_measured_from_the_line_of_centres_either_way(direction, band):
    # R2 lies at 135 degrees from W1: 150 and 100 are 15 and 35 off that line, 195 and 75 are 60 off, 40 and
    # 315 are 95 and 180 off.
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=R2_FROZEN_AT_135, direction=direction)
    if band == "foul":
        assert fouls(ruling) == [("8a", 0)]
        assert not ruling.legal_pot
        assert ruling.turn_passes
    elif band == "no points":
        assert ruling.fouls == ()
        assert not ruling.legal_pot
        assert "7d" in ruling.clauses
        assert ruling.turn_passes
    else:
        assert ruling.fouls == ()
        assert ruling.legal_pot
        assert ruling.points == 6
        assert not ruling.turn_passes
    assert_consistent(ruling)


def test_7d_cue_ball_not_frozen_is_no_talonmies():
    start = layout(R2=frozen_to(W1_AT, 0.0, gap=0.001))
    ruling = rule("R2 FR", "strike W1", "ball W1 R2", "pocket R2 FR", start=start, direction=0.0)
    assert ruling.fouls == ()
    assert ruling.legal_pot
    assert ruling.points == 3
    assert "7d" not in ruling.clauses


@pytest.mark.parametrize(
    ("direction", "band"),
    [(20.0, "foul"), (30.0, "no points"), (50.0, "no points"), (60.0, "normal"), (80.0, "normal")],
)
def test_7d_rule_options_move_the_thresholds(direction, band):
    options = RuleOptions(talonmies_foul_below=30.0, talonmies_no_points_below=60.0)
    ruling = rule(
        "K FL",
        "strike W1",
        "ball W1 K",
        "pocket K FL",
        start=R2_FROZEN_AT_0,
        direction=direction,
        options=options,
    )
    if band == "foul":
        assert fouls(ruling) == [("8a", 0)]
        assert not ruling.legal_pot
        assert ruling.turn_passes
    elif band == "no points":
        assert ruling.fouls == ()
        assert not ruling.legal_pot
        assert "7d" in ruling.clauses
        assert ruling.turn_passes
    else:
        assert ruling.fouls == ()
        assert ruling.legal_pot
        assert ruling.points == 6
        assert not ruling.turn_passes
    assert_consistent(ruling)


def test_7d_wider_option_bands_make_a_default_normal_stroke_a_foul_or_pointless():
    options = RuleOptions(talonmies_foul_below=60.0, talonmies_no_points_below=120.0)
    steps = ("strike W1", "ball W1 K", "pocket K FL")
    foul = rule("K FL", *steps, start=R2_FROZEN_AT_0, direction=50.0, options=options)
    assert fouls(foul) == [("8a", 0)]
    pointless = rule("K FL", *steps, start=R2_FROZEN_AT_0, direction=100.0, options=options)
    assert pointless.fouls == ()
    assert not pointless.legal_pot
    assert "7d" in pointless.clauses
    normal = rule("K FL", *steps, start=R2_FROZEN_AT_0, direction=100.0)
    assert normal.legal_pot


def test_7d_thresholds_must_be_ordered():
    with pytest.raises(ValueError, match="talonmies"):
        RuleOptions(talonmies_foul_below=60.0, talonmies_no_points_below=45.0)
    with pytest.raises(ValueError, match="talonmies"):
        RuleOptions(talonmies_foul_below=-1.0)


def test_7d_talonmies_from_a_marker_entry():
    final = Position(layout(drop=("K",)))
    foul = rule_marker("K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K, talonmies_angle=20.0))
    assert fouls(foul) == [("8a", 0)]
    assert "7d" in foul.clauses
    assert_turn_passes(foul)
    pointless = rule_marker("K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K, talonmies_angle=70.0))
    assert pointless.fouls == ()
    assert not pointless.legal_pot
    assert "7d" in pointless.clauses
    assert_turn_passes(pointless)


def test_8a_stroke_towards_the_frozen_ball_is_the_foul():
    towards = rule("R2 FR", "strike W1", "ball W1 R2", "pocket R2 FR", start=R2_FROZEN_AT_0, direction=0.0)
    assert fouls(towards) == [("8a", 0)]
    assert "8a" in towards.clauses
    assert not towards.legal_pot
    assert_turn_passes(towards)
    away = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=R2_FROZEN_AT_0, direction=180.0)
    assert away.fouls == ()
    assert away.legal_pot
    assert "8a" not in away.clauses


def test_8a_talonmies_foul_while_in_hand_gives_the_fouler_a_new_ball_in_hand():
    w1 = (0.50, 0.70)  # behind the head string (y = 0.71)
    start = layout(W1=w1, R2=frozen_to(w1, 90.0))  # R2 in front of the line, frozen to W1
    before = state(in_hand=frozenset({W1}))
    ruling = rule("R2 FR", "strike W1", "ball W1 R2", "pocket R2 FR", start=start, direction=90.0, state=before)
    assert fouls(ruling) == [("8a", 0), ("7c", 0)]  # no section 5 fault: R2 lies in front of the head string
    assert_turn_passes(ruling, before)
    assert W1 in ruling.state.in_hand
    assert W1 not in ruling.position


# --- 7e: a jump over a masking ball -----------------------------------------------------------------------


def test_7e_pot_by_jumping_over_a_masking_ball_scores_nothing():
    final = Position(layout(drop=("K",)))
    ruling = rule_marker("K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K, jump_over_mask=True))
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "7e" in ruling.clauses
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE]}
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7e_the_same_pot_without_the_jump_counts():
    final = Position(layout(drop=("K",)))
    ruling = rule_marker("K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K))
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7e" not in ruling.clauses


# --- 7f: mankeli -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "rail"), [("K lf FL", "lf"), ("K f FL", "f"), ("K lh ML", "lh"), ("K lf ML", "lf")])
def test_7f_called_ball_last_off_a_rail_next_to_the_called_pocket_is_mankeli(call, rail):
    pocket = call.split()[-1]
    ruling = rule(call, "strike W1", "ball W1 K", f"rail K {rail}", f"pocket K {pocket}")
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "7f" in ruling.clauses
    assert ruling.fouls == ()
    assert_turn_passes(ruling)
    assert_consistent(ruling)


@pytest.mark.parametrize(("call", "rail"), [("K rf FL", "rf"), ("K h FL", "h"), ("K rh ML", "rh")])
def test_7f_bank_from_another_rail_is_not_mankeli(call, rail):
    pocket = call.split()[-1]
    ruling = rule(call, "strike W1", "ball W1 K", f"rail K {rail}", f"pocket K {pocket}")
    assert ruling.legal_pot
    assert ruling.points == 6  # via a cushion: a kaisa in the middle scores as in a corner (2.1)
    assert "7f" not in ruling.clauses
    assert_inning_continues(ruling)
    assert_consistent(ruling)


def test_7f_adjacent_rail_earlier_in_the_route_is_not_mankeli():
    ruling = rule("K lf rf FL", "strike W1", "ball W1 K", "rail K lf", "rail K rf", "pocket K FL")
    assert ruling.legal_pot
    assert "7f" not in ruling.clauses


def test_7f_jaw_rattles_after_the_adjacent_rail_do_not_hide_the_mankeli():
    ruling = rule(
        "K lf FL",
        "strike W1",
        "ball W1 K",
        "rail K lf",
        "jaw K FL foot",
        "jaw K FL lf",
        "pocket K FL",
    )
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "7f" in ruling.clauses
    assert_turn_passes(ruling)


def test_7f_jaw_rattles_at_the_called_pocket_alone_are_not_mankeli_and_need_no_call():
    ruling = rule("K FL", "strike W1", "ball W1 K", "jaw K FL foot", "jaw K FL lf", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7f" not in ruling.clauses
    assert "1.3" in ruling.clauses
    assert_inning_continues(ruling)


def test_7f_bank_from_another_rail_then_jaw_rattles_is_a_legal_pot():
    ruling = rule("K rf FL", "strike W1", "ball W1 K", "rail K rf", "jaw K FL foot", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7f" not in ruling.clauses


def test_7f_mankeli_from_a_marker_entry():
    final = Position(layout(drop=("K",)))
    ruling = rule_marker("K lf FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K, mankeli=True))
    assert not ruling.legal_pot
    assert "7f" in ruling.clauses
    assert_turn_passes(ruling)


# --- 7g: a called ball frozen to a cushion ----------------------------------------------------------------


@pytest.mark.parametrize("where", [K_ON_LEFT_FOOT_RAIL, K_ON_HEAD_RAIL], ids=["next-to-FL", "far-from-FL"])
def test_7g_called_ball_frozen_to_a_cushion_short_of_the_haaki_line_is_void(where):
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=layout(K=where))
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "7g" in ruling.clauses
    assert ruling.fouls == ()
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7g_called_ball_frozen_in_the_mouth_past_the_haaki_line_counts():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=layout(K=K_IN_FL_MOUTH))
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7g" not in ruling.clauses
    assert_inning_continues(ruling)
    assert_consistent(ruling)


def test_7g_called_ball_near_but_not_frozen_to_a_cushion_counts():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=layout(K=K_NEAR_LEFT_FOOT_RAIL))
    assert ruling.legal_pot
    assert "7g" not in ruling.clauses


def test_7g_from_a_marker_entry():
    final = Position(layout(drop=("K",)))
    ruling = rule_marker(
        "K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=K, frozen_short_of_haaki=True)
    )
    assert not ruling.legal_pot
    assert "7g" in ruling.clauses


# --- 7h: a pot off a ball frozen to a cushion -------------------------------------------------------------


def test_7h_kara_off_a_ball_frozen_to_a_cushion_is_void():
    ruling = rule(
        "kara R1 K FL",
        "strike W1",
        "ball W1 R1",
        "ball W1 K",
        "pocket K FL",
        start=layout(R1=R1_ON_LEFT_FOOT_RAIL),
    )
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "7h" in ruling.clauses
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_7h_kiss_off_a_ball_frozen_to_a_cushion_is_void():
    ruling = rule(
        "K kiss R1 FL",
        "strike W1",
        "ball W1 K",
        "ball K R1",
        "pocket K FL",
        start=layout(R1=R1_ON_LEFT_FOOT_RAIL),
    )
    assert not ruling.legal_pot
    assert "7h" in ruling.clauses
    assert_turn_passes(ruling)


def test_7h_kiss_off_a_ball_frozen_to_a_jaw_facing_is_void():
    ruling = rule(
        "K kiss R1 ML",
        "strike W1",
        "ball W1 K",
        "ball K R1",
        "pocket K ML",
        start=layout(R1=R1_IN_ML_MOUTH),
    )
    assert not ruling.legal_pot
    assert "7h" in ruling.clauses


def test_7h_the_same_kara_off_a_free_ball_counts():
    ruling = rule("kara R1 K FL", "strike W1", "ball W1 R1", "ball W1 K", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7h" not in ruling.clauses


def test_7h_kyyti_ball_frozen_to_a_cushion_is_not_a_pot_off_a_ball():
    ruling = rule(
        "kyyti R1 K FL",
        "strike W1",
        "ball W1 R1",
        "ball R1 K",
        "pocket K FL",
        start=layout(R1=R1_ON_LEFT_FOOT_RAIL),
    )
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "7h" not in ruling.clauses


# --- 7i: the wrong cue ball -------------------------------------------------------------------------------


def test_7i_wrong_cue_ball_from_a_marker_entry_scores_nothing_and_passes_the_turn():
    final = Position(layout(drop=("K",), W2=(1.00, 2.60)))
    before = state(w1=30, w2=30)
    ruling = rule_marker("K FL", entry(cue_ball=W2, final=final, pots=((K, PocketId.FL),), first_contact=K), before)
    assert fouls(ruling) == [("7i", 0)]
    assert "7i" in ruling.clauses
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.state.scores == {W1: 30, W2: 30}
    # the balls stay where they are; the potted kaisa is spotted
    assert ruling.position[W2] == (1.00, 2.60)
    assert ruling.position[W1] == START["W1"]
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE]}
    assert ruling.in_hand == frozenset()
    assert_turn_passes(ruling, before)
    assert_consistent(ruling)


def test_7i_wrong_cue_ball_in_an_event_log():
    before = state(shooter="W2")
    ruling = rule("R2 HR", "strike W1", "ball W1 R2", "pocket R2 HR", state=before)
    assert fouls(ruling) == [("7i", 0)]
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "7i" in ruling.clauses
    assert_turn_passes(ruling, before)
    assert ruling.state.shooter is W1
    assert_consistent(ruling)


# --- 7j: the referee restores the balls -------------------------------------------------------------------


def test_7j_balls_restored_by_the_referee_next_position_is_the_start():
    start = Position(START)
    final = Position(layout(drop=("R1",), W1=(0.20, 2.50), K=(1.20, 0.40)))
    ruling = rule_marker(
        "R1 HL",
        entry(
            start=start,
            final=final,
            pots=((R1, PocketId.HL),),
            first_contact=R1,
            touched_by_player=True,
            restored_by_referee=True,
        ),
    )
    assert ruling.position == start
    assert ruling.respots == {}
    assert "7j" in ruling.clauses
    assert ("7b", 0) in fouls(ruling)
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert_turn_passes(ruling)
    assert_consistent(ruling)


# --- 8c: object balls frozen together ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "steps"),
    [
        ("kyyti R1 K FL", ("strike W1", "ball W1 R1", "ball R1 K", "pocket K FL")),
        ("kara R1 K FL", ("strike W1", "ball W1 R1", "ball W1 K", "pocket K FL")),
        ("K kiss R1 FL", ("strike W1", "ball W1 K", "ball K R1", "pocket K FL")),
    ],
    ids=["kyyti", "kara", "kiss"],
)
def test_8c_konsti_ball_frozen_to_the_called_ball_is_void(call, steps):
    ruling = rule(call, *steps, start=R1_K_FROZEN)
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "8c" in ruling.clauses
    assert_turn_passes(ruling)
    assert_consistent(ruling)
    apart = rule(call, *steps, start=R1_K_APART)
    assert apart.legal_pot
    assert apart.points == 6
    assert "8c" not in apart.clauses


def test_8c_a_direct_pot_of_a_ball_frozen_to_another_counts():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=R1_K_FROZEN)
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "8c" not in ruling.clauses


def test_8c_other_object_balls_frozen_together_do_not_matter_by_default():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL", start=W2_R2_FROZEN)
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "8c" not in ruling.clauses


def test_8c_literal_option_any_two_object_balls_frozen_together_voids_a_konsti_pot():
    options = RuleOptions(frozen_any_object_balls=True)
    ruling = rule(
        "kyyti R1 K FL",
        "strike W1",
        "ball W1 R1",
        "ball R1 K",
        "pocket K FL",
        start=W2_R2_FROZEN,
        options=options,
    )
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "8c" in ruling.clauses
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_8c_literal_option_leaves_a_pot_without_konsti_alone():
    options = RuleOptions(frozen_any_object_balls=True)
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=W2_R2_FROZEN, options=options)
    assert ruling.legal_pot
    assert "8c" not in ruling.clauses


def test_8c_literal_option_ignores_the_cue_ball_frozen_to_an_object_ball():
    options = RuleOptions(frozen_any_object_balls=True)
    start = layout(R1=frozen_to(W1_AT, 90.0))
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL", start=start, options=options)
    assert ruling.legal_pot
    assert "8c" not in ruling.clauses


def test_8c_from_a_marker_entry():
    final = Position(layout(drop=("K",)))
    ruling = rule_marker(
        "kyyti R1 K FL", entry(final=final, pots=((K, PocketId.FL),), first_contact=R1, konsti_pair_frozen=True)
    )
    assert not ruling.legal_pot
    assert "8c" in ruling.clauses


# --- 8d: a ball that drops while others still move ----------------------------------------------------------


def test_8d_ball_dropping_at_the_end_of_the_log_while_others_move_counts():
    ruling = rule(
        "K FL",
        "strike W1",
        "ball W1 K",
        "ball W1 R2",
        "rail W1 rf",
        "rail R2 h",
        "ball R2 R1",
        "pocket K FL",
    )
    assert ruling.legal_pot
    assert ruling.points == 9 + 3  # the kaisa with a nakki on red 2
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE]}
    assert_inning_continues(ruling)
    assert_consistent(ruling)


def test_8d_an_extra_ball_dropping_last_adds_its_value():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1", "rail R1 f", "pocket R1 FR")
    assert ruling.legal_pot
    assert ruling.points == 9 + 3 + 3  # kaisa with nakki, red 1 as nakki and as an extra ball
    assert_inning_continues(ruling)


def test_8d_cue_ball_dropping_last_is_still_7a():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", "rail W1 rf", "ball R2 R1", "pocket W1 FR")
    assert fouls(ruling) == [("7a", -6)]
    assert not ruling.legal_pot


# --- 8e: a ball falls later by itself ---------------------------------------------------------------------


def _late_fall_entry(fall: LateFall) -> MarkerEntry:
    start = Position(layout(K=in_mouth(PocketId.FL, depth=0.01, lateral=0.0)))
    return entry(start=start, final=start.without(K), late_fall=fall)


def test_8e_ball_falling_by_itself_is_put_back_and_the_turn_stays():
    before = state(w1=14, w2=9)
    e = _late_fall_entry(LateFall(K))
    ruling = rule_marker(None, e, before)
    assert ruling.position == e.start
    assert K in ruling.position
    assert ruling.fouls == ()
    assert ruling.points == 0
    assert not ruling.legal_pot
    assert "8e" in ruling.clauses
    assert not ruling.turn_passes
    assert ruling.state.shooter is W1
    assert ruling.state.scores == {W1: 14, W2: 9}
    assert_consistent(ruling)


def test_8e_caused_by_the_shooter_is_a_foul_7j_and_the_turn_passes():
    before = state(w1=14, w2=9)
    e = _late_fall_entry(LateFall(K, caused_by=W1))
    ruling = rule_marker(None, e, before)
    assert ruling.position == e.start
    assert fouls(ruling) == [("7j", 0)]
    assert {"7j", "8e"} <= set(ruling.clauses)
    assert ruling.turn_passes
    assert ruling.state.shooter is W2
    assert ruling.state.scores == {W1: 14, W2: 9}
    assert_consistent(ruling)


def test_8e_caused_by_the_opponent_is_a_foul_but_the_turn_stays():
    before = state(w1=14, w2=9)
    e = _late_fall_entry(LateFall(K, caused_by=W2))
    ruling = rule_marker(None, e, before)
    assert ruling.position == e.start
    assert fouls(ruling) == [("7j", 0)]
    assert not ruling.turn_passes
    assert ruling.state.shooter is W1
    assert_consistent(ruling)


def test_8e_caused_by_the_second_player_at_the_table_passes_the_turn_to_the_first():
    before = state(shooter="W2")
    ruling = rule_marker(None, _late_fall_entry(LateFall(K, caused_by=W2)), before)
    assert ruling.turn_passes
    assert ruling.state.shooter is W1


def test_8e_keeps_the_balls_in_hand():
    before = state(shooter="W2", in_hand=frozenset({W1}))
    start = Position(layout(drop=("W1",), K=in_mouth(PocketId.FL, depth=0.01, lateral=0.0)))
    e = entry(cue_ball=W2, start=start, final=start.without(K), late_fall=LateFall(K))
    ruling = rule_marker(None, e, before)
    assert ruling.in_hand == frozenset({W1})
    assert ruling.state.in_hand == frozenset({W1})
    assert W1 not in ruling.position


# --- 8f: a ball off the table -----------------------------------------------------------------------------


def test_8f_object_ball_off_the_table_is_respotted():
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", "rail R1 lf", "off R1")
    assert not ruling.legal_pot
    assert ruling.fouls == ()
    assert ruling.points == 0
    assert ruling.respots == {R1: SPOTS[SpotId.HEAD_STRING]}
    assert ruling.position[R1] == SPOTS[SpotId.HEAD_STRING]
    assert "4" in ruling.clauses
    assert ruling.in_hand == frozenset()
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_8f_kaisa_off_the_table_goes_to_the_centre_spot():
    ruling = rule("K FL", "strike W1", "ball W1 K", "off K")
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE]}
    assert not ruling.legal_pot


def test_8f_cue_ball_off_the_table_is_in_hand():
    ruling = rule("K FL", "strike W1", "ball W1 K", "off W1")
    assert "8f" in ruling.clauses
    assert fouls(ruling) == [("7a", -6)]
    assert ruling.in_hand == frozenset({W1})
    assert W1 not in ruling.position
    assert ruling.respots == {}


def test_8f_opponents_white_off_the_table_is_in_hand_for_its_owner_without_a_penalty():
    ruling = rule("W2 FR", "strike W1", "ball W1 W2", "off W2")
    assert ruling.fouls == ()
    assert ruling.points == 0
    assert ruling.in_hand == frozenset({W2})
    assert ruling.state.in_hand == frozenset({W2})
    assert W2 not in ruling.position
    assert ruling.state.from_hand  # W2 shoots next, from hand
    assert_consistent(ruling)


def test_8f_from_a_marker_entry():
    final = Position(layout(drop=("R2",)))
    ruling = rule_marker(None, entry(final=final, off_table=(R2,), first_contact=R2))
    assert ruling.respots == {R2: SPOTS[SpotId.HEAD_STRING]}
    assert ruling.fouls == ()


# --- 8g: a nakki, kara or kyyti ball off the table --------------------------------------------------------


def test_8g_nakki_ball_off_the_table_the_pot_counts_but_the_turn_passes():
    before = state(w1=10)
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1", "off R1", state=before)
    assert ruling.legal_pot
    assert ruling.points == 9 + 3
    assert ruling.state.scores[W1] == 22
    assert "8g" in ruling.clauses
    assert ruling.respots == {K: SPOTS[SpotId.CENTRE], R1: SPOTS[SpotId.HEAD_STRING]}
    assert_turn_passes(ruling, before)
    assert_consistent(ruling)


def test_8g_kara_ball_off_the_table_the_pot_counts_but_the_turn_passes():
    ruling = rule("kara R1 K FL", "strike W1", "ball W1 R1", "ball W1 K", "off R1", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "8g" in ruling.clauses
    assert ruling.respots[R1] == SPOTS[SpotId.HEAD_STRING]
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_8g_kyyti_ball_off_the_table_the_pot_counts_but_the_turn_passes():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL", "off R1")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "8g" in ruling.clauses
    assert_turn_passes(ruling)
    assert_consistent(ruling)


def test_8g_opponents_white_as_nakki_off_the_table_counts_and_is_in_hand():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", "ball W1 W2", "off W2")
    assert ruling.legal_pot
    assert ruling.points == 9 + 2
    assert "8g" in ruling.clauses
    assert ruling.in_hand == frozenset({W2})
    assert W2 not in ruling.position
    assert_turn_passes(ruling)
    assert ruling.state.from_hand  # W2 shoots next, from hand
    assert_consistent(ruling)


def test_8g_a_ball_the_cue_ball_never_touched_going_off_does_not_pass_the_turn():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1", "ball R1 R2", "off R2")
    assert ruling.legal_pot
    assert ruling.points == 9 + 3
    assert "8g" not in ruling.clauses
    assert ruling.respots[R2] == SPOTS[SpotId.HEAD_STRING]
    assert_inning_continues(ruling)


def test_8g_from_a_marker_entry():
    final = Position(layout(drop=("K", "R2")))
    ruling = rule_marker(
        "K FL",
        entry(final=final, pots=((K, PocketId.FL),), off_table=(R2,), first_contact=K, nakki=frozenset({R2})),
    )
    assert ruling.legal_pot
    assert ruling.points == 9 + 3
    assert "8g" in ruling.clauses
    assert_turn_passes(ruling)


# --- 8h: a jaw used as a cushion --------------------------------------------------------------------------


@pytest.mark.parametrize("call", ["K MR/rf FL", "K MR/ FL"])
def test_8h_jaw_of_another_pocket_as_a_called_cushion(call):
    ruling = rule(call, "strike W1", "ball W1 K", "jaw K MR rf", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "2" in ruling.clauses
    assert_inning_continues(ruling)
    assert_consistent(ruling)


def test_8h_jaw_on_the_cue_balls_leg():
    ruling = rule("MR/rf K FL", "strike W1", "jaw W1 MR rf", "ball W1 K", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6


def test_8h_uncalled_jaw_of_another_pocket_voids_the_pot():
    ruling = rule("K FL", "strike W1", "ball W1 K", "jaw K MR rf", "pocket K FL")
    assert not ruling.legal_pot
    assert "1.3" in ruling.clauses
    assert_turn_passes(ruling)


@pytest.mark.parametrize("call", ["K MR/rh FL", "K rf FL", "K FR/rf FL"])
def test_8h_a_jaw_is_only_the_called_jaw(call):
    ruling = rule(call, "strike W1", "ball W1 K", "jaw K MR rf", "pocket K FL")
    assert not ruling.legal_pot
    assert "1.3" in ruling.clauses


def test_8h_a_jaw_cushion_makes_a_middle_kaisa_indirect():
    ruling = rule("K HL/lh ML", "strike W1", "ball W1 K", "jaw K HL lh", "pocket K ML")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "2.1" in ruling.clauses
    assert not ruling.state.last_pot_direct_middle_kaisa


# --- validation: a marker's entry -------------------------------------------------------------------------


def test_marker_entry_ball_potted_twice_is_rejected():
    final = Position(layout(drop=("K",)))
    e = entry(final=final, pots=((K, PocketId.FL), (K, PocketId.FR)), first_contact=K)
    with pytest.raises(MarkerEntryError, match="twice"):
        rule_marker("K FL", e)


def test_marker_entry_ball_both_potted_and_off_the_table_is_rejected():
    final = Position(layout(drop=("K",)))
    e = entry(final=final, pots=((K, PocketId.FL),), off_table=(K,), first_contact=K)
    with pytest.raises(MarkerEntryError, match="both"):
        rule_marker("K FL", e)


def test_marker_entry_pocketed_ball_in_the_final_position_is_rejected():
    e = entry(pots=((K, PocketId.FL),), first_contact=K)  # final = START, which still holds K
    with pytest.raises(MarkerEntryError, match="final position"):
        rule_marker("K FL", e)


def test_marker_entry_off_table_ball_in_the_final_position_is_rejected():
    e = entry(off_table=(R1,), first_contact=R1)
    with pytest.raises(MarkerEntryError, match="final position"):
        rule_marker(None, e)


def test_marker_entry_struck_ball_not_on_the_table_is_rejected():
    start = Position(layout(drop=("W2",)))
    e = entry(cue_ball=W2, start=start, first_contact=K)
    with pytest.raises(MarkerEntryError, match="not on the table"):
        rule_marker(None, e, state(shooter="W2"))


@pytest.mark.parametrize(
    "fields",
    [
        {"pots": ((R1, PocketId.HL),)},
        {"off_table": (R1,)},
        {"nakki": frozenset({R1})},
    ],
    ids=["potted", "off-table", "nakki"],
)
def test_marker_entry_ball_not_on_the_table_is_rejected(fields):
    start = Position(layout(drop=("R1",)))
    e = entry(start=start, first_contact=K, **fields)
    with pytest.raises(MarkerEntryError, match="R1 was not on the table"):
        rule_marker(None, e)


def test_marker_entry_first_contact_not_on_the_table_is_rejected():
    start = Position(layout(drop=("R1",)))
    final = start.without(W1)
    e = entry(start=start, final=final, pots=((W1, PocketId.FL),), first_contact=R1)
    with pytest.raises(MarkerEntryError):
        rule_marker(None, e)


def test_marker_entry_late_fall_of_a_ball_not_on_the_table_is_rejected():
    start = Position(layout(drop=("R1",)))
    e = entry(start=start, late_fall=LateFall(R1))
    with pytest.raises(MarkerEntryError):
        rule_marker(None, e)


# --- validation: an event log ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "steps",
    [
        ("strike W1", "ball W1 R2"),
        ("strike W1", "ball W1 K", "pocket R2 FL"),
        ("strike W1", "ball W1 K", "off R2"),
        ("strike W1", "ball W1 K", "ball K R2"),
    ],
)
def test_event_log_moving_a_ball_not_in_the_position_is_impossible(steps):
    with pytest.raises(ImpossibleStateError, match="R2"):
        rule("K FL", *steps, start=layout(drop=("R2",)))


def test_event_log_striking_a_ball_not_in_the_position_is_impossible():
    with pytest.raises(ImpossibleStateError):
        rule("K FL", "strike W1", "ball W1 K", start=layout(drop=("W1",)))


@pytest.mark.parametrize(
    "steps",
    [
        (),
        ("ball W1 K", "pocket K FL"),
        ("ball W1 K", "strike W1", "pocket K FL"),
        ("strike W1", "strike W1", "ball W1 K"),
    ],
    ids=["empty", "no-strike", "strike-not-first", "two-strikes"],
)
def test_event_log_without_a_strike_first_is_impossible(steps):
    with pytest.raises(ImpossibleStateError, match="strike"):
        rule("K FL", *steps)


def test_7a_a_talonmies_foul_whose_cue_ball_drops_leaves_the_cue_ball_in_hand():
    """issue 29: W1 frozen behind R2 towards FR, struck at 0 degrees, R2 and W1 both into FR. 7j puts the balls
    back, but the dropped cue ball is its owner's in hand (7a -3, REFERENCE 5): not back on the table."""
    steps = ("strike W1", "ball W1 R2", "pocket R2 FR", "pocket W1 FR")
    ruling = rule("R2 FR", *steps, start=R2_FROZEN_AT_0, direction=0.0)
    assert ("8a", 0) in fouls(ruling)
    assert ("7a", -3) in fouls(ruling)
    assert W1 in ruling.state.in_hand
    assert W1 not in ruling.position
    assert ruling.position[R2] == R2_FROZEN_AT_0["R2"]  # the other balls go back (7j)
    assert_consistent(ruling)


@pytest.mark.parametrize("flag", ["konsti_ball_frozen_to_cushion", "konsti_pair_frozen"])
def test_7h_a_frozen_konsti_flag_without_a_konsti_call_is_refused(flag: str) -> None:
    """issue 29 (6): "K HR" with the 7h flag was an AssertionError (an HTTP 500); 7h and 8c are about the konsti
    ball the call names, so a call without one cannot carry them (docs/CLAUSES.md)."""
    final = Position(layout(drop=("K",)))
    marked = entry(final=final, pots=((K, PocketId.HR),), first_contact=K, **{flag: True})
    with pytest.raises(MarkerEntryError, match="needs a konsti call"):
        rule_marker("K HR", marked)
    with pytest.raises(MarkerEntryError, match="needs a konsti call"):
        rule_marker(None, marked)
    kyyti = entry(final=final, pots=((K, PocketId.HR),), first_contact=R1, **{flag: True})
    assert "7h" in rule_marker("kyyti R1 K HR", kyyti).clauses or "8c" in rule_marker("kyyti R1 K HR", kyyti).clauses


def test_1_3_a_foul_does_not_hide_the_routes_void_reason():
    """issue 29 (4): the route check was skipped when the stroke also fouled, so the 7a foul was cited and the
    call's broken route (1.3: the cue ball dropped before reaching the called ball) was not."""
    ruling = rule("R1 HL", "strike W1", "pocket W1 FR", "ball R2 R1", "pocket R1 HL")
    assert ("7a", -2) in fouls(ruling)
    assert not ruling.legal_pot
    voids = [n for n in ruling.notes if n.clause == "1.3" and "before the called ball" in n.en]
    assert voids, [n.en for n in ruling.notes]
    assert_consistent(ruling)
