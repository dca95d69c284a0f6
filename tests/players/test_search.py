"""The search players: physics-refined aim, levels, determinism, legal placements, a match between levels."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from kaisa.call import format_call, parse_call
from kaisa.game import Match, MatchConfig, MatchState, Phase
from kaisa.layouts import random_layout
from kaisa.model import BallId, Position, Stroke
from kaisa.physics import simulate
from kaisa.players import make_player, play_match
from kaisa.players.search import LEVELS, SearchPlayer, advise, find_window
from kaisa.players.shots import generate
from kaisa.referee import GameState, judge, observe
from kaisa.referee.opening import check_hand_placement
from kaisa.table import OFFICIAL, PocketId

R = OFFICIAL.ball_radius


def straight_in() -> Position:
    """K 0.4 m from FL on its axis, W1 0.5 m behind it on the same line: the easiest pot on the table."""
    fl = OFFICIAL.pockets[PocketId.FL]
    (cx, cy), (ax, ay) = fl.mouth_centre, fl.axis
    return Position({"W1": (cx - ax * 0.9, cy - ay * 0.9), "K": (cx - ax * 0.4, cy - ay * 0.4), "R1": (1.1, 0.5)})


def rule(position: Position, call, stroke: Stroke, game: GameState | None = None):
    game = game or GameState()
    return judge(observe(simulate(position, stroke), call), call, game)


def test_a_straight_in_pot_is_found_and_made():
    player = SearchPlayer("master", seed=1, noise=0.0, parallel=False)
    best = player.decide(straight_in(), GameState())
    assert best.call is not None
    assert format_call(best.call) == "K FL"
    assert best.p_pot == 1.0
    ruling = rule(straight_in(), best.call, best.stroke)
    assert ruling.legal_pot
    assert ruling.points >= 6


def test_the_window_is_found_around_a_geometric_aim_and_centred():
    position = straight_in()
    candidate = next(c for c in generate(position, GameState()) if format_call(c.call) == "K FL")
    window = find_window(position, candidate, GameState(), 0.8, 0.08)
    assert window is not None
    assert window.width > 0.05
    for edge in (-0.45, 0.45):  # inside the window, a little off its centre, still pots
        inside = Stroke(BallId.W1, window.stroke.speed, window.stroke.direction + edge * window.width)
        assert rule(position, candidate.call, inside).legal_pot


def test_a_blocked_pot_is_not_chosen():
    position = straight_in()
    fl = OFFICIAL.pockets[PocketId.FL]
    (cx, cy), (ax, ay) = fl.mouth_centre, fl.axis
    blocked = position.with_ball(BallId.R2, (cx - ax * 0.15, cy - ay * 0.15))  # between K and the pocket
    best = SearchPlayer("club", seed=1, noise=0.0, parallel=False).decide(blocked, GameState())
    assert best.call is None or format_call(best.call) != "K FL"


@pytest.mark.parametrize("level", list(LEVELS))
def test_calls_parse_and_decisions_are_deterministic_per_seed(level):
    position = random_layout(np.random.default_rng(11))
    first = SearchPlayer(level, seed=4, parallel=False).shot(position, GameState(), OFFICIAL, 3)
    again = SearchPlayer(level, seed=4, parallel=True).shot(position, GameState(), OFFICIAL, 3)
    assert first == again
    call, stroke = first
    if call is not None:
        assert parse_call(format_call(call)) == call
        call.check_shooter(BallId.W1)
    assert stroke.ball is BallId.W1


def test_ball_in_hand_placement_is_always_legal():
    rng = np.random.default_rng(21)
    for i in range(4):
        position = random_layout(rng).without(BallId.W1)
        game = GameState(in_hand=frozenset({BallId.W1}))
        call, stroke = SearchPlayer("club", seed=i, parallel=False).shot(position, game, OFFICIAL, i)
        assert stroke.place is not None
        check_hand_placement(position, BallId.W1, stroke.place)
        ruling = rule(position, call, stroke, game)
        assert ruling.shooter is BallId.W1


def test_the_beginner_makes_sensible_strokes():
    """Not random: from every position it hits a ball, mostly without a foul."""
    rng = np.random.default_rng(5)
    fouls = 0
    for i in range(6):
        position = random_layout(rng)
        call, stroke = SearchPlayer("beginner", seed=i, parallel=False).shot(position, GameState(), OFFICIAL, i)
        record = simulate(position, stroke)
        assert any(e.type == "ball" for e in record.events), "the beginner's stroke touched no ball"
        fouls += bool(rule(position, call, stroke).fouls)
    assert fouls <= 2


def test_the_advisor_lists_calls_with_their_odds():
    ranked = advise(straight_in(), GameState(), level="club")
    assert ranked
    top = ranked[0]
    assert top.call is not None
    assert 0.0 <= top.p_pot <= 1.0
    assert 0.0 <= top.p_foul <= 1.0
    assert math.isfinite(top.expected_points)
    assert [e.score for e in ranked[:-1]] == sorted((e.score for e in ranked[:-1]), reverse=True)


@pytest.mark.slow
def test_a_short_seeded_match_between_levels_completes():
    """From 50-50 in play, a beginner and a club player finish the game."""
    start = Match().initial_state()
    state = MatchState(
        phase=Phase.PLAY,
        position=start.position.with_ball(BallId.W1, (0.5, 0.4)).with_ball(BallId.W2, (1.0, 2.5)),
        game=GameState(scores={BallId.W1: 50, BallId.W2: 50}),
        owners=(BallId.W1, BallId.W2),
        innings={BallId.W1: 1, BallId.W2: 0},
    )
    match = Match(MatchConfig(players=("beginner", "club"), noise=(2.0, 1.0), seed=1), state=state)
    play_match(match, (make_player("beginner", "b", 1), make_player("club", "c", 2)), max_actions=400)
    assert match.over
    assert match.state.result is not None
    assert max(match.state.result.recorded.values()) == 60


def test_3_near_60_a_finishing_pot_counts_as_a_win():
    """Section 3: at 57 the kaisa pot ends the game; the evaluation sees the win, not only the points."""
    player = SearchPlayer("master", seed=1, noise=0.0, parallel=False)
    early = player.decide(straight_in(), GameState())
    late = player.decide(straight_in(), GameState(scores={BallId.W1: 57, BallId.W2: 30}))
    assert early.p_win == 0.0
    assert late.call is not None
    assert format_call(late.call) == "K FL"
    assert late.p_win == 1.0
    assert late.score > early.score + 5


def test_a_short_straight_pot_by_the_pocket_is_played_with_a_stun_not_followed_in():
    """7a: a rolling cue ball would follow R1 into FL; the generator draws it to a stop instead."""
    fl = OFFICIAL.pockets[PocketId.FL]
    (cx, cy), (ax, ay) = fl.mouth_centre, fl.axis
    position = Position(
        {"W1": (cx - ax * 0.55, cy - ay * 0.55), "R1": (cx - ax * 0.25, cy - ay * 0.25), "K": (0.71, 1.42)}
    )
    straight = next(c for c in generate(position, GameState()) if format_call(c.call) == "R1 FL")
    assert straight.kind == "direct"
    assert straight.stroke.follow < 0
    best = SearchPlayer("beginner", seed=3, noise=0.0, parallel=False).decide(position, GameState())
    assert best.call is not None
    assert format_call(best.call) == "R1 FL"
    ruling = rule(position, best.call, best.stroke)
    assert ruling.legal_pot
    assert not ruling.fouls


def test_the_position_value_prices_a_hanging_kaisa_for_the_player_to_move():
    """The next shot's expected points: a kaisa on the lip of a corner is worth nearly its 6 points; with the
    mover at 55 the pot would also win the game (3), which counts on top."""
    player = SearchPlayer("master", seed=1, parallel=False)
    fl = OFFICIAL.pockets[PocketId.FL]
    (cx, cy), (ax, ay) = fl.mouth_centre, fl.axis
    hanging = Position({"W1": (0.4, 0.5), "W2": (cx - ax * 0.5, cy - ay * 0.5), "K": (cx - ax * 0.1, cy - ay * 0.1)})
    w2 = GameState(shooter=BallId.W2)
    value = player.next_shot_value(hanging, w2)
    assert 4.0 < value <= 6.0
    near_60 = GameState(shooter=BallId.W2, scores={BallId.W1: 20, BallId.W2: 55})
    assert player.next_shot_value(hanging, near_60) > value + 5.0
    # the same balls spread along the cushions leave far less
    apart = Position({"W1": (0.4, 0.5), "W2": (0.1, 1.4), "K": (1.3, 1.6)})
    assert player.next_shot_value(apart, w2) < value / 2


def frozen_to_cushions() -> Position:
    """Every object ball frozen to a cushion away from the pockets: no direct pot worth playing."""
    w, length = OFFICIAL.width, OFFICIAL.length
    return Position(
        {
            "W1": (0.7, 1.0),
            "W2": (R + 1e-6, 0.9),
            "K": (w - R - 1e-6, 0.8),
            "R1": (R + 1e-6, 2.1),
            "R2": (0.35, length - R - 1e-6),
        }
    )


def test_a_safety_is_chosen_when_no_pot_is_worth_it_and_leaves_the_opponent_little():
    """Every object ball frozen to a cushion away from the pockets and only direct pots in mind: master plays
    no call, hits a ball legally under noise, and leaves the opponent less than the position it found."""
    position = frozen_to_cushions()
    player = SearchPlayer("master", seed=2, parallel=False)
    player.level = replace(LEVELS["master"], kinds=("direct",))
    best = player.decide(position, GameState())
    assert best.kind == "safety"
    assert best.call is None
    assert best.p_foul < 0.5
    assert 0.0 <= best.p_pot <= 1.0
    before = player.next_shot_value(position, GameState(shooter=BallId.W2))
    assert before > 0.1  # a kick or a bank for the opponent
    assert -best.position_value < before / 2
    again = SearchPlayer("master", seed=2, parallel=True)
    again.level = player.level
    assert again.decide(position, GameState()) == best


@pytest.mark.slow
def test_the_second_look_pools_the_best_windows_plays_and_leaves_the_rest_at_the_first_pass():
    """The search's first pass plays each evaluated window ``samples`` times; when the two best are close, the
    REFINE_TOP best are played REFINE_SAMPLES more times with new draws and scored over all their plays."""
    from kaisa.players import search
    from kaisa.players.search import REFINE_MARGIN, REFINE_SAMPLES, REFINE_TOP, _Play

    position = random_layout(np.random.default_rng(12))  # a layout whose two best windows score close
    game = GameState()
    player = SearchPlayer("master", seed=5, parallel=False)
    ranked = player.evaluate(position, game)
    found = sorted(player.windows(position, game, OFFICIAL), key=lambda w: (-w.width, w.candidate.difficulty))
    assert len(ranked) == min(LEVELS["master"].evaluate, len(found)) > REFINE_TOP  # some refined, some not
    samples = LEVELS["master"].samples
    first = {
        i: player._play(
            _Play(w.stroke, w.candidate.call, w.candidate.kind, w.width, 100 + i, samples), position, game, OFFICIAL, 0
        )
        for i, w in enumerate(found[: LEVELS["master"].evaluate])
    }
    order = sorted(first, key=lambda i: -first[i].score)
    assert first[order[0]].score - first[order[1]].score < REFINE_MARGIN  # close: the second look is taken
    best = order[:REFINE_TOP]
    expected = dict(first)
    for i in best:
        w = found[i]
        more = player._play(
            _Play(w.stroke, w.candidate.call, w.candidate.kind, w.width, 1100 + i, REFINE_SAMPLES),
            position,
            game,
            OFFICIAL,
            0,
        )
        expected[i] = search._pooled(first[i], samples, more, REFINE_SAMPLES)
        assert expected[i].score == pytest.approx(
            (samples * first[i].score + REFINE_SAMPLES * more.score) / (samples + REFINE_SAMPLES)
        )
    wanted = sorted(expected.values(), key=lambda e: -e.score)
    assert [e.stroke for e in ranked] == [e.stroke for e in wanted]
    assert [e.score for e in ranked] == pytest.approx([e.score for e in wanted])


def test_pooling_two_evaluations_weights_every_field_by_its_plays():
    from kaisa.players.search import Evaluation, _pooled

    stroke = Stroke(BallId.W1, 2.0, 90.0)
    a = Evaluation(None, stroke, "direct", 0.1, 1.0, 6.0, 0.0, {"8a": 0.5}, 1.0, 7.0, 0.25)
    b = Evaluation(None, stroke, "direct", 0.1, 0.0, 0.0, 1.0, {"7d": 1.0}, -3.0, -3.0, 0.0)
    pooled = _pooled(a, 12, b, 4)
    assert (pooled.p_pot, pooled.expected_points, pooled.p_foul) == (0.75, 4.5, 0.25)
    assert pooled.penalties == {"7d": 0.25, "8a": 0.375}
    assert (pooled.position_value, pooled.score, pooled.p_win) == (0.0, 4.5, 0.1875)
    assert (pooled.stroke, pooled.window, pooled.kind) == (a.stroke, a.window, a.kind)


def test_stratified_noise_draws_one_value_from_each_slice_of_every_parameter():
    """The search's evaluation plays draw their noise as a Latin hypercube (search.STRATIFIED): of 12 plays,
    exactly one direction error falls in each twelfth of the normal distribution, and so for every parameter;
    the order differs per column and per seed."""
    from statistics import NormalDist

    from kaisa.players.search import _stratified_normals

    for seed in range(5):
        z = _stratified_normals(np.random.default_rng(seed), 12)
        assert z.shape == (12, 5)
        for column in z.T:
            slices = sorted(int(NormalDist().cdf(v) * 12) for v in column)
            assert slices == list(range(12))
        assert not np.array_equal(np.argsort(z[:, 0]), np.argsort(z[:, 2]))


def test_a_stroke_executed_with_drawn_normals_is_the_random_execution():
    """StrokeNoise.apply draws five normals and executes with them: the match's chance step is unchanged."""
    from kaisa.game.chance import StrokeNoise

    noise = StrokeNoise(1.3)
    stroke = Stroke(BallId.W1, 2.0, 33.0, side=0.2, follow=-0.1)
    assert noise.apply(stroke, np.random.default_rng(5)) == noise.execute(
        stroke, np.random.default_rng(5).standard_normal(5)
    )


