"""The computer players' strength, measured side by side with the baseline on the same seeded tests.

Every player kind (and the baseline, always the first column) meets exactly the same tests:

- **single shots**: ``layouts`` seeded random 5-ball positions (:func:`kaisa.layouts.random_layout`), W1 at the
  table and on the bed (no ball in hand); the player decides a call and a stroke, which is played through a
  match from the layout (:meth:`kaisa.game.Match.at`): its chance step executes the stroke with the seat's
  noise, and it is simulated and ruled. Every player decides layout ``i`` as stroke index ``i`` of its seed,
  so a deterministic player gives the same answer on every run;
- **matches**: ``games`` seeded matches of each kind against a baseline reference player, the kind taking
  player 1 in the even games and player 2 in the odd ones, with the clock off. Game ``i`` uses the same seeds
  for every kind, so the kinds meet the same opponent. The figures come from :mod:`kaisa.records.stats`; the baseline
  column plays the reference too, a control whose win rate should be near one half;
- **noise sweep** (optional): the single-shot tests again at each noise scale, for the called-pot success
  against noise; :func:`sweep_figure` plots it with matplotlib.

Players are made with :func:`kaisa.players.make_player` and only intend strokes (a search player evaluates its
options under the noise it believes its seat has, ``noise`` times its kind's); the noise itself is applied in
one place, the match's chance step, from the seat noise of the match's configuration: each kind's own noise
times ``noise`` (:func:`kaisa.players.seat_noise`).

Decision times are the wall-clock seconds of :meth:`Player.shot` calls (lags and placements excluded), after
one untimed warm-up decision per player. Tests never assert on the times' values.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.errors import KaisaError
from kaisa.model import BallId, Position, Stroke
from kaisa.table import OFFICIAL, Point, TableSpec

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from kaisa.call import Call
    from kaisa.players import Player
    from kaisa.records.stats import PlayerTotals
    from kaisa.referee import GameState, RuleOptions

REFERENCE = "baseline"
"""The kind every other kind is measured against."""
REFERENCE_NAME = "baseline (reference)"
"""The reference player's name in the benchmark matches (distinct from a ``baseline`` under test)."""
DEFAULT_SWEEP = (0.0, 0.5, 1.0, 2.0, 4.0)
"""Noise scales for a plot asked for without a sweep."""


# --- players --------------------------------------------------------------------------------------------


def chance_seed(seed: int, index: int) -> int:
    """The seed of the chance step of the match for single-shot layout (or benchmark game) ``index``: a word of
    ``numpy.random.SeedSequence([seed, index])``, so the executions of different layouts are independent, and
    the same at every noise scale of a sweep (the noise is the same draw, scaled)."""
    return int(np.random.SeedSequence([seed % 2**64, index]).generate_state(1, dtype=np.uint32)[0])


class TimedPlayer:
    """A player that passes every question on and records how long each shot decision took."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.decisions: list[float] = []

    def lag(self, ball: BallId, half: str, position: Position, spec: TableSpec, stroke_index: int) -> Stroke:
        return self.player.lag(ball, half, position, spec, stroke_index)

    def choose_cue_ball(self) -> BallId:
        return self.player.choose_cue_ball()

    def place_w2(self, position: Position, spec: TableSpec, options: RuleOptions) -> Point:
        return self.player.place_w2(position, spec, options)

    def shot(
        self, position: Position, game: GameState, spec: TableSpec, stroke_index: int
    ) -> tuple[Call | None, Stroke]:
        started = time.perf_counter()
        decision = self.player.shot(position, game, spec, stroke_index)
        self.decisions.append(time.perf_counter() - started)
        return decision


# --- results --------------------------------------------------------------------------------------------


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _quantile(values: Sequence[float], q: float) -> float | None:
    return float(np.quantile(np.asarray(values, dtype=float), q)) if values else None


@dataclass(frozen=True)
class Decisions:
    """Wall-clock seconds of shot decisions."""

    seconds: tuple[float, ...] = ()

    @property
    def median(self) -> float | None:
        return _quantile(self.seconds, 0.5)

    @property
    def p90(self) -> float | None:
        return _quantile(self.seconds, 0.9)


@dataclass(frozen=True)
class ShotResults:
    """One player on the single-shot layouts."""

    shots: int
    """Layouts decided (errors included)."""
    called: int = 0
    """Strokes with a call."""
    legal_pots: int = 0
    """Strokes whose called pot was legal."""
    points: int = 0
    """Net points over all strokes, fouls included."""
    fouls: int = 0
    """Strokes with at least one foul."""
    errors: int = 0
    """Decisions the physics or the referee refused (an invalid stroke or call); not ruled."""
    decisions: Decisions = field(default_factory=Decisions)

    @property
    def ruled(self) -> int:
        return self.shots - self.errors

    @property
    def call_rate(self) -> float | None:
        return _ratio(self.called, self.ruled)

    @property
    def called_pot_success(self) -> float | None:
        return _ratio(self.legal_pots, self.called)

    @property
    def points_per_shot(self) -> float | None:
        return _ratio(self.points, self.ruled)

    @property
    def fouls_per_100(self) -> float | None:
        return _ratio(100 * self.fouls, self.ruled)


@dataclass(frozen=True)
class MatchResults:
    """One kind's matches against the baseline reference, from :func:`kaisa.records.stats.aggregate`."""

    games: int
    player: PlayerTotals
    """The kind's totals over the games."""
    reference: PlayerTotals
    """The reference's totals over the same games."""
    errors: int = 0
    """Games cut short by an action the match refused (counted as unfinished)."""
    stalled: int = 0
    """Games that did not finish within the driver's limit of actions (counted as unfinished)."""
    decisions: Decisions = field(default_factory=Decisions)

    @property
    def wins(self) -> int:
        return self.player.wins

    @property
    def losses(self) -> int:
        return self.player.losses

    @property
    def unfinished(self) -> int:
        return self.player.unfinished

    @property
    def win_rate(self) -> float | None:
        return _ratio(self.wins, self.games)

    @property
    def points_per_inning(self) -> float | None:
        return self.player.points_per_inning

    @property
    def longest_run(self) -> int:
        return self.player.longest_run

    @property
    def fouls_per_100(self) -> float | None:
        return _ratio(100 * self.player.fouls, self.player.strokes)

    @property
    def called_pot_success(self) -> float | None:
        return self.player.called_pot_success


