"""Conformance, section 2: the points table (every entry of REFERENCE.md section 3) and the one rule behind it."""

import pytest

from kaisa.model import BallId
from kaisa.referee.points import pot_value
from tests.referee_helpers import assert_consistent, rule

# (called ball, pocket kind, nakki balls) -> points; the table of REFERENCE.md section 3, entry by entry.
POINTS_TABLE = [
    ("W2", "corner", (), 2),
    ("W2", "corner", ("R1",), 4),
    ("W2", "corner", ("R1", "R2"), 7),
    ("W2", "corner", ("K",), 7),
    ("W2", "corner", ("K", "R1"), 10),
    ("W2", "corner", ("K", "R1", "R2"), 13),
    ("R1", "corner", (), 3),
    ("R1", "corner", ("W2",), 5),
    ("R1", "corner", ("R2",), 6),
    ("R1", "corner", ("W2", "R2"), 8),
    ("R1", "corner", ("K",), 9),
    ("R1", "corner", ("K", "W2"), 11),
    ("R1", "corner", ("K", "R2"), 12),
    ("R1", "corner", ("K", "R2", "W2"), 14),
    ("K", "corner", (), 6),
    ("K", "corner", ("W2",), 11),
    ("K", "corner", ("R1",), 12),
    ("K", "corner", ("W2", "R1"), 14),
    ("K", "corner", ("R1", "R2"), 15),
    ("K", "middle", (), 12),
    ("K", "middle", ("W2",), 17),
    ("K", "middle", ("R1",), 18),
    ("K", "middle", ("W2", "R1"), 20),
    ("K", "middle", ("R1", "R2"), 21),
]


@pytest.mark.parametrize(("ball", "pocket", "nakki", "points"), POINTS_TABLE)
def test_2_points_rule_reproduces_the_table(ball, pocket, nakki, points):
    value = pot_value(BallId(ball), [BallId(b) for b in nakki], middle_direct=pocket == "middle")
    assert value == points


@pytest.mark.parametrize(("ball", "pocket", "nakki", "points"), POINTS_TABLE)
def test_2_points_table_entry_ruled_from_an_event_log(ball, pocket, nakki, points):
    target = "FL" if pocket == "corner" else "ML"
    steps = ["strike W1", f"ball W1 {ball}", f"pocket {ball} {target}"] + [f"ball W1 {b}" for b in nakki]
    ruling = rule(f"{ball} {target}", *steps)
    assert ruling.legal_pot
    assert ruling.points == points
    assert {i.clause for i in ruling.items} == {"2"}
    assert not ruling.turn_passes
    assert_consistent(ruling)


def test_2_kaisa_corner_with_white_and_both_reds_is_17():
    ruling = rule("K FR", "strike W1", "ball W1 K", "pocket K FR", "ball W1 W2", "ball W1 R1", "ball W1 R2")
    assert ruling.points == 9 + 2 + 3 + 3 == 17


def test_2_kaisa_direct_middle_with_white_and_both_reds_is_23():
    ruling = rule("K MR", "strike W1", "ball W1 K", "pocket K MR", "ball W1 W2", "ball W1 R1", "ball W1 R2")
    assert ruling.points == 23


def test_2_nakki_counts_each_distinct_ball_once():
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", "ball W1 K", "pocket R1 HL", "ball W1 K", "ball W1 K")
    assert ruling.points == 3 + 6


def test_1_3_rattles_in_a_corner_need_no_call():
    ruling = rule("K FL", "strike W1", "ball W1 K", "jaw K FL f", "jaw K FL lf", "pocket K FL")
    assert ruling.legal_pot
    assert ruling.points == 6
    assert any(
        n.key == "rattles" and n.en == "Rattling in the jaws needs no call (2 jaw rattles)" for n in ruling.notes
    )
    assert any(n.clause == "1.3" and n.fi == "Röpötystä (2 haakiosumaa) ei tarvitse maalata" for n in ruling.notes)


def test_3_white_at_59_with_an_extra_ball_option():
    """At 59 a white with no nakki "adds 2": by default extras still count (2.1); the option gives exactly 2."""
    from kaisa.referee import RuleOptions
    from tests.referee_helpers import state

    # a kara white (which cannot finish) while the kara ball drops as an extra ball
    steps = ("strike W1", "ball W1 R1", "ball W1 W2", "pocket W2 HL", "pocket R1 FR")
    default = rule("kara R1 W2 HL", *steps, state=state(w1=59))
    assert default.points == 2 + 3
    assert default.turn_passes
    assert not default.game_over
    strict = rule("kara R1 W2 HL", *steps, state=state(w1=59), options=RuleOptions(white_at_59_scores_two_only=True))
    assert strict.points == 2
    assert strict.turn_passes
    assert not strict.game_over
