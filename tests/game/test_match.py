"""The match state machine on real physics: the lag (1.1), the choice of cue ball, W2's placement and the break
(1.2), push/pop, a full match to its result (3), the competition clock with its final innings, breaks and the
penalty shoot-out (6; REFERENCE.md sections 2 and 8, and the decisions in kaisa.game.match's docstring).

Strokes that must do one thing (a miss, a pot) are played from positions where the physics leaves no doubt:
a miss is a cue ball rolled 6 cm into open table; a pot is a straight kaisa into a middle pocket from 26 cm,
drawn back so that the cue ball stops well clear of the centre spot.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from kaisa.call import parse_call
from kaisa.errors import InvalidStrokeError
from kaisa.game import (
    Action,
    Choose,
    ClockConfig,
    Entry,
    IllegalActionError,
    Lag,
    MarkedLag,
    Match,
    MatchConfig,
    MatchState,
    Outcome,
    Phase,
    PlaceW2,
    Result,
    Shot,
    TakeBreak,
    replay,
)
from kaisa.game.state import ClockState, ShootoutState
from kaisa.model import BallId, Position, Stroke
from kaisa.players import BaselinePlayer, MatchStalledError, decide_action, play_match
from kaisa.players.baseline import lag_speed
from kaisa.referee import GameState, RuleOptions
from kaisa.referee.opening import IllegalPlacementError, LagFacts, judge_lag, lag_faults, observe_lag
from kaisa.referee.ruling import Text
from kaisa.table import OFFICIAL, PocketId, Point, SpotId
from tests.referee_helpers import stroke_log

W, L, R = OFFICIAL.width, OFFICIAL.length, OFFICIAL.ball_radius
W1, W2, K = BallId.W1, BallId.W2, BallId.K
CENTRE = OFFICIAL.spots[SpotId.CENTRE]
HEAD_STRING_SPOT = OFFICIAL.spots[SpotId.HEAD_STRING]
FOOT_STRING_SPOT = OFFICIAL.spots[SpotId.FOOT_STRING]
GAME_LIMIT = 3600.0
WARNING_AT = GAME_LIMIT - 300.0

TIME_UP_NOTE = "6: time is up: two final innings each, the W2 player last"
WARNING_NOTE = "6: five minutes left"
SHOOTOUT_NOTE = "6: the final innings are played: penalty shoot-out"

OPEN_TABLE = Position(
    {"W1": (0.40, 1.00), "W2": (1.10, 2.40), "R1": HEAD_STRING_SPOT, "R2": FOOT_STRING_SPOT, "K": CENTRE}
)
"""Both cue balls in open table, the object balls on their spots: a 0.1 m/s roll sideways touches nothing."""

POT_TABLE = Position(
    {"W1": (0.45, 1.42), "W2": (1.10, 2.40), "R1": HEAD_STRING_SPOT, "R2": FOOT_STRING_SPOT, "K": CENTRE}
)
"""W1 26 cm straight behind the kaisa on the line to MR."""

POT_K_MR = Stroke(W1, 1.5, 0.0, follow=-0.5)
"""Straight into MR (direct middle kaisa: 12), W1 drawn back to about x = 0.24."""

SIM = MatchConfig(clock=ClockConfig("sim", 30.0))


# --- helpers ---------------------------------------------------------------------------------------------


def left_lag(speed_factor: float = 1.0, x: float = W / 4, y: float = L / 8, direction: float = 90.0) -> Stroke:
    return Stroke(W1, lag_speed() * speed_factor, direction, place=(x, y))


def right_lag(speed_factor: float = 1.0, x: float = 3 * W / 4, y: float = L / 8, direction: float = 90.0) -> Stroke:
    return Stroke(W2, lag_speed() * speed_factor, direction, place=(x, y))


def assert_refused(
    match: Match,
    action: Action,
    error: type[Exception] | tuple[type[Exception], ...] = IllegalActionError,
    match_text: str | None = None,
) -> None:
    """``action`` raises ``error`` and leaves the match exactly as it was."""
    before, depth = match.state, len(match.stack)
    before_json = before.to_json()
    with pytest.raises(error, match=match_text):
        match.push(action)
    assert match.state is before
    assert match.state.to_json() == before_json
    assert len(match.stack) == depth


def play_state(
    shooter: BallId = W1,
    scores: tuple[int, int] = (0, 0),
    position: Position = OPEN_TABLE,
    clock: ClockState | None = None,
    owners: tuple[BallId, BallId] = (W1, W2),
) -> MatchState:
    """A game under way: ``shooter`` at the table, its ball on it."""
    return MatchState(
        phase=Phase.PLAY,
        position=position,
        game=GameState(scores={W1: scores[0], W2: scores[1]}, shooter=shooter),
        owners=owners,
        lag_winner=0,
        innings={W1: 5, W2: 5},
        clock=clock or ClockState(),
    )


def shootout_state(
    shooter: BallId,
    scores: tuple[int, int],
    innings: tuple[int, int],
    first: BallId = W1,
    position: Position | None = None,
) -> MatchState:
    """A shoot-out inning under way; without ``position`` it is the inning's start (kaisa on the centre spot,
    the shooter's ball in hand)."""
    at_start = position is None
    return MatchState(
        phase=Phase.SHOOTOUT,
        position=Position({"K": CENTRE}) if position is None else position,
        game=GameState(
            scores={W1: scores[0], W2: scores[1]},
            shooter=shooter,
            in_hand=frozenset({shooter}) if at_start else frozenset(),
        ),
        owners=(W1, W2),
        lag_winner=0,
        shootout=ShootoutState(first, {W1: innings[0], W2: innings[1]}),
    )


def miss(match: Match, seconds: float = 0.0) -> Outcome:
    """The shooter rolls its ball 6 cm into open table: no call, nothing touched, the turn passes."""
    shooter = match.state.game.shooter
    x, _ = match.state.position[shooter]
    outcome = match.push(Shot(None, Stroke(shooter, 0.1, 0.0 if x < W / 2 else 180.0), seconds))
    assert outcome.ruling is not None
    assert outcome.ruling.turn_passes
    assert outcome.ruling.fouls == ()
    assert outcome.ruling.points == 0
    return outcome


def fault_from_hand(match: Match) -> Outcome:
    """From hand, the shooter rolls its ball along behind the head string: a fault of 5 (7c), no points."""
    shooter = match.state.game.shooter
    outcome = match.push(Shot(None, Stroke(shooter, 0.3, 0.0, place=(0.3, 0.3))))
    assert outcome.ruling is not None
    assert outcome.ruling.turn_passes
    assert outcome.ruling.points == 0
    assert "7c" in outcome.ruling.clauses
    return outcome


def lag_log(*steps: str, ball: BallId = W1, final: Point = (0.355, 0.2)) -> LagFacts:
    start = {"R1": HEAD_STRING_SPOT, "R2": FOOT_STRING_SPOT, "K": CENTRE}
    here = (0.355, 0.355) if ball is W1 else (1.065, 0.355)
    half = "left" if ball is W1 else "right"
    gone = any(s.startswith(("pocket", "off")) for s in steps)  # a dropped ball is not in the final position
    log = stroke_log(
        (f"strike {ball.value}", *steps), {**start, ball.value: here}, start if gone else {**start, ball.value: final}
    )
    return observe_lag(log, half, [here[0]] * 5)