@dataclass(frozen=True)
class PlayerResult:
    """One column of the report."""

    kind: str
    shots: ShotResults
    matches: MatchResults | None
    """``None`` when no games were played."""
    sweep: tuple[tuple[float, ShotResults], ...] = ()
    """The single-shot results at each noise scale of the sweep."""


@dataclass(frozen=True)
class AiBenchmark:
    kinds: tuple[str, ...]
    """The columns: the baseline first, then the other kinds in the order given."""
    layouts: int
    games: int
    noise: float
    seed: int
    players: tuple[PlayerResult, ...]
    sweep: tuple[float, ...] = ()
    seconds: float = 0.0
    """Wall-clock time of the whole benchmark."""

    def player(self, kind: str) -> PlayerResult:
        return next(p for p in self.players if p.kind == kind)


# --- running --------------------------------------------------------------------------------------------


def columns(kinds: Sequence[str]) -> tuple[str, ...]:
    """The baseline, then every other kind once, in order."""
    out = [REFERENCE]
    for kind in kinds:
        kind = kind.strip()
        if kind and kind not in out:
            out.append(kind)
    return tuple(out)


def single_shots(
    player: Player,
    layouts: Sequence[Position],
    spec: TableSpec = OFFICIAL,
    on_shot: Callable[[], None] | None = None,
    *,
    noise: float = 0.0,
    seed: int = 0,
) -> ShotResults:
    """``player`` decides a stroke for W1 on each layout; each is played through a match from the layout
    (:meth:`kaisa.game.Match.at`) whose chance step executes it with the seat's execution ``noise`` (multiples
    of the convention; 0: exactly as decided), seeded by :func:`chance_seed` from ``seed`` and the layout's
    index, and is simulated and ruled there."""
    from kaisa.game import Match, MatchConfig, Shot
    from kaisa.referee import GameState

    game = GameState(shooter=BallId.W1)
    called = legal = points = fouls = errors = 0
    times: list[float] = []
    for index, position in enumerate(layouts):
        started = time.perf_counter()
        call, stroke = player.shot(position, game, spec, index)
        times.append(time.perf_counter() - started)
        match = Match.at(position, game, MatchConfig(spec=spec, noise=(noise, 0.0), seed=chance_seed(seed, index)))
        try:
            ruling = match.push(Shot(call, stroke)).ruling
        except KaisaError:
            errors += 1
        else:
            assert ruling is not None
            called += call is not None
            legal += ruling.legal_pot
            points += ruling.points
            fouls += bool(ruling.fouls)
        if on_shot is not None:
            on_shot()
    return ShotResults(len(layouts), called, legal, points, fouls, errors, Decisions(tuple(times)))


