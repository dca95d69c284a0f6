"""Two rounds, then a cup (KaksiKierrostaJaCup, KAAVIO 5).

After round 2 everyone with at most 1 loss is ranked by wins·100000 + points, a fixed random number per player
in [0.01, 0.91) (from the draw seed) breaking ties; the cup has the smallest power of 2 places that holds them,
in the bracket order built from (2, 1) by doubling. An empty place is a walkover.

[?] KAAVIO 5: KaisaKaavio lets 2-loss players fill spare places (its own check calls that a bug). Here they
never do: a spare place is a walkover. A place is filled only once round 2 is complete, so the ranking behind
it is final.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kaisa.competition.model import Game, GameState

if TYPE_CHECKING:
    from kaisa.competition.kaavio import Kaavio

_PENDING = -1


def cup_order(size: int) -> list[tuple[int, int]]:
    """The first cup round's pairs of ranking numbers for a cup of ``size`` (a power of 2)."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"cup size must be a power of 2, not {size}")
    top = [1]
    m = 1
    while 2 * m < size:
        top = [y for x in top for y in (2 * m + 1 - x, x)]
        m *= 2
    return [(x, size + 1 - x) for x in top]


def cup_label(round_: int, index: int) -> str:
    """A cup game's name: round letter (A = round 3) and its number in the round, e.g. B1."""
    return f"{chr(ord('A') + round_ - 3)}{index}"


def tiebreak(seed: int, number: int) -> float:
    """The fixed random number in [0.01, 0.91) of a player, from the draw seed."""
    return 0.01 + 0.9 * random.Random(seed * 1_000_003 + number).random()


def cup_ranking(k: Kaavio) -> list[int]:
    """Players with at most 1 loss after round 2, best first, from the games of rounds 1-2 only (so the
    ranking, and the places filled from it, stay fixed while the cup is played)."""
    first = type(k)(k.settings, k.players, [g for g in k.games if g.round <= 2], k.drawn, k.draw_seed)
    alive = [p.number for p in k.players if first.losses(p.number) <= 1]
    return sorted(
        alive,
        key=lambda n: -(first.wins(n) * 100000 + first.points_total(n) + tiebreak(k.draw_seed, n)),
    )


def advance_cup(k: Kaavio) -> list[Game]:
    """Add the cup games that can be made now; the games added."""
    if any(g.round <= 2 and g.state != GameState.PLAYED for g in k.games):
        return []
    ranked = cup_ranking(k)
    size = 2
    while size < len(ranked):
        size *= 2
    slots: list[int | None] = []
    for a, b in cup_order(size):
        slots.append(ranked[a - 1] if a <= len(ranked) else None)
        slots.append(ranked[b - 1] if b <= len(ranked) else None)
    added: list[Game] = []
    round_ = 3
    while len(slots) > 1:
        nxt: list[int | None] = []
        for i in range(0, len(slots), 2):
            x, y = slots[i], slots[i + 1]
            if x == _PENDING or y == _PENDING:
                nxt.append(_PENDING)
            elif x is None and y is None:
                nxt.append(None)
            elif x is None or y is None:
                w = x if y is None else y
                assert w is not None
                if not any(g.round == round_ and g.player1 == w and g.player2 is None for g in k.games):
                    r = len(k.games_of(w)) + 1
                    g = Game(len(k.games) + 1, round_, r, 0, w, None, "60", "0", GameState.PLAYED, comment="w.o.")
                    k.games.append(g)
                    added.append(g)
                nxt.append(w)
            else:
                game = next((g for g in k.games if g.round >= 3 and g.involves(x) and g.involves(y)), None)
                if game is None:
                    rx, ry = len(k.games_of(x)) + 1, len(k.games_of(y)) + 1
                    game = Game(len(k.games) + 1, max(round_, rx, ry), rx, ry, x, y)
                    k.games.append(game)
                    added.append(game)
                if k.decided(game):
                    nxt.append(x if game.won(x, k.target) else y)
                else:
                    nxt.append(_PENDING)
        slots = nxt
        round_ += 1
    return added