def facts(ball: BallId = W1, final_y: float | None = 0.2, **faults: object) -> LagFacts:
    base: dict[str, object] = {
        "touched_ball": False,
        "long_cushion": False,
        "dropped": False,
        "head_contacts": 1,
        "foot_contacts": 1,
        "crossed_long_centre_line": False,
    }
    base.update(faults)
    return LagFacts(ball=ball, final_y=final_y, **base)  # type: ignore[arg-type]  # the fields above are LagFacts'


def english(reasons: tuple[Text, ...]) -> str:
    return " | ".join(t.en for t in reasons)


def now(match: Match) -> MatchState:
    """The match's state, read afresh (mypy would keep an earlier assertion's narrowing of ``match.state``)."""
    return match.state


def phase(match: Match) -> Phase:
    return match.state.phase


def initial() -> MatchState:
    return Match().initial_state()


# --- 1.1 the lag: hand-built facts ------------------------------------------------------------------------


def test_1_1_good_lag_has_no_faults():
    f = lag_log("rail W1 foot", "rail W1 head")
    assert (f.foot_contacts, f.head_contacts) == (1, 1)
    assert lag_faults(f) == ()
    assert f.final_y == pytest.approx(0.2)
    f2 = lag_log("rail W2 foot", ball=W2, final=(1.065, 0.3))
    assert lag_faults(f2) == ()
    assert f2.final_y == pytest.approx(0.3)


@pytest.mark.parametrize(
    ("steps", "tag"),
    [
        (("rail W1 foot", "ball W1 R1"), "(1.1a)"),
        (("ball W1 K", "rail W1 foot"), "(1.1a)"),
        (("rail W1 foot", "rail W1 lf"), "(1.1b)"),
        (("rail W1 lh", "rail W1 foot"), "(1.1b)"),
        (("rail W1 foot", "jaw W1 FL left-foot"), "(1.1b)"),
        (("rail W1 foot", "pocket W1 HL"), "(1.1c)"),
        (("rail W1 foot", "off W1"), "(1.1c)"),
        (("rail W1 foot", "rail W1 foot"), "(1.1d)"),
        (("rail W1 foot", "rail W1 head", "rail W1 foot", "rail W1 head"), "(1.1d)"),
        (("rail W1 foot", "rail W1 head", "rail W1 head"), "(1.1d)"),
    ],
)
def test_1_1_a_to_d_each_losing_condition_loses_the_lag(steps, tag):
    f = lag_log(*steps)
    assert tag in english(lag_faults(f))
    result = judge_lag(f, facts(W2, final_y=1.0))
    assert result.winner == 1  # a good lag, however far from the head cushion, beats a lost one
    assert result.reasons[1] == ()


@pytest.mark.parametrize(("ball", "xs"), [(W1, [0.355, 0.6, 0.71]), (W1, [0.355, 0.8, 0.355]), (W2, [1.065, 0.70])])
def test_1_1_e_crossing_the_long_centre_line_loses_the_lag(ball, xs):
    here = (0.355, 0.355) if ball is W1 else (1.065, 0.355)
    log = stroke_log(
        (f"strike {ball.value}", f"rail {ball.value} foot"), {ball.value: here}, {ball.value: (here[0], 0.1)}
    )
    f = observe_lag(log, "left" if ball is W1 else "right", xs)
    assert f.crossed_long_centre_line
    assert "(1.1e)" in english(lag_faults(f))
    stays = observe_lag(log, "left" if ball is W1 else "right", [here[0], W / 2 + (-0.01 if ball is W1 else 0.01)])
    assert not stays.crossed_long_centre_line
    assert lag_faults(stays) == ()


def test_1_1_no_foot_cushion_contact_is_void_and_lost():
    for f in (lag_log(final=(0.355, 1.8)), lag_log("rail W1 head")):
        assert f.foot_contacts == 0
        assert "void (1.1)" in english(lag_faults(f))
    # a void lag loses even though it rests nearer the head cushion than the good one
    assert judge_lag(facts(W1, final_y=0.05, foot_contacts=0), facts(W2, final_y=2.0)).winner == 1
    assert judge_lag(facts(W1, final_y=2.0), facts(W2, final_y=0.05, foot_contacts=0)).winner == 0


@pytest.mark.parametrize(
    "fault",
    [
        {"touched_ball": True},
        {"long_cushion": True},
        {"dropped": True, "final_y": None},
        {"head_contacts": 2},
        {"foot_contacts": 2},
        {"crossed_long_centre_line": True},
        {"foot_contacts": 0},
    ],
)
def test_1_1_lost_lag_loses_to_a_good_one_either_way_round(fault):
    lost_first = judge_lag(facts(W1, **{"final_y": 0.01, **fault}), facts(W2, final_y=2.5))
    assert lost_first.winner == 1
    assert lost_first.reasons[0] != ()
    lost_second = judge_lag(facts(W1, final_y=2.5), facts(W2, **{"final_y": 0.01, **fault}))
    assert lost_second.winner == 0
    assert lost_second.reasons[1] != ()


def test_1_1_both_lags_lost_means_lag_again():
    result = judge_lag(facts(W1, touched_ball=True), facts(W2, foot_contacts=0))
    assert result.winner is None
    assert "(1.1a)" in english(result.reasons[0])
    assert "void (1.1)" in english(result.reasons[1])
    assert judge_lag(facts(W1, dropped=True, final_y=None), facts(W2, dropped=True, final_y=None)).winner is None


def test_1_1_nearest_the_head_cushion_wins():
    assert judge_lag(facts(W1, final_y=0.10), facts(W2, final_y=0.30)).winner == 0
    assert judge_lag(facts(W1, final_y=0.60), facts(W2, final_y=0.04)).winner == 1
    assert judge_lag(facts(W1, final_y=0.100), facts(W2, final_y=0.102)).winner == 0


def test_1_1_equal_lags_mean_lag_again():
    assert judge_lag(facts(W1, final_y=0.2), facts(W2, final_y=0.2)).winner is None
    assert judge_lag(facts(W1, final_y=0.2), facts(W2, final_y=0.2005)).winner is None  # within a millimetre


# --- 1.1 the lag: simulated on a Match -------------------------------------------------------------------


def test_1_1_simulated_lag_nearest_the_head_cushion_wins():
    match = Match()
    start = match.state
    outcome = match.push(Lag((left_lag(), right_lag(0.9))))
    assert outcome.lag is not None
    assert outcome.lag.winner == 0
    assert outcome.lag.reasons == ((), ())
    assert len(outcome.records) == 2
    y1, y2 = outcome.records[0].final[W1][1], outcome.records[1].final[W2][1]
    assert y1 < y2 < OFFICIAL.head_string
    assert phase(match) is Phase.CHOOSE
    assert match.state.lag_winner == 0
    assert match.state.to_move == 0
    assert match.state.position == start.position  # the lag balls leave the table; the object balls stay
    assert match.state.actions == 1

    mirrored = Match()
    mirrored.push(Lag((left_lag(0.9), right_lag())))
    assert mirrored.state.lag_winner == 1
    assert mirrored.state.phase is Phase.CHOOSE


