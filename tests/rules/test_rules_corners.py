"""The rulebook's last corners (issue 15, REFERENCE.md section 10): the shoot-out's first pot and penalties
(6), 8g after a konsti pot, the double hit (7d), the swapped cue balls (7i), a cue ball that cannot be struck
away (8b), the referee restoring after a talonmies in simulated play (7j), and the citations (1.2, 7h, 1.3)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from kaisa.call import parse_call
from kaisa.model import BallId, Position
from kaisa.referee import Facts, GameState, ImpossibleStateError, Ruling, judge
from kaisa.referee.observe import cannot_strike_away
from kaisa.referee.predicates import call_can_score, konsti_ball_usable, pushes
from kaisa.table import OFFICIAL, PocketId
from tests.referee_helpers import START, R, SpotId, assert_consistent, facts_of, rule, state

W1, W2, R1, R2, K = BallId.W1, BallId.W2, BallId.R1, BallId.R2, BallId.K
D = 2 * R
CENTRE = OFFICIAL.spots[SpotId.CENTRE]

SHOOTOUT_START = {"W1": (0.40, 0.30), "K": CENTRE}
"""A shoot-out inning's start: the kaisa on the centre spot, W1 placed behind the head string."""


def shootout(shooter: str = "W1", w1: int = 0, w2: int = 0, *, first: bool = True) -> GameState:
    cue = BallId(shooter)
    return GameState(
        scores={W1: w1, W2: w2}, shooter=cue, in_hand=frozenset({cue}) if first else frozenset(), shootout=True
    )


def rule_facts(call: str | None, facts: Facts, game: GameState) -> Ruling:
    parsed = None if call is None else parse_call(call)
    return judge(facts, parsed, game)


# --- 6: the penalty shoot-out -------------------------------------------------------------------------------


def test_6_the_first_pot_of_a_shootout_inning_is_the_kaisa_into_a_corner_for_6():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket K FL", start=SHOOTOUT_START, state=shootout())
    assert ruling.legal_pot
    assert ruling.points == 6
    assert [(i.clause, i.points) for i in ruling.items] == [("6", 6)]
    assert "keskipilkulta alapään vasempaan kulmapussiin" in ruling.items[0].fi
    assert not ruling.turn_passes
    assert ruling.position[K] == CENTRE
    assert ruling.state.shootout
    assert ruling.state.in_hand == frozenset()


def test_6_a_bank_into_a_middle_pocket_as_the_first_pot_of_an_inning_scores_nothing():
    ruling = rule(
        "K lf ML",
        "strike W1",
        "ball W1 K",
        "rail K left-foot",
        "pocket K ML",
        start=SHOOTOUT_START,
        state=shootout(),
    )
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert "6" in ruling.clauses
    assert any("keskipilkulta kulmaan" in n.fi for n in ruling.notes if n.clause == "6")
    assert ruling.turn_passes


def test_6_after_the_first_pot_the_middle_pocket_scores_as_in_the_game():
    start = {"W1": (0.30, 1.60), "K": CENTRE}
    ruling = rule(
        "K rf ML",
        "strike W1",
        "ball W1 K",
        "rail K right-foot",
        "pocket K ML",
        start=start,
        state=shootout(first=False),
    )
    assert ruling.legal_pot
    assert [(i.clause, i.points) for i in ruling.items] == [("2.1", 6)]


def test_6_the_cue_ball_down_after_the_kaisa_costs_6_in_the_shootout():
    ruling = rule("K FL", "strike W1", "ball W1 K", "pocket W1 HL", start=SHOOTOUT_START, state=shootout(w1=20))
    assert [(f.clause, f.points) for f in ruling.fouls] == [("6", -6), ("7c", 0)]
    assert ruling.state.scores[W1] == 14
    assert ruling.turn_passes


