"""Running a round robin: schedule, play on a backend, store every match, rate the players."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kaisa.tournament.backends import Backend, make_backend
from kaisa.tournament.games import GameResult, GameSpec, TournamentError, entrant_names, schedule
from kaisa.tournament.ratings import Rating, rate

if TYPE_CHECKING:
    from kaisa.records.stats import PlayerTotals
    from kaisa.records.storage import Store


@dataclass(frozen=True)
class Standing:
    """One player's line in the results table."""

    name: str
    kind: str
    totals: PlayerTotals
    """Games, wins, losses, unfinished, points and innings over the tournament (:func:`kaisa.records.stats.aggregate`)."""
    rating: Rating

    @property
    def games(self) -> int:
        return self.totals.matches

    @property
    def wins(self) -> int:
        return self.totals.wins

    @property
    def losses(self) -> int:
        return self.totals.losses

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def points_per_inning(self) -> float | None:
        return self.totals.points_per_inning


@dataclass(frozen=True)
class Tournament:
    """A played round robin. ``results`` are in schedule order (pair by pair, game by game)."""

    kinds: tuple[str, ...]
    names: tuple[str, ...]
    games: int
    """Games per pair."""
    seed: int
    noise: float
    backend: str
    results: tuple[GameResult, ...]
    ratings: tuple[Rating, ...]
    """In entrant order."""
    match_ids: tuple[int | None, ...] = ()
    """The database id of each result's match (``None`` when not stored)."""
    store_url: str | None = None
    seconds: float = 0.0
    """Wall-clock time of the games."""

    @property
    def unfinished(self) -> int:
        return sum(not r.finished for r in self.results)

    def standings(self) -> tuple[Standing, ...]:
        """Every player's line, best rating first (ties in entrant order)."""
        from kaisa.records.stats import PlayerTotals, aggregate

        totals = {t.name: t for t in aggregate([r.stats for r in self.results])}
        lines = [
            Standing(name, kind, totals.get(name, PlayerTotals(name)), rating)
            for name, kind, rating in zip(self.names, self.kinds, self.ratings, strict=True)
        ]
        order = sorted(range(len(lines)), key=lambda i: (-lines[i].rating.rating, i))
        return tuple(lines[i] for i in order)

    def matrix(self) -> list[list[int]]:
        """``matrix[i][j]``: games entrant ``i`` won against entrant ``j``."""
        n = len(self.names)
        wins = [[0] * n for _ in range(n)]
        for r in self.results:
            if r.winner is not None:
                a, b = r.spec.entrants
                winner, loser = (a, b) if r.winner == 0 else (b, a)
                wins[winner][loser] += 1
        return wins

    def to_json(self) -> dict[str, Any]:
        """The whole tournament as JSON: settings, standings, the pairwise matrix and every game."""
        ids = self.match_ids or (None,) * len(self.results)
        return {
            "players": [{"name": n, "kind": k} for n, k in zip(self.names, self.kinds, strict=True)],
            "games_per_pair": self.games,
            "seed": self.seed,
            "noise": self.noise,
            "backend": self.backend,
            "seconds": self.seconds,
            "store": self.store_url,
            "rating_model": "Bradley-Terry maximum likelihood with one virtual win and loss v a strength-1 player; "
            "Elo scale, mean 1500; 95% parametric bootstrap intervals over the games (kaisa.tournament.ratings)",
            "standings": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "games": s.games,
                    "wins": s.wins,
                    "losses": s.losses,
                    "unfinished": s.totals.unfinished,
                    "win_rate": s.win_rate,
                    "points": s.totals.points,
                    "innings": s.totals.innings,
                    "points_per_inning": s.points_per_inning,
                    "strength": s.rating.strength,
                    "rating": s.rating.rating,
                    "ci_low": s.rating.low,
                    "ci_high": s.rating.high,
                }
                for s in self.standings()
            ],
            "matrix": {"names": list(self.names), "wins": self.matrix()},
            "games": [_game_json(r, match_id) for r, match_id in zip(self.results, ids, strict=True)],
        }