def test_1_1_simulated_equal_lags_are_played_again():
    match = Match()
    outcome = match.push(Lag((left_lag(), right_lag())))
    assert outcome.lag is not None
    assert outcome.lag.winner is None
    assert outcome.lag.reasons == ((), ())
    assert phase(match) is Phase.LAG
    assert match.state.lag_winner is None
    assert match.state.actions == 1
    assert len(match.stack) == 1
    match.push(Lag((left_lag(0.9), right_lag())))
    assert phase(match) is Phase.CHOOSE
    assert now(match).lag_winner == 1
    assert match.state.actions == 2


def test_1_1_simulated_lags_both_lost_are_played_again():
    match = Match()
    outcome = match.push(Lag((left_lag(0.35), right_lag(0.35))))  # neither reaches the foot cushion
    assert outcome.lag is not None
    assert outcome.lag.winner is None
    assert all("void (1.1)" in english(r) for r in outcome.lag.reasons)
    assert phase(match) is Phase.LAG


@pytest.mark.parametrize(
    ("stroke", "lift", "tag"),
    [
        (Stroke(W1, 1.4125, 90.0, place=(0.66, 0.30)), False, "(1.1a)"),  # runs into R1 on its spot
        (Stroke(W1, 1.4125, 95.0, place=(0.355, 0.355)), False, "(1.1b)"),
        (Stroke(W1, 3.0, 90.0, place=(0.355, 0.355)), False, "(1.1d)"),  # foot, head, foot again
        (Stroke(W1, 1.4125, 88.0, place=(0.60, 0.355)), True, "(1.1e)"),  # drifts over x = W/2, ends nearest
        (Stroke(W1, 0.5, 90.0, place=(0.355, 0.355)), False, "void (1.1)"),
    ],
)
def test_1_1_simulated_lost_lag_loses(stroke, lift, tag):
    match = Match()
    outcome = match.push(Lag((stroke, right_lag(0.9)), lift=lift))
    assert outcome.lag is not None
    assert tag in english(outcome.lag.reasons[0])
    assert outcome.lag.reasons[1] == ()
    assert outcome.lag.winner == 1
    assert match.state.lag_winner == 1


def test_1_1_lifted_object_balls_do_not_spoil_a_lag():
    """The same stroke that runs into R1 on its spot is a good lag once the object balls are lifted."""
    stroke = Stroke(W1, lag_speed(), 90.0, place=(0.66, 0.30))
    match = Match()
    outcome = match.push(Lag((stroke, right_lag(0.9)), lift=True))
    assert outcome.lag is not None
    assert outcome.lag.reasons == ((), ())
    assert outcome.lag.winner == 0
    assert match.state.position == initial().position  # lifted only for the lag


@pytest.mark.parametrize(
    "strokes",
    [
        pytest.param(
            (Stroke(W1, 1.4, 90.0, place=(1.0, 0.355)), Stroke(W2, 1.4, 90.0, place=(1.065, 0.355))), id="W1-right-half"
        ),
        pytest.param(
            (Stroke(W1, 1.4, 90.0, place=(0.355, 0.355)), Stroke(W2, 1.4, 90.0, place=(0.4, 0.355))), id="W2-left-half"
        ),
        pytest.param(
            (Stroke(W1, 1.4, 90.0, place=(W / 2, 0.355)), Stroke(W2, 1.4, 90.0, place=(1.065, 0.355))),
            id="on-long-centre-line",
        ),
        pytest.param(
            (Stroke(W1, 1.4, 90.0, place=(0.355, 0.9)), Stroke(W2, 1.4, 90.0, place=(1.065, 0.355))),
            id="in-front-of-head-string",
        ),
        pytest.param(
            (Stroke(W1, 1.4, 90.0, place=(0.355, 0.355)), Stroke(W2, 1.4, 90.0, place=(1.065, L / 4))),
            id="on-head-string",
        ),
        pytest.param(
            (Stroke(W1, 1.4, 90.0, place=(0.01, 0.355)), Stroke(W2, 1.4, 90.0, place=(1.065, 0.355))), id="off-the-bed"
        ),
        pytest.param((Stroke(W1, 1.4, 90.0), Stroke(W2, 1.4, 90.0, place=(1.065, 0.355))), id="no-place"),
        pytest.param(
            (Stroke(W2, 1.4, 90.0, place=(0.355, 0.355)), Stroke(W1, 1.4, 90.0, place=(1.065, 0.355))),
            id="balls-swapped",
        ),
    ],
)
def test_1_1_illegal_lag_placements_are_refused(strokes):
    match = Match()
    assert_refused(match, Lag(strokes), (IllegalPlacementError, InvalidStrokeError), "behind the head string|lags with")
    assert phase(match) is Phase.LAG
    assert match.state.actions == 0


def test_1_1_lag_ball_placed_on_an_object_ball_is_refused():
    match = Match()
    overlapping = Stroke(W1, 1.4, 90.0, place=(0.66, 0.68))  # 58 mm from R1's centre on the head-string spot
    assert_refused(match, Lag((overlapping, right_lag())), IllegalPlacementError, "overlap")


# --- 1.2 choice of cue ball, W2's placement, the break -------------------------------------------------


@pytest.mark.parametrize(
    ("lag_winner", "choice", "owners", "places_w2", "breaks"),
    [
        (0, W1, (W1, W2), 1, 0),
        (0, W2, (W2, W1), 0, 1),
        (1, W1, (W2, W1), 0, 1),
        (1, W2, (W1, W2), 1, 0),
    ],
)
def test_1_2_lag_winner_chooses_a_cue_ball_and_w1_breaks(lag_winner, choice, owners, places_w2, breaks):
    match = Match(state=replace(initial(), phase=Phase.CHOOSE, lag_winner=lag_winner))
    assert match.state.to_move == lag_winner
    match.push(Choose(choice))
    assert match.state.owners == owners
    assert phase(match) is Phase.PLACE_W2
    assert match.state.to_move == places_w2
    match.push(PlaceW2((W / 2, 0.92 * L)))
    assert phase(match) is Phase.PLAY
    assert match.state.game.shooter is W1
    assert match.state.to_move == breaks


def test_1_2_only_a_cue_ball_can_be_chosen():
    match = Match(state=replace(initial(), phase=Phase.CHOOSE, lag_winner=0))
    for ball in (BallId.R1, BallId.R2, K):
        assert_refused(match, Choose(ball), IllegalActionError, "W1 or W2")


def place_w2_match(options: RuleOptions | None = None) -> Match:
    config = MatchConfig(options=options or RuleOptions())
    return Match(config, state=replace(initial(), phase=Phase.PLACE_W2, owners=(W1, W2), lag_winner=0))


def test_1_2_legal_w2_placement_starts_play_with_w1_breaking_from_hand():
    match = place_w2_match()
    point = (0.71, 2.6)
    match.push(PlaceW2(point))
    state = match.state
    assert state.phase is Phase.PLAY
    assert state.position == initial().position.with_ball(W2, point)
    assert W1 not in state.position
    assert state.game.shooter is W1
    assert state.game.opening
    assert state.game.from_hand
    assert state.game.scores == {W1: 0, W2: 0}
    assert state.innings == {W1: 1, W2: 0}
    assert state.to_move == 0


