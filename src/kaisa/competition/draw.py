"""The draw (arvonta, KAAVIO 3): draw numbers, seeded places and the fixed games of rounds 1 and 2.

[?] KAAVIO 3.3 "if taken, the nearest free one": when two free numbers are equally near, the lower is taken.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from kaisa.competition.model import CompetitionError

#: The 24-seed slot list (KAAVIO 3.3): seed s goes to the place of s in this list.
SLOTS_24 = (16, 1, 24, 9, 17, 8, 20, 4, 13, 12, 21, 5, 15, 2, 23, 10, 18, 7, 14, 3, 22, 11, 19, 6)


def seed_numbers_8(n: int) -> list[int]:
    """Draw numbers of seeds 1..8 for n players (KAAVIO 3.2; Python's round() sends halves to even)."""
    s1 = n - 1
    s2 = n // 2
    s3 = s2 // 2
    s6 = s3 // 2
    s4 = round((s1 + s2) / 2)
    s5 = round((s4 + s2) / 2)
    s7 = round((s2 + s3) / 2)
    s8 = math.ceil((s1 + s4) / 2)
    return [s1, s2, s3, s4, s5, s6, s7, s8]


def seed_numbers_24(n: int) -> list[int]:
    """Draw numbers of seeds 1..24 for n >= 24 players (KAAVIO 3.3)."""
    if n < 24:
        raise CompetitionError(
            "too_few_for_24_seeds",
            f"24 sijoitettua vaatii vähintään 24 pelaajaa; ilmoittautuneita on {n}.",
            f"24 seeds need at least 24 players; {n} are registered.",
        )
    taken: set[int] = set()
    out = []
    for s in range(1, 25):
        p = SLOTS_24.index(s)
        want = 1 + math.floor(p / 23 * (n - 2))
        for d in range(n + 1):
            cands = [want - d, want + d] if d else [want]
            free = [c for c in cands if 1 <= c <= n and c not in taken]
            if free:
                want = free[0]
                break
        taken.add(want)
        out.append(want)
    return out


def draw_numbers(count: int, seeds: Sequence[int], rng: random.Random, places: Sequence[int] = ()) -> list[int]:
    """Draw numbers for ``count`` players in registration order.

    ``seeds[i]`` is player i's seed (0 = unseeded); ``places`` the seeds' fixed numbers (seed s -> places[s-1]).
    Unseeded players fill the free numbers at random.
    """
    numbers = [0] * count
    taken = set()
    for i, s in enumerate(seeds):
        if s and s <= len(places):
            numbers[i] = places[s - 1]
            taken.add(places[s - 1])
    free = [k for k in range(1, count + 1) if k not in taken]
    rng.shuffle(free)
    it = iter(free)
    for i in range(count):
        if not numbers[i]:
            numbers[i] = next(it)
    return numbers


def round1_pairs(numbers: Sequence[int], busy: set[int]) -> list[tuple[int, int]]:
    """Round 1: the lowest number without a game plays the next lowest; with an odd count the last waits.

    ``busy``: players who already have their first game (a seed's walkover).
    """
    free = sorted(n for n in numbers if n not in busy)
    return [(free[i], free[i + 1]) for i in range(0, len(free) - 1, 2)]


def round2_pairs(
    n: int, games: dict[int, int], met: set[frozenset[int]], twist: bool
) -> list[tuple[int, int, int, int]]:
    """Round 2 (KAAVIO 3.5), fixed at the draw: (player1, player2, personal round 1, personal round 2).

    ``games`` counts each player's games so far (round 1 and walkovers); ``met`` the pairs already drawn.
    Player 1 is the one with the lower personal round; if equal, the lower number.
    """
    games = dict(games)
    met = set(met)
    out: list[tuple[int, int, int, int]] = []

    def add(a: int, b: int) -> None:
        ra, rb = games[a] + 1, games[b] + 1
        if (rb, b) < (ra, a):
            a, b, ra, rb = b, a, rb, ra
        out.append((a, b, ra, rb))
        games[a] += 1
        games[b] += 1
        met.add(frozenset((a, b)))

    if twist and n % 4 == 2 and n >= 6:
        add(n - 4, n - 1)
        add(n - 2, n)
    skipped: set[int] = set()
    while True:
        order = sorted((p for p in games if games[p] < 2 and p not in skipped), key=lambda p: (games[p], p))
        if len(order) < 2:
            break
        first = order[0]
        partner = next((q for q in order[1:] if frozenset((first, q)) not in met), None)
        if partner is None:
            skipped.add(first)
            continue
        add(first, partner)
    return out
