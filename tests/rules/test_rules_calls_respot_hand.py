"""Conformance, 1.2 / 1.3 / 8h / 4 / 4.1 / 5 / 7c: the break, calls, respotting and ball in hand.

Every test is a hand-built event log (see :mod:`tests.referee_helpers`) judged by the referee, with the
expectation taken from the rulebook (kaisa-saannot-2014.txt) and REFERENCE.md sections 2, 4, 5 and 6.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from kaisa.model import BallId
from kaisa.referee import GameState, ImpossibleStateError, Ruling
from kaisa.table import Point
from tests.referee_helpers import SPOTS, START, R, SpotId, assert_consistent, rule, state

W1, W2, R1, R2, K = BallId.W1, BallId.W2, BallId.R1, BallId.R2, BallId.K
CENTRE = SPOTS[SpotId.CENTRE]
HEAD_STRING = SPOTS[SpotId.HEAD_STRING]
FOOT_STRING = SPOTS[SpotId.FOOT_STRING]
HEAD_END = SPOTS[SpotId.HEAD_END]
FOOT_END = SPOTS[SpotId.FOOT_END]
RED_ORDER = (SpotId.HEAD_STRING, SpotId.FOOT_STRING, SpotId.HEAD_END, SpotId.FOOT_END, SpotId.CENTRE)
KAISA_ORDER = (SpotId.CENTRE, SpotId.HEAD_STRING, SpotId.FOOT_STRING, SpotId.HEAD_END, SpotId.FOOT_END)

OPENING: dict[str, Point] = {
    "W1": (0.40, 0.40),
    "W2": (0.71, 2.60),
    "R1": HEAD_STRING,
    "R2": FOOT_STRING,
    "K": CENTRE,
}
"""The starting position (REFERENCE.md 2): K centre, R1 head-string spot, R2 foot-string spot, W2 placed in the
foot half clear of the kaisa's lines to the foot corners, W1 behind the head string."""

HAND: dict[str, Point] = {**START, "W1": (0.50, 0.40)}
"""START with W1 in hand, placed behind the head string."""

IN_HAND_W1 = frozenset({W1})


def with_(base: Mapping[str, Point], **balls: Point | None) -> dict[str, Point]:
    """``base`` with some balls moved (a point) or removed (``None``)."""
    out = dict(base)
    for name, p in balls.items():
        if p is None:
            out.pop(name, None)
        else:
            out[name] = p
    return out


def void_notes(ruling: Ruling, clause: str) -> list[str]:
    """The voiding notes ("the pot does not count") that cite ``clause``."""
    return [n.en for n in ruling.notes if n.clause == clause and n.en.startswith("The pot does not count")]


def foul_clauses(ruling: Ruling) -> list[str]:
    return [f.clause for f in ruling.fouls]


def as_start(ruling: Ruling) -> dict[str, Point]:
    """The ruling's position for the next stroke, as a ``start=`` mapping."""
    return {b.value: p for b, p in ruling.position.items()}


def assert_legal(ruling: Ruling, points: int) -> None:
    assert ruling.legal_pot, [n.en for n in ruling.notes]
    assert ruling.points == points
    assert not ruling.turn_passes
    assert ruling.state.shooter is ruling.shooter
    assert not ruling.fouls
    assert_consistent(ruling)


def assert_void(ruling: Ruling, *clauses: str) -> None:
    """The pot does not count, citing one of ``clauses`` (default 1.3), and the turn passes."""
    clauses = clauses or ("1.3",)
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.turn_passes
    assert ruling.state.shooter is not ruling.shooter
    assert any(void_notes(ruling, c) for c in clauses), [(n.clause, n.en) for n in ruling.notes]
    assert_consistent(ruling)


# =============================================================================================================
# 1.2 The break
# =============================================================================================================


def opening() -> GameState:
    return state(opening=True)


def test_1_2_the_break_is_played_from_behind_the_head_string():
    with pytest.raises(ImpossibleStateError, match="behind the head string"):
        rule("K FL", "strike W1", "ball W1 K", "pocket K FL", state=opening(), start=with_(OPENING, W1=(0.40, 1.00)))


def test_1_2_a_legal_break_pot_scores_and_the_inning_continues():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", state=opening(), start=OPENING)
    assert_legal(ruling, 6)
    assert ruling.state.opening is False
    assert ruling.state.in_hand == frozenset()
    assert ruling.position[K] == CENTRE  # respotted (4)


def test_1_2_the_breaker_may_not_pot_the_kaisa_directly_into_a_middle_pocket():
    ruling = rule("K ML", "strike W1", "ball W1 K", "pocket K ML", state=opening(), start=OPENING)
    assert_void(ruling, "1.2")
    assert ruling.fouls == ()  # a pot that does not count, not a foul
    assert ruling.in_hand == frozenset()
    assert ruling.state.opening is False
    assert ruling.position[K] == CENTRE


@pytest.mark.parametrize("pocket", ["ML", "MR"])
def test_1_2_the_kaisa_into_a_middle_pocket_via_a_cushion_on_the_break_scores(pocket):
    rail = "rh" if pocket == "ML" else "lh"  # the far long cushion: no mankeli (7f)
    ruling = rule(
        f"K {rail} {pocket}",
        "strike W1",
        "ball W1 K",
        f"rail K {rail}",
        f"pocket K {pocket}",
        state=opening(),
        start=OPENING,
    )
    assert_legal(ruling, 6)  # a kaisa in the middle other than directly counts as in a corner (2.1)
    assert "1.2" not in ruling.clauses


def test_1_2_the_red_on_the_head_string_may_not_be_played_directly():
    ruling = rule(
        None,
        "strike W1",
        "ball W1 R1",
        state=opening(),
        start=OPENING,
        final=with_(OPENING, W1=(0.60, 1.00), R1=(0.71, 1.80)),
    )
    assert foul_clauses(ruling) == ["1.2"]
    assert ruling.points == 0  # no penalty points
    assert ruling.turn_passes
    assert "7c" not in ruling.clauses  # the break is not ball in hand: no new ball in hand
    assert ruling.in_hand == frozenset()
    assert ruling.state == GameState(shooter=W2)
    assert ruling.position[W1] == (0.60, 1.00)  # W1 stays where it stopped
    assert_consistent(ruling)


def test_1_2_the_red_on_the_head_string_played_directly_scores_nothing_even_if_potted():
    ruling = rule(
        "R1 HL",
        "strike W1",
        "ball W1 R1",
        "pocket R1 HL",
        state=opening(),
        start=OPENING,
        final=with_(OPENING, W1=(0.60, 1.00), R1=None),
    )
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "1.2" in foul_clauses(ruling)
    assert ruling.turn_passes
    assert ruling.in_hand == frozenset()
    assert ruling.position[R1] == HEAD_STRING  # respotted on its first spot (4)
    assert_consistent(ruling)