def corridor_point(pocket: PocketId, distance: float, t: float = 0.5) -> Point:
    """The point ``distance`` from the segment kaisa -> ``pocket``'s mouth centre, on the outer side (away from
    the long axis), level with the fraction ``t`` along it."""
    (kx, ky), (px, py) = CENTRE, OFFICIAL.pockets[pocket].mouth_centre
    dx, dy = px - kx, py - ky
    length = math.hypot(dx, dy)
    nx, ny = dy / length, -dx / length  # a normal; turn it away from the table's long axis
    if (nx < 0) != (px < kx):
        nx, ny = -nx, -ny
    return (kx + t * dx + distance * nx, ky + t * dy + distance * ny)


@pytest.mark.parametrize(
    ("point", "message"),
    [
        pytest.param((1.2, 1.0), "between the centre line and the foot cushion", id="behind-centre-line"),
        pytest.param((1.2, L / 2), "between the centre line and the foot cushion", id="on-centre-line"),
        pytest.param((0.71, 2.16), "overlap R2", id="overlapping-R2"),
        pytest.param((0.74, 1.48), "overlap K", id="overlapping-K"),
        pytest.param(corridor_point(PocketId.FL, 0.0), "blocks the kaisa's line to FL", id="on-FL-line"),
        pytest.param(corridor_point(PocketId.FL, 2.5 * R - 0.001), "blocks the kaisa's line to FL", id="near-FL-line"),
        pytest.param(corridor_point(PocketId.FL, 1.2 * R, 0.9), "blocks the kaisa's line to FL", id="near-FL-mouth"),
        pytest.param(corridor_point(PocketId.FR, 2.5 * R - 0.001), "blocks the kaisa's line to FR", id="near-FR-line"),
        pytest.param(corridor_point(PocketId.FR, 2.0 * R, 0.2), "blocks the kaisa's line to FR", id="near-FR-kaisa"),
        pytest.param((0.01, 2.5), "not on the bed", id="off-left"),
        pytest.param((W - 0.02, 2.5), "not on the bed", id="into-right-cushion"),
        pytest.param((0.71, L - 0.01), "not on the bed", id="into-foot-cushion"),
        pytest.param((0.71, L + 0.2), "not on the bed", id="beyond-the-table"),
    ],
)
def test_1_2_w2_placements_refused(point, message):
    match = place_w2_match()
    assert_refused(match, PlaceW2(point), IllegalPlacementError, message)
    assert phase(match) is Phase.PLACE_W2


@pytest.mark.parametrize("pocket", [PocketId.FL, PocketId.FR])
def test_1_2_w2_may_stand_just_outside_the_corridor(pocket):
    match = place_w2_match()
    point = corridor_point(pocket, 2.5 * R + 0.001)
    match.push(PlaceW2(point))
    assert match.state.position[W2] == point


def test_1_2_w2_corridor_clearance_option():
    near = corridor_point(PocketId.FL, 2.2 * R)  # clear of a 2R corridor, inside the default 2.5R
    far = corridor_point(PocketId.FR, 2.8 * R)  # clear of the default, inside a 3R corridor
    assert_refused(place_w2_match(), PlaceW2(near), IllegalPlacementError, "line to FL")
    narrow = place_w2_match(RuleOptions(w2_corridor_clearance=2.0))
    narrow.push(PlaceW2(near))
    assert narrow.state.phase is Phase.PLAY
    place_w2_match().push(PlaceW2(far))
    wide = place_w2_match(RuleOptions(w2_corridor_clearance=3.0))
    assert_refused(wide, PlaceW2(far), IllegalPlacementError, r"at least 102 mm")


def test_1_2_the_break_is_played_from_hand_behind_the_head_string():
    match = place_w2_match()
    match.push(PlaceW2((0.71, 2.6)))
    assert_refused(match, Shot(None, Stroke(W1, 2.0, 90.0)), IllegalActionError, "needs a place")
    assert_refused(match, Shot(None, Stroke(W1, 2.0, 90.0, place=(0.3, 0.9))), IllegalPlacementError, "behind the head")
    assert_refused(
        match, Shot(None, Stroke(W1, 2.0, 90.0, place=(0.3, L / 4))), IllegalPlacementError, "behind the head"
    )
    assert_refused(match, Shot(None, Stroke(W1, 2.0, 90.0, place=(0.70, 0.66))), IllegalPlacementError, "overlap R1")
    assert_refused(match, Shot(None, Stroke(W1, 2.0, 90.0, place=(-0.1, 0.3))), IllegalPlacementError, "not on the bed")
    assert_refused(match, Shot(None, Stroke(W2, 2.0, 90.0, place=(0.3, 0.3))), IllegalActionError, "W1 is at the table")
    outcome = match.push(Shot(None, Stroke(W1, 2.0, 90.0, place=(0.3, 0.4))))
    assert outcome.ruling is not None
    assert outcome.records[0].position[W1] == (0.3, 0.4)
    assert match.state.strokes == 1
    assert not match.state.game.opening


def test_1_2_opening_after_a_simulated_lag():
    match = Match()
    match.push(Lag((left_lag(0.9), right_lag())))
    assert match.state.lag_winner == 1
    match.push(Choose(W2))  # player 2 takes W2: player 1 breaks
    assert match.state.owners == (W1, W2)
    assert match.state.to_move == 1
    match.push(PlaceW2((0.3, 2.5)))
    assert match.state.to_move == 0
    match.push(Shot(None, Stroke(W1, 2.0, 90.0, place=(0.3, 0.4))))
    assert [type(e.action) for e in match.stack] == [Lag, Choose, PlaceW2, Shot]
    assert match.state.actions == 4


# --- push and pop -----------------------------------------------------------------------------------------


def test_push_pop_restores_every_earlier_state_exactly_and_pushing_again_reproduces_them():
    match = Match(MatchConfig(noise=(1.0, 1.0), seed=11))
    with pytest.raises(MatchStalledError):
        play_match(match, (BaselinePlayer("a", seed=11), BaselinePlayer("b", seed=12)), max_actions=120)
    assert len(match.stack) == 120
    actions = [e.action for e in match.stack]
    befores = [e.before.to_json() for e in match.stack]
    afters = [*befores[1:], match.state.to_json()]
    outcomes = [e.outcome.to_json() for e in match.stack]
    assert any(isinstance(a, Shot) for a in actions)
    assert len({json["game"]["shooter"] for json in befores[3:]}) == 2  # both players were at the table

    for i in reversed(range(len(actions))):
        assert match.pop() == actions[i]
        assert match.state.to_json() == befores[i]
        assert len(match.stack) == i
    assert match.state.to_json() == Match().initial_state().to_json()
    assert_refused_pop(match)

    for i, action in enumerate(actions):
        outcome = match.push(action)
        assert match.state.to_json() == afters[i], f"action {i} ({type(action).__name__}) played differently"
        assert outcome.to_json() == outcomes[i]


def assert_refused_pop(match: Match) -> None:
    before = match.state
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        match.pop()
    assert match.state is before


# --- 3 a full match ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full_match() -> Match:
    match = Match(MatchConfig(noise=(1.0, 1.0), seed=5))
    play_match(match, (BaselinePlayer("a", seed=5), BaselinePlayer("b", seed=6)), max_actions=5000)
    return match


