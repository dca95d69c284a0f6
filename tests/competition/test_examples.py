"""Every worked example of rules/KAAVIO.md, by section, plus the [?] decisions."""

from __future__ import annotations

import pytest

from kaisa.competition import (
    CompetitionError,
    GameState,
    Kaavio,
    KaavioType,
    Outcome,
    PlacingMode,
    Seeding,
    Settings,
    read_result,
)
from kaisa.competition.cup import cup_order
from kaisa.competition.draw import round2_pairs, seed_numbers_8, seed_numbers_24
from kaisa.competition.placings import placings, prize_split, ranking_points, round_up
from kaisa.competition.search import SGame, search
from kaisa.errors import error_text


def make(n: int, kind: KaavioType = KaavioType.DOUBLE, tables: int = 8, seeding: Seeding = Seeding.NONE) -> Kaavio:
    k = Kaavio(Settings(name="testi", kind=kind, tables=tuple(str(i + 1) for i in range(tables)), seeding=seeding))
    for i in range(n):
        k.add_player(f"Pelaaja {i + 1}")
    k.assign_numbers({f"Pelaaja {i + 1}": i + 1 for i in range(n)})
    return k


def pairs(k: Kaavio, round_: int) -> list[tuple[int, int | None]]:
    return [g.pair() for g in k.games if g.round == round_ and g.player2 is not None]


def play(k: Kaavio, a: int, b: int, winner: int) -> None:
    """Record a-b (in either order) with ``winner`` reaching 60."""
    g = next(g for g in k.games if {g.player1, g.player2} == {a, b} and g.state != GameState.PLAYED)
    if g.state == GameState.READY:
        k.start(g.number)
    k.record(g.number, *(("60", "30") if g.player1 == winner else ("30", "60")))


def test_3_2_seeds_for_16_players() -> None:
    assert seed_numbers_8(16) == [15, 8, 4, 12, 10, 2, 6, 14]


def test_3_3_24_seeds_distinct_and_in_range() -> None:
    for n in (24, 25, 40, 128):
        s = seed_numbers_24(n)
        assert len(set(s)) == 24
        assert all(1 <= x <= n for x in s)
    with pytest.raises(CompetitionError) as e:
        seed_numbers_24(23)
    assert e.value.code == "too_few_for_24_seeds"


def test_3_3_24_seeds_get_walkovers_and_start_later() -> None:
    k = Kaavio(Settings(name="sm", seeding=Seeding.TWENTY_FOUR, tables=("1",)))
    for i in range(30):
        k.add_player(f"P{i + 1}", seed=i + 1 if i < 24 else 0)
    k.draw(seed=3)
    for p in k.players:
        wo = [g for g in k.games if g.player1 == p.number and g.player2 is None]
        assert len(wo) == (2 if 1 <= p.seed <= 12 else 1 if p.seed else 0)
        assert all(g.points1 == "60" and g.points2 == "0" and g.state == GameState.PLAYED for g in wo)
    # a seed with two walkovers has no round-1 or round-2 game against anyone
    top = next(p for p in k.players if p.seed == 1)
    assert not [g for g in k.games if g.player2 is not None and g.involves(top.number)]


def test_3_2_draw_is_reproducible_with_a_seed() -> None:
    a, b = (Kaavio(Settings(name="x", seeding=Seeding.EIGHT)) for _ in range(2))
    for k in (a, b):
        for i in range(16):
            k.add_player(f"P{i}", seed=i + 1 if i < 8 else 0)
        k.draw(seed=42)
    assert a.to_json() == b.to_json()
    assert [next(p.number for p in a.players if p.seed == s) for s in range(1, 9)] == seed_numbers_8(16)


