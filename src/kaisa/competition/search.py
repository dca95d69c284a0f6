"""The search for later rounds (haku, KAAVIO 4): which new games can be added now.

One call is one of KaisaKaavio's searches (:func:`search_once`); whether it runs again is the caller's
(``Found.again`` is KaisaKaavio's reason to).

The search tries every outcome of the unfinished games (at most 8 of them, 2^k scenarios), searches each as if
all games were played, and keeps the pairs that come out in every scenario (4.1). Within a scenario, fast mode
(more than 7 players still in) takes the first candidate that passes the rematch, round and look-ahead checks
(4.3); careful mode (7 or fewer) scores each pair by playing the rest out to the end, minimax (4.4).

Decisions on the [?] points of KAAVIO.md, each tested in tests/competition/:

* Knockout status is taken from the *personal* round everywhere (KAAVIO 12.3 and 12.6, second stall): a loss
  puts a player out when his own n-th game is at or after the first KO round.
* "Both lost" counts one loss to each player, everywhere (12.4).
* Fast-mode dead end (4.3, 12.5): where KaisaKaavio makes no game, the search goes on (:meth:`_Scenario.dead_end`).
* Two players left always play (4.5, 12.6 first stall): when exactly two are still in, no game of theirs is
  unfinished and the search found nothing (their game counts are 2 or more apart), the final is made anyway.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Most unfinished games for which the search runs (Asetukset.PelejaEnintaanKeskenHaettaessa).
MAX_UNFINISHED = 8
#: Careful mode from this many players still in and below (HuolellisenHaunPelaajamaara).
CAREFUL_PLAYERS = 7
#: [?] Most look-ahead positions per searcher in fast mode. KaisaKaavio's look-ahead has no bound and is
#: exponential when the rest of a round cannot be paired; past this many positions the candidate that passed
#: checks a)-c) is taken. The 12 replayable recorded brackets never reach it.
LOOK_AHEAD_BUDGET = 400
CAP = 1023  # game counts 2 or more apart: the cap, and a fail
REMATCH = 100
THIRD_MEETING = 500
ACROSS_ROUNDS = 20
SKIP_SEARCHER = 1


@dataclass(frozen=True)
class SGame:
    """A game as the search sees it. ``loser`` holds who lost (both for "both lost"); ``played`` is False for
    games the search itself added in this scenario."""

    p1: int
    p2: int | None
    r1: int
    r2: int
    round: int
    played: bool
    losers: frozenset[int] = frozenset()

    def has(self, p: int) -> bool:
        return self.p1 == p or self.p2 == p

    def personal(self, p: int) -> int:
        return self.r1 if self.p1 == p else self.r2


@dataclass(frozen=True)
class Pair:
    """A pair the search made: ``player1`` searched, personal rounds and game round as they will be."""

    player1: int
    player2: int
    round1: int
    round2: int
    round: int
    comment: str = ""


class _Extra:
    """The pairs the look-ahead has fixed above the current position (4.3 d), with what it asks of them kept
    at hand: each player's count of them up to a round, and the first meeting of each pair."""

    __slots__ = ("_counts", "_parent", "first", "games")

    def __init__(
        self,
        games: tuple[SGame, ...] = (),
        first: dict[frozenset[int], SGame] | None = None,
        parent: _Extra | None = None,
    ) -> None:
        self.games = games
        self.first = first or {}
        self._parent = parent
        self._counts: dict[int, dict[int, int]] = {}

    def plus(self, g: SGame) -> _Extra:
        """These pairs and ``g`` (a pair the look-ahead fixes: both players known)."""
        assert g.p2 is not None
        first = dict(self.first)
        first.setdefault(frozenset((g.p1, g.p2)), g)
        return _Extra((*self.games, g), first, self)

    def counts(self, cap: int) -> dict[int, int]:
        """Each player's count of these pairs up to round ``cap``: the parent's (the same pairs less the last,
        already counted on the way down) and the last pair."""
        c = self._counts.get(cap)
        if c is None:
            if self._parent is None:
                c = dict(Counter(p for g in self.games if g.round <= cap for p in (g.p1, g.p2) if p is not None))
            else:
                c = dict(self._parent.counts(cap))
                g = self.games[-1]
                if g.round <= cap:
                    for p in (g.p1, g.p2):
                        if p is not None:
                            c[p] = c.get(p, 0) + 1
            self._counts[cap] = c
        return c


