"""The call builder's warnings and the judge's voids come from one referee function
(:func:`kaisa.referee.prospects.state_voids`): in every combination of the state's flags, a called pot that goes
in as called is voided by the judge with exactly the lines the call builder showed before the stroke."""

from __future__ import annotations

import itertools

import pytest

from kaisa.call import parse_call
from kaisa.model import BallId, Position
from kaisa.referee import GameState
from kaisa.referee.catalogue import CATALOGUE
from kaisa.referee.prospects import call_prospects, call_words, state_voids
from kaisa.session.aids import call_prospects as session_prospects
from tests.referee_helpers import START, rule

W1 = BallId.W1
HAND = {**START, "W1": (0.50, 0.40)}
"""START with W1 placed behind the head string (a stroke from hand)."""

STROKES = {
    "K ML": ("strike W1", "ball W1 K", "pocket K ML"),
    "K rf ML": ("strike W1", "ball W1 K", "rail K rf", "pocket K ML"),
    "K FL": ("strike W1", "ball W1 K", "pocket K FL"),
    "K FR": ("strike W1", "ball W1 K", "pocket K FR"),
    "R2 MR": ("strike W1", "ball W1 R2", "pocket R2 MR"),
    "R2 HR": ("strike W1", "ball W1 R2", "pocket R2 HR"),
}
"""Calls with a hand-built stroke that pots each exactly as called."""

STATE_VOIDS = {
    (i.clause, i.en)
    for i in (
        CATALOGUE["2.1"].void("twice"),
        CATALOGUE["6"].void("first_pot"),
        CATALOGUE["1.2"].void("break_middle_kaisa"),
        CATALOGUE["5"].void("middle"),
    )
}


def states() -> list[GameState]:
    out = []
    for opening, hand, twice, shootout in itertools.product((False, True), repeat=4):
        if opening and shootout:
            continue  # the break is never in the shoot-out
        in_hand = frozenset({W1}) if hand else frozenset()
        out.append(GameState(opening=opening, in_hand=in_hand, last_pot_direct_middle_kaisa=twice, shootout=shootout))
    return out


@pytest.mark.parametrize("call", sorted(STROKES))
def test_the_judge_voids_a_called_pot_by_exactly_the_lines_the_call_builder_shows(call: str) -> None:
    voided_somewhere = 0
    for game in states():
        start = HAND if game.from_hand else START
        ruling = rule(call, *STROKES[call], state=game, start=start)
        judged = [(n.clause, n.en) for n in ruling.notes if (n.clause, n.en) in STATE_VOIDS]
        foretold = [(i.clause, i.en) for i in state_voids(parse_call(call), game)]
        assert judged == foretold, f"{call} in {game}"
        shown = session_prospects(Position(dict(start)), game, parse_call(call))
        assert [(i.clause, i.en) for i in shown] == foretold  # no ball behind the line here: nothing more
        if foretold:
            voided_somewhere += 1
            assert not ruling.legal_pot
            assert ruling.points == 0
    # every pot is voided in some state (the test is not vacuous) except the kaisa into a corner, which the state
    # never forbids
    assert (voided_somewhere > 0) == (call not in ("K FL", "K FR"))


def test_a_called_ball_behind_the_head_string_from_hand_is_foretold_as_the_judges_section_5_fault() -> None:
    start = {**HAND, "R1": (0.30, 0.50)}
    game = GameState(in_hand=frozenset({W1}))
    ruling = rule("R1 HL", "strike W1", "ball W1 R1", "pocket R1 HL", state=game, start=start)
    fault = CATALOGUE["5"].say("behind_ball")
    assert any(f.clause == "5" and fault.en in f.en for f in ruling.fouls)
    foretold = call_prospects(Position(dict(start)), parse_call("R1 HL"), game)
    assert [(i.clause, i.en) for i in foretold] == [("5", CATALOGUE["5"].void("behind_ball").en)]
    # off a cushion first it may be played: neither the judge nor the call builder objects
    assert call_prospects(Position(dict(start)), parse_call("R1 h HL"), game) == []


@pytest.mark.parametrize(
    ("call", "fi", "en"),
    [
        ("K FL", "kaisa alapään vasempaan kulmapussiin suoraan", "the kaisa into the left foot corner directly"),
        (
            "R1 rf ML",
            "punainen R1 vasempaan keskipussiin 1 vallin kautta",
            "red R1 into the left middle pocket via 1 cushion",
        ),
        (
            "h K ML",
            "kaisa vasempaan keskipussiin suoraan, lyöntipallo ensin 1 vallin kautta",
            "the kaisa into the left middle pocket directly, the cue ball via 1 cushion first",
        ),
        (
            "kyyti R1 K FR",
            "kaisa alapään oikeaan kulmapussiin kyydillä",
            "the kaisa into the right foot corner by kyyti",
        ),
    ],
)
def test_a_call_is_said_in_words_in_finnish_and_english(call: str, fi: str, en: str) -> None:
    words = call_words(parse_call(call))
    assert (words.fi, words.en) == (fi, en)