def test_3_full_seeded_match_between_baselines_reaches_a_result(full_match):
    state = full_match.state
    assert state.phase is Phase.OVER
    assert full_match.over
    result = state.result
    assert isinstance(result, Result)
    loser = W1 if result.winner is W2 else W2
    assert result.scores == state.game.scores
    assert result.scores[result.winner] > 60  # this seed finishes past 60, so the cap shows
    assert result.recorded[result.winner] == 60  # 3: at most 60 is written for the winner
    assert result.recorded[loser] == result.scores[loser]  # the live scores as they are
    assert "(3)" in result.reason
    last = full_match.stack[-1].outcome.ruling
    assert last is not None
    assert last.game_over
    assert last.winner is result.winner
    assert Result.from_json(result.to_json()) == result


def test_3_full_match_keeps_turns_innings_and_scores_consistent(full_match):
    shots = [e for e in full_match.stack if isinstance(e.action, Shot)]
    assert len(shots) > 100
    innings = {W1: 1, W2: 0}
    for i, entry in enumerate(shots):
        assert isinstance(entry.action, Shot)
        ruling = entry.outcome.ruling
        assert ruling is not None
        assert entry.action.stroke.ball is entry.before.game.shooter
        assert (entry.action.stroke.place is not None) == entry.before.game.from_hand
        assert entry.before.innings == innings
        after = shots[i + 1].before if i + 1 < len(shots) else full_match.state
        assert after.game.scores[ruling.shooter] == entry.before.game.scores[ruling.shooter] + ruling.points
        if ruling.turn_passes:
            innings[ruling.state.shooter] += 1
            assert after.run == 0
        elif not ruling.game_over:
            assert after.game.shooter is ruling.shooter
            assert after.run == entry.before.run + ruling.points


def test_3_replaying_the_actions_reproduces_the_match(full_match):
    again = replay(full_match.config, [e.action for e in full_match.stack])
    assert again.state.to_json() == full_match.state.to_json()


# --- 6 the clock: warning, final innings, breaks ---------------------------------------------------------


def test_6_five_minute_warning_once():
    match = Match(SIM, state=play_state(clock=ClockState(elapsed=WARNING_AT - 40)))
    outcome = miss(match, 30)
    assert WARNING_NOTE not in outcome.notes
    assert not match.state.clock.warned
    outcome = miss(match, 30)
    assert outcome.notes == (WARNING_NOTE,)
    assert now(match).clock.warned
    assert match.state.clock.final_innings is None
    assert phase(match) is Phase.PLAY
    assert miss(match, 30).notes == ()
    assert match.state.clock.warned


def test_6_clock_off_keeps_no_time():
    match = Match(state=play_state())
    outcome = miss(match, 4000)
    assert outcome.notes == ()
    assert match.state.clock == ClockState()


def test_6_time_up_with_w2_at_the_table_gives_w1_w2_w1_w2_final_innings():
    """Decision: W2's inning that was running when time ran out does not count."""
    match = Match(SIM, state=play_state(shooter=W2, clock=ClockState(elapsed=GAME_LIMIT - 10, warned=True)))
    outcome = miss(match, 30)
    assert TIME_UP_NOTE in outcome.notes
    assert match.state.clock.final_innings == (W1, W2, W1, W2)
    assert phase(match) is Phase.PLAY
    assert match.state.game.shooter is W1


def test_6_time_up_with_w1_at_the_table_counts_that_inning_as_w1s_first_final_one():
    match = Match(SIM, state=play_state(shooter=W1, clock=ClockState(elapsed=GAME_LIMIT - 10, warned=True)))
    outcome = miss(match, 30)
    assert TIME_UP_NOTE in outcome.notes
    assert match.state.clock.final_innings == (W2, W1, W2)


def test_6_time_up_in_the_middle_of_w1s_inning():
    match = Match(
        SIM, state=play_state(shooter=W1, position=POT_TABLE, clock=ClockState(elapsed=GAME_LIMIT - 10, warned=True))
    )
    outcome = match.push(Shot(parse_call("K MR"), POT_K_MR, 30))
    assert outcome.ruling is not None
    assert outcome.ruling.legal_pot
    assert outcome.ruling.points == 12
    assert TIME_UP_NOTE in outcome.notes
    assert match.state.clock.final_innings == (W1, W2, W1, W2)  # W1's running inning is its first final one
    assert match.state.game.shooter is W1
    miss(match, 30)
    assert now(match).clock.final_innings == (W2, W1, W2)


@pytest.mark.parametrize("at_time_up", [W1, W2])
def test_6_final_innings_end_with_the_w2_player_and_lead_to_the_shootout_lag(at_time_up):
    state = play_state(shooter=at_time_up, scores=(33, 41), clock=ClockState(elapsed=GAME_LIMIT - 10, warned=True))
    match = Match(SIM, state=state)
    shooters = []
    notes: list[str] = []
    while match.state.phase is Phase.PLAY:
        shooters.append(match.state.game.shooter)
        notes += miss(match, 30).notes
        assert len(shooters) <= 5
    expected = [W1, W2, W1, W2] if at_time_up is W1 else [W2, W1, W2, W1, W2]
    assert shooters == expected
    assert notes == [TIME_UP_NOTE, SHOOTOUT_NOTE]
    assert phase(match) is Phase.SHOOTOUT_LAG
    assert match.state.clock.final_innings == ()
    assert match.state.game.scores == {W1: 33, W2: 41}
    assert match.state.result is None
    assert match.state.to_move is None
    assert_refused(match, Shot(None, Stroke(W1, 0.1, 0.0)), IllegalActionError, "Lag")


def test_6_a_result_in_the_final_innings_ends_the_match():
    clock = ClockState(elapsed=GAME_LIMIT + 60, warned=True, final_innings=(W1, W2))
    match = Match(SIM, state=play_state(shooter=W1, scores=(55, 20), position=POT_TABLE, clock=clock))
    outcome = match.push(Shot(parse_call("K MR"), POT_K_MR, 30))
    assert outcome.ruling is not None
    assert outcome.ruling.game_over
    assert phase(match) is Phase.OVER
    assert match.state.result == Result(W1, {W1: 67, W2: 20}, {W1: 60, W2: 20}, "60 points (3)")


def test_6_a_break_extends_the_playing_time_by_its_length():
    match = Match(SIM, state=play_state(clock=ClockState(elapsed=WARNING_AT + 90)))
    outcome = match.push(TakeBreak(W2, 120))
    assert outcome.notes == ("6: break",)
    assert match.state.clock.limit == GAME_LIMIT + 120
    assert match.state.clock.breaks == {W2: 120}
    assert match.state.game == play_state().game  # nothing else changes
    miss(match, 20)  # 3410 s: would have been past the warning without the break
    assert not match.state.clock.warned
    assert miss(match, 20).notes == (WARNING_NOTE,)  # 3430 s >= 3720 - 300
    miss(match, 280)  # 3710 s: would have been past 60 minutes
    assert match.state.clock.final_innings is None
    assert TIME_UP_NOTE in miss(match, 20).notes  # 3730 s
    assert match.state.clock.final_innings is not None


