"""Property tests over random competitions (bounded): the invariants of issue 19 and KAAVIO 11."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kaisa.competition import GameState, Kaavio, KaavioType
from kaisa.competition.simulate import run


def check_added(k: Kaavio, added: list) -> None:  # type: ignore[type-arg]
    """Nobody gets a game after going out, or while an unfinished game could put him out."""
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


def rematch_was_avoidable(k: Kaavio) -> int:
    """Rematches before the final, counted (the Monte Carlo figure; asserted small below)."""
    met: Counter[frozenset[int]] = Counter()
    n = 0
    played = [g for g in k.games if g.player2 is not None]
    for g in played[:-1]:
        assert g.player2 is not None
        key = frozenset((g.player1, g.player2))
        n += met[key] > 0
        met[key] += 1
    return n


@pytest.mark.parametrize("kind", list(KaavioType))
@pytest.mark.parametrize("n", [4, 5, 6, 9, 12])
def test_small_competitions_of_every_type_end_with_one_winner(kind: KaavioType, n: int) -> None:
    k, fig = run(n, kind, seed=1000 + n, tables=3, check=check_added)
    check_end(k)
    assert fig.stalls == 0


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="known defect (issue 19, open): hypothesis finds a tuplakaavio of 33 players with corrections that "
    "stalls unfinished (kaisa.competition.simulate reaches its no-pairing branch); reproduce with "
    "@reproduce_failure('6.170.17', b'AEEhQQBBAEEFQQE=')",
)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.generate],  # no shrinking: the known failing example is named below
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
    assert rematch_was_avoidable(k) <= fig.games // 4


@pytest.mark.slow
@pytest.mark.parametrize("n", [64, 128])
def test_large_tuplakaavio_ends_with_one_winner(n: int) -> None:
    k, fig = run(n, KaavioType.DOUBLE, seed=n, tables=8, check=check_added)
    check_end(k)
    assert fig.stalls == 0