_NO_EXTRA = _Extra()

#: A look-ahead that passed, as (searcher, opponent, the rest): each pair passed a)-c) and the next searcher's
#: pair followed, to the end of the round or to a pair everyone else is ahead of. None: it passed otherwise
#: (the budget ran out, or the last searcher had no candidate left), which proves nothing for later searchers.
_Path = tuple[int, int, "_Path | None"]


class _Scenario:
    """One scenario's state: every game decided, plus the games this search adds (unplayed)."""

    def __init__(self, players: Sequence[int], games: list[SGame], ko: int, has_unfinished: bool) -> None:
        self.players = sorted(players)
        self.games = list(games)
        self.ko = ko
        self.has_unfinished = has_unfinished
        self.count: Counter[int] = Counter()
        self.losses: Counter[int] = Counter()
        self.ko_out: set[int] = set()
        self.pending: Counter[int] = Counter()
        self.pending_ko: Counter[int] = Counter()
        self.met: Counter[frozenset[int]] = Counter()
        self.rounds: dict[int, list[int]] = {p: [] for p in self.players}
        self.added: list[SGame] = []
        self.again = False
        self.complete = True
        self.budget = LOOK_AHEAD_BUDGET
        self.relaxed = False
        self.reuse = False
        self.path: _Path | None = None
        self._proof: tuple[int, int, int, int, _Path | None] | None = None
        self.first: dict[frozenset[int], SGame] = {}
        self._capped: dict[tuple[int, int], int] = {}
        self._inn: list[int] | None = None
        for g in self.games:
            self._account(g)

    def with_games(self, games: Sequence[SGame], has_unfinished: bool) -> _Scenario:
        """This state plus ``games``, accounted as if all had been given at once (the scenarios of the
        unfinished games share the accounting of the played ones)."""
        s = _Scenario.__new__(_Scenario)
        s.players = self.players
        s.games = [*self.games, *games]
        s.ko = self.ko
        s.has_unfinished = has_unfinished
        s.count = Counter(self.count)
        s.losses = Counter(self.losses)
        s.ko_out = set(self.ko_out)
        s.pending = Counter(self.pending)
        s.pending_ko = Counter(self.pending_ko)
        s.met = Counter(self.met)
        s.rounds = {p: list(r) for p, r in self.rounds.items()}
        s.added = []
        s.again = False
        s.complete = True
        s.budget = LOOK_AHEAD_BUDGET
        s.relaxed = False
        s.reuse = False
        s.path = None
        s._proof = None
        s.first = dict(self.first)
        s._capped = {}
        s._inn = None
        for g in games:
            s._account(g)
        return s

    def _account(self, g: SGame) -> None:
        self._capped.clear()
        if g.played:
            self._inn = None  # a game the search adds puts nobody out
        for p in (g.p1, g.p2):
            if p is None:
                continue
            self.count[p] += 1
            self.rounds.setdefault(p, []).append(g.round)
            if g.played:
                if p in g.losers:
                    self.losses[p] += 1
                    if g.personal(p) >= self.ko:
                        self.ko_out.add(p)
            else:
                self.pending[p] += 1
                if g.personal(p) >= self.ko:
                    self.pending_ko[p] += 1
        if g.p2 is not None:
            key = frozenset((g.p1, g.p2))
            self.met[key] += 1
            self.first.setdefault(key, g)

    def still_in(self, p: int) -> bool:
        return self.losses[p] <= 1 and p not in self.ko_out

    def surely_in(self, p: int) -> bool:
        return self.pending_ko[p] == 0 and self.pending[p] + self.losses[p] <= 1

    def capped(self, p: int, cap: int, extra: _Extra) -> int:
        """p's games up to round ``cap``, with the look-ahead's ``extra`` ones (the look-ahead's hot path: the
        count of the state's own games is cached until a game is added; ``extra`` counts its own)."""
        base = self._capped.get((p, cap))
        if base is None:
            base = self._capped[(p, cap)] = sum(1 for r in self.rounds[p] if r <= cap)
        return base + extra.counts(cap).get(p, 0)

    def inn(self) -> list[int]:
        """The players still in, in number order (cached until a game is added)."""
        if self._inn is None:
            self._inn = [p for p in self.players if self.still_in(p)]
        return self._inn

    def capped_losses(self, p: int, cap: int) -> int:
        n = 0
        for g in self.games:
            if g.played and g.round <= cap and g.has(p) and p in g.losers:
                n += 1
                if g.personal(p) >= self.ko:
                    return 2
        return n

    def first_meeting(self, a: int, b: int, extra: _Extra) -> SGame | None:
        key = frozenset((a, b))
        g = self.first.get(key)
        return g if g is not None else extra.first.get(key)

    def meeting_ok(self, cap: int, a: int, b: int, extra: _Extra) -> bool:
        """TarkistaKeskenaisetPelit: not met, or met in an unfinished game one of them surely goes out of."""
        g = self.first_meeting(a, b, extra)
        if g is None:
            return True
        if not g.played:
            if g.r1 >= self.ko and g.r2 >= self.ko:
                return True
            if self.capped_losses(a, cap) >= 1 and self.capped_losses(b, cap) >= 1:
                return True
        return False

    def add(self, a: int, b: int) -> SGame:
        ra, rb = self.count[a] + 1, self.count[b] + 1
        g = SGame(a, b, ra, rb, max(ra, rb), played=False)
        self.games.append(g)
        self.added.append(g)
        self._account(g)
        return g

    # -- the search of one scenario (HaePelitKierrokselle) ---------------------------------------------------

    def run(self, want: set[frozenset[int]] | None = None) -> list[SGame]:
        """The pairs this scenario adds, in order. With ``want``, stop once all of those have come out: the
        pairs after them cannot change which of ``want`` this scenario holds (the search adds them one by one);
        ``complete`` is then False, and ``again`` may miss a reason found after them.

        ``again`` is KaisaKaavio's UusiHakuTarvitaan (HaePelitKierrokselle): the search stopped after a pair
        across rounds, a pair of the next round or a careful-mode pair, careful mode was reached after pairs
        were made, or one player of the round was left waiting; KaisaKaavio then searches again once."""
        inn = [p for p in self.players if self.still_in(p)]
        if len(inn) < 2:
            return []
        low = min(self.count[p] for p in inn)
        r = low + 1
        if sum(1 for p in inn if self.count[p] == low) == 1:
            r += 1
        r = max(3, r)
        while True:
            found = self.next_pair(r)
            if found is None:
                break
            a, b, careful = found
            if self.pending[a] or self.pending[b]:  # an unfinished game of either
                break
            g = self.add(a, b)
            if g.r1 < g.round or g.r2 < g.round or g.round > r or careful:
                self.again = True
                break
            if want is not None:
                want = want - {frozenset((a, b))}
                if not want:
                    self.complete = False
                    return self.added
        if self.added and sum(1 for p in inn if self.count[p] < r) == 1:
            self.again = True  # one player left waiting for an opponent of the next round
        return self.added

    def run_flag(self) -> bool:
        """Run this scenario to its end: KaisaKaavio's reason to search again (``again``)."""
        self.run()
        return self.again

    def next_pair(self, r: int) -> tuple[int, int, bool] | None:
        inn = self.inn()
        if len(inn) < 2:
            return None
        careful = len(inn) <= CAREFUL_PLAYERS
        if careful:
            if self.added:
                self.again = True  # careful mode pairs one game at a time
                return None
            pick = self.careful(inn)
            if pick is None:
                return None
        else:
            pick = self.fast(r, inn)
            if pick is None:
                return None
        a, b = pick
        rematch = len(inn) > 2 and self.met[frozenset((a, b))] > 0
        if rematch and self.has_unfinished and any(x != a and self.met[frozenset((a, x))] == 0 for x in inn):
            return None
        if abs(self.count[a] - self.count[b]) > 1 and self.has_unfinished:
            return None
        return a, b, careful

    # -- fast mode (4.3) -------------------------------------------------------------------------------------

    def fast(self, r: int, inn: list[int]) -> tuple[int, int] | None:
        order = sorted(inn, key=self.count.__getitem__)  # stable: in number order within a count
        searchers = order[: bisect_left(order, r, key=self.count.__getitem__)]  # those with under r games
        if not searchers:
            return None
        h = searchers[0]
        if not self.surely_in(h):
            return None
        cands = order[1:]  # h is the first in order: every other player has at least his games
        if not cands:
            return None
        if len(cands) == 1:
            v: int | None = cands[0]
        else:
            self.budget = LOOK_AHEAD_BUDGET
            proven = self.proven(r, h)
            v = None
            for c in cands:
                if c == proven:
                    v = c  # the previous searcher's look-ahead paired h with c and the rest of the round after
                    break
                self.path = None
                if self.check(r, _NO_EXTRA, searchers, cands, h, c):
                    v = c
                    break
            if v is None:
                self._proof = None
                v = self.dead_end(r, searchers, cands, h)
            elif self.reuse and v != proven:
                self._proof = (r, len(self.added), h, v, self.path[2]) if self.path is not None else None
        if v is None or not self.surely_in(v):
            return None
        return h, v

    def proven(self, r: int, h: int) -> int | None:
        """The opponent the previous searcher's look-ahead paired ``h`` with, when that look-ahead went on to
        the end of the round (:data:`_Path`) and its own pair was added since.

        Then the check of h with that opponent passes, exactly: the scenario now holds that added pair where the
        look-ahead held it fixed (the same counts and meetings for everyone else), so the same pairs pass a)-c)
        and the same searchers follow; the candidates have gained only the two players just paired, and more
        candidates only add ways to pair the rest; the budget only ever turns a failing look-ahead into a
        passing one. Candidates before it are still checked in full (the two new ones may let them pass)."""
        proof = self._proof
        self._proof = None
        if proof is None or not self.reuse or self.relaxed:
            return None
        rr, n, a, b, path = proof
        if rr != r or len(self.added) != n + 1 or path is None or path[0] != h:
            return None
        last = self.added[-1]
        if {last.p1, last.p2} != {a, b} or last.round > r:
            return None
        self._proof = (r, len(self.added), h, path[1], path[2])
        return path[1]

    def dead_end(self, r: int, searchers: list[int], cands: list[int], h: int) -> int | None:
        """[?] No candidate passes a)-d) (KAAVIO 4.3, 12.5): KaisaKaavio makes no game and the night stalls
        until the director pairs by hand. Here the search goes on, in order of preference:

        1. the first candidate with which the rest of the round can still be paired without a rematch when the
           last two searchers may also take players a round ahead (rule c dropped: it forbids leaving two
           searchers who have met even when each could play someone a round ahead);
        2. the first candidate passing a) and b) alone;
        3. the first candidate passing b), fewest meetings first: every pairing is a rematch, so one is taken.

        KaisaKaavio's own choice is unchanged wherever it makes a game: this runs only where it makes none.
        """
        self.budget = LOOK_AHEAD_BUDGET
        self.relaxed = True
        try:
            v = next((c for c in cands if self.check(r, _NO_EXTRA, searchers, cands, h, c)), None)
        finally:
            self.relaxed = False
        if v is not None:
            return v
        near = [c for c in cands if abs(self.capped(h, r, _NO_EXTRA) - self.capped(c, r, _NO_EXTRA)) <= 1]
        fresh = [c for c in near if self.meeting_ok(r, h, c, _NO_EXTRA)]
        if fresh:
            return fresh[0]
        if near:
            return min(near, key=lambda c: self.met[frozenset((h, c))])
        return None

    def check(self, r: int, extra: _Extra, searchers: list[int], cands: list[int], h: int, v: int) -> bool:
        """TarkistaHaku: a) no rematch, b) counts at most 1 apart, c) the last two searchers not met, d) the
        rest of the round can still be paired."""
        if not self.meeting_ok(r, h, v, extra):
            return False
        self.budget -= 1
        ch, cv = self.capped(h, r, extra), self.capped(v, r, extra)
        if abs(ch - cv) > 1:
            return False
        if len(searchers) == 2 and not self.relaxed and not self.meeting_ok(r, searchers[0], searchers[-1], extra):
            return False
        k = max(ch, cv)
        extra2 = extra.plus(SGame(h, v, ch, cv, k, played=False))
        rest_s = [p for p in searchers if p not in (h, v)]
        rest_c = [p for p in cands if p not in (h, v)]
        if not rest_s:
            self.path = (h, v, None)
            return True
        nxt = rest_s[0]
        if nxt in rest_c:
            rest_c.remove(nxt)
        if len(rest_s) == 1 and not rest_c:
            self.path = None  # passes only while no candidate is left: not a proof for later
            return True
        if self.budget <= 0:
            self.path = None
            return True  # [?] look-ahead budget spent: take the candidate that passed a)-c)
        for c in rest_c:
            if self.check(r, extra2, rest_s, rest_c, nxt, c):
                if self.path is not None:
                    self.path = (h, v, self.path)
                return True
        if all(self.capped(p, r, extra2) > k for p in self.inn()):
            self.path = (h, v, None)  # everyone else is ahead of this pair: it passes whatever follows
            return True
        return False

    # -- careful mode (4.4) ----------------------------------------------------------------------------------

    def careful(self, inn: list[int]) -> tuple[int, int] | None:
        n = len(inn)
        counts = tuple(self.count[p] for p in inn)
        losses = tuple(self.losses[p] for p in inn)
        met = tuple(tuple(self.met[frozenset((a, b))] for b in inn) for a in inn)
        res = _careful(counts, losses, met, self.ko, 0)
        if res is None:
            return None
        score, i, j = res
        if self.has_unfinished and score >= ACROSS_ROUNDS:
            return None
        del n
        return inn[i], inn[j]