def test_6_one_break_per_player_of_at_most_five_minutes():
    match = Match(SIM, state=play_state())
    assert_refused(match, TakeBreak(W1, 300.5), IllegalActionError, "at most five minutes")
    assert_refused(match, TakeBreak(W1, 0), IllegalActionError, "at most five minutes")
    assert_refused(match, TakeBreak(W1, -10), IllegalActionError, "at most five minutes")
    match.push(TakeBreak(W1, 300))
    assert_refused(match, TakeBreak(W1, 60), IllegalActionError, "one break")
    match.push(TakeBreak(W2, 300))
    assert_refused(match, TakeBreak(W2, 1), IllegalActionError, "one break")
    assert match.state.clock.limit == 70 * 60  # 60 min + 5 min + 5 min
    match.pop()
    assert match.state.clock.limit == 65 * 60
    match.push(TakeBreak(W2, 45))
    assert match.state.clock.limit == GAME_LIMIT + 345


def test_6_break_refused_with_the_clock_off():
    match = Match(state=play_state())
    assert_refused(match, TakeBreak(W1, 120), IllegalActionError, "clock")


@pytest.mark.parametrize("ball", [BallId.R1, BallId.R2, K])
def test_6_only_the_two_players_take_breaks(ball):
    match = Match(SIM, state=play_state())
    match.push(TakeBreak(W1, 300))
    match.push(TakeBreak(W2, 300))
    assert_refused(match, TakeBreak(ball, 300), IllegalActionError)
    assert match.state.clock.limit <= 70 * 60


def test_6_clocked_match_between_baselines_runs_into_the_shootout():
    """Sim clock at 200 s a stroke: the warning at 3300 s, time up at 3600 s, two final innings each with the W2
    player last, then the shoot-out with the game's scores, ten innings each."""
    match = Match(MatchConfig(clock=ClockConfig("sim", 200.0), noise=(1.0, 1.0), seed=1))
    play_match(match, (BaselinePlayer("a", seed=1), BaselinePlayer("b", seed=2)), max_actions=2000)
    entries = match.stack
    play_shots = [e for e in entries if isinstance(e.action, Shot) and e.before.phase is Phase.PLAY]
    assert all(isinstance(e.action, Shot) and e.action.seconds == 200.0 for e in play_shots)
    notes = [(i, n) for i, e in enumerate(play_shots) for n in e.outcome.notes]
    (warn_at, _), (up_at, _), (last_at, _) = notes
    assert [n for _, n in notes] == [WARNING_NOTE, TIME_UP_NOTE, SHOOTOUT_NOTE]
    assert play_shots[warn_at].before.clock.elapsed < WARNING_AT <= play_shots[warn_at].before.clock.elapsed + 200
    assert play_shots[up_at].before.clock.elapsed < GAME_LIMIT <= play_shots[up_at].before.clock.elapsed + 200
    assert last_at == len(play_shots) - 1
    ended = []
    for e in play_shots[up_at:]:
        assert e.outcome.ruling is not None
        if e.outcome.ruling.turn_passes:
            ended.append(e.outcome.ruling.shooter)
    at_time_up = play_shots[up_at].before.game.shooter
    assert ended == ([W1, W2, W1, W2] if at_time_up is W1 else [W2, W1, W2, W1, W2])
    assert ended[-1] is W2

    after_game = entries.index(play_shots[-1]) + 1
    assert entries[after_game].before.phase is Phase.SHOOTOUT_LAG
    lags = [e for e in entries[after_game:] if e.before.phase is Phase.SHOOTOUT_LAG]
    assert all(isinstance(e.action, Lag) for e in lags)
    so_shots = entries[after_game + len(lags) :]
    assert so_shots[0].before.phase is Phase.SHOOTOUT
    assert so_shots[0].before.game.scores == entries[after_game].before.game.scores  # carried over
    for e in entries:  # every state on the stack survives JSON, breaks, final innings and shoot-out included
        assert MatchState.from_json(e.before.to_json()) == e.before
    assert phase(match) is Phase.OVER
    assert match.state.shootout is not None
    assert min(match.state.shootout.innings.values()) >= 10
    # the scoresheet's innings are the innings played: none is credited at the switch to the shoot-out
    assert match.state.innings == innings_played(play_shots)


def innings_played(shots: list[Entry]) -> dict[BallId, int]:
    """Innings each cue ball actually played in the game: a run of strokes that ends when the turn passes."""
    played = {W1: 0, W2: 0}
    starts = True
    for e in shots:
        if starts:
            played[e.before.game.shooter] += 1
        assert e.outcome.ruling is not None
        starts = e.outcome.ruling.turn_passes
    return played


def test_6_the_switch_to_the_shootout_credits_no_extra_inning():
    """`kaisa match --p1 baseline --p2 baseline --seed 7 --clock sim` credited W1 56 innings for 55 played."""
    match = Match(MatchConfig(clock=ClockConfig("sim", 200.0), noise=(1.0, 1.0), seed=7))
    players = (BaselinePlayer("a", seed=7), BaselinePlayer("b", seed=8))
    while match.state.phase not in (Phase.SHOOTOUT_LAG, Phase.OVER):
        match.push(decide_action(match, players))
    play_shots = [e for e in match.stack if isinstance(e.action, Shot) and e.before.phase is Phase.PLAY]
    assert match.state.innings == innings_played(play_shots)


# --- 6 the penalty shoot-out -----------------------------------------------------------------------------


def test_6_the_shootout_lag_winner_chooses_who_starts():
    match = Match(state=replace(shootout_state(W1, (30, 30), (0, 0)), shootout=ShootoutState(W1, {W1: 0, W2: 0}, True)))
    outcome = match.push(Choose(W2))
    assert outcome.notes == ("6: W2 starts the penalty shoot-out",)
    s = match.state
    assert s.shootout == ShootoutState(W2, {W1: 0, W2: 0})
    assert s.game.shooter is W2
    assert s.game.in_hand == frozenset({W2})
    assert s.game.shootout
    assert s.position == Position({"K": CENTRE})
    assert s.to_move == 1
    with pytest.raises(IllegalActionError, match="chosen"):
        match.push(Choose(W1))  # the choice is made once
    match.pop()
    assert match.state.shootout == ShootoutState(W1, {W1: 0, W2: 0}, True)


def test_6_the_shootout_lag_winner_playing_the_first_stroke_chooses_to_start():
    match = Match(state=replace(shootout_state(W1, (30, 30), (0, 0)), shootout=ShootoutState(W1, {W1: 0, W2: 0}, True)))
    fault_from_hand(match)
    assert match.state.shootout == ShootoutState(W1, {W1: 1, W2: 0})
    with pytest.raises(IllegalActionError, match="chosen"):
        match.push(Choose(W2))


@pytest.mark.parametrize(("weak", "winner_index"), [(1, 0), (0, 1)])
def test_6_shootout_lag_winner_starts_with_only_the_kaisa_and_the_ball_in_hand(weak, winner_index):
    owners = (W2, W1)  # player 1 plays W2 in the game, but lags with W1 from the left half
    state = MatchState(
        phase=Phase.SHOOTOUT_LAG,
        position=OPEN_TABLE,
        owners=owners,
        game=GameState(scores={W1: 31, W2: 27}, shooter=W2),
        clock=ClockState(elapsed=4000.0, warned=True, final_innings=()),
    )
    match = Match(SIM, state=state)
    strokes = (left_lag(0.9 if weak == 0 else 1.0), right_lag(0.9 if weak == 1 else 1.0))
    outcome = match.push(Lag(strokes))
    assert outcome.lag is not None
    assert outcome.lag.winner == winner_index
    first = owners[winner_index]
    s = match.state
    assert s.phase is Phase.SHOOTOUT
    assert s.shootout == ShootoutState(first, {W1: 0, W2: 0}, choice_open=True)
    assert s.position == Position({"K": CENTRE})
    assert s.game.shooter is first
    assert s.game.in_hand == frozenset({first})
    assert s.game.from_hand
    assert not s.game.opening
    assert s.game.scores == {W1: 31, W2: 27}  # the game's scores carry over
    assert s.to_move == winner_index
    assert s.run == 0