def test_6_the_cue_ball_down_without_touching_the_kaisa_costs_2_in_the_shootout():
    ruling = rule("K FL", "strike W1", "off W1", start=SHOOTOUT_START, state=shootout(w1=20))
    assert [(f.clause, f.points) for f in ruling.fouls if f.points] == [("6", -2)]
    assert ruling.state.scores[W1] == 18


def test_6_stopping_the_balls_after_a_miss_costs_6():
    facts = replace(facts_of("K FL", "strike W1", "ball W1 K", start=SHOOTOUT_START), stopped_balls=True)
    ruling = rule_facts("K FL", facts, shootout(w1=10))
    assert [(f.clause, f.points) for f in ruling.fouls] == [("6", -6), ("7c", 0)]
    assert ruling.state.scores[W1] == 4
    assert ruling.turn_passes
    assert "pysäytti pallot ohilyönnin jälkeen" in ruling.fouls[0].fi


def test_6_stopping_a_ball_outside_the_shootout_is_a_touch():
    facts = replace(facts_of("K FL", "strike W1", "ball W1 K"), stopped_balls=True)
    ruling = rule_facts("K FL", facts, state(w1=10))
    assert [(f.clause, f.points) for f in ruling.fouls] == [("7b", 0)]


def test_6_the_shot_generator_asks_the_referee_whether_a_first_shootout_pot_can_score():
    first, later = shootout(), shootout(first=False)
    assert call_can_score(K, PocketId.FR, cushions=0, konsti=False, state=first)
    assert not call_can_score(K, PocketId.MR, cushions=2, konsti=False, state=first)
    assert call_can_score(K, PocketId.MR, cushions=2, konsti=False, state=later)


# --- 8g after a konsti pot ---------------------------------------------------------------------------------


def test_8g_the_cue_balls_nakki_ball_off_the_table_after_a_kyyti_passes_the_turn():
    before = state(w1=10)
    ruling = rule(
        "kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL", "ball W1 R2", "off R2", state=before
    )
    assert ruling.legal_pot
    assert ruling.points == 6  # a kyyti earns no nakki (2.1), but the pot counts
    assert ruling.turn_passes
    assert "8g" in ruling.clauses
    assert ruling.state.shooter is W2
    assert_consistent(ruling)


def test_8g_a_ball_touched_only_by_the_kyyti_ball_going_off_does_not_pass_the_turn():
    ruling = rule("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL", "ball R1 R2", "off R2")
    assert ruling.legal_pot
    assert not ruling.turn_passes
    assert "8g" not in ruling.clauses


# --- 7d: the double hit --------------------------------------------------------------------------------------


def test_7d_a_double_hit_voids_the_pot_and_passes_the_turn_without_penalty():
    facts = replace(facts_of("R1 HL", "strike W1", "ball W1 R1", "pocket R1 HL"), double_hit=True)
    before = state(w1=12, w2=3)
    ruling = rule_facts("R1 HL", facts, before)
    assert not ruling.legal_pot
    assert ruling.points == 0
    assert ruling.fouls == ()
    assert ruling.turn_passes
    assert any(n.clause == "7d" and "kaksoiskosketus" in n.fi for n in ruling.notes)
    assert ruling.state.scores == before.scores


# --- 7i: the referee swaps the cue balls; an expired swap ------------------------------------------------------


def test_7i_the_referee_swapping_the_cue_balls_after_a_wrong_ball():
    facts = replace(
        facts_of("R2 HR", "strike W2", "ball W2 R2", final={**START, "W2": (1.00, 2.60)}), swapped_by_referee=True
    )
    ruling = rule_facts("R2 HR", facts, state(shooter="W1"))
    assert [(f.clause, f.points) for f in ruling.fouls] == [("7i", 0)]
    assert ruling.position[W1] == (1.00, 2.60)
    assert ruling.position[W2] == START["W1"]
    assert any(n.clause == "7i" and "vaihtoi lyöntipallojen paikat" in n.fi for n in ruling.notes)
    assert ruling.turn_passes