def _order(counts: tuple[int, ...]) -> list[int]:
    return sorted(range(len(counts)), key=lambda i: (counts[i], i))


def _careful(
    counts: tuple[int, ...], losses: tuple[int, ...], met: tuple[tuple[int, ...], ...], ko: int, total: int
) -> tuple[int, int, int] | None:
    """HaeHuolellisesti over index-based players (index order = draw number order): (score, i, j) or None."""
    res = _careful_best(counts, losses, met, ko, UNBOUNDED)
    if res is None:
        return None
    return (min(CAP, res[0] + total), res[1], res[2])


UNBOUNDED = 10 * CAP
_exact: dict[tuple[object, ...], tuple[int, int, int] | None] = {}
_lower: dict[tuple[object, ...], int] = {}


def _careful_best(
    counts: tuple[int, ...], losses: tuple[int, ...], met: tuple[tuple[int, ...], ...], ko: int, bound: int
) -> tuple[int, int, int] | None:
    """The best pair of a state and its score, without the penalties above it.

    Alpha-beta: a result at or above ``bound`` is only a lower bound (the caller will not choose it), so the
    search stops early; exact results are cached per state. This changes no choice: a pruned candidate could
    never have been strictly better, and ties still go to the first in order.
    """
    low0 = min(counts)
    # Relative state, as KaisaKaavio's TilanneAvain: counts above the lowest, and how far the lowest is from the
    # first knockout round (all that the rules below read of the absolute counts).
    key = (tuple(c - low0 for c in counts), losses, met, min(ko - low0, 64))
    if key in _exact:
        return _exact[key]
    lower = _lower.get(key)
    if lower is not None and lower >= bound:
        return (lower, -1, -1)
    if len(_exact) > 2_000_000:
        _exact.clear()
        _lower.clear()
    order = _order(counts)
    low = counts[order[0]]
    n = len(counts)
    max_i = 1
    if n <= 6:
        max_i = min(n - 1, 2)
    best: tuple[int, int, int] | None = None
    for i in range(max_i):
        if best is not None and best[0] <= 0:
            break
        h = order[i]
        if counts[h] > low + 1:
            break
        for v in order[i + 1 :]:
            if not (counts[h] <= counts[v] <= counts[h] + 1):
                continue
            if counts[v] > low + 1:
                break
            limit = min(bound, best[0] if best is not None else bound)
            score = min(CAP, _score_pair(counts, losses, met, ko, h, v, limit - i) + i * SKIP_SEARCHER)
            if best is None or score < best[0]:
                best = (score, h, v)
            if score <= 0:
                break
    if best is not None and best[0] >= bound:
        _lower[key] = max(_lower.get(key, -1), best[0])
        return (best[0], -1, -1)
    _exact[key] = best
    return best


