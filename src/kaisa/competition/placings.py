"""Placings (KAAVIO 8), the ranking series and the prize split (KAAVIO 10)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import GameState, KaavioType, PlacingMode, PrizeSettings, Share

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


@dataclass(frozen=True)
class RankingOptions:
    """KAAVIO 10's ranking options on top of the Kaisa default, chosen per series (0 = off).

    ``beat_first``/``beat_second``/``beat_third``: extra points for a win over the player ranked 1st, 2nd or 3rd in
    the series before this competition (its earlier competitions by date; shared ranks count; the series' first
    competition has no ranked players). ``ko2_round1_win``: extra points for winning one's round-1 game in a
    Pudari2 bracket (where round 2 already knocks out); a seed's walkover is not a game won."""

    beat_first: int = 0
    beat_second: int = 0
    beat_third: int = 0
    ko2_round1_win: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "beat_first": self.beat_first,
            "beat_second": self.beat_second,
            "beat_third": self.beat_third,
            "ko2_round1_win": self.ko2_round1_win,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> RankingOptions:
        return RankingOptions(
            int(d.get("beat_first", 0)),
            int(d.get("beat_second", 0)),
            int(d.get("beat_third", 0)),
            int(d.get("ko2_round1_win", 0)),
        )


def ranking_points(
    k: Kaavio,
    mode: PlacingMode | None = None,
    options: RankingOptions = RankingOptions(),
    ranks: Mapping[str, int] | None = None,
) -> dict[int, int]:
    """One competition's ranking points: +1 for taking part, +1 per win (walkovers included), places 1-10, and
    the ``options`` bonuses; ``ranks`` is the series rank of each player name before this competition."""
    ranks = ranks or {}
    bonus_for_rank = {1: options.beat_first, 2: options.beat_second, 3: options.beat_third}
    out = {}
    for pl in placings(k, mode):
        n = pl.number
        pts = 1 + pl.wins + (PLACE_POINTS[pl.place - 1] if pl.place <= len(PLACE_POINTS) else 0)
        for g in k.games:
            if not (k.decided(g) and g.won(n, k.target)):
                continue
            other = g.opponent(n)
            if other is None:
                continue
            pts += bonus_for_rank.get(ranks.get(k.player(other).name, 0), 0)
            if k.settings.kind == KaavioType.KO2 and g.personal_round(n) == 1:
                pts += options.ko2_round1_win
        out[n] = pts
    return out


def _ranked(totals: Mapping[str, int]) -> list[tuple[int, str, int]]:
    """Totals in order, equal totals sharing a rank: (rank, name, total)."""
    order = sorted(totals.items(), key=lambda t: (-t[1], t[0]))
    out = []
    rank = 0
    prev = None
    for i, (name, total) in enumerate(order):
        if total != prev:
            rank, prev = i + 1, total
        out.append((rank, name, total))
    return out


def ranking_series(
    competitions: Sequence[Kaavio], options: RankingOptions = RankingOptions()
) -> list[tuple[int, str, int]]:
    """A series: totals summed per player name; equal totals share a rank. (rank, name, total).

    The competitions count in date order (a stable sort: equal dates keep the given order), so a bonus for
    beating a ranked player uses the ranking as it stood when the game was played."""
    totals: dict[str, int] = {}
    for k in sorted(competitions, key=lambda c: c.settings.date):
        ranks = {name: rank for rank, name, _ in _ranked(totals)}
        for n, pts in ranking_points(k, options=options, ranks=ranks).items():
            name = k.player(n).name
            totals[name] = totals.get(name, 0) + pts
    return _ranked(totals)


def round_up(amount: float) -> int:
    """KAAVIO 10: up to 1 under 10 €, 5 under 100, 10 under 250, 20 under 500, else 50."""
    if amount < 0:
        return 0
    step = 1 if amount < 10 else 5 if amount < 100 else 10 if amount < 250 else 20 if amount < 500 else 50
    i = math.ceil(amount - 1e-9)
    return -(-i // step) * step


def share_of(share: Share, money: int) -> int:
    """A share of ``money``: a fixed sum, or a percentage rounded up as the prizes are (:func:`round_up`, as
    KaisaKaavio does); never more than ``money``."""
    if share.amount <= 0 or money <= 0:
        return 0
    cut = round_up(money * share.amount / 100) if share.percent else share.amount
    return min(money, cut)


@dataclass(frozen=True)
class PrizeSplit:
    """The money of one competition (KAAVIO 10): the fees, the shares taken off, the pot, each paid place."""

    entry_fees: int
    sbil: int
    club: int
    pot: int
    rows: tuple[tuple[Placing, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "entry_fees": self.entry_fees,
            "sbil": self.sbil,
            "club": self.club,
            "pot": self.pot,
            "rows": [{"place": p.place, "name": p.name, "amount": a} for p, a in self.rows],
        }


def pot(entry_fees: int, prizes: PrizeSettings | None = None) -> tuple[int, int, int]:
    """The SBiL share (taken first), the club's share (of what is left) and the pot that is split."""
    prizes = prizes or PrizeSettings()
    sbil = share_of(prizes.sbil, entry_fees)
    club = share_of(prizes.club, entry_fees - sbil)
    return sbil, club, entry_fees - sbil - club


def prizes(k: Kaavio, mode: PlacingMode | None = None, settings: PrizeSettings | None = None) -> PrizeSplit:
    """The prize split of an ended competition: its entry fee times the players, by its placings."""
    settings = settings or k.settings.prizes
    fees = k.settings.entry_fee * len(k.players)
    sbil, club, money = pot(fees, settings)
    places = placings(k, mode)
    amounts = prize_split(money, [p.place for p in places], settings.paid_places, settings.winner_weight / 100)
    return PrizeSplit(fees, sbil, club, money, tuple(zip(places, amounts, strict=False)))


def prize_split(money: int, places: Sequence[int], paid: int = 3, winner_weight: float = 0.5) -> list[int]:
    """Rahanjako (KAAVIO 10): amounts for the first places of ``places`` (sorted place numbers).

    Paid places: ``paid``, extended to everyone tied on the last one. Weights w_i = v·d² + (1-v)·d^0.1 with
    d = 1 - i/n, normalised, tied places averaged; each amount rounded up (tied places to 1 €); an excess comes
    off the last place(s), a shortfall goes to the winner; every paid place gets at least 1 €.
    """
    if money <= 0 or not places or paid <= 0:
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
