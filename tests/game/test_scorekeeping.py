"""The scorekeeping mode's match layer: strokes at a real table entered by a marker, ruled by the referee."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kaisa.call import parse_call
from kaisa.errors import FormatError
from kaisa.game import (
    Choose,
    Forfeit,
    IllegalActionError,
    MarkedLag,
    MarkedShot,
    Match,
    MatchState,
    Phase,
    PlaceW2,
    action_from_json,
    action_to_json,
)
from kaisa.model import BallId, Position
from kaisa.records.notation import read_match, replay_record, write_match
from kaisa.records.stats import match_stats
from kaisa.records.storage import open_store
from kaisa.referee import GameState, LateFall, MarkerEntry
from kaisa.referee.marker import HandFault
from kaisa.referee.opening import IllegalPlacementError
from kaisa.table import OFFICIAL, PocketId, SpotId

W1, W2, R1, R2, K = BallId.W1, BallId.W2, BallId.R1, BallId.R2, BallId.K
SPOTS = OFFICIAL.spots


def opened() -> Match:
    """A match after the marked lag, W1 chosen and W2 placed: W1 breaks from hand."""
    match = Match()
    match.push(MarkedLag(0))
    match.push(Choose(W1))
    match.push(PlaceW2((0.71, 2.6)))
    return match


def playing(scores: tuple[int, int] = (0, 0), position: Position | None = None) -> Match:
    """A match in play with W1 on the table at (0.5, 1.0) and the object balls on their spots."""
    start = position or Position(
        {"W1": (0.5, 1.0), "W2": (1.0, 2.4), "R1": SPOTS[SpotId.HEAD_STRING], "R2": SPOTS[SpotId.FOOT_STRING],
         "K": SPOTS[SpotId.CENTRE]}
    )  # fmt: skip
    state = MatchState(
        phase=Phase.PLAY,
        position=start,
        game=GameState(scores={W1: scores[0], W2: scores[1]}),
        owners=(W1, W2),
        innings={W1: 1, W2: 1},
    )
    return Match(state=state)


def entry(match: Match, **fields) -> MarkerEntry:
    start = fields.pop("start", match.state.position)
    dropped = {b for b, _ in fields.get("pots", ())} | set(fields.get("off_table", ()))
    final = fields.pop("final", Position({b: p for b, p in start.items() if b not in dropped}))
    return MarkerEntry(cue_ball=fields.pop("cue_ball", match.state.game.shooter), start=start, final=final, **fields)


def test_marker_entry_json_round_trips_every_field():
    full = MarkerEntry(
        cue_ball=W1,
        start=Position({"W1": (0.5, 1.0), "K": (0.7, 1.4), "R1": (0.2, 0.3)}),
        final=Position({"W1": (0.4, 1.1)}),
        pots=((K, PocketId.FL),),
        off_table=(R1,),
        first_contact=K,
        nakki=frozenset({K}),
        called_as_called=False,
        mankeli=True,
        frozen_short_of_haaki=True,
        konsti_ball_frozen_to_cushion=True,
        konsti_pair_frozen=True,
        cushion_pots=frozenset({K}),
        hand_fault=HandFault.CUSHION_BEHIND,
        talonmies_angle=0.0,
        touched_by_player=True,
        jump_over_mask=True,
        restored_by_referee=True,
        late_fall=LateFall(R1, W2),
        double_hit=True,
        swapped_by_referee=True,
        swap_expired=True,
        stopped_balls=True,
        cannot_strike_away=True,
        setup_broken=True,
    )
    assert MarkerEntry.from_json(full.to_json()) == full
    # every fact of the vocabulary is in the JSON, and the facts the referee gets carry them
    assert set(full.to_json()) == MarkerEntry.field_names()
    # the konsti flags (7h, 8c) need a konsti call, which this entry's facts are read without
    facts = replace(full, konsti_ball_frozen_to_cushion=False, konsti_pair_frozen=False).to_facts(None)
    for name in (
        "double_hit",
        "swapped_by_referee",
        "swap_expired",
        "stopped_balls",
        "cannot_strike_away",
        "setup_broken",
    ):
        assert getattr(facts, name) is True, name


def test_4_a_waiting_kaisa_moved_by_the_marker_counts_as_touched():
    match = opened()
    start = match.state.position.with_ball(W1, (0.5, 0.3))
    still = entry(match, start=start, first_contact=R1)
    assert not still.kaisa_touched
    moved = entry(match, start=start, first_contact=R1, final=start.with_ball(K, (0.9, 1.6)))
    assert moved.kaisa_touched
    assert moved.to_facts(None).kaisa_touched


def test_7d_a_double_hit_entered_by_the_marker_voids_the_pot():
    match = opened()
    start = match.state.position.with_ball(W1, (0.5, 0.3))
    outcome = match.push(
        MarkedShot(
            parse_call("K FL"), entry(match, start=start, pots=((K, PocketId.FL),), first_contact=K, double_hit=True)
        )
    )
    assert outcome.ruling is not None
    assert "7d" in outcome.ruling.clauses
    assert outcome.ruling.points <= 0
    assert outcome.ruling.turn_passes


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "is an object"),
        ({"cue_ball": "W1", "start": {"balls": {}}, "final": {"balls": {}}, "colour": "red"}, "unknown marker"),
        (
            {"cue_ball": "W3", "start": {"balls": {}}, "final": {"balls": {}}},
            "a ball is one of W1 W2 R1 R2 K, not 'W3'",
        ),
        ({"cue_ball": "W1", "start": {"balls": {}}}, "needs more fields"),
        ({"cue_ball": "W1", "start": {"balls": {}}, "final": {"balls": {}}, "hand_fault": "x"}, "hand_fault is one"),
        ({"cue_ball": "W1", "start": {"balls": {}}, "final": {"balls": {}}, "mankeli": "yes"}, "true or false"),
        (
            {"cue_ball": "W1", "start": {"balls": {}}, "final": {"balls": {}}, "pots": [["K", "XX"]]},
            "a pocket is one of HL HR ML MR FL FR",
        ),
    ],
)
def test_marker_entry_json_refuses_bad_data(data, message):
    with pytest.raises(FormatError, match=message):
        MarkerEntry.from_json(data)


def test_1_1_the_marked_lag_winner_chooses_and_1_2_w2_is_placed_then_w1_breaks_from_hand():
    match = Match()
    outcome = match.push(MarkedLag(1))
    assert match.state.phase is Phase.CHOOSE
    assert match.state.lag_winner == 1
    assert outcome.notes == ("1.1: lag won by player 2",)
    match.push(Choose(W2))
    assert match.state.owners == (W1, W2)
    match.push(PlaceW2((0.71, 2.6)))
    after = match.state
    assert after.phase is Phase.PLAY
    assert after.game.from_hand


def test_1_1_a_marked_lag_names_player_0_or_1():
    with pytest.raises(IllegalActionError, match="player 0 or 1"):
        Match().push(MarkedLag(2))


def test_1_3_a_marked_legal_pot_scores_and_the_inning_continues():
    match = playing()
    ruling = match.push(
        MarkedShot(parse_call("K FL"), entry(match, pots=((K, PocketId.FL),), first_contact=K), seconds=25.0)
    ).ruling
    assert ruling is not None
    assert ruling.legal_pot
    assert ruling.points == 6
    assert "1.3" in ruling.clauses
    assert match.state.game.scores[W1] == 6
    assert match.state.game.shooter is W1
    assert match.state.position[K] == SPOTS[SpotId.CENTRE]  # 4: back on its spot
    assert match.state.run == 6


def test_1_3_the_marker_judges_the_route_not_as_called_and_the_turn_passes():
    match = playing()
    ruling = match.push(
        MarkedShot(parse_call("K FL"), entry(match, pots=((K, PocketId.FL),), first_contact=K, called_as_called=False))
    ).ruling
    assert ruling is not None
    assert not ruling.legal_pot
    assert match.state.game.shooter is W2
    assert match.state.innings[W2] == 2


def test_7a_a_marked_cue_ball_in_a_pocket_is_a_foul_with_ball_in_hand():
    match = playing()
    ruling = match.push(
        MarkedShot(parse_call("R1 HR"), entry(match, pots=((W1, PocketId.HL),), first_contact=R1))
    ).ruling
    assert ruling is not None
    assert ruling.points < 0
    assert "7a" in [f.clause for f in ruling.fouls]
    assert match.state.game.shooter is W2
    assert W1 in match.state.game.in_hand
    assert W1 not in match.state.position


def test_5_a_marked_stroke_from_hand_needs_its_place_behind_the_head_string():
    match = opened()
    position = match.state.position
    with pytest.raises(IllegalActionError, match="where it was placed"):
        match.push(MarkedShot(None, entry(match, start=position, first_contact=K)))
    with pytest.raises(IllegalPlacementError, match="behind the head string"):
        match.push(MarkedShot(None, entry(match, start=position.with_ball(W1, (0.5, 1.0)), first_contact=K)))
    placed = position.with_ball(W1, (0.5, 0.3))
    match.push(MarkedShot(None, entry(match, start=placed, first_contact=K)))
    assert match.state.strokes == 1


def test_a_marked_stroke_must_start_from_the_match_position():
    match = playing()
    moved = match.state.position.with_ball(K, (0.3, 1.2))
    before = match.state
    with pytest.raises(IllegalActionError, match="enter strokes in order"):
        match.push(MarkedShot(None, entry(match, start=moved, final=moved)))
    assert match.state == before
    with pytest.raises(IllegalActionError, match="expects a Lag or MarkedLag"):
        Match().push(MarkedShot(None, entry(match)))


def test_4_a_kaisa_potted_while_a_ball_stops_on_the_centre_spot_goes_to_the_head_string_spot():
    match = playing()
    start = match.state.position
    final = start.without(K).with_ball(W1, SPOTS[SpotId.CENTRE])
    ruling = match.push(
        MarkedShot(parse_call("K FL"), entry(match, final=final, pots=((K, PocketId.FL),), first_contact=K))
    ).ruling
    assert ruling is not None
    assert ruling.legal_pot
    # the head string spot holds R1, so the kaisa goes on to its third spot: the foot string spot holds R2 too
    assert ruling.respots[K] == SPOTS[SpotId.HEAD_END]
    assert match.state.game.kaisa_off_centre


def test_3_a_white_without_nakki_at_59_gives_two_and_passes_the_turn():
    match = playing(scores=(59, 40))
    ruling = match.push(
        MarkedShot(parse_call("W2 FR"), entry(match, pots=((W2, PocketId.FR),), first_contact=W2))
    ).ruling
    assert ruling is not None
    assert ruling.points == 2
    assert not ruling.game_over
    assert match.state.game.scores[W1] == 61
    assert match.state.game.shooter is W2
    assert match.state.phase is Phase.PLAY


def test_3_a_red_at_57_finishes_the_match():
    match = playing(scores=(57, 40))
    match.push(MarkedShot(parse_call("R2 FL"), entry(match, pots=((R2, PocketId.FL),), first_contact=R2)))
    assert match.state.phase is Phase.OVER
    assert match.state.result is not None
    assert match.state.result.winner is W1
    assert match.state.result.recorded[W1] == 60


def test_1_4_a_forfeit_for_an_over_long_cue_gives_the_opponent_the_match():
    match = playing(scores=(30, 12))
    outcome = match.push(Forfeit(W1))
    assert outcome.notes == ("1.4: W1 forfeits",)
    result = match.state.result
    assert result is not None
    assert result.winner is W2
    assert result.recorded == {W1: 30, W2: 60}
    assert result.scores == {W1: 30, W2: 12}
    with pytest.raises(IllegalActionError, match="once both have one"):
        Match().push(Forfeit(W1))


def scorekept() -> Match:
    match = opened()
    placed = match.state.position.with_ball(W1, (0.5, 0.3))
    final = placed.without(K).with_ball(W1, (0.6, 1.1))
    match.push(
        MarkedShot(
            parse_call("K FL"), entry(match, start=placed, final=final, pots=((K, PocketId.FL),), first_contact=K)
        )
    )
    match.push(
        MarkedShot(
            parse_call("R2 FR"),
            entry(match, first_contact=R2, nakki=frozenset({R2}), hand_fault=None, talonmies_angle=0.0),
            seconds=31.5,
        )
    )
    match.push(MarkedShot(None, entry(match, pots=((W2, PocketId.ML),), first_contact=W2, touched_by_player=True)))
    return match


def test_marked_actions_round_trip_through_json_and_the_notation():
    match = scorekept()
    for e in match.stack:
        assert action_from_json(action_to_json(e.action)) == e.action
    text = write_match(match)
    assert "lag-won 1" in text
    assert "marked K FL {" in text
    _config, actions, _tags, shorts = read_match(text)
    assert actions == [e.action for e in match.stack]
    replayed = replay_record(text)
    assert replayed.state == match.state
    assert any(s is not None for s in shorts)


@pytest.mark.parametrize("fault", list(HandFault))
def test_5_the_marker_s_own_hand_fault_is_ruled_and_survives_the_notation(fault):
    match = opened()
    placed = match.state.position.with_ball(W1, (0.5, 0.3))
    outcome = match.push(MarkedShot(None, entry(match, start=placed, first_contact=K, hand_fault=fault)))
    assert outcome.ruling is not None
    said = {
        HandFault.BEHIND_BALL_FIRST: "only via a cushion or a ball in front of it",
        HandFault.NOT_CROSSED: "must cross the head string",
        HandFault.CUSHION_BEHIND: "must hit the cushion in front of the head string",
    }
    texts = " | ".join(f.en for f in outcome.ruling.fouls)
    for other, words in said.items():
        assert (words in texts) is (other is fault), texts
    actions = read_match(write_match(match))[1]
    assert actions[-1] == match.stack[-1].action


def test_statistics_count_marked_strokes():
    stats = match_stats(scorekept())
    first = stats.players[0]
    assert first.points == 6
    assert first.strokes == 2
    assert first.called_shots == 2


def test_a_marked_match_is_stored_and_resumed(tmp_path):
    match = scorekept()
    with open_store(tmp_path / "marked.sqlite3") as store:
        match_id = store.import_match(match)
        resumed = store.resume(match_id)
        assert resumed.state == match.state
        assert [e.action for e in resumed.stack] == [e.action for e in match.stack]
        match.push(Forfeit(W2))
        store.record(match_id, match.stack[-1], match.state)
        assert store.load(match_id)[1].result == match.state.result


# --- marks and corrections ------------------------------------------------------------------------------


def test_marks_become_an_entry_against_the_match_position_and_back():
    from kaisa.game.marking import Marks, entry_for, marks_of

    match = opened()
    marks = Marks(pots=((K, PocketId.FL),), first_contact=K, place=(0.5, 0.3), moves={W1: (0.6, 1.1)})
    made = entry_for(match.state, marks)
    assert made.start == match.state.position.with_ball(W1, (0.5, 0.3))
    assert made.final == made.start.without(K).with_ball(W1, (0.6, 1.1))
    assert marks_of(made, match.state) == marks
    with pytest.raises(IllegalActionError, match="say where it was placed"):
        entry_for(match.state, Marks(first_contact=K))
    with pytest.raises(IllegalActionError, match="no place to come to rest"):
        entry_for(match.state, Marks(pots=((K, PocketId.FL),), place=(0.5, 0.3), moves={K: (0.2, 0.2)}))
    on_table = playing().state
    with pytest.raises(IllegalActionError, match="played from where it lies"):
        entry_for(on_table, Marks(place=(0.5, 0.3)))


def test_a_corrected_stroke_is_replayed_with_every_later_stroke_re_entered():
    from kaisa.game.marking import Marks, correct

    match = scorekept()
    assert match.state.game.scores[W1] == 6
    # the break's kaisa pot is corrected to a miss: W2 comes to the table, and the later strokes are re-entered
    # (stroke 4 was W1's, so it is now refused: it would be W2's)
    with pytest.raises(
        IllegalActionError, match="stroke 2 would be played by the W2 player, but it was entered for the W1 player"
    ):
        correct(match, 3, Marks(first_contact=K, place=(0.5, 0.3), moves={W1: (0.6, 1.1)}))
    # correcting the last stroke instead: the white potted without a player's touch
    fixed = correct(match, 5, Marks(pots=((W2, PocketId.ML),), first_contact=W2))
    assert [e.action for e in fixed.stack[:5]] == [e.action for e in match.stack[:5]]
    assert fixed.stack[5].outcome.ruling is not None
    assert match.stack[5].outcome.ruling is not None
    assert fixed.stack[5].outcome.ruling.fouls != match.stack[5].outcome.ruling.fouls
    # removing W1's missed stroke would make W2's later stroke W1's: refused
    with pytest.raises(IllegalActionError, match="stroke 3 would be played by the W1 player"):
        correct(match, 4, None)
    removed = correct(match, 5, None)
    assert len(removed.stack) == len(match.stack) - 1
    assert removed.state == match.stack[5].before
    with pytest.raises(IllegalActionError, match="no action 9"):
        correct(match, 9, None)


def test_8e_a_late_fall_is_entered_on_its_own_not_with_a_stroke():
    from kaisa.game.marking import Marks, marked_shot
    from kaisa.referee import MarkerEntryError

    match = playing()
    with pytest.raises(MarkerEntryError, match="entered on its own"):
        marked_shot(match.state, parse_call("K FL"), Marks(pots=((K, PocketId.FL),), late_fall=LateFall(R1)))
    alone = marked_shot(match.state, None, Marks(late_fall=LateFall(R1)))
    ruling = match.push(alone).ruling
    assert ruling is not None
    assert "8e" in ruling.clauses


def test_4_a_ball_cannot_come_to_rest_on_another_ball():
    from kaisa.game.marking import Marks, entry_for

    state = playing().state
    with pytest.raises(IllegalPlacementError, match="would overlap K"):
        entry_for(state, Marks(first_contact=R1, moves={R1: SPOTS[SpotId.CENTRE]}))
    with pytest.raises(IllegalPlacementError, match="not on the bed"):
        entry_for(state, Marks(first_contact=R1, moves={R1: (-0.2, 1.0)}))