def test_1_2_the_red_on_the_head_string_may_be_played_via_a_cushion_in_front():
    ruling = rule(
        "lh R1 HL", "strike W1", "rail W1 lh @0.034,1.00", "ball W1 R1", "pocket R1 HL", state=opening(), start=OPENING
    )
    assert_legal(ruling, 3)
    assert "1.2" not in ruling.clauses


def test_1_2_the_red_on_the_head_string_may_be_played_via_a_ball_in_front():
    ruling = rule(None, "strike W1", "ball W1 K", "ball K R1", state=opening(), start=OPENING)
    assert ruling.fouls == ()
    assert ruling.turn_passes  # no pot
    assert ruling.in_hand == frozenset()


def test_1_2_the_cue_ball_must_cross_the_head_string_on_the_break():
    ruling = rule(None, "strike W1", state=opening(), start=OPENING, final=with_(OPENING, W1=(0.40, 0.60)))
    assert foul_clauses(ruling) == ["1.2"]
    assert ruling.points == 0
    assert ruling.in_hand == frozenset()
    assert "7c" not in ruling.clauses
    assert ruling.state.shooter is W2
    assert_consistent(ruling)


def test_1_2_the_first_cushion_on_the_break_must_be_in_front_of_the_head_string():
    ruling = rule(None, "strike W1", "rail W1 lh @0.034,0.50", "ball W1 K", state=opening(), start=OPENING)
    assert foul_clauses(ruling) == ["1.2"]
    assert ruling.points == 0
    assert ruling.in_hand == frozenset()
    assert "7c" not in ruling.clauses
    assert_consistent(ruling)


def test_1_2_a_red_directly_into_a_middle_pocket_on_the_break_scores_nothing():
    # "the other ball-in-hand rules apply": only corner pots or middle pots via cushions score (5)
    ruling = rule("R2 MR", "strike W1", "ball W1 R2", "pocket R2 MR", state=opening(), start=OPENING)
    assert_void(ruling, "5")
    assert ruling.fouls == ()
    assert ruling.in_hand == frozenset()


def test_1_2_the_cue_ball_pocketed_on_the_break_is_still_7a():
    ruling = rule(None, "strike W1", "ball W1 K", "pocket W1 FL", state=opening(), start=OPENING)
    assert foul_clauses(ruling) == ["7a"]
    assert ruling.points == -6
    assert ruling.in_hand == IN_HAND_W1  # its owner plays from hand (4a), though no 7c
    assert "7c" not in ruling.clauses
    assert ruling.state.shooter is W2
    assert ruling.state.in_hand == IN_HAND_W1
    assert_consistent(ruling)


def test_1_2_after_the_break_the_next_stroke_is_not_an_opening():
    first = rule(
        None,
        "strike W1",
        "ball W1 K",
        state=opening(),
        start=OPENING,
        final=with_(OPENING, W1=(0.60, 1.10), K=(0.90, 1.70)),
    )
    assert first.state.opening is False
    # W2 now plays the red on the head string directly: an ordinary stroke, no fault.
    second = rule(None, "strike W2", "ball W2 R1", state=first.state, start=as_start(first))
    assert second.fouls == ()


# =============================================================================================================
# 1.3 Calls: the route, käkä, a moving ball, no call
# =============================================================================================================


def test_1_3_a_legal_pot_continues_the_inning():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL")
    assert_legal(ruling, 6)
    assert any(n.clause == "1.3" and "inning continues" in n.en for n in ruling.notes)
    assert ruling.state.scores[W1] == 6


def test_1_3_a_miss_passes_the_turn():
    ruling = rule("K FL", "strike W1", "ball W1 K")
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.turn_passes
    assert ruling.state.shooter is W2
    assert ruling.fouls == ()
    assert_consistent(ruling)


def test_1_3_no_call_means_no_points():
    ruling = rule(None, "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1")
    assert_void(ruling)
    assert ruling.position[K] == CENTRE


def test_1_3_no_call_and_no_pot_just_passes_the_turn():
    ruling = rule(None, "strike W1", "ball W1 K")
    assert not ruling.legal_pot
    assert ruling.turn_passes
    assert void_notes(ruling, "1.3") == []


def test_1_3_the_called_ball_into_another_pocket_does_not_count():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FR")
    assert_void(ruling)
    assert "into the right foot corner, not the called pocket (the left foot corner)" in void_notes(ruling, "1.3")[0]
    assert "alapään oikeaan kulmapussiin" in next(n.fi for n in ruling.notes if n.clause == "1.3")
    assert ruling.respots == {K: CENTRE}


def test_1_3_another_ball_into_the_called_pocket_does_not_count():
    ruling = rule("K FL", "strike W1", "ball W1 R1", "pocket R1 FL")
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.turn_passes


def test_1_3_nakki_needs_no_call():
    ruling = rule("K FL", "strike W1", "ball W1 K", "ball W1 R1", "pocket K FL")
    assert_legal(ruling, 9 + 3)


# --- the cue ball's leg -------------------------------------------------------------------------------------


def test_1_3_cue_leg_exact_cushions_as_called():
    ruling = rule("lh K FR", "strike W1", "rail W1 lh", "ball W1 K", "pocket K FR")
    assert_legal(ruling, 6)


@pytest.mark.parametrize(
    "cushions",
    [(), ("rh",), ("lh", "h"), ("h", "lh"), ("lh", "lh")],
    ids=["none", "other-rail", "extra-after", "extra-before", "twice"],
)
def test_1_3_cue_leg_other_cushions_void(cushions):
    steps = ["strike W1", *(f"rail W1 {c}" for c in cushions), "ball W1 K", "pocket K FR"]
    assert_void(rule("lh K FR", *steps))


@pytest.mark.parametrize(("n", "legal"), [(0, False), (1, False), (2, True), (3, False)])
def test_1_3_cue_leg_cushion_count(n, legal):
    rails = ["h", "rh", "f"][:n]
    ruling = rule("2 K FR", "strike W1", *(f"rail W1 {c}" for c in rails), "ball W1 K", "pocket K FR")
    if legal:
        assert_legal(ruling, 6)
    else:
        assert_void(ruling)


# --- the called ball's leg ----------------------------------------------------------------------------------


def test_1_3_object_leg_exact_cushions_as_called():
    ruling = rule("K lf f HR", "strike W1", "ball W1 K", "rail K lf", "rail K f", "pocket K HR")
    assert_legal(ruling, 6)


@pytest.mark.parametrize(
    "cushions",
    [(), ("lf",), ("f", "lf"), ("lf", "f", "h"), ("lf", "lf", "f")],
    ids=["none", "missing", "reversed", "extra-after", "extra-between"],
)
def test_1_3_object_leg_other_cushions_void(cushions):
    steps = ["strike W1", "ball W1 K", *(f"rail K {c}" for c in cushions), "pocket K HR"]
    assert_void(rule("K lf f HR", *steps))


