"""Round-robin tournaments (kaisa.tournament) and ``kaisa tournament``: the rating fit on synthetic results, the
schedule and its seeds, small seeded tournaments of baseline players on the local process pool and on a local
Ray instance (the same results on both), storage of every match, and the command's output and refusals.

The games are real matches of the baseline player (a few seconds each); the tests check that the results are
reproducible and consistent, never which player is stronger.
"""

from __future__ import annotations

import json
import math
import shutil
import socket
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from kaisa.cli import app
from kaisa.game import Shot
from kaisa.players import BaselinePlayer
from kaisa.players.search import SearchPlayer
from kaisa.records.storage import open_store
from kaisa.tournament import (
    RAY_INSTALL_HINT,
    GameSpec,
    LocalBackend,
    RayBackend,
    Tournament,
    TournamentError,
    bradley_terry,
    chance_seed,
    check_address,
    elo,
    entrant_names,
    expected_score,
    game_seeds,
    import_ray,
    make_backend,
    play_game,
    rate,
    ratings_figure,
    run_tournament,
    schedule,
    to_csv,
    tournament_player,
    win_matrix,
)

runner = CliRunner()
PLAYERS = ("baseline", "baseline", "baseline")
GAMES = 1
SEED = 11


def invoke(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})


def closed_port() -> int:
    """A local TCP port where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- ratings on synthetic results -------------------------------------------------------------------------


def games(pairs: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """(winner, loser) outcomes from {(winner, loser): count}."""
    return [pair for pair, count in pairs.items() for _ in range(count)]


def test_a_clearly_stronger_player_gets_a_higher_rating():
    outcomes = games({(0, 1): 8, (1, 0): 2, (1, 2): 8, (2, 1): 2, (0, 2): 9, (2, 0): 1})
    ratings = rate(["A", "B", "C"], outcomes, seed=3)
    a, b, c = ratings
    assert a.rating > b.rating > c.rating
    assert a.strength > b.strength > c.strength
    assert sum(r.rating for r in ratings) / 3 == pytest.approx(1500.0)
    assert math.prod(r.strength for r in ratings) == pytest.approx(1.0)
    for r in ratings:
        assert r.low <= r.rating <= r.high
        assert r.low < r.high
    assert a.low > c.high - 400  # the intervals are informative, not the whole scale


def test_symmetric_results_give_equal_ratings():
    outcomes = games({(0, 1): 3, (1, 0): 3, (0, 2): 2, (2, 0): 2, (1, 2): 4, (2, 1): 4})
    ratings = rate(["A", "B", "C"], outcomes, seed=1)
    for r in ratings:
        assert r.rating == pytest.approx(1500.0, abs=1e-6)
        assert r.strength == pytest.approx(1.0, abs=1e-8)
        assert r.low <= r.rating <= r.high


def test_an_unbeaten_player_has_a_finite_rating():
    ratings = rate(["unbeaten", "beaten", "idle"], games({(0, 1): 6}), seed=2)
    unbeaten, beaten, idle = ratings
    assert all(math.isfinite(x) for r in ratings for x in (r.strength, r.rating, r.low, r.high))
    assert unbeaten.rating > idle.rating > beaten.rating
    assert unbeaten.low <= unbeaten.rating <= unbeaten.high
    # more wins, more confidence: the rating keeps growing but stays finite
    more = rate(["unbeaten", "beaten", "idle"], games({(0, 1): 60}), seed=2)[0]
    assert unbeaten.rating < more.rating < 1e4


def test_a_clean_sweep_still_has_an_interval():
    """Resampling the games of a 2-0 gives 2-0 every time (a point interval); drawing the winners from the
    fitted model does not."""
    model = rate(["A", "B"], games({(0, 1): 2}), seed=3)
    resampled = rate(["A", "B"], games({(0, 1): 2}), seed=3, bootstrap="games")
    assert [r.rating for r in model] == [r.rating for r in resampled]
    assert all(r.high - r.low > 50 for r in model)
    assert all(r.high == r.low == r.rating for r in resampled)
    for outcome in (games({(0, 1): 7, (1, 0): 3}), games({(0, 1): 30, (1, 0): 20})):
        for r in rate(["A", "B"], outcome, seed=4, bootstrap="games"):
            assert r.low <= r.rating <= r.high
            assert r.low < r.high
    with pytest.raises(ValueError, match="bootstrap must be one of model, games"):
        rate(["A", "B"], [], bootstrap="jackknife")


def test_the_elo_scale_reads_the_odds_in_many_games():
    """3-to-1 odds are 400 log10(3) = 190.8 Elo points; the weak prior is nothing against 400 games."""
    a, b = rate(["A", "B"], games({(0, 1): 300, (1, 0): 100}), resamples=20)
    assert a.rating - b.rating == pytest.approx(400 * math.log10(3), abs=2.0)
    assert expected_score(a.rating, b.rating) == pytest.approx(0.75, abs=0.005)
    assert a.strength / b.strength == pytest.approx(3.0, rel=0.02)


def test_the_fit_maximises_the_likelihood():
    """At the MM fit the gradient of the log-likelihood (with the prior's virtual games) vanishes."""
    wins = win_matrix(3, games({(0, 1): 5, (1, 0): 2, (1, 2): 3, (2, 1): 1, (2, 0): 2}))
    strengths = bradley_terry(wins, tolerance=1e-13)

    # the fit is up to a common factor; the virtual opponent fixes it, so search that factor for the optimum
    def gradient(p: np.ndarray) -> np.ndarray:
        n = wins + wins.T
        return np.asarray(
            wins.sum(axis=1) + 1 - (n * p[:, None] / (p[:, None] + p[None, :])).sum(axis=1) - 2 * p / (p + 1)
        )

    scales = np.exp(np.linspace(-1, 1, 20001))
    best = min(scales, key=lambda s: float(np.abs(gradient(strengths * s)).sum()))
    assert np.abs(gradient(strengths * best)).max() < 1e-3


def test_newton_and_mm_find_the_same_maximum():
    rng = np.random.default_rng(7)
    for _ in range(5):
        wins = rng.integers(0, 6, size=(5, 5)).astype(float)
        np.fill_diagonal(wins, 0.0)
        assert bradley_terry(wins) == pytest.approx(bradley_terry(wins, method="mm", tolerance=1e-13), rel=1e-7)
    unbeaten = win_matrix(3, games({(0, 1): 60}))
    assert bradley_terry(unbeaten) == pytest.approx(bradley_terry(unbeaten, method="mm", tolerance=1e-13), rel=1e-6)


def test_ratings_and_intervals_are_deterministic_for_a_seed():
    outcomes = games({(0, 1): 4, (1, 0): 2, (0, 2): 1, (2, 0): 3})
    assert rate(["A", "B", "C"], outcomes, seed=5) == rate(["A", "B", "C"], outcomes, seed=5)
    assert rate(["A", "B", "C"], outcomes, seed=5) != rate(["A", "B", "C"], outcomes, seed=6)
    none = rate(["A", "B"], [])
    assert [(r.rating, r.low, r.high) for r in none] == [(1500.0, 1500.0, 1500.0)] * 2
    assert list(elo(np.array([1.0, 10.0]))) == pytest.approx([1300.0, 1700.0])


def test_bad_outcomes_are_refused():
    with pytest.raises(ValueError, match="two different players"):
        win_matrix(2, [(0, 0)])
    with pytest.raises(ValueError, match="two different players"):
        rate(["A", "B"], [(0, 2)])
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(np.zeros((2, 2)), prior=0)


# --- the schedule, the players, the backends ---------------------------------------------------------------


def test_the_schedule_is_a_round_robin_with_alternating_sides_and_seeded_games():
    specs = schedule(["baseline", "club", "baseline"], 3, seed=4, noise=0.5)
    assert len(specs) == 3 * 3
    assert [s.index for s in specs] == list(range(9))
    assert [s.entrants for s in specs] == [(0, 1)] * 3 + [(0, 2)] * 3 + [(1, 2)] * 3
    assert [s.pair for s in specs] == [0] * 3 + [1] * 3 + [2] * 3
    assert specs[3].names == ("baseline 1", "baseline 2")
    assert specs[3].kinds == ("baseline", "baseline")
    assert [s.seats for s in specs[:3]] == [(0, 1), (1, 0), (0, 1)]
    assert all(s.noise == 0.5 for s in specs)
    assert specs[4].seeds == game_seeds(4, 1, 1)
    assert specs[4].chance_seed == chance_seed(4, 1, 1)
    assert len({seed for s in specs for seed in (*s.seeds, s.chance_seed)}) == 27  # independent streams
    assert schedule(["baseline", "club", "baseline"], 3, seed=4, noise=0.5) == specs
    assert schedule(["baseline", "club", "baseline"], 3, seed=5, noise=0.5) != specs
    assert entrant_names(["club", "master", "club"]) == ("club 1", "master", "club 2")


def test_game_spec_seats_follow_the_game_index():
    spec = GameSpec(0, 0, 1, (0, 1), ("baseline", "baseline"), ("a", "b"), (1, 2))
    assert not spec.a_first
    assert spec.seats == (1, 0)


@pytest.mark.parametrize(
    ("kinds", "n", "message"),
    [
        (["baseline", "grandmaster"], 1, "unknown player kind 'grandmaster'; the kinds are baseline, beginner"),
        (["baseline"], 1, "at least two players, not 1"),
        (["baseline", "club"], 0, "at least one game, not 0"),
    ],
)
def test_bad_tournaments_are_refused(kinds, n, message):
    with pytest.raises(TournamentError, match=message):
        schedule(kinds, n)


def test_workers_build_search_players_without_a_nested_pool():
    player = tournament_player("beginner", "b", 3, 1.0)
    assert isinstance(player, SearchPlayer)
    assert player.parallel is False
    assert player.name == "b"
    assert isinstance(tournament_player("baseline", "x", 3, 1.0), BaselinePlayer)


def test_backends_and_addresses_are_checked():
    assert isinstance(make_backend("local", workers=2), LocalBackend)
    assert isinstance(make_backend("ray", address="auto"), RayBackend)
    with pytest.raises(TournamentError, match="unknown backend 'dask'; the backends are local, ray"):
        make_backend("dask")
    with pytest.raises(TournamentError, match=r"--address .* with --backend ray"):
        make_backend("local", address="10.0.0.5:6379")
    with pytest.raises(TournamentError, match="at least 1"):
        make_backend("local", workers=0)
    with pytest.raises(TournamentError, match="give the Ray head as host:port"):
        check_address("nonsense")
    with pytest.raises(TournamentError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:\d+: .*ray start --head"):
        check_address(f"127.0.0.1:{closed_port()}")
    with pytest.raises(TournamentError, match="cannot reach"):
        check_address(f"ray://127.0.0.1:{closed_port()}")


def test_a_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed: `import ray` raises ImportError
    with pytest.raises(TournamentError, match=r"needs Ray.*kaisa\[ray\]"):
        import_ray()
    with pytest.raises(TournamentError, match=r"kaisa\[ray\]"), RayBackend():
        pass
    result = invoke("tournament", "--players", "baseline,baseline", "--backend", "ray")
    assert result.exit_code == 2
    assert RAY_INSTALL_HINT in " ".join(result.output.split())


# --- a small seeded tournament on the local pool ---------------------------------------------------------


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Tournament:
    """Three baseline players, one game per pair, on the local pool, every match stored in SQLite."""
    url = f"sqlite:///{tmp_path_factory.mktemp('local') / 'kaisa.sqlite3'}"
    with open_store(url) as store:
        return run_tournament(PLAYERS, GAMES, seed=SEED, backend="local", workers=2, store=store)


@pytest.mark.slow
def test_a_tournament_plays_every_pair_and_stores_every_match(local_run: Tournament):
    t = local_run
    assert t.names == ("baseline 1", "baseline 2", "baseline 3")
    assert [r.spec for r in t.results] == list(schedule(PLAYERS, GAMES, SEED))
    assert t.match_ids == (1, 2, 3)
    assert all(r.match is None for r in t.results)  # stored, then let go
    assert t.store_url is not None
    with open_store(t.store_url) as store:
        stored = store.list_matches()
    assert [m.id for m in stored] == [1, 2, 3]
    for info, result in zip(stored, t.results, strict=True):
        first, second = result.spec.seats
        assert [p.name for p in info.players] == [result.spec.names[first], result.spec.names[second]]
        assert [p.kind for p in info.players] == ["baseline", "baseline"]
        assert info.actions == result.stats.actions > 0
        assert info.status == ("over" if result.finished else "playing")
        assert info.event == f"tournament (seed {SEED})"
        assert info.seed == result.spec.chance_seed
    # consistent figures
    finished = [r for r in t.results if r.finished]
    standings = t.standings()
    assert sum(s.wins for s in standings) == sum(s.losses for s in standings) == len(finished)
    assert all(s.games == 2 for s in standings)
    assert sum(map(sum, t.matrix())) == len(finished)
    assert [s.rating.rating for s in standings] == sorted((s.rating.rating for s in standings), reverse=True)
    assert sum(r.rating for r in t.ratings) / 3 == pytest.approx(1500.0)
    for r in t.results:
        assert r.points == (
            r.stats.players[r.spec.seats.index(0)].points,
            r.stats.players[r.spec.seats.index(1)].points,
        )
    data = t.to_json()
    json.dumps(data)  # plain JSON
    assert [g["match_id"] for g in data["games"]] == [1, 2, 3]
    assert to_csv(t).splitlines()[0].startswith("player,kind,games,wins,losses")
    assert len(ratings_figure(t).axes) == 1


@pytest.mark.slow
def test_a_game_is_a_pure_function_of_its_spec(local_run: Tournament):
    """Played again in this process, the first game equals the pool's; with another chance seed it differs."""
    first = local_run.results[0]
    again = play_game(first.spec)
    assert again == first
    assert again.match is not None
    assert again.match.over == first.finished
    # the noise is the match's: each seat's in its configuration, applied by its seeded chance step
    config = again.match.config
    assert config.noise == (1.0, 1.0)  # the baseline's own noise times the spec's scale 1
    assert config.seed == first.spec.chance_seed
    shots = [e.action for e in again.match.stack if isinstance(e.action, Shot)]
    assert shots
    assert all(s.executed is not None and s.executed != s.stroke for s in shots)
    # the baseline decides deterministically, so the chance of a game between baselines is all the match's
    reseeded = play_game(replace(first.spec, chance_seed=chance_seed(SEED + 1, 0, 0)))
    assert reseeded != first
    assert reseeded.record != first.record


@pytest.mark.slow
def test_the_command_prints_the_table_and_writes_the_files(tmp_path: Path):
    db, out = tmp_path / "kaisa.sqlite3", tmp_path / "results"
    result = invoke(
        "tournament", "--players", "baseline,baseline", "--games", "2", "--seed", "3",
        "--db", f"sqlite:///{db}", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for text in ("Round robin: 2 players, 2 game(s) per pair, seed 3", "baseline 1", "baseline 2", "rating", "95% CI"):
        assert text in result.output
    assert "Pairwise results" in result.output
    assert "matches 1-2 stored in sqlite:///" in " ".join(result.output.split())
    assert sorted(p.name for p in out.iterdir()) == ["ratings.png", "results.csv", "results.json"]
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = (out / "results.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 3
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data["seed"] == 3
    assert data["backend"] == "local"
    assert [g["match_id"] for g in data["games"]] == [1, 2]
    assert sum(s["games"] for s in data["standings"]) == 4
    with open_store(f"sqlite:///{db}") as store:
        assert len(store.list_matches()) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "baseline,wizard"], "unknown player kind 'wizard'"),
        (["--players", "baseline"], "at least two players, not 1"),
        (["--players", "baseline,baseline", "--games", "0"], "Invalid value for '--games'"),
        (["--players", "baseline,baseline", "--backend", "spark"], "unknown backend 'spark'"),
        (["--players", "baseline,baseline", "--seed", "-1"], "seed must be >= 0"),
        (["--players", "baseline,baseline", "--workers", "0"], "Invalid value for '--workers'"),
        (["--players", "baseline,baseline", "--address", "10.0.0.5:6379"], "with --backend ray"),
        (["--players", "baseline,baseline", "--backend", "ray", "--address", "nowhere"], "host:port"),
    ],
)
def test_the_command_refuses_bad_options(args: list[str], message: str):
    result = invoke("tournament", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_the_command_refuses_an_output_directory_it_cannot_make(tmp_path: Path):
    (tmp_path / "file").write_text("not a directory", encoding="utf-8")
    result = invoke(
        "tournament", "--players", "baseline,baseline", "--out", str(tmp_path / "file" / "results"),
        "--db", f"sqlite:///{tmp_path / 'k.sqlite3'}",
    )  # fmt: skip
    assert result.exit_code == 2
    assert "cannot make the results directory: Not a directory" in " ".join(result.output.split())
    assert not (tmp_path / "k.sqlite3").exists()


def test_the_command_refuses_an_unreachable_ray_cluster(tmp_path: Path):
    result = invoke(
        "tournament", "--players", "baseline,baseline", "--backend", "ray",
        "--address", f"127.0.0.1:{closed_port()}", "--db", f"sqlite:///{tmp_path / 'k.sqlite3'}",
    )  # fmt: skip
    assert result.exit_code == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:" in result.output
    assert not (tmp_path / "k.sqlite3").exists()  # refused before anything was opened


# --- the same tournament on Ray (last: Ray leaves threads in this process) -----------------------------------


@pytest.mark.slow
def test_a_local_ray_instance_gives_the_same_results_as_the_local_backend(local_run: Tournament, tmp_path: Path):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    temp_dir = tempfile.mkdtemp(prefix="kaisa-ray-")  # short: Ray's socket paths must fit in 107 bytes
    try:
        with open_store(f"sqlite:///{tmp_path / 'ray.sqlite3'}") as store:
            on_ray = run_tournament(
                PLAYERS, GAMES, seed=SEED, backend="ray", workers=2, store=store,
                ray_options={"num_cpus": 2, "include_dashboard": False, "log_to_driver": False, "_temp_dir": temp_dir},
            )  # fmt: skip
            stored = store.list_matches()
        assert not ray.is_initialized()  # the backend shut down the instance it started
    finally:
        if ray.is_initialized():
            ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)
    assert on_ray.backend == "ray"
    assert on_ray.results == local_run.results
    assert [r.record for r in on_ray.results] == [r.record for r in local_run.results]
    assert on_ray.ratings == local_run.ratings
    assert on_ray.standings() == local_run.standings()
    assert [tuple(p.name for p in m.players) for m in stored] == [
        (r.spec.names[r.spec.seats[0]], r.spec.names[r.spec.seats[1]]) for r in on_ray.results
    ]