def test_the_chosen_safety_is_scored_by_fresh_plays_not_by_the_luck_it_was_chosen_by(monkeypatch):
    """search.SAFETY_RECHECK: the best of a few noisy safety scores is rescored by new plays before it is
    compared with a pot; the choice among the safeties is the same."""
    from kaisa.players import search

    position = frozen_to_cushions()
    player = SearchPlayer("master", seed=2, parallel=False)
    rechecked = player.safety(position, GameState(), OFFICIAL, 0)
    monkeypatch.setattr(search, "SAFETY_RECHECK", 0)
    chosen = player.safety(position, GameState(), OFFICIAL, 0)
    assert rechecked is not None
    assert chosen is not None
    assert rechecked.stroke == chosen.stroke
    assert rechecked.score != chosen.score  # new draws
    assert round(rechecked.p_foul * search.SAFETY_RECHECK, 9).is_integer()  # scored over the fresh plays


def test_an_evaluation_played_in_parts_is_the_evaluation_played_whole(monkeypatch):
    """search.PLAY_PARTS: the noisy plays of an evaluation are cut into slices of the same draws, played as
    separate tasks and added up in order; the result is the same plays, scored the same (up to the order of
    the additions), whatever the number of parts."""
    from kaisa.players import search
    from kaisa.players.search import _parts, _Play

    position = random_layout(np.random.default_rng(12))
    game = GameState()
    player = SearchPlayer("master", seed=5, parallel=False)
    candidate = generate(position, game, kinds=("direct",))[0]
    play = _Play(candidate.stroke, candidate.call, candidate.kind, 0.1, 100, 9)
    evaluations = {}
    for parts in (1, 2, 4):
        monkeypatch.setattr(search, "PLAY_PARTS", parts)
        assert [b - a for a, b in _parts(play)] == [9 * (k + 1) // parts - 9 * k // parts for k in range(parts)]
        before = search.simulations()
        evaluations[parts] = player._play(play, position, game, OFFICIAL, 3)
        assert search.simulations() - before == 9
    whole = evaluations[1]
    for parts in (2, 4):
        split = evaluations[parts]
        assert (split.p_pot, split.p_foul, split.p_win) == (whole.p_pot, whole.p_foul, whole.p_win)
        assert split.score == pytest.approx(whole.score, abs=1e-12)
        assert split.position_value == pytest.approx(whole.position_value, abs=1e-12)
    assert [b - a for a, b in _parts(replace(play, samples=0))] == [1]  # played once, as aimed


def test_the_bench_restores_the_master_after_playing_it_as_issue_26_found_it():
    """kaisa.bench.master.master_before_26 and previous_master swap the master's level and the search's
    constants for the duration of a ``with`` and put them back; the deep search is defined from a level."""
    from kaisa.bench.master import BEFORE_26, BEFORE_26_SEARCH, deep_level, master_before_26, previous_master
    from kaisa.players import search

    now = LEVELS["master"], {name: getattr(search, name) for name in BEFORE_26_SEARCH}, search.STRATIFIED
    with master_before_26():
        assert LEVELS["master"] == BEFORE_26
        assert {name: getattr(search, name) for name in BEFORE_26_SEARCH} == BEFORE_26_SEARCH
        with previous_master():
            assert LEVELS["master"].samples == 12
            assert not search.STRATIFIED
        assert LEVELS["master"] == BEFORE_26
    assert (LEVELS["master"], {name: getattr(search, name) for name in BEFORE_26_SEARCH}, search.STRATIFIED) == now
    deep = deep_level(BEFORE_26)
    assert (deep.candidates, deep.samples, deep.evaluate) == (12, 100, 9)
    assert deep_level().samples == 5 * LEVELS["master"].samples