def test_1_3_an_uncalled_cushion_on_the_object_leg_voids():
    assert_void(rule("K FL", "strike W1", "ball W1 K", "rail K rf", "pocket K FL"))


@pytest.mark.parametrize(("n", "legal"), [(1, False), (2, True), (3, False)])
def test_1_3_object_leg_cushion_count(n, legal):
    rails = ["rf", "f", "lf"][:n]  # never ending on a rail of HL (mankeli, 7f)
    ruling = rule("R1 2 HL", "strike W1", "ball W1 R1", *(f"rail R1 {c}" for c in rails), "pocket R1 HL")
    if legal:
        assert_legal(ruling, 3)
    else:
        assert_void(ruling)


def test_1_3_an_uncalled_ball_contact_of_the_called_ball_voids():
    ruling = rule("K FL", "strike W1", "ball W1 K", "ball K R1", "pocket K FL")
    assert_void(ruling)
    assert "uncalled konsti" in void_notes(ruling, "1.3")[0]


def test_1_3_the_cue_ball_off_another_ball_first_is_an_uncalled_kara():
    assert_void(rule("K FL", "strike W1", "ball W1 R2", "ball W1 K", "pocket K FL"))


def test_1_3_an_uncalled_kyyti_voids():
    assert_void(rule("K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL"))


def test_1_3_a_called_kyyti_played_directly_voids():
    assert_void(rule("kyyti R1 K FL", "strike W1", "ball W1 K", "pocket K FL"))


def test_1_3_a_called_kiss_that_did_not_happen_voids():
    assert_void(rule("K kiss R1 HL", "strike W1", "ball W1 K", "pocket K HL"))


# --- konsti legs --------------------------------------------------------------------------------------------


def test_1_3_kyyti_plain():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL")
    assert_legal(ruling, 6)


def test_1_3_kyyti_earns_no_nakki():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "ball W1 R2", "pocket K FL")
    assert_legal(ruling, 6)


KYYTI_STEPS = ("strike W1", "rail W1 rf", "ball W1 R1", "rail R1 h", "ball R1 K", "rail K lh", "pocket K FR")


def test_1_3_kyyti_with_a_cushion_on_every_leg():
    assert_legal(rule("rf kyyti R1 h K lh FR", *KYYTI_STEPS), 6)


@pytest.mark.parametrize(
    "call",
    [
        "kyyti R1 h K lh FR",  # the cue leg's cushion not called
        "rf kyyti R1 K lh FR",  # the kyyti leg's cushion not called
        "rf kyyti R1 h K FR",  # the object leg's cushion not called
        "lf kyyti R1 h K lh FR",  # wrong rail on the cue leg
        "rf kyyti R1 f K lh FR",  # wrong rail on the kyyti leg
        "rf kyyti R1 h h K lh FR",  # a cushion too many on the kyyti leg
        "rf kyyti R1 2 K lh FR",
        "rf kyyti R2 h K lh FR",  # the wrong kyyti ball
    ],
)
def test_1_3_kyyti_leg_by_leg_mismatch_voids(call):
    assert_void(rule(call, *KYYTI_STEPS), "1.3", "2")


@pytest.mark.parametrize("call", ["1 kyyti R1 1 K 1 FR", "rf kyyti R1 1 K lh FR", "1 kyyti R1 h K 1 FR"])
def test_1_3_kyyti_legs_by_count(call):
    assert_legal(rule(call, *KYYTI_STEPS), 6)


KARA_STEPS = ("strike W1", "ball W1 R2", "rail W1 lh", "ball W1 K", "pocket K FR")


def test_1_3_kara_with_a_cushion_between_the_balls():
    assert_legal(rule("kara R2 lh K FR", *KARA_STEPS), 6)


@pytest.mark.parametrize(
    "call",
    ["kara R2 K FR", "kara R2 rh K FR", "kara R2 lh h K FR", "lh kara R2 K FR", "kara R1 lh K FR", "kara R2 lh K 1 FR"],
)
def test_1_3_kara_leg_mismatch_voids(call):
    assert_void(rule(call, *KARA_STEPS), "1.3", "2")


def test_1_3_kara_earns_no_nakki():
    ruling = rule("kara R2 K FR", "strike W1", "ball W1 R2", "ball W1 K", "ball W1 W2", "pocket K FR")
    assert_legal(ruling, 6)
    assert any(n.clause == "2.1" and "nakki" in n.en for n in ruling.notes)


KISS_STEPS = ("strike W1", "ball W1 K", "rail K rf", "ball K R1", "rail K rh", "pocket K HL")


def test_1_3_kiss_with_a_cushion_before_and_after_the_kiss():
    assert_legal(rule("K rf kiss R1 rh HL", *KISS_STEPS), 6)


@pytest.mark.parametrize(
    "call",
    ["K kiss R1 rh HL", "K rf kiss R1 HL", "K rh kiss R1 rf HL", "K rf kiss R2 rh HL", "K 2 kiss R1 rh HL"],
)
def test_1_3_kiss_leg_mismatch_voids(call):
    assert_void(rule(call, *KISS_STEPS), "1.3", "2")


def test_2_two_konsti_in_one_pot_void():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "ball K R2", "pocket K FL")
    assert_void(ruling, "2")
    assert "two konsti" in void_notes(ruling, "2")[0]


def test_2_a_kiss_and_another_ball_contact_void():
    ruling = rule("K kiss R1 HL", "strike W1", "ball W1 K", "ball K R1", "ball K R2", "pocket K HL")
    assert_void(ruling, "2")


def test_2_a_kyyti_ball_off_another_ball_is_a_second_konsti():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 R2", "ball R2 K", "pocket K FL")
    assert_void(ruling, "1.3", "2")


# --- röpötys, käkä, a moving called ball --------------------------------------------------------------------

RATTLE_CASES = [
    pytest.param("K FL", ("strike W1", "ball W1 K", "jaw K FL foot", "jaw K FL left-foot", "pocket K FL"), id="plain"),
    pytest.param("K FL", ("strike W1", "ball W1 K", "jaw K FL", "pocket K FL"), id="jaw-without-side"),
    pytest.param("K 1 FR", ("strike W1", "ball W1 K", "rail K lh", "jaw K FR foot", "pocket K FR"), id="count"),
    pytest.param("kyyti R1 K FL", ("strike W1", "ball W1 R1", "ball R1 K", "jaw K FL foot", "pocket K FL"), id="kyyti"),
    pytest.param("K kiss R1 HL", ("strike W1", "ball W1 K", "ball K R1", "jaw K HL head", "pocket K HL"), id="kiss"),
]


