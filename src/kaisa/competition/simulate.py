"""Random competitions run through the kaavio as a night would: for tests, the Monte Carlo figures and the bench.

Games are started on ``tables`` tables in list order (or, with ``random_start``, a ready game at random each
time a table frees up, as a club calls them), finished in random order with a random
winner (weighted by skill), and sometimes corrected right after they are recorded (KAAVIO 11).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import CompetitionError, Game, KaavioType, Seeding, Settings


@dataclass
class Figures:
    """What a run counted (KAAVIO 11 Monte Carlo): rematches before the final, pairs over a round apart."""

    games: int = 0
    rematches_before_final: int = 0
    pairs_over_round_apart: int = 0
    corrections: int = 0
    stalls: int = 0
    violations: list[str] = field(default_factory=list)


def random_score(rng: random.Random, target: int) -> tuple[str, str]:
    loser = rng.randrange(0, target)
    return str(target), str(loser)


def run(
    n: int,
    kind: KaavioType,
    seed: int,
    tables: int = 4,
    correction_rate: float = 0.05,
    seeding: Seeding = Seeding.NONE,
    check: Callable[[Kaavio, list[Game]], None] | None = None,
    max_steps: int = 2000,
    random_start: bool = False,
) -> tuple[Kaavio, Figures]:
    """Run one random competition to its end; ``check`` is called after each result with the games added."""
    rng = random.Random(seed)
    settings = Settings(
        name=f"satunnainen {n}", kind=kind, seeding=seeding, tables=tuple(str(t + 1) for t in range(tables))
    )
    k = Kaavio(settings)
    skill = {}
    for i in range(n):
        s = (
            (i % 24) + 1
            if seeding == Seeding.TWENTY_FOUR and i < 24
            else (i + 1 if seeding == Seeding.EIGHT and i < 8 else 0)
        )
        k.add_player(f"Pelaaja {i + 1}", seed=s)
    k.draw(seed)
    for p in k.players:
        skill[p.number] = rng.random()
    fig = Figures()
    for _ in range(max_steps):
        if k.finished:
            break
        while k.ready() and len(k.running()) < tables:
            ready = k.ready()
            k.start((rng.choice(ready) if random_start else ready[0]).number)
        running = k.running()
        if not running:
            fig.stalls += 1
            break
        g = rng.choice(running)
        assert g.player2 is not None
        s1, s2 = skill[g.player1], skill[g.player2]
        p1_wins = rng.random() < s1 / (s1 + s2 + 1e-9) if s1 + s2 > 0 else rng.random() < 0.5
        a, b = random_score(rng, k.target)
        pts = (a, b) if p1_wins else (b, a)
        added = k.record(g.number, *pts)
        if check is not None:
            check(k, added)
        if rng.random() < correction_rate:
            try:
                added = k.record(g.number, pts[1], pts[0])
                fig.corrections += 1
                if check is not None:
                    check(k, added)
            except CompetitionError:
                pass
    met: Counter[frozenset[int]] = Counter()
    played = [g for g in k.games if g.player2 is not None]
    fig.games = len(played)
    for i, g in enumerate(played):
        assert g.player2 is not None
        key = frozenset((g.player1, g.player2))
        if met[key] and i < len(played) - 1:
            fig.rematches_before_final += 1
        met[key] += 1
        if abs(g.round1 - g.round2) > 1:
            fig.pairs_over_round_apart += 1
    if not k.finished:
        fig.stalls = max(fig.stalls, 1)
    return k, fig