def test_7i_an_expired_swap_swaps_the_balls_back_and_the_game_goes_on():
    before = state(w1=20, w2=30, shooter="W2")
    facts = replace(facts_of(None, "strike W2"), swap_expired=True)
    ruling = rule_facts(None, facts, before)
    assert ruling.points == 0
    assert ruling.fouls == ()
    assert ruling.items == ()
    assert not ruling.turn_passes
    assert ruling.state == before
    assert ruling.position[W1] == START["W2"]
    assert ruling.position[W2] == START["W1"]
    assert ruling.clauses == ["7i"]


# --- 8b: a frozen cue ball that cannot be struck away --------------------------------------------------------


def pinned() -> dict[str, tuple[float, float]]:
    """W1 frozen to the left cushion with R1 frozen to it from the table side: no stroke gets W1 away."""
    w1 = (R + 0.0001, 1.80)
    return {**START, "W1": w1, "R1": (w1[0] + D + 0.0001, 1.80)}


def test_8b_a_cue_ball_pinned_to_a_cushion_by_a_ball_cannot_be_struck_away():
    assert cannot_strike_away(pinned()["W1"], [0.0])
    assert not cannot_strike_away(START["W1"], [0.0])


def test_8b_struck_into_the_ball_it_is_pinned_by_is_no_talonmies():
    ruling = rule("R1 HR", "strike W1", "ball W1 R1", "pocket R1 HR", start=pinned(), direction=10.0, state=state(w1=5))
    assert ruling.fouls == ()
    assert ruling.legal_pot
    assert "8b" in ruling.clauses
    assert "8a" not in ruling.clauses


def test_8b_breaking_the_opponents_setup_is_a_foul():
    facts = replace(
        facts_of("R1 HR", "strike W1", "ball W1 R1", "pocket R1 HR", start=pinned(), direction=10.0),
        setup_broken=True,
    )
    ruling = rule_facts("R1 HR", facts, state())
    assert [(f.clause, f.points) for f in ruling.fouls] == [("7j", 0)]
    assert not ruling.legal_pot


# --- 7j: restoring after a talonmies in simulated play -------------------------------------------------------


def frozen_r2() -> dict[str, tuple[float, float]]:
    w1 = START["W1"]
    return {**START, "R2": (w1[0] + D + 0.0001, w1[1])}


def test_7j_a_talonmies_foul_in_simulated_play_puts_the_balls_back():
    start = frozen_r2()
    ruling = rule(
        None, "strike W1", "ball W1 R2", "rail R2 right-head @1.386,1.0", start=start, direction=0.0, state=state()
    )
    assert ("8a", 0) in [(f.clause, f.points) for f in ruling.fouls]
    assert ruling.position == Position(start)
    assert any(n.clause == "7j" and "palautetaan" in n.fi for n in ruling.notes)
    assert ruling.turn_passes


def test_7j_at_a_real_table_the_balls_stay_unless_the_kirjuri_enters_a_restore():
    start = frozen_r2()
    facts = replace(
        facts_of(None, "strike W1", "ball W1 R2", start=start, final={**start, "R2": (1.2, 2.0)}, direction=0.0),
        from_log=False,
    )
    ruling = rule_facts(None, facts, state())
    assert ruling.position[R2] == (1.2, 2.0)


def test_7j_the_shot_generator_asks_the_referee_about_pushes_and_frozen_konsti_balls():
    assert pushes(44.0)
    assert pushes(89.0)
    assert not pushes(90.0)
    assert not konsti_ball_usable((R, 1.0))
    assert konsti_ball_usable((0.5, 1.0))


# --- citations --------------------------------------------------------------------------------------------


def test_1_2_a_kyyti_kaisa_into_a_middle_pocket_on_the_break_is_not_cited_as_direct():
    start = {**START, "W1": (0.50, 0.50), "R1": (0.60, 1.20)}
    ruling = rule(
        "kyyti R1 K ML", "strike W1", "ball W1 R1", "ball R1 K", "pocket K ML", start=start, state=state(opening=True)
    )
    assert not ruling.legal_pot
    assert "1.2" not in ruling.clauses
    assert "5" in ruling.clauses