@pytest.mark.parametrize(("call", "steps"), RATTLE_CASES)
def test_1_3_jaw_rattles_at_the_called_pocket_need_no_call(call, steps):
    ruling = rule(call, *steps)
    assert_legal(ruling, 6)
    assert any(n.clause == "1.3" and n.key == "rattles" and "jaw rattle" in n.en for n in ruling.notes)


def test_1_3_a_jaw_of_the_called_pocket_before_other_contacts_is_no_rattle():
    # röpötys is only "just before the drop"; a jaw hit earlier on the leg is an uncalled cushion
    ruling = rule("K FL", "strike W1", "ball W1 K", "jaw K FL foot", "rail K rf", "pocket K FL")
    assert_void(ruling)


def test_1_3_kaka_the_cue_ball_touching_the_called_ball_twice_voids():
    ruling = rule("K FL", "strike W1", "ball W1 K", "ball W1 K", "pocket K FL")
    assert_void(ruling)
    assert any("käkä" in n for n in void_notes(ruling, "1.3"))


def test_1_3_kaka_in_a_kiss_voids():
    ruling = rule("K kiss R1 HL", "strike W1", "ball W1 K", "ball K R1", "ball W1 K", "pocket K HL")
    assert_void(ruling)
    assert any("käkä" in n for n in void_notes(ruling, "1.3"))


def test_1_3_the_cue_ball_touching_the_called_ball_after_the_drop_is_no_kaka():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1")
    assert_legal(ruling, 9 + 3)


def test_1_3_a_kyyti_ball_driving_a_moving_called_ball_voids():
    # the cue ball goes on from R1 and sets the kaisa moving before R1 arrives
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball W1 K", "ball R1 K", "pocket K FL")
    assert_void(ruling)
    assert any("already moving" in n for n in void_notes(ruling, "1.3"))


def test_1_3_a_cue_ball_driving_a_moving_called_ball_voids():
    # kara R2: R2 runs into the kaisa before the cue ball comes off R2 onto it
    ruling = rule("kara R2 K FR", "strike W1", "ball W1 R2", "ball R2 K", "ball W1 K", "pocket K FR")
    assert_void(ruling)
    assert any("already moving" in n for n in void_notes(ruling, "1.3"))


def test_1_3_the_same_kara_with_the_kaisa_at_rest_is_legal():
    ruling = rule("kara R2 K FR", "strike W1", "ball W1 R2", "ball W1 K", "pocket K FR", "ball R2 W2")
    assert_legal(ruling, 6)


@pytest.mark.parametrize(
    "after_the_kyyti",
    [("ball W1 K",), ("ball W1 K", "rail K rf")],
    ids=["cue-ball-steers", "cue-ball-steers-then-uncalled-cushion"],
)
def test_1_3_the_cue_ball_steering_the_called_ball_after_a_kyyti_voids(after_the_kyyti):
    # R1 sets the kaisa moving, then the cue ball runs into it on its way to FL: the cue ball steers a moving
    # object ball into the pocket (1.3), an uncalled contact on the object leg (REFERENCE.md 4).
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", *after_the_kyyti, "pocket K FL")
    assert_void(ruling)


def test_1_3_the_kyyti_ball_touching_the_called_ball_twice_voids():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "ball R1 K", "pocket K FL")
    assert_void(ruling, "1.3", "2")


# =============================================================================================================
# 8h A jaw used as a called cushion
# =============================================================================================================


def test_8h_a_jaw_of_another_pocket_as_a_called_cushion():
    ruling = rule("K FR/f FL", "strike W1", "ball W1 K", "jaw K FR foot", "pocket K FL")
    assert_legal(ruling, 6)  # via a cushion: a corner kaisa


@pytest.mark.parametrize("side", ["foot", "right-foot", None])
def test_8h_a_jaw_called_without_a_side_matches_either_jaw_of_that_pocket(side):
    jaw = "jaw K FR" + (f" {side}" if side else "")
    assert_legal(rule("K FR/ FL", "strike W1", "ball W1 K", jaw, "pocket K FL"), 6)


def test_8h_a_jaw_reported_without_a_side_matches_a_called_side():
    assert_legal(rule("K FR/f FL", "strike W1", "ball W1 K", "jaw K FR", "pocket K FL"), 6)


@pytest.mark.parametrize(
    ("call", "contact"),
    [
        ("K FR/rf FL", "jaw K FR foot"),  # the other jaw of the pocket
        ("K FR/f FL", "rail K foot"),  # the rail is not its jaw
        ("K f FL", "jaw K FR foot"),  # nor the jaw its rail
        ("K HR/h FL", "jaw K FR foot"),  # another pocket's jaw
        ("K FL", "jaw K FR foot"),  # an uncalled jaw is an uncalled cushion
    ],
)
def test_8h_a_jaw_must_be_the_called_one(call, contact):
    assert_void(rule(call, "strike W1", "ball W1 K", contact, "pocket K FL"))


def test_8h_a_jaw_counts_as_one_cushion():
    assert_legal(rule("K 1 FL", "strike W1", "ball W1 K", "jaw K FR foot", "pocket K FL"), 6)
    assert_legal(rule("K 2 FL", "strike W1", "ball W1 K", "rail K rh", "jaw K FR foot", "pocket K FL"), 6)


def test_8h_a_jaw_on_the_cue_ball_leg():
    assert_legal(rule("HL/lh K FR", "strike W1", "jaw W1 HL left-head", "ball W1 K", "pocket K FR"), 6)


def test_8h_a_jaw_in_a_kyyti_leg():
    steps = ("strike W1", "ball W1 R1", "jaw R1 ML left-foot", "ball R1 K", "pocket K FR")
    assert_legal(rule("kyyti R1 ML/lf K FR", *steps), 6)


# =============================================================================================================
# 4 Respotting: whites in hand, reds and the kaisa on spots
# =============================================================================================================


def test_4_the_opponents_white_potted_legally_is_in_hand_for_its_owner():
    ruling = rule("W2 FL", "strike W1", "ball W1 W2", "pocket W2 FL")
    assert_legal(ruling, 2)
    assert ruling.in_hand == frozenset({W2})
    assert W2 not in ruling.position
    assert W2 not in ruling.respots
    assert ruling.state.in_hand == frozenset({W2})
    assert ruling.state.shooter is W1  # the shooter's inning goes on; W2 waits in hand
    assert "4" in ruling.clauses


def test_4_the_opponents_white_potted_illegally_is_in_hand_for_its_owner():
    ruling = rule(None, "strike W1", "ball W1 W2", "pocket W2 FL")
    assert ruling.in_hand == frozenset({W2})
    assert ruling.state.shooter is W2
    assert ruling.state.from_hand  # W2 plays its next stroke from hand
    assert W2 not in ruling.position
    assert "4" in ruling.clauses
    assert_consistent(ruling)