def test_3_4_round_1_pairs_odd_last_waits() -> None:
    k = make(9)
    assert pairs(k, 1) == [(1, 2), (3, 4), (5, 6), (7, 8)]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (8, [(1, 3), (2, 4), (5, 7), (6, 8)]),
        (7, [(7, 1), (2, 3), (4, 5), (6, 7)]),
        (6, [(2, 5), (4, 6), (1, 3)]),
        (10, [(6, 9), (8, 10), (1, 3), (2, 4), (5, 7)]),
    ],
)
def test_3_5_round_2_with_the_twist(n: int, expected: list[tuple[int, int]]) -> None:
    """The pairs in the order KAAVIO 3.5 draws them; the games are numbered as KaisaKaavio sorts them (round,
    player 1's personal round, player 1, player 2: 7-1 is player 7's first game, so it comes first)."""
    k = make(n)
    assert sorted(pairs(k, 2)) == sorted(expected)
    numbered = sorted((g for g in k.games if g.round == 2), key=lambda g: g.number)
    assert [(g.round1, g.player1, g.player2) for g in numbered] == sorted(
        (g.round1, g.player1, g.player2) for g in numbered
    )


def test_3_5_round_2_function_has_no_twist_under_24_seeds() -> None:
    count = {p: 1 for p in range(1, 7)}
    met = {frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6))}
    assert [(a, b) for a, b, _, _ in round2_pairs(6, count, met, twist=False)][:2] == [(1, 3), (2, 4)]


def test_3_5_7_player_1_is_the_lower_personal_round() -> None:
    g = next(g for g in make(7).games if g.pair() == (7, 1))
    assert (g.round, g.round1, g.round2) == (2, 1, 2)


def test_3_5_pudari2_round_1_before_round_2() -> None:
    k = make(8, KaavioType.KO2)
    assert all(g.state == GameState.EMPTY for g in k.games if g.round == 2)
    k2 = make(8)
    assert all(g.state == GameState.READY for g in k2.games)


# -- 4.6 recorded bracket "Kaisan viikkokilpailu 10.4.2024": 19 players, Pudari3 ------------------------------

WEEKLY_RESULTS = [  # (a, b, winner) in the recorded order, from the recorded bracket
    (1, 2, 2), (3, 4, 4), (5, 6, 5), (7, 8, 7), (9, 10, 9), (11, 12, 11), (13, 14, 13), (15, 16, 16), (17, 18, 18),
    (19, 1, 1), (2, 3, 3), (4, 5, 4), (6, 7, 6), (8, 9, 8), (10, 11, 11), (12, 13, 12), (14, 15, 14), (16, 17, 17),
    (18, 19, 19), (1, 3, 3), (2, 4, 4), (5, 7, 7), (6, 8, 6), (9, 11, 11), (12, 14, 12), (13, 16, 16),
    (17, 19, 19), (18, 3, 3), (4, 6, 6), (7, 11, 7), (12, 16, 16), (19, 3, 19), (6, 16, 6), (7, 19, 19),
    (6, 19, 19),
]  # fmt: skip


def test_4_6_weekly_bracket_19_players_pudari3() -> None:
    k = make(19, KaavioType.KO3)
    assert pairs(k, 1) == [(i, i + 1) for i in range(1, 18, 2)]
    assert pairs(k, 2) == [(19, 1)] + [(i, i + 1) for i in range(2, 19, 2)]
    for a, b, w in WEEKLY_RESULTS[:19]:
        play(k, a, b, w)
    assert not k.still_in(10)
    assert not k.still_in(15)
    assert pairs(k, 3) == [(1, 3), (2, 4), (5, 7), (6, 8), (9, 11), (12, 14), (13, 16), (17, 19)]
    for a, b, w in WEEKLY_RESULTS[19:27]:
        play(k, a, b, w)
    r4 = pairs(k, 4)
    assert r4[0] == (18, 3)  # 18 is alone and takes round 4's first player
    assert r4[:3] == [(18, 3), (4, 6), (7, 11)]  # 12-16 follows once more results are in
    for a, b, w in WEEKLY_RESULTS[27:31]:
        play(k, a, b, w)
    assert pairs(k, 5)[0] == (19, 3)  # then 19 takes 19-3
    for a, b, w in WEEKLY_RESULTS[31:]:
        play(k, a, b, w)
    assert k.finished
    assert k.winner() == 19
    assert [g.pair() for g in k.games if g.player2] == [(a, b) for a, b, _ in WEEKLY_RESULTS]


