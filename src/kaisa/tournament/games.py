"""One tournament game as a pure function of a small frozen spec, so any process or machine can play it."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kaisa.errors import ErrorText, KaisaError

if TYPE_CHECKING:
    from kaisa.game import Match
    from kaisa.players import Player
    from kaisa.records.stats import MatchStats
    from kaisa.records.storage import MatchInfo
    from kaisa.session import RuleOptions
    from kaisa.session.registry import Sessions


class TournamentError(KaisaError):
    """A tournament that cannot be run as asked: bad players or options, a backend that is missing or cannot
    be reached, a game that failed in a worker. The message says what was wrong and what is allowed."""

    code = "bad-tournament"
    kind = ErrorText("Turnausta ei voi pelata näin.", "The tournament cannot be run as asked.")


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game. Entrant ``a`` is the lower-numbered of the pair."""

    index: int
    """Position in the schedule (results are reported and stored in this order)."""
    pair: int
    """Index of the pair (a, b) in the round robin: (0, 1), (0, 2), ..., (1, 2), ..."""
    game: int
    """Index of the game within the pair."""
    entrants: tuple[int, int]
    """The entrants (a, b), indexes into the tournament's players."""
    kinds: tuple[str, str]
    names: tuple[str, str]
    seeds: tuple[int, int]
    """The players' seeds, from (tournament seed, pair, game) by :func:`game_seeds`."""
    noise: float = 1.0
    """The execution-noise scale of the seats: each player's seat gets its kind's noise times this (1 = each
    kind's own, :func:`kaisa.players.seat_noise`). The match's chance step applies it."""
    max_actions: int = 5000
    chance_seed: int = 0
    """The seed of the match's chance step (its execution noise), from (tournament seed, pair, game) by
    :func:`chance_seed`."""

    @property
    def a_first(self) -> bool:
        """Whether ``a`` is player 1 (lags W1 from the left): in the even games of the pair."""
        return self.game % 2 == 0

    @property
    def seats(self) -> tuple[int, int]:
        """Which of (a, b) sits as player 1 and player 2: (0, 1) in even games, (1, 0) in odd ones."""
        return (0, 1) if self.a_first else (1, 0)


@dataclass(frozen=True)
class GameResult:
    """What a game produced. Equal results compare equal whatever process played them (the played
    :class:`~kaisa.game.Match` and the wall time are left out of the comparison)."""

    spec: GameSpec
    winner: int | None
    """0 when entrant a won, 1 when b won, ``None`` when the game did not finish."""
    points: tuple[int, int]
    """Net points of (a, b)."""
    stats: MatchStats
    """The match's statistics, players in seat order (player 1 first)."""
    record: str
    """The match in the match notation (:func:`kaisa.records.notation.write_match`): the whole game, stroke by stroke."""
    error: str | None = None
    """Why the game stopped unfinished (a refused action, or no end within ``max_actions``)."""
    match: Match | None = field(default=None, compare=False, repr=False)
    """The played match with its stack, for storing; dropped once stored."""
    seconds: float = field(default=0.0, compare=False)
    """Wall-clock time of the game in its worker."""

    @property
    def finished(self) -> bool:
        return self.winner is not None


def entrant_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """Player names for the entrants: the kind, numbered (``baseline 1``, ``baseline 2``) when it is entered
    more than once."""
    counts = Counter(kinds)
    seen: Counter[str] = Counter()
    names = []
    for kind in kinds:
        seen[kind] += 1
        names.append(f"{kind} {seen[kind]}" if counts[kind] > 1 else kind)
    return tuple(names)


def game_seeds(seed: int, pair: int, game: int) -> tuple[int, int]:
    """The two players' seeds for game ``game`` of pair ``pair``: two 32-bit words of
    ``numpy.random.SeedSequence([seed, pair, game])``, so every game gets independent, reproducible streams."""
    words = np.random.SeedSequence([seed, pair, game]).generate_state(2, dtype=np.uint32)
    return int(words[0]), int(words[1])


def chance_seed(seed: int, pair: int, game: int) -> int:
    """The seed of the chance step of game ``game`` of pair ``pair``: the third 32-bit word of the sequence
    whose first two are :func:`game_seeds`."""
    return int(np.random.SeedSequence([seed, pair, game]).generate_state(3, dtype=np.uint32)[2])