def test_4_the_shooters_own_white_potted_is_in_hand_for_the_shooter():
    ruling = rule(None, "strike W1", "ball W1 R1", "pocket W1 HL")
    assert ruling.in_hand == IN_HAND_W1
    assert ruling.state.shooter is W2
    assert ruling.state.in_hand == IN_HAND_W1
    assert not ruling.state.from_hand  # W2 plays from where its ball lies
    assert W1 not in ruling.position
    assert_consistent(ruling)


def test_4_both_whites_potted_are_both_in_hand():
    ruling = rule(None, "strike W1", "ball W1 W2", "pocket W2 FR", "pocket W1 FL")
    assert ruling.in_hand == frozenset({W1, W2})
    assert W1 not in ruling.position
    assert W2 not in ruling.position
    assert ruling.respots == {}
    assert_consistent(ruling)


def test_4_a_white_in_hand_waits_while_the_other_player_continues():
    first = rule("W2 FL", "strike W1", "ball W1 W2", "pocket W2 FL")
    second = rule("K FR", "strike W1", "ball W1 K", "pocket K FR", state=first.state, start=as_start(first))
    assert second.legal_pot
    assert second.in_hand == frozenset({W2})
    third = rule("R1 HL", "strike W1", "ball W1 R1", state=second.state, start=as_start(second))
    assert third.turn_passes
    assert third.state.shooter is W2
    assert third.state.in_hand == frozenset({W2})
    assert third.state.from_hand


def test_4_a_white_off_the_table_is_in_hand_for_its_owner():
    ruling = rule(None, "strike W1", "ball W1 W2", "off W2")
    assert ruling.in_hand == frozenset({W2})
    assert W2 not in ruling.position
    assert ruling.state.shooter is W2
    assert ruling.state.from_hand
    assert_consistent(ruling)


# --- reds and the kaisa -------------------------------------------------------------------------------------

# Balls well clear of every spot, used to fill spots one by one.
CLEAR: dict[str, Point] = {
    "W1": (0.40, 1.00),
    "W2": (1.10, 2.40),
    "R1": (0.30, 2.00),
    "R2": (1.00, 1.80),
    "K": (0.30, 1.20),
}


def occupy(spots: tuple[SpotId, ...], balls: tuple[str, ...], base: Mapping[str, Point] = CLEAR) -> dict[str, Point]:
    return with_(base, **{b: SPOTS[s] for b, s in zip(balls, spots, strict=False)})


@pytest.mark.parametrize("taken", range(5))
def test_4_a_red_goes_to_the_first_free_of_its_five_spots(taken):
    occupants = ("W1", "W2", "R2", "K")[:taken]
    final = with_(occupy(RED_ORDER[:taken], occupants), R1=None)
    ruling = rule(None, "strike W1", "ball W1 R1", "pocket R1 HL", start=CLEAR, final=final)
    expected = SPOTS[RED_ORDER[taken]]
    assert ruling.respots == {R1: expected}
    assert ruling.position[R1] == expected
    assert "4" in ruling.clauses
    assert_consistent(ruling)


@pytest.mark.parametrize("taken", range(5))
def test_4_the_kaisa_goes_to_the_first_free_of_its_five_spots(taken):
    occupants = ("W1", "W2", "R1", "R2")[:taken]
    final = with_(occupy(KAISA_ORDER[:taken], occupants), K=None)
    ruling = rule(None, "strike W1", "ball W1 K", "pocket K FL", start=CLEAR, final=final)
    expected = SPOTS[KAISA_ORDER[taken]]
    assert ruling.respots == {K: expected}
    assert ruling.position[K] == expected
    assert ruling.state.kaisa_off_centre is (taken > 0)
    assert "4" in ruling.clauses
    assert_consistent(ruling)


@pytest.mark.parametrize(
    ("offset", "taken"),
    [
        (0.0, True),  # a ball on the spot
        (2 * R - 0.010, True),  # overlapping a ball there
        (2 * R, True),  # a ball placed there would touch it
        (2 * R + 0.002, False),  # a gap of 2 mm: free
        (0.20, False),
    ],
)
def test_4_a_spot_is_taken_if_the_placed_ball_would_touch_another(offset, taken):
    neighbour = (HEAD_STRING[0] + offset, HEAD_STRING[1])
    final = with_(CLEAR, W2=neighbour, R1=None)
    ruling = rule(None, "strike W1", "ball W1 R1", "pocket R1 HL", start=CLEAR, final=final)
    assert ruling.respots[R1] == (FOOT_STRING if taken else HEAD_STRING)


def test_4_a_red_off_the_table_is_spotted_like_a_potted_one():
    ruling = rule(None, "strike W1", "ball W1 R1", "off R1", start=CLEAR, final=with_(CLEAR, R1=None))
    assert ruling.respots == {R1: HEAD_STRING}
    assert ruling.position[R1] == HEAD_STRING
    assert "4" in ruling.clauses
    assert_consistent(ruling)


def test_4_the_kaisa_off_the_table_is_spotted_like_a_potted_one():
    final = with_(CLEAR, W2=CENTRE, K=None)
    ruling = rule(None, "strike W1", "ball W1 K", "off K", start=CLEAR, final=final)
    assert ruling.respots == {K: HEAD_STRING}
    assert ruling.state.kaisa_off_centre


def test_4_both_reds_go_to_the_head_string_and_foot_string_spots():
    final = with_(CLEAR, R1=None, R2=None)
    ruling = rule(
        None, "strike W1", "ball W1 R1", "pocket R1 HL", "ball W1 R2", "pocket R2 HR", start=CLEAR, final=final
    )
    assert set(ruling.respots) == {R1, R2}
    assert {ruling.respots[R1], ruling.respots[R2]} == {HEAD_STRING, FOOT_STRING}
    assert_consistent(ruling)


def test_4_1_the_kaisa_is_placed_before_a_red():
    # Centre taken: the kaisa takes the head-string spot first, so the red goes to the foot-string spot.
    final = with_(CLEAR, W2=CENTRE, K=None, R1=None)
    ruling = rule(
        "K FL", "strike W1", "ball W1 K", "pocket K FL", "ball W1 R1", "pocket R1 HL", start=CLEAR, final=final
    )
    assert ruling.respots == {K: HEAD_STRING, R1: FOOT_STRING}
    assert ruling.state.kaisa_off_centre
    assert "4.1" in ruling.clauses
    assert_legal(ruling, 9 + 3 + 3)  # kaisa with nakki R1, which also dropped (2.1)