def test_4_3_look_ahead_18_players() -> None:
    """13, 14, 16, 17 have 3 games; 1, 3, 8, 9 have 4; 13-14, 14-16, 14-17 played. So 13-1, 14-3, 16-17."""
    games: list[SGame] = []
    filler = iter(range(100, 200))

    def won(p: int, n: int) -> None:
        for _ in range(n):
            games.append(SGame(p, next(filler), len([g for g in games if g.has(p)]) + 1, 1, 1, True, frozenset()))

    games += [
        SGame(13, 14, 1, 1, 1, True, frozenset({14})),
        SGame(14, 16, 2, 1, 2, True, frozenset({16})),
        SGame(14, 17, 3, 1, 3, True, frozenset({17})),
    ]
    won(13, 2)
    won(16, 2)
    won(17, 2)
    for p in (1, 3, 8, 9):
        won(p, 4)
    # the filler opponents are not in the competition's list of players, so they never search
    players = [1, 3, 8, 9, 13, 14, 16, 17]
    made = []
    for _ in range(4):
        new = search(players, games, 999)
        for pair in new:
            # each new game is played at once, the searcher winning
            a, b = pair.player1, pair.player2
            games.append(SGame(a, b, pair.round1, pair.round2, pair.round, True, frozenset({b})))
            made.append((a, b))
    assert made[0] == (13, 1)
    assert made[:3] == [(13, 1), (14, 3), (16, 17)]


def test_4_4_careful_mode_7_players_lower_number_wins() -> None:
    k = make(7, KaavioType.KO3)
    order = []
    for _ in range(40):
        if k.finished:
            break
        g = next(g for g in k.games if g.state in (GameState.READY, GameState.RUNNING))
        assert g.player2 is not None
        order.append(g.pair())
        play(k, g.player1, g.player2, min(g.player1, g.player2))
    later = [p for p in order if p not in [(1, 2), (3, 4), (5, 6), (7, 1), (2, 3), (4, 5), (6, 7)]]
    assert later[:3] == [(1, 3), (2, 5), (4, 6)]  # 2-5, not 2-4, which would leave 5-6 (met in R1)
    assert later[3] == (1, 4)  # then 1-4; 2 waits
    assert later[4:] == [(2, 1)]  # final 2-1
    assert k.winner() == 1


def test_4_5_tuplakaavio_final_replayed_when_unbeaten_loses() -> None:
    k = make(4)
    for a, b, w in [(1, 2, 1), (3, 4, 3), (1, 3, 1), (2, 4, 2)]:
        play(k, a, b, w)
    # 1 unbeaten; 3 and 2 have one loss each
    while not k.finished:
        g = next(g for g in k.games if g.state in (GameState.READY, GameState.RUNNING))
        assert g.player2 is not None
        # the unbeaten player 1 loses every game from now on
        w = g.player2 if g.player1 == 1 else g.player1 if g.player2 == 1 else min(g.player1, g.player2)
        play(k, g.player1, g.player2, w)
    assert [x for x in k.numbers() if k.losses(x) < 2] == [k.winner()]
    assert all(k.losses(x) == 2 for x in k.numbers() if x != k.winner())


def test_12_6_pudari4_8_players_two_left_always_play() -> None:
    """[?] decision: two players left play the final even when their game counts are 2 or more apart."""
    # player 1 has 5 games and 1 loss, player 3 has 3 games and 0 losses, nothing unfinished; the others are out
    games = [SGame(1, 50 + i, i + 1, 1, i + 1, True, frozenset({1} if i == 0 else {50 + i})) for i in range(5)]
    games += [SGame(3, 60 + i, i + 1, 1, i + 1, True, frozenset({60 + i})) for i in range(3)]
    new = search([1, 3], games, 4)
    assert [(p.player1, p.player2) for p in new] == [(3, 1)]
    assert new[0].comment == "final"


def test_12_6_knockout_by_personal_round() -> None:
    """[?] decision: under Pudari2 a player who waited in round 1 and lost his first game (game round 2,
    personal round 1) is still in."""
    k = make(5, KaavioType.KO2)
    g = next(g for g in k.games if g.pair() == (5, 1))
    assert (g.round, g.round1, g.round2) == (2, 1, 2)
    for a, b, w in [(1, 2, 1), (3, 4, 3)]:
        play(k, a, b, w)
    play(k, 5, 1, 1)
    assert k.still_in(5)  # by game round (2) he would be out
    assert k.still_in(2)
    assert k.still_in(4)


