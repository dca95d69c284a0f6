"""Placings (KAAVIO 8), the ranking series and the prize split (KAAVIO 10)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import GameState, PlacingMode

#: Ranking points for places 1-10 (KAAVIO 10); a shared place gets the full amount.
PLACE_POINTS = (15, 12, 10, 8, 7, 6, 5, 4, 3, 2)


@dataclass(frozen=True)
class Placing:
    place: int
    number: int
    name: str
    wins: int
    points: int
    games: int


def placings(k: Kaavio, mode: PlacingMode | None = None) -> list[Placing]:
    """Everyone's place once the competition has ended (KAAVIO 8). Equal values share a place (3, 3, 5)."""
    mode = mode or k.settings.placing
    winner = k.winner()
    value: dict[int, float] = {}
    for p in k.players:
        n = p.number
        played = sum(1 for g in k.games_of(n) if g.state == GameState.PLAYED)
        if mode == PlacingMode.CUP:
            value[n] = -1.0 if k.wins(n) == 0 else float(played)
        else:
            value[n] = k.wins(n) * 100000 + k.points_total(n)
    tier: dict[int, int] = {n: 3 for n in value}
    if winner is not None:
        tier[winner] = 0
    finals = [g for g in k.games if g.player2 is not None and g.state == GameState.PLAYED]
    if mode in (PlacingMode.FINALISTS, PlacingMode.TOP3_BY_ROUNDS) and finals and winner is not None:
        last = finals[-1]
        other = last.opponent(winner) if last.involves(winner) else None
        if other is not None:
            tier[other] = 1
        if mode == PlacingMode.TOP3_BY_ROUNDS:
            rest = [n for n in value if tier[n] == 3]
            if rest:
                most = max(len(k.games_of(n)) for n in rest)
                for n in rest:
                    if len(k.games_of(n)) == most:
                        tier[n] = 2
    order = sorted(value, key=lambda n: (tier[n], -value[n] if tier[n] == 3 else 0, n))
    out: list[Placing] = []
    place = 0
    prev: tuple[int, float] | None = None
    for i, n in enumerate(order):
        key = (tier[n], value[n] if tier[n] == 3 else 0.0)
        if key != prev:
            place = i + 1
            prev = key
        p = k.player(n)
        out.append(Placing(place, n, p.name, k.wins(n), k.points_total(n), len(k.games_of(n))))
    return out


def ranking_points(k: Kaavio, mode: PlacingMode | None = None) -> dict[int, int]:
    """Kaisa default ranking points of one competition: +1 for taking part, +1 per win, places 1-10."""
    out = {}
    for pl in placings(k, mode):
        out[pl.number] = 1 + pl.wins + (PLACE_POINTS[pl.place - 1] if pl.place <= len(PLACE_POINTS) else 0)
    return out


def ranking_series(competitions: Sequence[Kaavio]) -> list[tuple[int, str, int]]:
    """A series: totals summed per player name; equal totals share a rank. (rank, name, total)."""
    totals: dict[str, int] = {}
    for k in competitions:
        for n, pts in ranking_points(k).items():
            name = k.player(n).name
            totals[name] = totals.get(name, 0) + pts
    order = sorted(totals.items(), key=lambda t: (-t[1], t[0]))
    out = []
    rank = 0
    prev = None
    for i, (name, total) in enumerate(order):
        if total != prev:
            rank, prev = i + 1, total
        out.append((rank, name, total))
    return out


def round_up(amount: float) -> int:
    """KAAVIO 10: up to 1 under 10 €, 5 under 100, 10 under 250, 20 under 500, else 50."""
    if amount < 0:
        return 0
    step = 1 if amount < 10 else 5 if amount < 100 else 10 if amount < 250 else 20 if amount < 500 else 50
    i = math.ceil(amount - 1e-9)
    return -(-i // step) * step


def pot(entry_fees: int, sbil_share: float = 0, club_share: float = 0, percent: bool = False) -> int:
    """The money to split: entry fees minus the SBiL and club shares (fixed, or a percentage rounded up)."""
    left = float(entry_fees)
    for share in (club_share, sbil_share):
        cut = math.ceil(left * share / 100) if percent else share
        left = max(0.0, left - min(left, cut))
    return int(left)


def prize_split(money: int, places: Sequence[int], paid: int = 3, winner_weight: float = 0.5) -> list[int]:
    """Rahanjako (KAAVIO 10): amounts for the first places of ``places`` (sorted place numbers).

    Paid places: ``paid``, extended to everyone tied on the last one. Weights w_i = v·d² + (1-v)·d^0.1 with
    d = 1 - i/n, normalised, tied places averaged; each amount rounded up (tied places to 1 €); an excess comes
    off the last place(s), a shortfall goes to the winner; every paid place gets at least 1 €.
    """
    if money <= 0 or not places:
        return []
    n = min(paid, len(places))
    last_place = places[n - 1]
    tied_last = 1
    while n < len(places) and places[n] == last_place:
        n += 1
        tied_last += 1
    tied_last = sum(1 for p in places[:n] if p == last_place)
    w = []
    for i in range(n):
        d = 1 - i / n
        w.append(winner_weight * d**2 + (1 - winner_weight) * d**0.1)
    total = sum(w)
    w = [x / total for x in w]
    by_place: dict[int, list[float]] = {}
    for i in range(n):
        by_place.setdefault(places[i], []).append(w[i])
    amounts: list[float] = []
    for i in range(n):
        share = sum(by_place[places[i]]) / len(by_place[places[i]])
        if len(by_place[places[i]]) > 1:
            amounts.append(math.ceil(share * money - 1e-9))
        else:
            amounts.append(round_up(share * money))
    s = sum(amounts)
    if s > money:
        excess = s - money
        if tied_last > 1:
            each = excess // tied_last
            for i in range(tied_last):
                amounts[n - 1 - i] -= each
                excess -= each
        amounts[n - 1] -= excess
    elif s < money:
        amounts[0] += money - s
    for i in range(n - 2, -1, -1):
        if amounts[i + 1] < 1:
            gap = 1 - amounts[i + 1]
            amounts[i + 1] += gap
            amounts[i] -= gap
    return [int(a) for a in amounts]