def test_4_1_the_kaisa_first_with_two_spots_taken():
    final = with_(CLEAR, W1=CENTRE, W2=HEAD_STRING, K=None, R1=None)
    ruling = rule(None, "strike W1", "ball W1 R1", "pocket R1 HL", "ball W1 K", "pocket K FR", start=CLEAR, final=final)
    assert ruling.respots == {K: FOOT_STRING, R1: HEAD_END}
    assert "4.1" in ruling.clauses
    assert_consistent(ruling)


def test_4_1_the_kaisa_and_both_reds():
    final = with_(CLEAR, W2=CENTRE, K=None, R1=None, R2=None)
    steps = ("strike W1", "ball W1 R2", "pocket R2 HR", "ball W1 R1", "pocket R1 HL", "ball W1 K", "pocket K FR")
    ruling = rule(None, *steps, start=CLEAR, final=final)
    assert ruling.respots[K] == HEAD_STRING
    assert {ruling.respots[R1], ruling.respots[R2]} == {FOOT_STRING, HEAD_END}
    assert "4.1" in ruling.clauses


# --- the kaisa's return to the centre spot ------------------------------------------------------------------

OFF_CENTRE: dict[str, Point] = with_(CLEAR, K=HEAD_STRING, R2=CENTRE)
"""The kaisa waits on the head-string spot because R2 stands on the centre spot."""


def test_4_the_kaisa_returns_to_the_centre_as_soon_as_it_is_free():
    final = with_(OFF_CENTRE, R2=(1.00, 2.30))  # W1 knocks R2 off the centre spot
    ruling = rule(None, "strike W1", "ball W1 R2", start=OFF_CENTRE, final=final, state=state(kaisa_off_centre=True))
    assert ruling.respots == {K: CENTRE}
    assert ruling.position[K] == CENTRE
    assert ruling.state.kaisa_off_centre is False
    assert any(n.clause == "4" and "centre" in n.en for n in ruling.notes)
    assert_consistent(ruling)


def test_4_the_kaisa_stays_off_centre_while_the_centre_is_taken():
    final = with_(OFF_CENTRE, W1=(0.50, 1.60))
    ruling = rule(None, "strike W1", "ball W1 W2", start=OFF_CENTRE, final=final, state=state(kaisa_off_centre=True))
    assert ruling.respots == {}
    assert ruling.position[K] == HEAD_STRING
    assert ruling.state.kaisa_off_centre is True


def test_4_a_touched_kaisa_is_not_returned():
    final = with_(OFF_CENTRE, R2=(1.00, 2.30), K=(0.80, 0.95))
    ruling = rule(
        None, "strike W1", "ball W1 R2", "ball W1 K", start=OFF_CENTRE, final=final, state=state(kaisa_off_centre=True)
    )
    assert K not in ruling.respots
    assert ruling.position[K] == (0.80, 0.95)
    assert ruling.state.kaisa_off_centre is False


def test_4_a_kaisa_touched_once_is_never_returned_later():
    final = with_(OFF_CENTRE, W2=(1.10, 2.00))
    first = rule(None, "strike W1", "ball W1 K", start=OFF_CENTRE, final=final, state=state(kaisa_off_centre=True))
    assert first.state.kaisa_off_centre is False
    # R2 then leaves the centre spot; the kaisa, touched before, stays where it is.
    second = rule(
        None,
        "strike W2",
        "ball W2 R2",
        state=first.state,
        start=as_start(first),
        final=with_(as_start(first), R2=(1.00, 2.30)),
    )
    assert K not in second.respots
    assert second.position[K] == HEAD_STRING


def test_4_without_the_flag_the_kaisa_is_not_moved():
    final = with_(OFF_CENTRE, R2=(1.00, 2.30))
    ruling = rule(None, "strike W1", "ball W1 R2", start=OFF_CENTRE, final=final)
    assert ruling.respots == {}
    assert ruling.position[K] == HEAD_STRING


def test_4_a_kaisa_spotted_off_centre_comes_back_on_a_later_stroke():
    # Stroke 1: the kaisa is potted while W2 stands on the centre spot: it goes to the head-string spot.
    start = with_(CLEAR, W2=CENTRE)
    first = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=start, final=with_(start, K=None))
    assert first.respots == {K: HEAD_STRING}
    assert first.state.kaisa_off_centre
    # Stroke 2: W1 knocks W2 off the centre spot without touching the kaisa: it goes back to the centre.
    after = as_start(first)
    second = rule(
        "R1 HL", "strike W1", "ball W1 W2", state=first.state, start=after, final=with_(after, W2=(1.10, 2.20))
    )
    assert second.respots == {K: CENTRE}
    assert second.position[K] == CENTRE
    assert not second.state.kaisa_off_centre


def test_4_1_the_waiting_kaisa_returns_before_a_potted_red_is_spotted():
    # The kaisa waits on the head-string spot because R2 stands on the centre spot. R2 is potted: the centre
    # frees, the kaisa goes back there at once (4) and is placed before the red (4.1), so R2 takes its first
    # spot, the head-string spot the kaisa has just left.
    ruling = rule(
        "R2 FL",
        "strike W1",
        "ball W1 R2",
        "pocket R2 FL",
        start=OFF_CENTRE,
        final=with_(OFF_CENTRE, R2=None),
        state=state(kaisa_off_centre=True),
    )
    assert_legal(ruling, 3)
    assert ruling.position[K] == CENTRE
    assert ruling.position[R2] == HEAD_STRING
    assert ruling.respots == {K: CENTRE, R2: HEAD_STRING}


def test_4_1_the_waiting_kaisa_returns_before_a_red_takes_the_centre():
    # As above, with every other red spot taken: the red must not take the centre spot from the kaisa.
    start = {"W1": (0.40, 1.80), "W2": HEAD_END, "R1": CENTRE, "R2": FOOT_END, "K": HEAD_STRING}
    final = with_(start, W1=FOOT_STRING, R1=None)
    ruling = rule(
        None, "strike W1", "ball W1 R1", "pocket R1 ML", start=start, final=final, state=state(kaisa_off_centre=True)
    )
    assert ruling.position[K] == CENTRE
    assert ruling.position[R1] == HEAD_STRING


# =============================================================================================================
# 5 Ball in hand, 7c a fault from hand
# =============================================================================================================


def hand(w1: int = 0, w2: int = 0) -> GameState:
    return state(w1, w2, in_hand=IN_HAND_W1)


@pytest.mark.parametrize("y", [0.71, 0.72, 1.00])
def test_5_the_ball_in_hand_must_start_behind_the_head_string(y):
    with pytest.raises(ImpossibleStateError, match="behind the head string"):
        rule("K FL", "strike W1", "ball W1 K", "pocket K FL", state=hand(), start=with_(HAND, W1=(0.50, y)))


def test_5_just_behind_the_head_string_is_behind():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", state=hand(), start=with_(HAND, W1=(0.50, 0.70)))
    assert_legal(ruling, 6)