def _score_pair(
    counts: tuple[int, ...],
    losses: tuple[int, ...],
    met: tuple[tuple[int, ...], ...],
    ko: int,
    h: int,
    v: int,
    bound: int = UNBOUNDED,
) -> int:
    """PisteytaHaku: the worse of the two results of h-v, each with the best continuation (a result at or
    above ``bound`` may be a lower bound)."""
    if abs(counts[h] - counts[v]) > 1:
        return CAP
    n = len(counts)
    if n < 3:
        return 0
    pts = 0
    m = met[h][v]
    if m >= 2:
        pts += THIRD_MEETING + (n - 3) * 10
    elif m == 1:
        pts += REMATCH + (n - 3) * 10
    if counts[h] != counts[v]:
        low = min(counts[h], counts[v])
        if any(counts[x] == low for x in range(n) if x not in (h, v)):
            pts += ACROSS_ROUNDS + (n - 3) * 2
    c2 = list(counts)
    c2[h] += 1
    c2[v] += 1
    met2 = [list(row) for row in met]
    met2[h][v] = met2[v][h] = min(2, m + 1)  # 2 or more meetings score alike
    worst = 0
    for loser in (v, h):
        l2 = list(losses)
        l2[loser] += 1
        keep = [x for x in range(n) if x != loser or (l2[x] <= 1 and c2[x] < ko)]
        s = _score_state(
            tuple(c2[x] for x in keep),
            tuple(l2[x] for x in keep),
            tuple(tuple(met2[a][b] for b in keep) for a in keep),
            ko,
            pts,
            bound,
        )
        if s >= CAP or s >= bound:
            return s
        worst = max(worst, s)
    return worst


