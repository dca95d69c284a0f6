"""Evaluation runs: a round robin between computer players, on this machine or scaled out on Ray.

::

    from kaisa.records.storage import open_store
    from kaisa.tournament import print_tournament, run_tournament

    result = run_tournament(["baseline", "beginner", "club"], games=10, seed=7, backend="ray", store=open_store())

Every pair of players meets ``games`` times; in game ``i`` of a pair the first-listed player is player 1
(lags W1 from the left) when ``i`` is even and player 2 when it is odd. Each game is a pure function of a
small frozen :class:`GameSpec` (:func:`play_game`): the kinds, the names, the noise scale, the players' seeds
and the seed of the match's chance step, drawn from ``numpy.random.SeedSequence([seed, pair, game])``. A game
is played through a match session kept in memory (:meth:`kaisa.session.registry.Sessions.unrecorded`); the noise scale
goes into the match's configuration (each seat gets its kind's noise times it) and only the match's chance
step applies it. So the games can run anywhere, in any order, and the same seed gives the same results on
every backend:

- ``local``: a process pool on this machine (``--workers``, default ``min(2, cpu count)``);
- ``ray``: Ray tasks, on a local Ray instance or on the cluster at ``--address`` (``pip install 'kaisa[ray]'``;
  every node needs the same ``kaisa``).

Only the calling process writes the database: each finished match comes back with its stack and is stored
with :meth:`kaisa.records.storage.Store.import_match`, in schedule order. The players are rated by Bradley-Terry,
reported on the Elo scale with bootstrap confidence intervals (:mod:`kaisa.tournament.ratings`).
"""

from kaisa.tournament.backends import (
    BACKENDS,
    RAY_INSTALL_HINT,
    Backend,
    LocalBackend,
    RayBackend,
    check_address,
    default_workers,
    import_ray,
    make_backend,
)
from kaisa.tournament.games import (
    GameResult,
    GameSpec,
    TournamentError,
    chance_seed,
    entrant_names,
    game_seeds,
    play_game,
    schedule,
    tournament_player,
)
from kaisa.tournament.ratings import Rating, bradley_terry, elo, expected_score, rate, win_matrix
from kaisa.tournament.report import (
    matrix_table,
    print_tournament,
    ratings_figure,
    results_table,
    to_csv,
    write_outputs,
)
from kaisa.tournament.run import Standing, Tournament, run_tournament

__all__ = [
    "BACKENDS",
    "RAY_INSTALL_HINT",
    "Backend",
    "GameResult",
    "GameSpec",
    "LocalBackend",
    "Rating",
    "RayBackend",
    "Standing",
    "Tournament",
    "TournamentError",
    "bradley_terry",
    "chance_seed",
    "check_address",
    "default_workers",
    "elo",
    "entrant_names",
    "expected_score",
    "game_seeds",
    "import_ray",
    "make_backend",
    "matrix_table",
    "play_game",
    "print_tournament",
    "rate",
    "ratings_figure",
    "results_table",
    "run_tournament",
    "schedule",
    "to_csv",
    "tournament_player",
    "win_matrix",
    "write_outputs",
]