def test_4_1_correction_deletes_later_unstarted_games_and_searches_again() -> None:
    k = make(8)
    for a, b, w in [(1, 2, 1), (3, 4, 3), (5, 6, 5), (7, 8, 7), (1, 3, 1), (2, 4, 2), (5, 7, 5), (6, 8, 6)]:
        play(k, a, b, w)
    before = [g.pair() for g in k.games if g.round >= 3]
    assert before
    g68 = next(g for g in k.games if g.pair() == (6, 8))
    k.record(g68.number, "30", "60")  # a correction: 8 won
    after = [g.pair() for g in k.games if g.round >= 3]
    assert after != before
    assert all(k.still_in(x) for p in after for x in p if x is not None)


def test_4_1_correction_locked_once_a_player_started_his_next_game() -> None:
    k = make(8)
    play(k, 1, 2, 1)
    g13 = next(g for g in k.games if g.pair() == (1, 3))
    k.start(g13.number)
    g12 = next(g for g in k.games if g.pair() == (1, 2))
    with pytest.raises(CompetitionError) as e:
        k.record(g12.number, "30", "60")
    assert e.value.code == "locked"
    # a person reads the refusal in its own words in both languages, wherever it is shown
    text = error_text(e.value)
    assert (text.fi, text.en) == (e.value.fi, e.value.en)
    assert text.fi
    assert text.fi != text.en


def test_result_sent_twice_recorded_once() -> None:
    k = make(8)
    for a, b, w in [(1, 2, 1), (3, 4, 3), (5, 6, 5), (7, 8, 7), (1, 3, 1), (2, 4, 2), (5, 7, 5)]:
        play(k, a, b, w)
    g = next(g for g in k.games if g.pair() == (6, 8))
    k.start(g.number)
    first = k.record(g.number, "60", "12")
    n = len(k.games)
    assert k.record(g.number, "60", "12") == []
    assert len(k.games) == n
    assert first


def test_4_3_pair_by_hand_records_the_reason() -> None:
    k = make(8)
    for a, b, w in [(1, 2, 1), (3, 4, 3), (5, 6, 5), (7, 8, 7), (1, 3, 1), (2, 4, 2), (5, 7, 5), (6, 8, 6)]:
        play(k, a, b, w)
    free = [x for x in k.numbers() if k.still_in(x) and not any(g.involves(x) for g in k.unfinished())]
    if len(free) >= 2:
        g = k.pair_by_hand(free[0], free[1], "pöytä vapaana")
        assert g.comment == "Haettu käsin: pöytä vapaana"
    with pytest.raises(CompetitionError) as e:
        k.pair_by_hand(1, 2, "")
    assert e.value.code == "reason_missing"


# -- 5 cup ------------------------------------------------------------------------------------------------------


def test_5_cup_order_8_and_16() -> None:
    assert cup_order(8) == [(3, 6), (2, 7), (4, 5), (1, 8)]
    assert cup_order(16) == [(6, 11), (3, 14), (7, 10), (2, 15), (5, 12), (4, 13), (8, 9), (1, 16)]


def test_5_cup_spare_places_are_walkovers_not_2_loss_players() -> None:
    """[?] decision: 2-loss players never fill spare cup places."""
    k = make(6, KaavioType.CUP)
    # round 1: 1-2, 3-4, 5-6; round 2 (twist): 2-5, 4-6, 1-3
    for a, b, w in [(1, 2, 1), (3, 4, 3), (5, 6, 5), (2, 5, 5), (4, 6, 4), (1, 3, 1)]:
        play(k, a, b, w)
    cup = [g for g in k.games if g.round >= 3]
    entrants = {x for g in cup for x in g.pair() if x is not None}
    assert 6 not in entrants
    assert 2 not in entrants
    assert entrants == {1, 3, 4, 5}
    while not k.finished:
        g = next(g for g in k.games if g.state in (GameState.READY, GameState.RUNNING))
        assert g.player2 is not None
        play(k, g.player1, g.player2, min(g.player1, g.player2))
    assert k.winner() == 1