def _score_state(
    counts: tuple[int, ...],
    losses: tuple[int, ...],
    met: tuple[tuple[int, ...], ...],
    ko: int,
    total: int,
    bound: int = UNBOUNDED,
) -> int:
    """PisteytaTilanne: the best continuation's score, deeper penalties counted twice as KaisaKaavio does."""
    n = len(counts)
    if n == 2:
        return min(CAP, total + _score_pair(counts, losses, met, ko, 0, 1, bound - total))
    if n < 2:
        return min(CAP, total)
    res = _careful_best(counts, losses, met, ko, bound - 2 * total)
    if res is None:
        return CAP
    return min(CAP, total + min(CAP, res[0] + total))


@dataclass(frozen=True)
class Found:
    """What one search (KaisaKaavio's Hae) gives: the pairs to add, and ``again`` when KaisaKaavio would search
    once more after adding them (UusiHakuTarvitaan in any scenario, KAAVIO 4.3: after a pair across rounds)."""

    pairs: list[Pair]
    again: bool = False


def search(
    players: Iterable[int],
    games: Sequence[SGame],
    ko: int,
    max_unfinished: int = MAX_UNFINISHED,
    exhaustive: bool = False,
) -> list[Pair]:
    """The pairs to add now: those found in every scenario of the unfinished games (4.1), in the order of the
    first scenario. ``games`` holds all games, ``played`` False for the unfinished ones. ``exhaustive``
    searches every scenario to its end and every look-ahead in full, as KaisaKaavio does (the same answer,
    slowly: the reference the tests hold the fast search to, and the benchmark's bound)."""
    return search_once(players, games, ko, max_unfinished, exhaustive).pairs