def test_6_shootout_lag_equal_is_played_again():
    state = MatchState(phase=Phase.SHOOTOUT_LAG, owners=(W1, W2), game=GameState(scores={W1: 10, W2: 10}))
    match = Match(state=state)
    match.push(Lag((left_lag(), right_lag())))
    assert phase(match) is Phase.SHOOTOUT_LAG
    assert match.state.shootout is None


def test_6_shootout_between_baselines_ten_innings_each_higher_score_recorded_as_is():
    start = {W1: 25, W2: 22}
    state = MatchState(phase=Phase.SHOOTOUT_LAG, owners=(W2, W1), game=GameState(scores=start))
    match = Match(MatchConfig(noise=(1.0, 1.0), seed=6), state=state)
    play_match(match, (BaselinePlayer("a", seed=5), BaselinePlayer("b", seed=6)), max_actions=500)
    so = match.state.shootout
    assert so is not None
    second = W2 if so.first is W1 else W1
    shots = [e for e in match.stack if isinstance(e.action, Shot)]
    total = dict(start)
    shooter = so.first
    inning_start = True
    pots = 0
    for entry in shots:
        assert isinstance(entry.action, Shot)
        before = entry.before
        ruling = entry.outcome.ruling
        assert ruling is not None
        assert before.phase is Phase.SHOOTOUT
        assert before.game.shooter is shooter  # innings alternate, starting with the lag winner
        assert entry.action.stroke.ball is shooter
        assert set(before.position) <= {K, shooter}  # only the kaisa and the shooter's cue ball
        assert before.position.get(K) == CENTRE
        if inning_start:
            assert before.position == Position({"K": CENTRE})
            assert before.game.in_hand == frozenset({shooter})
        else:
            assert shooter in before.position  # play goes on from where the cue ball stopped
            assert before.game.in_hand == frozenset()
        assert before.game.scores == total
        total[shooter] += ruling.points
        pots += ruling.legal_pot
        inning_start = ruling.turn_passes
        if ruling.turn_passes:
            shooter = W2 if shooter is W1 else W1
    assert pots >= 2
    assert match.state.game.scores == total
    assert so.innings == {so.first: 10, second: 10}
    result = match.state.result
    assert result is not None
    assert phase(match) is Phase.OVER
    assert total[W1] != total[W2]
    assert max(total.values()) < 60
    assert result.winner is max((W1, W2), key=lambda b: total[b])
    assert result.scores == total
    assert result.recorded == total  # a shoot-out won below 60 is recorded as it is
    assert "shoot-out" in result.reason


def test_6_shootout_reaching_60_wins_at_once():
    match = Match(
        state=shootout_state(W1, (57, 40), (3, 3), position=POT_TABLE.without(W2).without(BallId.R1).without(BallId.R2))
    )
    outcome = match.push(Shot(parse_call("K MR"), POT_K_MR))
    assert outcome.ruling is not None
    assert outcome.ruling.points == 12
    assert phase(match) is Phase.OVER
    assert match.state.result == Result(W1, {W1: 69, W2: 40}, {W1: 60, W2: 40}, "60 points (3)")
    assert match.state.shootout == ShootoutState(W1, {W1: 4, W2: 3})  # the winning inning counts (6)


def test_6_shootout_between_baselines_reaching_60_wins_at_once():
    state = MatchState(phase=Phase.SHOOTOUT_LAG, owners=(W2, W1), game=GameState(scores={W1: 50, W2: 54}))
    match = Match(MatchConfig(noise=(1.0, 1.0), seed=5), state=state)
    play_match(match, (BaselinePlayer("a", seed=5), BaselinePlayer("b", seed=6)), max_actions=500)
    result = match.state.result
    assert result is not None
    assert result.scores[result.winner] >= 60
    assert result.recorded[result.winner] == 60
    assert match.state.shootout is not None
    assert min(match.state.shootout.innings.values()) < 10
    last = match.stack[-1].outcome.ruling
    assert last is not None
    assert last.game_over
    assert last.legal_pot


def test_6_shootout_pot_continues_the_inning_with_the_kaisa_back_on_the_centre_spot():
    match = Match(state=shootout_state(W1, (30, 30), (4, 4), position=Position({"W1": (0.45, 1.42), "K": CENTRE})))
    outcome = match.push(Shot(parse_call("K MR"), POT_K_MR))
    assert outcome.ruling is not None
    assert outcome.ruling.points == 12
    state = match.state
    assert state.phase is Phase.SHOOTOUT
    assert state.game.shooter is W1
    assert state.game.scores == {W1: 42, W2: 30}
    assert state.position[K] == CENTRE
    assert state.position[W1] == outcome.records[0].final[W1]
    assert state.game.in_hand == frozenset()
    assert state.shootout == ShootoutState(W1, {W1: 4, W2: 4})  # the inning is still running
    miss(match)
    assert match.state.shootout == ShootoutState(W1, {W1: 5, W2: 4})
    assert match.state.game.shooter is W2
    assert match.state.position == Position({"K": CENTRE})
    assert match.state.game.in_hand == frozenset({W2})


def test_6_shootout_second_shooter_always_gets_the_last_inning():
    match = Match(state=shootout_state(W1, (40, 30), (9, 9)))
    fault_from_hand(match)
    assert phase(match) is Phase.SHOOTOUT  # W1 has had ten innings and leads, but W2 may still equalise
    assert match.state.shootout == ShootoutState(W1, {W1: 10, W2: 9})
    assert match.state.game.shooter is W2
    fault_from_hand(match)
    assert phase(match) is Phase.OVER
    assert match.state.result is not None
    assert match.state.result.winner is W1
    assert match.state.result.recorded == {W1: 40, W2: 30}


def test_6_shootout_tie_after_ten_innings_goes_on_in_pairs():
    match = Match(state=shootout_state(W2, (30, 30), (10, 9)))
    fault_from_hand(match)  # W2's tenth: 30-30
    assert phase(match) is Phase.SHOOTOUT
    assert match.state.shootout == ShootoutState(W1, {W1: 10, W2: 10})
    assert match.state.game.shooter is W1
    # W1's eleventh: the cue ball rolled into HL touching nothing: -2 (7a, REFERENCE.md section 8)
    outcome = match.push(Shot(None, Stroke(W1, 1.0, 225.0, place=(0.3, 0.3))))
    assert outcome.ruling is not None
    assert outcome.ruling.points == -2
    assert phase(match) is Phase.SHOOTOUT  # W2 still has the eleventh inning of the pair
    assert match.state.game.scores == {W1: 28, W2: 30}
    fault_from_hand(match)
    assert phase(match) is Phase.OVER
    assert match.state.shootout == ShootoutState(W1, {W1: 11, W2: 11})
    assert match.state.result == Result(
        W2, {W1: 28, W2: 30}, {W1: 28, W2: 30}, "penalty shoot-out: higher score after the innings (6)"
    )