def _game_json(result: GameResult, match_id: int | None) -> dict[str, Any]:
    spec = result.spec
    first, second = spec.seats
    return {
        "index": spec.index,
        "pair": spec.pair,
        "game": spec.game,
        "player1": spec.names[first],
        "player2": spec.names[second],
        "seeds": {spec.names[0]: spec.seeds[0], spec.names[1]: spec.seeds[1]},
        "chance_seed": spec.chance_seed,
        "winner": None if result.winner is None else spec.names[result.winner],
        "points": {spec.names[0]: result.points[0], spec.names[1]: result.points[1]},
        "innings": result.stats.players[0].innings + result.stats.players[1].innings,
        "actions": result.stats.actions,
        "error": result.error,
        "match_id": match_id,
        "seconds": result.seconds,
    }


def run_tournament(
    kinds: Sequence[str],
    games: int,
    *,
    seed: int = 2014,
    noise: float = 1.0,
    backend: str | Backend = "local",
    workers: int | None = None,
    address: str | None = None,
    store: Store | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    ray_options: dict[str, Any] | None = None,
    resamples: int = 200,
) -> Tournament:
    """Play ``games`` games between every pair of ``kinds`` (player kinds, :data:`kaisa.players.COMPUTER_KINDS`;
    a kind entered twice plays as ``kind 1`` and ``kind 2``) on ``backend`` and rate the players.

    Every match is stored in ``store`` (when given) by this process, one at a time in schedule order as soon
    as it and the games before it are in, with the players' kinds; workers never touch the database.
    ``on_start(total)`` is called once the games are submitted and ``on_game(result)`` as each finishes (for
    a progress bar). Raises :class:`TournamentError` for bad input (before any game is played), a backend
    that cannot start, or a game that fails in a worker; the matches stored by then stay stored.
    """
    specs = schedule(kinds, games, seed, noise)
    names = entrant_names([k.strip() for k in kinds])
    runner = (
        make_backend(backend, workers=workers, address=address, ray_options=ray_options)
        if isinstance(backend, str)
        else backend
    )
    results: list[GameResult | None] = [None] * len(specs)
    match_ids: list[int | None] = [None] * len(specs)
    stored = 0
    started = time.perf_counter()
    with runner:
        completed = runner.play(specs)
        if on_start is not None:
            on_start(len(specs))
        for i, result in completed:
            _check(specs[i], result)
            results[i] = result
            if on_game is not None:
                on_game(result)
            while stored < len(specs) and (ready := results[stored]) is not None:  # in schedule order
                if store is not None and ready.match is not None:
                    match_ids[stored] = store.import_match(
                        ready.match,
                        kinds=_seat_kinds(ready.spec),
                        event=f"tournament (seed {seed})",
                        seed=ready.spec.chance_seed,
                    )
                    results[stored] = replace(ready, match=None)  # the stack is stored; let it go
                stored += 1
    seconds = time.perf_counter() - started
    played = tuple(r for r in results if r is not None)
    outcomes = [(r.spec.entrants[r.winner], r.spec.entrants[1 - r.winner]) for r in played if r.winner is not None]
    ratings = rate(names, outcomes, resamples=resamples, seed=seed)
    return Tournament(
        kinds=tuple(k.strip() for k in kinds),
        names=names,
        games=games,
        seed=seed,
        noise=float(noise),
        backend=runner.name,
        results=played,
        ratings=ratings,
        match_ids=tuple(match_ids) if store is not None else (),
        store_url=None if store is None else store.url,
        seconds=seconds,
    )


def _seat_kinds(spec: GameSpec) -> tuple[str, str]:
    first, second = spec.seats
    return spec.kinds[first], spec.kinds[second]


def _check(spec: GameSpec, result: GameResult) -> None:
    if result.spec != spec:
        raise TournamentError(f"a worker answered game {spec.index} with game {result.spec.index}: a mixed-up backend")
