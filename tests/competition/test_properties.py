"""Property tests over random competitions (bounded): the invariants of issue 19 and KAAVIO 11.

"No rematch while another pairing was possible" is checked exactly, by an exhaustive search written apart from
the search under test, for every game the search makes (``avoidable_rematch``):

* more than 7 players still in (fast mode, KAAVIO 4.3): a rematch is allowed only when its searcher (the one with
  fewer games, then the lower number) had no opponent, not met before and at most one game apart, with whom the
  rest of his round's waiting players could still all be paired without a rematch (one of them may wait);
* 7 or fewer still in (careful mode, 4.4, which plays the rest out by minimax): a rematch is allowed only when no
  other pair allowed by 4.4 could, whatever the results, reach the final without a rematch and without a game
  between players two or more games apart.

The cup rounds of KaksiKierrostaJaCup are a fixed bracket (KAAVIO 5) and the final always plays (4.5); neither
is a search choice.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kaisa.competition import Game, GameState, Kaavio, KaavioType, Settings
from kaisa.competition.simulate import run

CAREFUL = 7  # KAAVIO 4.4: careful mode with this many still in or fewer


def avoidable_rematch(k: Kaavio, added: list[Game]) -> list[str]:
    """Each rematch the search just made while another pairing was possible (see the module docstring)."""
    numbers = {g.number for g in added}
    games = [g for g in k.games if g.number not in numbers]
    found = []
    for g in added:
        before = Kaavio(k.settings, k.players, list(games), True)
        games.append(g)
        if g.player2 is None or (k.settings.kind == KaavioType.CUP and g.round >= 3):
            continue
        inn = [x for x in before.numbers() if before.still_in(x)]
        met: Counter[frozenset[int]] = Counter()
        for h in before.games:
            if h.player2 is not None:
                met[frozenset((h.player1, h.player2))] += 1
        if len(inn) <= 2 or not met[frozenset((g.player1, g.player2))]:
            continue
        count = {x: len(before.games_of(x)) for x in inn}
        if len(inn) > CAREFUL:
            possible = _round_pairable_without_rematch(before, g, inn, count, met)
        else:
            m = frozenset(
                frozenset((i, j)) for i in range(len(inn)) for j in range(i) if met[frozenset((inn[i], inn[j]))]
            )
            counts = tuple(count[x] for x in inn)
            losses = tuple(before.losses(x) for x in inn)
            possible = not before.unfinished() and _careful_alternative(k.ko, counts, losses, m)
        if possible:
            found.append(f"game {g.number} {g.player1}-{g.player2} is a rematch; another pairing was possible")
    return found


def _round_pairable_without_rematch(
    k: Kaavio, g: Game, inn: list[int], count: dict[int, int], met: Counter[frozenset[int]]
) -> bool:
    busy = {x for h in k.unfinished() for x in h.pair()}
    waiting = [x for x in inn if x not in busy]
    assert g.player2 is not None
    searcher = min((g.player1, g.player2), key=lambda x: (count[x], x))
    c = count[searcher]
    round_ = [x for x in waiting if count[x] == c]
    pool = round_ + [x for x in waiting if count[x] == c + 1]

    @cache
    def rest(used: frozenset[int], waited: bool) -> bool:
        s = next((x for x in round_ if x not in used), None)
        if s is None:
            return True
        u = used | {s}
        if any(y not in u and not met[frozenset((s, y))] and rest(u | {y}, waited) for y in pool):
            return True
        return not waited and rest(u, True)

    return any(
        y != searcher and not met[frozenset((searcher, y))] and rest(frozenset((searcher, y)), False) for y in pool
    )


def _careful_alternative(
    ko: int, counts: tuple[int, ...], losses: tuple[int, ...], met: frozenset[frozenset[int]]
) -> bool:
    """Exhaustive over results and pairings (players by index in number order): some pair allowed by KAAVIO 4.4
    and not a rematch guarantees a final without a rematch and without counts two or more apart."""
    return any(_free(counts, losses, met, ko, p) for p in _moves(counts) if p not in met)


def _moves(counts: tuple[int, ...]) -> list[frozenset[int]]:
    """KAAVIO 4.4: the 1st searches (or the 2nd when 6 or fewer are left), against a later player with g or g+1
    games, at most the lowest + 1."""
    order = sorted(range(len(counts)), key=lambda i: (counts[i], i))
    low = counts[order[0]]
    out = []
    for h in order[: 1 if len(counts) > 6 else 2]:
        for v in order[order.index(h) + 1 :]:
            if counts[h] <= counts[v] <= counts[h] + 1 and counts[v] <= low + 1:
                out.append(frozenset((h, v)))
    return out


@cache
def _free(
    counts: tuple[int, ...], losses: tuple[int, ...], met: frozenset[frozenset[int]], ko: int, pair: frozenset[int]
) -> bool:
    h, v = sorted(pair)
    for loser in (h, v):
        c2 = [c + (i in pair) for i, c in enumerate(counts)]
        l2 = [x + (i == loser) for i, x in enumerate(losses)]
        keep = [i for i in range(len(counts)) if i != loser or (l2[i] <= 1 and c2[i] < ko)]
        index = {x: i for i, x in enumerate(keep)}
        cs, ls = tuple(c2[i] for i in keep), tuple(l2[i] for i in keep)
        m2 = frozenset(frozenset(index[y] for y in p) for p in met | {pair} if all(y in index for y in p))
        if len(keep) == 2:
            if abs(cs[0] - cs[1]) > 1:
                return False
        elif len(keep) > 2 and not any(_free(cs, ls, m2, ko, p) for p in _moves(cs) if p not in m2):
            return False
    return True


def check_added(k: Kaavio, added: list[Game]) -> None:
    """Nobody gets a game after going out, or while an unfinished game could put him out; no avoidable rematch."""
    assert not avoidable_rematch(k, added), avoidable_rematch(k, added)
    for g in added:
        for x in g.pair():
            if x is None:
                continue
            assert k.still_in(x), f"game {g.number}: {x} is out"
            others = [
                h for h in k.unfinished() if h.involves(x) and h.player2 and h.personal_round(x) < g.personal_round(x)
            ]
            for h in others:
                could_lose_out = k.losses(x) + 1 >= 2 or h.personal_round(x) >= k.ko
                assert not could_lose_out or k.settings.kind == KaavioType.CUP, (
                    f"game {g.number}: {x} could go out in game {h.number}"
                )


def check_end(k: Kaavio) -> None:
    assert k.finished
    alive = [x for x in k.numbers() if k.still_in(x)]
    assert len(alive) == 1  # exactly one winner
    if k.settings.kind == KaavioType.DOUBLE:
        assert all(k.losses(x) == 2 for x in k.numbers() if x != alive[0])
    for x in k.numbers():
        rounds = sorted(g.personal_round(x) for g in k.games if g.involves(x))
        assert rounds == list(range(1, len(rounds) + 1)), f"player {x}: personal rounds {rounds}"
    for g in k.games:
        assert g.state == GameState.PLAYED
        if g.player2 is not None:
            assert g.round == max(g.round1, g.round2)


@pytest.mark.parametrize("kind", list(KaavioType))
@pytest.mark.parametrize("n", [4, 5, 6, 9, 12])
def test_small_competitions_of_every_type_end_with_one_winner(kind: KaavioType, n: int) -> None:
    k, fig = run(n, kind, seed=1000 + n, tables=3, check=check_added)
    check_end(k)
    assert fig.stalls == 0


def _rematches_by_hand(n: int, seeds: range) -> list[str]:
    """Rounds 1-2 played (random winners, no search run), then each rematch of two players still in made by
    hand; what the check says of each."""
    found = []
    for seed in seeds:
        k = Kaavio(Settings(name="uusinta", tables=("1",)))
        for i in range(n):
            k.add_player(f"Pelaaja {i + 1}")
        k.draw(seed)
        rng = random.Random(seed)
        k.games = [
            g.with_(points1=p1, points2=p2, state=GameState.PLAYED)
            for g in k.games
            for p1, p2 in [rng.choice([("60", "10"), ("10", "60")])]
        ]
        still_in = [x for x in k.numbers() if k.still_in(x)]
        assert (len(still_in) > CAREFUL) == (n > CAREFUL)
        for g in k.games:
            if g.player1 in still_in and g.player2 in still_in:
                trial = Kaavio.from_json(k.to_json())
                h = trial.pair_by_hand(g.player1, g.player2, "testi")
                found += avoidable_rematch(trial, [h])
                assert not avoidable_rematch(trial, [])
    return found


def test_the_rematch_check_finds_an_avoidable_rematch() -> None:
    """The exact check can fail: rematches paired by hand while rematch-free pairings were open are reported in
    fast mode (16 players); the careful-mode search tells a state with a rematch-free way to the final from one
    without."""
    assert _rematches_by_hand(16, range(3))
    # careful mode, three left with 2 games each: 0 and 1 have met, 2 has met neither. 0-2 guarantees a final
    # without a rematch (either 0 goes out, or 1 takes 2 next and any two left play the final)
    never = KaavioType.DOUBLE.first_ko_round
    assert _careful_alternative(never, (2, 2, 2), (1, 1, 0), frozenset({frozenset((0, 1))}))
    # everyone has met: no alternative
    every = frozenset(frozenset(p) for p in ((0, 1), (0, 2), (1, 2)))
    assert not _careful_alternative(never, (2, 2, 2), (1, 1, 0), every)
    # out after one loss from round 3: whoever loses 0-2 is out, and the last two always play
    assert _careful_alternative(KaavioType.KO3.first_ko_round, (2, 2, 2), (1, 1, 0), every - {frozenset((0, 2))})


@pytest.mark.slow
@settings(
    max_examples=16,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(
    n=st.integers(4, 40),
    kind=st.sampled_from(list(KaavioType)),
    seed=st.integers(0, 10**6),
    tables=st.integers(1, 6),
    correction=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_random_competitions_keep_the_invariants(
    n: int, kind: KaavioType, seed: int, tables: int, correction: float
) -> None:
    k, fig = run(n, kind, seed, tables=tables, correction_rate=correction, check=check_added)
    check_end(k)
    assert fig.stalls == 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KaavioType))
def test_random_competitions_of_every_type_have_no_avoidable_rematch(kind: KaavioType) -> None:
    for seed in range(3):
        n = 8 + 11 * seed
        k, fig = run(n, kind, seed, tables=1 + seed * 2, correction_rate=0.1, check=check_added)
        check_end(k)
        assert fig.stalls == 0


@pytest.mark.slow
@pytest.mark.parametrize("n", [64, 128])
def test_large_tuplakaavio_ends_with_one_winner(n: int) -> None:
    k, fig = run(n, KaavioType.DOUBLE, seed=n, tables=8, check=check_added)
    check_end(k)
    assert fig.stalls == 0