def benchmark_matches(
    kind: str,
    games: int,
    noise: float,
    seed: int,
    on_game: Callable[[], None] | None = None,
    spec: TableSpec = OFFICIAL,
) -> MatchResults:
    """``games`` matches of ``kind`` against the baseline reference, alternating who is player 1. Game ``i``
    seeds the kind with ``seed + 2i``, the reference with ``seed + 2i + 1`` and the match's chance step with
    :func:`chance_seed` of ``seed`` and ``i``; each seat plays with its kind's execution noise times ``noise``
    (:func:`kaisa.session.registry.match_config`), applied by the match's chance step."""
    from dataclasses import replace

    from kaisa.game import ClockConfig, Match
    from kaisa.players import MatchStalledError, make_player, play_match
    from kaisa.records.stats import MatchStats, PlayerTotals, aggregate, match_stats
    from kaisa.records.storage import PlayerInfo
    from kaisa.session.registry import match_config

    stats: list[MatchStats] = []
    times: list[float] = []
    errors = stalled = 0
    for i in range(games):
        tested = TimedPlayer(make_player(kind, kind, seed + 2 * i, noise))
        reference = TimedPlayer(make_player(REFERENCE, REFERENCE_NAME, seed + 2 * i + 1, noise))
        seats = ((tested, kind), (reference, REFERENCE)) if i % 2 == 0 else ((reference, REFERENCE), (tested, kind))
        players = (seats[0][0], seats[1][0])
        infos = [PlayerInfo(player.name, player_kind) for player, player_kind in seats]
        config = match_config(infos, clock=ClockConfig("off"), seed=chance_seed(seed, i), noise=noise)
        match = Match(replace(config, spec=spec))
        try:
            play_match(match, players)
        except MatchStalledError:
            stalled += 1
        except KaisaError:
            errors += 1
        stats.append(match_stats(match))
        times.extend(tested.decisions)
        if on_game is not None:
            on_game()
    totals = {t.name: t for t in aggregate(stats)}
    return MatchResults(
        games=games,
        player=totals.get(kind, PlayerTotals(kind)),
        reference=totals.get(REFERENCE_NAME, PlayerTotals(REFERENCE_NAME)),
        errors=errors,
        stalled=stalled,
        decisions=Decisions(tuple(times)),
    )


def ai_benchmark(
    kinds: Sequence[str],
    layouts: int = 200,
    games: int = 10,
    noise: float = 1.0,
    seed: int = 2014,
    console: Console | None = None,
    *,
    sweep: Sequence[float] = (),
    spec: TableSpec = OFFICIAL,
) -> AiBenchmark:
    """Measure each of ``kinds`` and the baseline on the same seeded layouts and matches (see the module).

    Raises ``ValueError`` for an unknown kind (before anything is measured) or a negative noise scale.
    """
    from kaisa.layouts import random_layout
    from kaisa.players import COMPUTER_KINDS, make_player, player_kind, seat_noise

    if noise < 0 or any(s < 0 for s in sweep):
        raise ValueError("noise scales must be >= 0")
    if layouts < 1 or games < 0:
        raise ValueError("at least one layout and no negative number of games")
    kinds_ = columns(kinds)
    sweep_ = tuple(dict.fromkeys(float(s) for s in sweep))
    rng = np.random.default_rng(seed)
    positions = [random_layout(rng, spec) for _ in range(layouts)]
    for kind in kinds_:  # unknown kinds fail here, before anything is measured
        if not player_kind(kind).computer:
            raise ValueError(f"{kind!r} is not a computer player; the computer players are {', '.join(COMPUTER_KINDS)}")
    players = {kind: make_player(kind, kind, seed, noise) for kind in kinds_}
    started = time.perf_counter()
    results = []
    per_kind = layouts + games + layouts * len(sweep_)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("AI benchmark", total=per_kind * len(kinds_))

        def step(what: str) -> Callable[[], None]:
            progress.update(task, description=what)
            return lambda: progress.advance(task)

        for kind, player in players.items():
            player.shot(positions[0], _warm_up_state(), spec, layouts)  # untimed: caches, imports, kernels
            shots = single_shots(
                player, positions, spec, step(f"{kind}: single shots"), noise=seat_noise(kind, noise), seed=seed
            )
            matches = benchmark_matches(kind, games, noise, seed, step(f"{kind}: matches"), spec) if games else None
            swept = []
            for scale in sweep_:
                advance = step(f"{kind}: noise {scale:g}")
                if scale == noise:
                    swept.append((scale, shots))
                    progress.advance(task, layouts)
                    continue
                at_scale = make_player(kind, kind, seed, scale)
                noisy = single_shots(at_scale, positions, spec, advance, noise=seat_noise(kind, scale), seed=seed)
                swept.append((scale, noisy))
            results.append(PlayerResult(kind, shots, matches, tuple(swept)))
    return AiBenchmark(
        kinds=kinds_,
        layouts=layouts,
        games=games,
        noise=noise,
        seed=seed,
        players=tuple(results),
        sweep=sweep_,
        seconds=time.perf_counter() - started,
    )