def search_once(
    players: Iterable[int],
    games: Sequence[SGame],
    ko: int,
    max_unfinished: int = MAX_UNFINISHED,
    exhaustive: bool = False,
) -> Found:
    """:func:`search` with KaisaKaavio's reason to search again (:class:`Found`).

    Fast, with the same answer as ``exhaustive``: it stops at the first scenario that rules every pair out, a
    scenario stops once the pairs still possible have come out in it, and a searcher whose opponent the
    previous searcher's look-ahead already paired him with takes that opponent's check as proven
    (:meth:`_Scenario.fast`)."""
    players = sorted(set(players))
    done = [g for g in games if g.played]
    open_ = [g for g in games if not g.played]
    if len(open_) > max_unfinished:
        return Found([])
    first: list[SGame] = []
    alive: set[frozenset[int]] = set()
    again = False
    cut: list[int] = []  # scenarios stopped once the pairs still possible had come out
    base = _Scenario(players, done, ko, bool(open_))
    for mask in _scenario_order(len(open_)):
        scenario = base.with_games(_decided(open_, mask), bool(open_))
        scenario.reuse = not exhaustive
        found = scenario.run(set(alive) if mask and alive and not exhaustive else None)
        again = again or scenario.again
        if not scenario.complete:
            cut.append(mask)
        keys = {frozenset((g.p1, g.p2)) for g in found if g.p2 is not None}
        if mask == 0:
            first, alive = found, keys
        else:
            alive &= keys
        if not alive and not exhaustive:
            # a pair must come out in every scenario: once none is left, nothing will be added
            return Found(_final_if_stalled(players, games, ko))
    out = [
        Pair(g.p1, g.p2, g.r1, g.r2, g.round) for g in first if g.p2 is not None and frozenset((g.p1, g.p2)) in alive
    ]
    if not out:
        return Found(_final_if_stalled(players, games, ko))
    for mask in cut:
        if again:
            break
        # KaisaKaavio searches each scenario to its end: the reason to search again may come after the pairs
        scenario = base.with_games(_decided(open_, mask), True)
        scenario.reuse = True
        again = scenario.run_flag()
    return Found(out, again)