def test_1_2_the_direct_kaisa_into_a_middle_pocket_on_the_break_is_cited():
    start = {**START, "W1": (0.50, 0.50)}
    ruling = rule("K ML", "strike W1", "ball W1 K", "pocket K ML", start=start, state=state(opening=True))
    assert {"1.2", "5"} <= set(ruling.clauses)


def test_7h_a_frozen_kara_ball_that_was_never_touched_is_not_cited():
    start = {**START, "R1": (R + 0.0001, 2.0)}
    ruling = rule("kara R1 K FL", "strike W1", "ball W1 K", "pocket K FL", start=start)
    assert not ruling.legal_pot
    assert "7h" not in ruling.clauses
    assert "1.3" in ruling.clauses


def test_7h_a_frozen_kara_ball_that_was_played_off_is_cited():
    start = {**START, "R1": (R + 0.0001, 2.0)}
    ruling = rule("kara R1 K FL", "strike W1", "ball W1 R1", "ball W1 K", "pocket K FL", start=start)
    assert "7h" in ruling.clauses


def test_1_3_every_route_problem_is_listed():
    ruling = rule("lf K f FL", "strike W1", "rail W1 rf", "ball W1 K", "rail K lf", "pocket K FL")
    problems = [n for n in ruling.notes if n.clause == "1.3" and n.fi.startswith("Pussitusta ei hyväksytä")]
    assert len(problems) == 2
    assert "lyöntipallo W1" in problems[0].fi
    assert "oikea sivuvalli alapään puolella" in problems[0].fi
    assert "kohdepallo (kaisa)" in problems[1].fi
    assert "alapään päätyvalli" in problems[1].fi


# --- 5: hand-written logs give rail contacts without a point (REFERENCE 10) -------------------------------


HAND = {**START, "W1": (0.40, 0.30)}


def test_5_a_rail_contact_without_a_point_on_a_rail_wholly_in_front_of_the_head_string_is_in_front():
    ruling = rule(
        "lf K FL",
        "strike W1",
        "rail W1 left-foot",
        "ball W1 K",
        "pocket K FL",
        start=HAND,
        state=state(in_hand=frozenset({W1})),
    )
    assert ruling.legal_pot
    assert "5" not in ruling.clauses


def test_5_a_head_rail_contact_without_a_point_is_behind_the_head_string():
    ruling = rule(
        "h K FL",
        "strike W1",
        "rail W1 head",
        "ball W1 K",
        "pocket K FL",
        start=HAND,
        state=state(in_hand=frozenset({W1})),
    )
    assert not ruling.legal_pot
    assert ("5", 0) in [(f.clause, f.points) for f in ruling.fouls]


def test_5_a_contact_on_a_rail_crossing_the_head_string_needs_its_point():
    with pytest.raises(ImpossibleStateError, match="left-head or right-head"):
        rule(
            "K FL",
            "strike W1",
            "rail W1 left-head",
            "ball W1 K",
            "pocket K FL",
            start=HAND,
            state=state(in_hand=frozenset({W1})),
        )
    ruling = rule(
        "lh K FL",
        "strike W1",
        f"rail W1 left-head @{R:.4f},{OFFICIAL.head_string + 0.2:.3f}",
        "ball W1 K",
        "pocket K FL",
        start=HAND,
        state=state(in_hand=frozenset({W1})),
    )
    assert ruling.legal_pot


def test_5_the_cushion_rule_holds_only_from_hand():
    # the same log ruled with the cue ball on the table needs no point
    start = {**START, "W1": (0.40, 0.30)}
    ruling = rule("lh K FL", "strike W1", "rail W1 left-head", "ball W1 K", "pocket K FL", start=start)
    assert ruling.legal_pot
    assert math.isfinite(ruling.points)