def test_5_a_ball_in_front_may_be_played_directly():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", state=hand(), start=HAND)
    assert_legal(ruling, 6)
    assert ruling.in_hand == frozenset()  # the ball in hand has been played
    assert ruling.state.in_hand == frozenset()
    assert ruling.position[W1] == HAND["W1"]
    assert "5" not in ruling.clauses


def test_5_a_ball_just_in_front_of_the_line_may_be_played_directly():
    start = with_(HAND, R1=(0.30, 0.75))
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", "pocket R1 HL", state=hand(), start=start)
    assert_legal(ruling, 3)


@pytest.mark.parametrize("y", [0.71, 0.50], ids=["on-the-line", "behind"])
def test_5_a_ball_on_or_behind_the_line_may_not_be_played_directly(y):
    start = with_(HAND, R1=(0.30, y))
    ruling = rule(
        "R1 HL",
        "strike W1",
        "ball W1 R1",
        "pocket R1 HL",
        state=hand(),
        start=start,
        final=with_(start, W1=(0.60, 1.20), R1=None),
    )
    assert foul_clauses(ruling) == ["5", "7c"]
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.turn_passes
    assert ruling.in_hand == IN_HAND_W1
    assert_consistent(ruling)


def test_5_a_ball_behind_the_line_via_a_cushion_in_front():
    start = with_(HAND, R1=(0.30, 0.50))
    ruling = rule(
        "lh R1 HL", "strike W1", "rail W1 lh @0.034,1.00", "ball W1 R1", "pocket R1 HL", state=hand(), start=start
    )
    assert_legal(ruling, 3)
    assert ruling.state.in_hand == frozenset()


def test_5_a_ball_behind_the_line_via_a_ball_in_front():
    start = with_(HAND, R1=(0.30, 0.50))
    ruling = rule("kyyti R2 R1 HL", "strike W1", "ball W1 R2", "ball R2 R1", "pocket R1 HL", state=hand(), start=start)
    assert_legal(ruling, 3)


def test_5_a_ball_behind_the_line_via_a_kara_ball_in_front():
    start = with_(HAND, R1=(0.30, 0.50))
    ruling = rule("kara R2 R1 HL", "strike W1", "ball W1 R2", "ball W1 R1", "pocket R1 HL", state=hand(), start=start)
    assert_legal(ruling, 3)


def test_5_a_jaw_in_front_of_the_line_is_a_cushion_in_front():
    start = with_(HAND, R1=(0.30, 0.50))
    steps = ("strike W1", "jaw W1 ML left-head @0.034,1.33", "ball W1 R1", "pocket R1 HL")
    ruling = rule("ML/lh R1 HL", *steps, state=hand(), start=start)
    assert_legal(ruling, 3)


def test_5_only_the_first_cushion_must_be_in_front():
    start = with_(HAND, R1=(0.30, 0.50))
    steps = ("strike W1", "rail W1 rh @1.386,1.00", "rail W1 h @0.90,0.034", "ball W1 R1", "pocket R1 HL")
    ruling = rule("rh h R1 HL", *steps, state=hand(), start=start)
    assert_legal(ruling, 3)


def test_5_a_first_cushion_behind_the_line_is_a_fault():
    ruling = rule(
        "lh K FR", "strike W1", "rail W1 lh @0.034,0.50", "ball W1 K", "pocket K FR", state=hand(), start=HAND
    )
    assert foul_clauses(ruling) == ["5", "7c"]
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.in_hand == IN_HAND_W1
    assert_consistent(ruling)


def test_5_the_cue_ball_must_cross_the_line_or_hit_a_ball_in_front():
    ruling = rule(None, "strike W1", state=hand(), start=HAND, final=with_(HAND, W1=(0.50, 0.65)))
    assert foul_clauses(ruling) == ["5", "7c"]
    assert ruling.in_hand == IN_HAND_W1


def test_5_crossing_the_line_without_hitting_a_ball_is_no_fault():
    ruling = rule(None, "strike W1", state=hand(), start=HAND, final=with_(HAND, W1=(0.50, 1.30)))
    assert ruling.fouls == ()
    assert ruling.turn_passes  # nothing potted
    assert ruling.in_hand == frozenset()
    assert ruling.position[W1] == (0.50, 1.30)


def test_5_the_opponents_ball_in_hand_does_not_restrict_the_shooter():
    start = with_(START, W2=None, R1=(0.30, 0.50))  # W2 is in hand, W1 on the table in front of the line
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", "pocket R1 HL", state=state(in_hand=frozenset({W2})), start=start)
    assert_legal(ruling, 3)
    assert ruling.in_hand == frozenset({W2})
    assert ruling.state.in_hand == frozenset({W2})


def test_5_the_second_player_in_hand():
    start = with_(START, W2=(0.90, 0.30), R1=(0.30, 0.50))
    ruling = rule(
        "R1 HL",
        "strike W2",
        "ball W2 R1",
        "pocket R1 HL",
        state=state(shooter="W2", in_hand=frozenset({W2})),
        start=start,
        final=with_(start, W2=(0.50, 1.20), R1=None),
    )
    assert foul_clauses(ruling) == ["5", "7c"]
    assert ruling.in_hand == frozenset({W2})
    assert ruling.state.shooter is W1
    assert ruling.state.scores == {W1: 0, W2: 0}


# --- what scores from hand ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pocket", ["HL", "HR", "FL", "FR"])
def test_5_corner_pots_score_from_hand(pocket):
    ruling = rule(f"K {pocket}", "strike W1", "ball W1 K", f"pocket K {pocket}", state=hand(), start=HAND)
    assert_legal(ruling, 6)


@pytest.mark.parametrize(("call", "ball"), [("K ML", "K"), ("K MR", "K"), ("R2 MR", "R2"), ("kyyti R2 K ML", "K")])
def test_5_a_middle_pot_without_a_cushion_from_hand_scores_nothing(call, ball):
    first = "R2" if "kyyti" in call else ball
    steps = ["strike W1", f"ball W1 {first}"]
    if "kyyti" in call:
        steps.append("ball R2 K")
    steps.append(f"pocket {ball} {call.split()[-1]}")
    ruling = rule(call, *steps, state=hand(), start=HAND)
    assert_void(ruling, "5")
    assert ruling.fouls == ()  # not a foul: no 7c, no new ball in hand
    assert "7c" not in ruling.clauses
    assert ruling.in_hand == frozenset()
    assert ruling.state.in_hand == frozenset()