def test_6_shootout_tie_after_a_pair_goes_on_again():
    match = Match(state=shootout_state(W1, (30, 30), (11, 11)))
    fault_from_hand(match)
    fault_from_hand(match)
    assert phase(match) is Phase.SHOOTOUT
    assert match.state.shootout == ShootoutState(W1, {W1: 12, W2: 12})
    assert match.state.game.shooter is W1


# --- illegal actions --------------------------------------------------------------------------------------


def some_shot(ball: BallId = W1) -> Shot:
    return Shot(None, Stroke(ball, 1.0, 90.0))


def any_lag() -> Lag:
    return Lag((Stroke(W1, 1.4, 90.0, place=(0.355, 0.355)), Stroke(W2, 1.4, 90.0, place=(1.065, 0.355))))


PHASE_STATES = {
    Phase.LAG: lambda: initial(),
    Phase.CHOOSE: lambda: replace(initial(), phase=Phase.CHOOSE, lag_winner=0),
    Phase.PLACE_W2: lambda: replace(initial(), phase=Phase.PLACE_W2, lag_winner=0, owners=(W1, W2)),
    Phase.PLAY: lambda: play_state(),
    Phase.SHOOTOUT_LAG: lambda: MatchState(phase=Phase.SHOOTOUT_LAG, owners=(W1, W2)),
    Phase.SHOOTOUT: lambda: shootout_state(W1, (0, 0), (0, 0)),
}


@pytest.mark.parametrize(
    ("in_phase", "action"),
    [
        (Phase.LAG, some_shot()),
        (Phase.LAG, Choose(W1)),
        (Phase.LAG, PlaceW2((0.71, 2.6))),
        (Phase.CHOOSE, any_lag()),
        (Phase.CHOOSE, PlaceW2((0.71, 2.6))),
        (Phase.CHOOSE, some_shot()),
        (Phase.PLACE_W2, any_lag()),
        (Phase.PLACE_W2, Choose(W1)),
        (Phase.PLACE_W2, some_shot()),
        (Phase.PLAY, any_lag()),
        (Phase.PLAY, Choose(W2)),
        (Phase.PLAY, PlaceW2((0.71, 2.6))),
        (Phase.SHOOTOUT_LAG, some_shot()),
        (Phase.SHOOTOUT_LAG, Choose(W1)),
        (Phase.SHOOTOUT_LAG, PlaceW2((0.71, 2.6))),
        (Phase.SHOOTOUT, any_lag()),
        # (Phase.SHOOTOUT, Choose(W1)) is the lag winner's choice of who starts (6): tested above
        (Phase.SHOOTOUT, PlaceW2((0.71, 2.6))),
    ],
    ids=lambda v: v.value if isinstance(v, Phase) else type(v).__name__,
)
def test_actions_in_the_wrong_phase_are_refused(in_phase, action):
    match = Match(state=PHASE_STATES[in_phase]())
    assert_refused(match, action, IllegalActionError, f"expects a .* action in phase {in_phase.value}")


def test_a_stroke_with_the_opponents_ball_is_refused():
    assert_refused(Match(state=play_state(shooter=W1)), some_shot(W2), IllegalActionError, "W1 is at the table")
    assert_refused(Match(state=play_state(shooter=W2)), some_shot(W1), IllegalActionError, "W2 is at the table")
    shootout = Match(state=shootout_state(W2, (0, 0), (0, 0)))
    assert_refused(shootout, Shot(None, Stroke(W1, 1.0, 90.0, place=(0.3, 0.3))), IllegalActionError, "W2")


def test_a_ball_on_the_table_is_played_from_where_it_lies():
    match = Match(state=play_state(shooter=W1))
    assert_refused(match, Shot(None, Stroke(W1, 1.0, 90.0, place=(0.3, 0.3))), IllegalActionError, "where it lies")


def over_match(clock: ClockConfig | None = None) -> Match:
    result = Result(W1, {W1: 64, W2: 12}, {W1: 60, W2: 12}, "60 points (3)")
    state = replace(play_state(scores=(64, 12)), phase=Phase.OVER, result=result)
    return Match(MatchConfig(clock=clock or ClockConfig()), state=state)


@pytest.mark.parametrize(
    "action",
    [any_lag(), Choose(W1), PlaceW2((0.71, 2.6)), some_shot(W1), some_shot(W2)],
    ids=lambda a: type(a).__name__,
)
def test_nothing_is_accepted_after_the_match_is_over(action):
    match = over_match()
    assert match.over
    assert_refused(match, action, IllegalActionError, "over")


def test_no_break_after_the_match_is_over():
    match = over_match(ClockConfig("sim", 30.0))
    assert_refused(match, TakeBreak(W2, 120), IllegalActionError, "over")


def test_pop_on_an_empty_stack_is_refused():
    match = Match()
    assert_refused_pop(match)
    assert match.stack == []
    match.push(Lag((left_lag(), right_lag(0.9))))
    match.pop()
    assert_refused_pop(match)
    assert match.state.to_json() == initial().to_json()


def test_6_a_marked_shootout_lag_cites_6_not_the_opening_lag():
    """The marker's shoot-out lag is the lag of rule 6; its note must not cite the opening lag of 1.1."""
    state = replace(shootout_state(W1, (30, 30), (10, 10)), phase=Phase.SHOOTOUT_LAG, shootout=None)
    match = Match(state=state)
    outcome = match.push(MarkedLag(1))
    assert outcome.notes == ("6: shoot-out lag won by player 2",)
    assert match.state.shootout is not None
    assert match.state.shootout.choice_open


# --- another winning score (a competition's target points, the rule option winning_score) --------------------


def test_3_a_match_played_to_40_ends_when_40_is_reached_and_records_the_winner_at_40():
    config = MatchConfig(options=RuleOptions(winning_score=40))
    match = Match(config, state=play_state(shooter=W1, scores=(30, 20), position=POT_TABLE))
    outcome = match.push(Shot(parse_call("K MR"), POT_K_MR))
    assert outcome.ruling is not None
    assert outcome.ruling.game_over
    assert phase(match) is Phase.OVER
    assert match.state.result == Result(W1, {W1: 42, W2: 20}, {W1: 40, W2: 20}, "40 points (3)")


def test_3_a_match_played_to_100_goes_on_past_60():
    config = MatchConfig(options=RuleOptions(winning_score=100))
    match = Match(config, state=play_state(shooter=W1, scores=(55, 20), position=POT_TABLE))
    outcome = match.push(Shot(parse_call("K MR"), POT_K_MR))
    assert outcome.ruling is not None
    assert not outcome.ruling.game_over
    assert phase(match) is Phase.PLAY
    assert match.state.game.scores == {W1: 67, W2: 20}


def test_3_a_stored_configuration_without_a_winning_score_plays_to_60():
    stored = MatchConfig(options=RuleOptions(winning_score=40)).to_json()
    assert stored["options"]["winning_score"] == 40
    del stored["options"]["winning_score"]  # a match stored before the option existed
    assert MatchConfig.from_json(stored).options.winning_score == 60
    assert MatchConfig.from_json(MatchConfig(options=RuleOptions(winning_score=40)).to_json()).options == RuleOptions(
        winning_score=40
    )