# -- 7 reading results -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p1", "p2", "outcome"),
    [
        ("60", "12", Outcome.P1),
        ("12", "60", Outcome.P2),
        ("75", "3", Outcome.P1),  # clamped to 60
        ("30v", "40", Outcome.P1),
        ("30", "40h", Outcome.P1),
        ("30h", "40", Outcome.P2),
        ("30", "40v", Outcome.P2),
        ("1v", "2v", Outcome.INVALID),
        ("1h", "2h", Outcome.BOTH_LOST),
        ("60", "60", Outcome.INVALID),
        ("60v", "60", Outcome.P1),
        ("30", "40", Outcome.UNKNOWN),
        ("", "", Outcome.UNKNOWN),
    ],
)
def test_7_reading_a_result(p1: str, p2: str, outcome: Outcome) -> None:
    assert read_result(p1, p2) == outcome


def test_7_bad_score_text_is_a_clear_error() -> None:
    with pytest.raises(CompetitionError) as e:
        read_result("6o", "12")
    assert e.value.code == "bad_points"
    assert "0–60" in e.value.fi


# -- 8 placings, 10 ranking and prize split --------------------------------------------------------------------


def weekly_done(mode: PlacingMode) -> Kaavio:
    k = make(19, KaavioType.KO3)
    for a, b, w in WEEKLY_RESULTS:
        play(k, a, b, w)
    return k


def test_8_placings_shared_places_skip() -> None:
    pl = placings(weekly_done(PlacingMode.POINTS), PlacingMode.POINTS)
    assert pl[0].number == 19
    assert pl[0].place == 1
    places = [p.place for p in pl]
    for i in range(1, len(places)):
        if places[i] != places[i - 1]:
            assert places[i] == i + 1  # 3, 3, 5


def test_8_finalists_and_top3_by_rounds() -> None:
    k = weekly_done(PlacingMode.FINALISTS)
    pl = placings(k, PlacingMode.FINALISTS)
    assert (pl[0].number, pl[1].number, pl[1].place) == (19, 6, 2)
    top3 = placings(k, PlacingMode.TOP3_BY_ROUNDS)
    thirds = [p.number for p in top3 if p.place == 3]
    most = max(len(k.games_of(x)) for x in k.numbers() if x not in (19, 6))
    assert thirds == sorted(x for x in k.numbers() if x not in (19, 6) and len(k.games_of(x)) == most)


def test_10_ranking_points() -> None:
    k = weekly_done(PlacingMode.POINTS)
    pts = ranking_points(k, PlacingMode.POINTS)
    assert pts[19] == 1 + k.wins(19) + 15


def test_10_round_up_steps() -> None:
    assert [round_up(x) for x in (3.2, 12, 101, 251, 501)] == [4, 15, 110, 260, 550]


def test_10_prize_split() -> None:
    amounts = prize_split(200, [1, 2, 3, 4])
    assert sum(amounts) == 200
    assert len(amounts) == 3
    assert amounts[0] > amounts[1] > amounts[2] >= 1
    tied = prize_split(200, [1, 2, 3, 3, 5])
    assert len(tied) == 4
    assert tied[2] == tied[3]
    assert sum(tied) == 200


def test_a_registered_player_withdraws_before_the_draw_only() -> None:
    k = Kaavio(Settings(name="Viikkokisa"))
    for name in ("Aho", "Berg", "Cajander", "Dahl", "Eskola"):
        k.add_player(name, club="PVK")
    assert k.withdraw("  berg ").name == "Berg"
    assert [p.name for p in k.players] == ["Aho", "Cajander", "Dahl", "Eskola"]
    with pytest.raises(CompetitionError) as e:
        k.withdraw("Berg")
    assert e.value.code == "no_such_player"
    k.draw(1)
    with pytest.raises(CompetitionError) as e:
        k.withdraw("Aho")
    assert e.value.code == "already_drawn"
    assert len(k.players) == 4
