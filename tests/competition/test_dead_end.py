"""The fast-mode dead end (KAAVIO 4.3, 12.5): the 33-player tuplakaavio that stalled (issue 19).

Hypothesis found it (``@reproduce_failure('6.170.17', b'AEEhQQBBAEEFQQE=')``: 33 players, tuplakaavio, seed 0,
5 tables, corrections at rate 0.1). After game 52 everyone still in has 4 games except 26, 29, 30 and 31 with 3,
and 29, 30 and 31 have all met each other. Rule c) ("the last two searchers of the round have not met") then
rejects every candidate of searcher 26: whoever he takes, two of 29, 30 and 31 are left, and they have met, even
though each of them could play someone a round ahead. KaisaKaavio makes no game there and the night stalls.
"""

from __future__ import annotations

from kaisa.competition import Game, GameState, Kaavio, KaavioType, Player, Settings
from kaisa.competition import search as search_mod
from kaisa.competition.simulate import run

#: Games 1-52 of the stalled competition: player1-player2:winner, in game order.
STALLED = (
    "1-2:2 3-4:4 5-6:6 7-8:7 9-10:10 11-12:12 13-14:13 15-16:16 17-18:18 19-20:20 21-22:22 23-24:23 25-26:25 "
    "27-28:28 29-30:30 31-32:31 33-1:1 2-3:2 4-5:4 6-7:7 8-9:9 10-11:11 12-13:13 14-15:15 16-17:17 18-19:18 "
    "20-21:20 22-23:22 24-25:24 26-27:26 28-29:29 30-31:31 32-33:33 1-4:1 2-6:2 7-9:7 10-12:10 11-13:11 15-17:17 "
    "16-18:16 20-22:22 23-25:25 24-26:26 28-30:30 29-31:29 33-2:2 1-7:7 4-10:10 11-16:11 13-17:13 18-20:18 22-25:25"
)


def stalled_kaavio() -> Kaavio:
    count = dict.fromkeys(range(1, 34), 0)
    games = []
    for i, item in enumerate(STALLED.split()):
        pair, winner = item.split(":")
        a, b = (int(x) for x in pair.split("-"))
        count[a] += 1
        count[b] += 1
        w = int(winner)
        games.append(
            Game(
                i + 1,
                max(count[a], count[b]),
                count[a],
                count[b],
                a,
                b,
                "60" if w == a else "30",
                "60" if w == b else "30",
                GameState.PLAYED,
            )
        )
    players = [Player(n, f"Pelaaja {n}") for n in range(1, 34)]
    return Kaavio(Settings(name="umpikuja", kind=KaavioType.DOUBLE, tables=("1", "2")), players, games, True)


def test_4_3_the_stalled_state_is_a_dead_end_under_kaisakaavios_rule_c() -> None:
    k = stalled_kaavio()
    still_in = [x for x in k.numbers() if k.still_in(x)]
    assert {x: len(k.games_of(x)) for x in still_in if len(k.games_of(x)) == 3} == {26: 3, 29: 3, 30: 3, 31: 3}
    s = search_mod._Scenario(k.numbers(), k.search_games(), k.ko, has_unfinished=False)
    searchers = [26, 29, 30, 31]
    cands = sorted((x for x in still_in if x != 26), key=lambda x: (len(k.games_of(x)), x))
    assert not any(
        s.check(4, search_mod._NO_EXTRA, searchers, cands, 26, c) for c in cands
    )  # KaisaKaavio: no game at all


def test_4_3_dead_end_the_search_pairs_the_tail_across_rounds_without_a_rematch() -> None:
    k = stalled_kaavio()
    added = [(g.player1, g.player2, g.round1, g.round2) for g in k.run_search()]
    # 26 takes 29; the two left who met (30 and 31) each take a player a round ahead
    assert added[:3] == [(26, 29, 4, 4), (30, 2, 4, 5), (31, 7, 4, 5)]
    met = {frozenset(g.pair()) for g in k.games[:52]}
    assert not any(frozenset(g.pair()) in met for g in k.games[52:])


def test_the_33_player_tuplakaavio_with_corrections_runs_to_one_winner() -> None:
    k, fig = run(33, KaavioType.DOUBLE, 0, tables=5, correction_rate=0.1)
    assert fig.stalls == 0
    assert fig.corrections > 0
    assert k.finished
    assert [x for x in k.numbers() if k.still_in(x)] == [k.winner()]