def _warm_up_state() -> GameState:
    from kaisa.referee import GameState

    return GameState(shooter=BallId.W1)


# --- report ---------------------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{1000 * value:.2f}"


def print_ai_report(result: AiBenchmark, console: Console) -> None:
    """One table, one column per player: single shots, matches against the baseline, the noise sweep."""
    table = Table(
        title=f"Computer players v the baseline: noise {result.noise:g}, seed {result.seed}",
        title_justify="left",
        caption=f"single shots: {result.layouts} seeded layouts, W1 to play"
        + (
            f"; matches: {result.games} per kind against the baseline, alternating player 1, clock off"
            if result.games
            else ""
        ),
        caption_justify="left",
    )
    table.add_column("")
    for kind in result.kinds:
        table.add_column(kind, justify="right")
    players = result.players

    def row(label: str, cells: Sequence[str], end: bool = False) -> None:
        table.add_row(label, *cells, end_section=end)

    def header(label: str) -> None:
        row(f"[bold]{label}[/]", [""] * len(players))

    header("single shots")
    row("called shots", [f"{p.shots.called}/{p.shots.ruled}" for p in players])
    row("called-pot success", [_pct(p.shots.called_pot_success) for p in players])
    row("points/shot", [_num(p.shots.points_per_shot, 3) for p in players])
    row("fouls/100 strokes", [_num(p.shots.fouls_per_100, 1) for p in players])
    if any(p.shots.errors for p in players):
        row("refused decisions", [str(p.shots.errors) for p in players])
    row("decision median (ms)", [_ms(p.shots.decisions.median) for p in players])
    row("decision p90 (ms)", [_ms(p.shots.decisions.p90) for p in players], end=True)

    if result.games:
        ms = [p.matches for p in players]
        header("matches v the baseline")
        row("won/lost/unfinished", [f"{m.wins}/{m.losses}/{m.unfinished}" if m else "-" for m in ms])
        row("win rate", [_pct(m.win_rate) if m else "-" for m in ms])
        row("points/inning", [_num(m.points_per_inning) if m else "-" for m in ms])
        row("longest run", [str(m.longest_run) if m else "-" for m in ms])
        row("fouls/100 strokes", [_num(m.fouls_per_100, 1) if m else "-" for m in ms])
        row("called-pot success", [_pct(m.called_pot_success) if m else "-" for m in ms])
        row("baseline's points/inning", [_num(m.reference.points_per_inning) if m else "-" for m in ms])
        if any(m and (m.errors or m.stalled) for m in ms):
            row("refused/stalled games", [f"{m.errors}/{m.stalled}" if m else "-" for m in ms])
        row("decision median (ms)", [_ms(m.decisions.median) if m else "-" for m in ms])
        row("decision p90 (ms)", [_ms(m.decisions.p90) if m else "-" for m in ms], end=True)

    if result.sweep:
        header("called-pot success by noise")
        for i, scale in enumerate(result.sweep):
            row(f"noise {scale:g}", [_pct(p.sweep[i][1].called_pot_success) for p in players])
    console.print(table)
    console.print(f"[dim]{result.seconds:.1f} s; decision times are wall clock, for comparison within one run[/]")


# --- plot -----------------------------------------------------------------------------------------------


def sweep_figure(result: AiBenchmark) -> Figure:
    """The noise sweep as a matplotlib figure: called-pot success (%) against the noise scale, one line per
    player (labelled with its kind; a noise scale where a player made no call has no point)."""
    from matplotlib.figure import Figure

    if not result.sweep:
        raise ValueError("the benchmark has no noise sweep to plot")
    figure = Figure(figsize=(7.0, 4.4), layout="constrained")
    axes = figure.subplots()
    for player in result.players:
        measured = [(s, 100 * r.called_pot_success) for s, r in player.sweep if r.called_pot_success is not None]
        axes.plot([s for s, _ in measured], [v for _, v in measured], marker="o", linewidth=2, label=player.kind)
    axes.set_title(f"Called-pot success against stroke noise ({result.layouts} layouts, seed {result.seed})")
    axes.set_xlabel("noise scale (1 = the stroke-noise convention)")
    axes.set_ylabel("called-pot success (%)")
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    axes.legend(title="player")
    return figure


def write_sweep_plot(result: AiBenchmark, path: Path) -> None:
    """Save the sweep's figure; the format follows the file's suffix (.png, .svg, .pdf)."""
    sweep_figure(result).savefig(path, dpi=120)