def _decided(open_: Sequence[SGame], mask: int) -> list[SGame]:
    """The unfinished games decided as scenario ``mask`` has them (bit i set: game i's player 1 loses)."""
    out = []
    for i, g in enumerate(open_):
        assert g.p2 is not None
        loser = g.p2 if mask >> i & 1 else g.p1
        out.append(SGame(g.p1, g.p2, g.r1, g.r2, g.round, True, frozenset((loser,))))
    return out


def _scenario_order(k: int) -> list[int]:
    """All 2^k outcomes of k unfinished games: the first (every player 2 wins, KaisaKaavio's first), then its
    opposite, then the rest. Only pairs found in every scenario are added, and scenarios far apart disagree
    soonest, so the search usually stops after a few scenarios when nothing can be added."""
    n = 1 << k
    return [0, *([n - 1] if n > 1 else []), *range(1, n - 1)]


def _final_if_stalled(players: list[int], games: Sequence[SGame], ko: int) -> list[Pair]:
    """[?] KAAVIO 4.5/12.6: two players left always play, even when their game counts are 2 or more apart."""
    if any(not g.played for g in games):
        return []
    s = _Scenario(players, list(games), ko, False)
    inn = [p for p in s.players if s.still_in(p)]
    if len(inn) != 2:
        return []
    a, b = sorted(inn, key=lambda p: (s.count[p], p))
    ra, rb = s.count[a] + 1, s.count[b] + 1
    return [Pair(a, b, ra, rb, max(ra, rb), "final")]