def schedule(kinds: Sequence[str], games: int, seed: int = 2014, noise: float = 1.0) -> tuple[GameSpec, ...]:
    """The round robin: ``games`` games for every pair of entrants, pair by pair. Raises
    :class:`TournamentError` for fewer than two players, an unknown kind, ``games < 1``, a negative seed or
    noise scale."""
    from kaisa.players import COMPUTER_KINDS

    kinds = tuple(k.strip() for k in kinds)
    unknown = sorted({k for k in kinds if k not in COMPUTER_KINDS})
    if unknown:
        raise TournamentError(
            f"unknown player kind {', '.join(map(repr, unknown))}; the kinds are {', '.join(COMPUTER_KINDS)}"
        )
    if len(kinds) < 2:
        raise TournamentError(f"a tournament needs at least two players, not {len(kinds)}")
    if games < 1:
        raise TournamentError(f"each pair plays at least one game, not {games}")
    if seed < 0:
        raise TournamentError(f"the seed must be >= 0, not {seed}")
    if not noise >= 0 or noise == float("inf"):
        raise TournamentError(f"the noise scale must be finite and >= 0, not {noise}")
    names = entrant_names(kinds)
    specs: list[GameSpec] = []
    pair = 0
    for a in range(len(kinds)):
        for b in range(a + 1, len(kinds)):
            for game in range(games):
                specs.append(
                    GameSpec(
                        index=len(specs),
                        pair=pair,
                        game=game,
                        entrants=(a, b),
                        kinds=(kinds[a], kinds[b]),
                        names=(names[a], names[b]),
                        seeds=game_seeds(seed, pair, game),
                        noise=float(noise),
                        chance_seed=chance_seed(seed, pair, game),
                    )
                )
            pair += 1
    return tuple(specs)


def tournament_player(kind: str, name: str, seed: int, noise: float = 1.0) -> Player:
    """A computer player for a game in a worker process: as :func:`kaisa.players.make_player`, but a search
    player searches in its own process (``parallel=False``) instead of starting a nested process pool; its
    decisions are the same either way. ``noise`` is the noise the player believes its seat has (a search
    player evaluates its options under it); the match's chance step applies the seat's real noise."""
    from kaisa.players import BASELINE, COMPUTER_KINDS, make_player

    if kind in COMPUTER_KINDS and kind != BASELINE:
        from kaisa.players.search import SearchPlayer

        return SearchPlayer(kind, name=name, seed=seed, noise=noise, parallel=False)
    return make_player(kind, name, seed, noise)


def seated_sessions(players: Sequence[Player]) -> Sessions:
    """Match sessions, kept in memory, whose computer players are ``players`` (by seat) instead of players the
    sessions make from the match's seed: a tournament seeds its players from the schedule and keeps a search
    player's search in the worker's own process."""
    from kaisa.session.registry import Sessions

    class Seated(Sessions):
        def computer(self, info: MatchInfo, seat: int, options: RuleOptions | None = None) -> Player | None:
            return players[seat]  # a tournament plays the rulebook's game (default options)

    return Seated()


def play_game(spec: GameSpec) -> GameResult:
    """Play the game ``spec`` describes, with the clock off, through a match session kept in memory (the
    calling process stores the match afterwards). Deterministic: the same spec gives an equal result in any
    process. Each seat's execution noise (``spec.noise`` times its kind's) goes into the match's configuration
    and its chance step applies it, seeded with ``spec.chance_seed``. A game cut short (an action the match
    refuses, or no end within ``spec.max_actions``) is returned unfinished with the reason in ``error``."""
    from kaisa.game import ClockConfig
    from kaisa.players import MatchStalledError
    from kaisa.records.notation import write_match
    from kaisa.records.stats import match_stats
    from kaisa.records.storage import PlayerInfo
    from kaisa.session.registry import match_config

    started = time.perf_counter()
    seats = spec.seats
    infos = [PlayerInfo(spec.names[i], spec.kinds[i]) for i in seats]
    config = match_config(infos, clock=ClockConfig("off"), seed=spec.chance_seed, noise=spec.noise)
    # each player believes in the noise of its seat; the chance step applies it
    players = [tournament_player(spec.kinds[i], spec.names[i], spec.seeds[i], spec.noise) for i in seats]
    session = seated_sessions(players).unrecorded(infos, config)
    error = None
    try:
        session.play_out(max_actions=spec.max_actions)
    except (MatchStalledError, KaisaError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    match = session.match
    stats = match_stats(match)
    winner = None if stats.winner is None else seats[stats.winner - 1]
    points = (stats.players[seats.index(0)].points, stats.players[seats.index(1)].points)
    return GameResult(
        spec=spec,
        winner=winner,
        points=points,
        stats=stats,
        record=write_match(match, {"Event": "kaisa tournament", "Round": f"{spec.pair + 1}.{spec.game + 1}"}),
        error=error,
        match=match,
        seconds=time.perf_counter() - started,
    )