@pytest.mark.parametrize(("call", "rail", "points"), [("K rh ML", "rh", 6), ("R2 lh MR", "lh", 3)])
def test_5_a_middle_pot_via_a_cushion_from_hand_scores(call, rail, points):
    ball, pocket = call.split()[0], call.split()[-1]
    ruling = rule(
        call, "strike W1", f"ball W1 {ball}", f"rail {ball} {rail}", f"pocket {ball} {pocket}", state=hand(), start=HAND
    )
    assert_legal(ruling, points)


EXTRA_STEPS = ("strike W1", "ball W1 K", "pocket K FL", "ball W1 R2")


def test_5_an_extra_ball_in_a_corner_scores_from_hand():
    ruling = rule("K FL", *EXTRA_STEPS, "pocket R2 HR", state=hand(), start=HAND)
    assert_legal(ruling, 9 + 3 + 3)  # kaisa with nakki R2, plus R2 as an extra ball


def test_5_a_middle_extra_without_a_cushion_scores_nothing_from_hand():
    ruling = rule("K FL", *EXTRA_STEPS, "pocket R2 MR", state=hand(), start=HAND)
    assert_legal(ruling, 9 + 3)  # the nakki counts, the extra ball does not
    assert any(n.clause == "5" and "Extra ball" in n.en for n in ruling.notes)


def test_5_a_middle_extra_that_touched_a_cushion_first_scores_from_hand():
    ruling = rule("K FL", *EXTRA_STEPS, "rail R2 lh", "pocket R2 MR", state=hand(), start=HAND)
    assert_legal(ruling, 9 + 3 + 3)


def test_5_a_middle_extra_without_a_cushion_scores_when_not_from_hand():
    ruling = rule("K FL", *EXTRA_STEPS, "pocket R2 MR")
    assert_legal(ruling, 9 + 3 + 3)


# --- 7c -----------------------------------------------------------------------------------------------------

FAULT_START = with_(HAND, R1=(0.30, 0.50))
FAULT_STEPS = ("strike W1", "ball W1 R1")
FAULT_FINAL = with_(FAULT_START, W1=(0.60, 1.20), R1=(0.30, 0.90))


def test_7c_a_fault_from_hand_passes_the_turn_without_penalty_and_gives_a_new_ball_in_hand():
    ruling = rule("R1 HL", *FAULT_STEPS, state=hand(w1=20, w2=30), start=FAULT_START, final=FAULT_FINAL)
    assert ruling.turn_passes
    assert ruling.points == 0
    assert ruling.state.scores == {W1: 20, W2: 30}
    assert all(f.points == 0 for f in ruling.fouls)
    assert "5" in ruling.clauses
    assert "7c" in ruling.clauses
    assert ruling.in_hand == IN_HAND_W1
    assert W1 not in ruling.position  # lifted: it will be placed again behind the line
    assert ruling.state.shooter is W2
    assert ruling.state.in_hand == IN_HAND_W1
    assert_consistent(ruling)


def test_7c_a_fault_from_hand_voids_a_pot_as_well():
    ruling = rule(
        "R1 HL", *FAULT_STEPS, "pocket R1 HL", state=hand(), start=FAULT_START, final=with_(FAULT_FINAL, R1=None)
    )
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.items == ()
    assert ruling.in_hand == IN_HAND_W1
    assert ruling.respots == {R1: HEAD_STRING}


def test_7c_with_7a_the_penalty_of_7a_still_applies():
    ruling = rule("R1 HL", *FAULT_STEPS, "pocket W1 HR", state=hand(), start=FAULT_START)
    assert ruling.points == -3  # 7a: the cue ball first hit a red
    assert {"5", "7a", "7c"} <= set(ruling.clauses)
    assert ruling.in_hand == IN_HAND_W1
    assert ruling.state.shooter is W2
    assert_consistent(ruling)


def test_7c_the_fouler_plays_from_hand_again_on_the_next_turn():
    fault = rule("R1 HL", *FAULT_STEPS, state=hand(), start=FAULT_START, final=FAULT_FINAL)
    # W2 plays an ordinary stroke and misses; W1 is still in hand.
    miss = rule("K FL", "strike W2", "ball W2 K", state=fault.state, start=as_start(fault))
    assert miss.fouls == ()
    assert miss.turn_passes
    assert miss.in_hand == IN_HAND_W1
    assert miss.state.shooter is W1
    assert miss.state.from_hand
    # W1 places its ball behind the head string again and plays legally.
    again = rule(
        "K FL", "strike W1", "ball W1 K", "pocket K FL", state=miss.state, start=with_(as_start(miss), W1=(0.60, 0.50))
    )
    assert_legal(again, 6)
    assert again.state.in_hand == frozenset()
    # ...and may not start in front of it.
    with pytest.raises(ImpossibleStateError):
        rule("K FL", "strike W1", "ball W1 K", state=miss.state, start=with_(as_start(miss), W1=(0.60, 0.90)))


def test_7c_does_not_apply_to_an_ordinary_stroke():
    start = with_(START, R1=(0.30, 0.50))  # W1 on the table in front of the line
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", state=state(), start=start)
    assert ruling.fouls == ()
    assert "7c" not in ruling.clauses
    assert ruling.in_hand == frozenset()


def test_1_2_a_break_fault_cites_both_the_break_and_the_ball_in_hand_rule():
    """Decision (docs/CLAUSES.md): a section 5 fault on the break is the break's foul (1.2, no new ball in hand,
    7c) and names rule 5 as the rule broken; the Finnish speaks of the cue ball, not a ball in hand."""
    ruling = rule(
        None,
        "strike W1",
        "ball W1 R1",
        state=opening(),
        start=OPENING,
        final=with_(OPENING, W1=(0.60, 1.00), R1=(0.71, 1.80)),
    )
    assert foul_clauses(ruling) == ["1.2"]
    assert "5" in ruling.clauses
    assert "7c" not in ruling.clauses
    note = next(n for n in ruling.notes if n.clause == "5")
    assert "ei seuraa uutta käsipalloa" in note.fi
    assert all("käsipallon on osuttava" not in i.fi for i in (*ruling.fouls, *ruling.notes))


@pytest.mark.parametrize("point", ["", " @0.034,1.50"], ids=["no-point", "with-point"])
def test_5_a_ball_behind_the_line_via_a_cushion_wholly_in_front_is_legal_with_or_without_the_contacts_point(point):
    """issue 29 (1): a rail wholly in front of the head string counted as "in front" but not as "crossed" when
    the log gave the contact no point: the same stroke was a 5/7c fault without the point, legal with it."""
    start = with_(HAND, R1=(0.30, 0.50))  # R1 behind the head string
    steps = ("strike W1", f"rail W1 lf{point}", "ball W1 R1", "pocket R1 HL")
    ruling = rule("lf R1 HL", *steps, state=hand(), start=start, final=with_(start, W1=(0.40, 0.60), R1=None))
    assert ruling.fouls == ()
    assert ruling.legal_pot
    assert_consistent(ruling)
