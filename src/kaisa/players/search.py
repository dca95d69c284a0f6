"""Computer players that search: physics-refined aim, evaluation under noise, safeties, levels.

Kaisa's pockets are barely wider than a ball, so a player wins by choosing shots it can make and leaving
itself the next one. For each candidate call (:mod:`kaisa.players.shots`) the search

1. finds the *window* of cue directions that pot the ball by the call, with the real physics and the real
   referee (a scan around the geometric aim, then bisection of both edges), and aims at its centre;
2. plays the centred stroke many times with the seeded noise of the player's level, each sample simulated
   and ruled: the probability of a legal pot, the expected points, the probability of a foul and of each
   penalty, and the value of the position left: the expected points of the best next shot of every kind
   (from the generator's difficulty, a win by it counting extra), ours if the turn continues, the
   opponent's if it passes, so that a pot whose miss leaves a hanger scores less than one whose miss does
   not;
3. plays a safety (no call, a contact that leaves the opponent the least) when no pot is worth it, the best
   few safeties also played with noise.

The search budget is counted in simulations, not seconds, so a decision is the same for the same seed on any
machine; scans run on a process pool over both cores. Levels differ in noise and budget.
"""

from __future__ import annotations

import math
import os
import signal
import stat
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import pairwise
from multiprocessing import get_context
from statistics import NormalDist
from typing import Any

import numpy as np

from kaisa.call import Call
from kaisa.errors import SimulationError
from kaisa.game.chance import StrokeNoise
from kaisa.model import BallId, Position, Stroke
from kaisa.physics import simulate
from kaisa.players.baseline import BaselinePlayer
from kaisa.players.candidates import ShotCandidate
from kaisa.players.levels import LEVELS, Level
from kaisa.referee import DEFAULT_OPTIONS, GameState, RuleOptions, judge, observe
from kaisa.referee.opening import IllegalPlacementError, check_hand_placement
from kaisa.referee.points import is_middle_direct_kaisa, pot_value
from kaisa.table import OFFICIAL, Point, TableSpec

SAFETY_SCREEN = 3
"""How many of the noiselessly best safeties are played again with noise."""

SAFETY_RECHECK = 12
"""Fresh noisy plays of the chosen safety, whose score is then compared with the best pot's (0: compare the
score it was chosen by, as the search did before). Chosen as the best of :data:`SAFETY_SCREEN` noisy scores,
that score is the luckiest of them: over 200 seeded layouts, 12 of the 24 where either search played safe were
the master playing safe where a five times deeper search potted, half of all the regret. Issue 26 tried 20: no
measurable gain (docs/PERFORMANCE.md section 5)."""

REPLY_SPREAD = 1.5
"""The spread of a next shot's direction error, in multiples of the direction noise: a geometric aim also
errs by what the geometry leaves out. Measured: the easiest four candidates of 60 random layouts, each played
8 times at noise 1 from its geometric aim, are potted as often as this spread predicts from their difficulty
(difficulty 2: 75%, 3: 55%, 4: 29%, 5: 15%, 6: 7%, 7: 3%)."""


COARSE_FIRST = True
"""Whether the window scan tries every other direction first (see :func:`find_window`); False scans every
direction of the grid, as the search did before (kept for the benchmark's side-by-side measurement)."""

REFINE_TOP = 2
"""How many of the best evaluated windows may get the second, deeper look (:data:`REFINE_SAMPLES` more noisy
plays each) before the search chooses; 0 chooses on the first pass, as the search did before. 2 until issue 26."""

REFINE_SAMPLES = 30
"""Noisy plays added to each of the :data:`REFINE_TOP` best windows by the second look: with the master's
first pass of 30 the choice between close contenders rests on 60 plays each (20 and 20 until issue 26's
second change, with the master's six evaluated windows instead of three, docs/PERFORMANCE.md section 5). Regret against a deeper search came
from a contender whose first plays had been lucky (19 seeded layouts: the deep search's choice was among the
master's candidates every time, and mostly among its evaluated windows). 12 and 12 were tried first: over 200
seeded layouts, stratified draws, 20 and 20 cost 12% more simulations and cut the regret by 0.028 points per
shot (paired SE 0.032)."""

REFINE_MARGIN = 1.5
"""The second look is taken only when the two best first-pass scores are closer than this (points): a score
from 12 independent plays erred by about a point (20 stratified plays err less), so a wider gap is seldom
reversed by more plays, and about a third of the decisions skip the second look's simulations."""

EDGE_BISECTIONS = 4
"""Bisections of each edge of the widest run the coarse scan found, from the coarse pitch (two steps, 0.16
degrees for the master) to an eighth of a step (0.01 degrees), as precise as the full scan's three. Three
(0.02 degrees) were tried to pay for the second look: over 19 seeded layouts the coarser aim lost up to a
point per shot on pots the deeper search aims identically, so the edges stay this fine."""

STRATIFIED = True
"""Whether an evaluation's noisy plays draw their noise stratified (a Latin hypercube: each of the five noise
parameters takes one draw from each of ``samples`` equally likely slices of its normal distribution, in a
random order) instead of independently. A pot mostly depends on whether the direction error falls inside a
window a little narrower than two sigmas, so with 12 independent plays the count of those that do varies by
about 40% and the score with it; stratified, it varies by at most one play, while every play still has the
same distribution, so the score stays unbiased. Regret against a deeper search came from such lucky or
unlucky evaluations of the right stroke (the master found the deep search's stroke and ranked it lower).
False draws independently, as the search did before (kept for the benchmark's side-by-side measurement)."""

WIN_VALUE = 10.0
"""Points a stroke's probability of winning the game is worth on top of its points (section 3 near the target)."""


@dataclass(frozen=True)
class Window:
    """The directions around a candidate's aim that pot the called ball legally (no noise)."""

    candidate: ShotCandidate
    stroke: Stroke
    """The candidate's stroke aimed at the centre of the window."""
    width: float
    """Degrees."""
    simulations: int


@dataclass(frozen=True)
class Evaluation:
    """A window's stroke played with noise: what it is worth."""

    call: Call | None
    stroke: Stroke
    kind: str
    window: float
    p_pot: float
    expected_points: float
    p_foul: float
    penalties: dict[str, float] = field(default_factory=dict)
    position_value: float = 0.0
    score: float = 0.0
    p_win: float = 0.0
    """Probability that the stroke wins the game (reaches the winning score by section 3)."""


# --- the process pool ---------------------------------------------------------------------------------

_POOL: Executor | None = None


def _pool() -> Executor:
    """The search's worker processes, forked (fast: they inherit the loaded physics) and then cut loose from
    the caller's open files, so that a web server's listening socket does not outlive the server in them."""
    global _POOL
    if _POOL is None:
        workers = max(1, min(2, os.cpu_count() or 1))
        if os.name == "posix":
            pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=get_context("fork"), initializer=_worker_start, initargs=(os.getpid(),)
            )
            # Ctrl+C is held back while the workers are forked (a forking pool starts them all at its first
            # task) and until each has chosen to ignore it: one arriving in between would end a worker with a
            # traceback; the main process gets it as soon as the workers are started
            held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                pool.submit(int)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            _POOL = pool
        else:
            _POOL = ProcessPoolExecutor(
                max_workers=workers, mp_context=get_context("spawn"), initializer=_ignore_interrupt
            )
    return _POOL


def _ignore_interrupt() -> None:
    """In a worker: Ctrl+C is the main process's to handle (see :func:`_worker_start`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker_start(parent: int) -> None:
    """In a forked worker: ignore Ctrl+C, close the inherited sockets (the pool talks over pipes) and leave
    when the parent has gone, instead of waiting for work forever as an orphan.

    A terminal's Ctrl+C goes to its whole process group, the workers too: each printed a KeyboardInterrupt
    traceback and the pool broke under the main process (issue 29). The main process alone handles it (saves
    the match, says so in one line) and shuts the workers down (:func:`close_pool`)."""
    _ignore_interrupt()
    for name in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []:
        fd = int(name)
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.close(fd)
        except OSError:
            continue

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="kaisa-parent-watch", daemon=True).start()


_simulations = 0


def simulations() -> int:
    """Strokes this process has simulated for searches so far (the benchmark's measure of a search's depth;
    a parallel search counts in its worker processes, not here)."""
    return _simulations


def _legal(
    position: Position, stroke: Stroke, call: Call, game: GameState, spec: TableSpec, options: RuleOptions
) -> bool:
    global _simulations
    _simulations += 1
    try:
        record = simulate(position, stroke, spec=spec)
    except SimulationError:
        return False  # a stroke the engine cannot play faithfully is no stroke to aim for
    ruling = judge(observe(record, call, options=options, spec=spec), call, game, options=options, spec=spec)
    return ruling.legal_pot


def find_window(
    position: Position,
    candidate: ShotCandidate,
    game: GameState,
    half_width: float,
    step: float,
    spec: TableSpec = OFFICIAL,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> Window | None:
    """Scan directions around the candidate's aim; return the widest run of legal pots, its edges bisected.

    The scan is coarse first (every other direction of the ``step`` grid) and fills in the directions between
    only where it found nothing: a window at least two steps wide cannot hide between two coarse directions,
    and the widest run's edges are bisected :data:`EDGE_BISECTIONS` times so that they are as precise as a
    fine scan's (``step / 8``). This saves about a third of the scan's simulations (:data:`COARSE_FIRST`)."""
    base = candidate.stroke
    count = round(half_width / step)
    offsets = [k * step for k in range(-count, count + 1)]

    def legal(offset: float) -> bool:
        return _legal(position, replace(base, direction=base.direction + offset), candidate.call, game, spec, options)

    hits: list[bool | None] = [None] * len(offsets)
    coarse = range(0, len(offsets), 2) if COARSE_FIRST else range(len(offsets))
    for i in coarse:
        hits[i] = legal(offsets[i])
    sims = len(coarse)
    bisections = 3  # a full grid's pitch is one step: three bisections give step / 8
    if COARSE_FIRST:
        if any(hits):
            bisections = EDGE_BISECTIONS
            grid = list(coarse)
        else:
            for i in range(1, len(offsets), 2):
                hits[i] = legal(offsets[i])
            sims = len(offsets)
            grid = list(range(len(offsets)))
    else:
        grid = list(range(len(offsets)))
    pitch = step * (grid[1] - grid[0]) if len(grid) > 1 else step
    runs: list[tuple[int, int]] = []
    start = None
    for j, hit in enumerate([*(bool(hits[i]) for i in grid), False]):
        if hit and start is None:
            start = j
        elif not hit and start is not None:
            runs.append((start, j - 1))
            start = None
    if not runs:
        return None
    middle = len(grid) - 1 if COARSE_FIRST else 0  # of equally wide runs, the one nearest the aim
    lo_j, hi_j = max(runs, key=lambda r: (r[1] - r[0], -abs(r[0] + r[1] - middle)))

    def edge(inside: float, outside: float) -> float:
        nonlocal sims
        for _ in range(bisections):
            mid = (inside + outside) / 2
            sims += 1
            if legal(mid):
                inside = mid
            else:
                outside = mid
        return inside

    low = edge(offsets[grid[lo_j]], offsets[grid[lo_j]] - pitch)
    high = edge(offsets[grid[hi_j]], offsets[grid[hi_j]] + pitch)
    centre = (low + high) / 2
    return Window(candidate, replace(base, direction=base.direction + centre), high - low, sims)


def _find_window_task(
    args: tuple[Position, ShotCandidate, GameState, float, float, TableSpec, RuleOptions],
) -> Window | None:
    return find_window(*args)


@dataclass(frozen=True)
class _Play:
    """A stroke to play for its evaluation: ``samples`` noisy executions (0: once, as aimed)."""

    stroke: Stroke
    call: Call | None
    kind: str
    width: float
    salt: int
    samples: int


PLAY_PARTS = 2
"""Each noisy evaluation is played in this many parts (contiguous slices of its draws), the parts' tallies then
added in order, so that both worker processes share every evaluation: an odd number of evaluations no longer
leaves one worker idle for the last. Fixed, not the number of processors, and done the same way without the
pool, so that a decision is the same bits with and without workers on any machine."""


@dataclass
class _Tally:
    """What some noisy plays of a stroke came to: sums over the ``n`` plays the engine could simulate."""

    n: int = 0
    points: float = 0.0
    pots: float = 0.0
    wins: float = 0.0
    fouls: float = 0.0
    penalties: dict[str, float] = field(default_factory=dict)
    position_value: float = 0.0

    def add(self, other: _Tally) -> None:
        self.n += other.n
        self.points += other.points
        self.pots += other.pots
        self.wins += other.wins
        self.fouls += other.fouls
        for clause, count in other.penalties.items():
            self.penalties[clause] = self.penalties.get(clause, 0.0) + count
        self.position_value += other.position_value


def _tally_task(
    args: tuple[SearchPlayer, _Play, Position, GameState, TableSpec, int, tuple[int, int]],
) -> _Tally:
    player, play, position, game, spec, stroke_index, part = args
    return player._tally(play, position, game, spec, stroke_index, part)


def _parts(play: _Play) -> list[tuple[int, int]]:
    """The slices of ``play``'s draws that are played as separate tasks (:data:`PLAY_PARTS`)."""
    n = max(1, play.samples)
    cuts = [n * k // PLAY_PARTS for k in range(PLAY_PARTS + 1)]
    return [(a, b) for a, b in pairwise(cuts) if b > a]


# --- the player -----------------------------------------------------------------------------------------


class SearchPlayer:
    """A computer player of a :class:`Level`. Deterministic for (seed, action index)."""

    def __init__(
        self,
        level: str | Level = "master",
        name: str | None = None,
        seed: int = 0,
        noise: float = 1.0,
        parallel: bool = True,
        options: RuleOptions = DEFAULT_OPTIONS,
    ) -> None:
        self.level = LEVELS[level] if isinstance(level, str) else level
        self.name = name or self.level.name
        self.seed = seed
        self.noise = StrokeNoise(self.level.noise * noise)
        self.parallel = parallel
        self._lag = BaselinePlayer(self.name, seed)
        self.options = options
        """The match's rules: the candidate strokes are ruled by them, and a pot that reaches their
        ``winning_score`` wins (3)."""

    # the opening decisions are the baseline's: the lag speed is calibrated, W2's place is checked
    def lag(self, ball: BallId, half: str, position: Position, spec: TableSpec, stroke_index: int) -> Stroke:
        return self._lag.lag(ball, half, position, spec, stroke_index)

    def choose_cue_ball(self) -> BallId:
        return BallId.W1

    def place_w2(self, position: Position, spec: TableSpec, options: RuleOptions) -> Point:
        # W2 cannot block the breaker's best shots (banks of the kaisa from hand, which the generator finds
        # whatever W2's place beyond the centre line), so the baseline's conventional place near the foot
        # cushion serves every level.
        return self._lag.place_w2(position, spec, options)

    def shot(
        self, position: Position, game: GameState, spec: TableSpec, stroke_index: int
    ) -> tuple[Call | None, Stroke]:
        best = self.decide(position, game, spec, stroke_index)
        return best.call, best.stroke  # the match's chance step executes it

    # --- search ----------------------------------------------------------------------------------------

    def decide(
        self, position: Position, game: GameState, spec: TableSpec = OFFICIAL, stroke_index: int = 0
    ) -> Evaluation:
        """The best evaluated stroke (a pot, or a safety when no pot is worth it)."""
        ranked = self.evaluate(position, game, spec, stroke_index)
        if ranked and ranked[0].score > self.level.safety_below:
            return ranked[0]
        safety = self.safety(position, game, spec, stroke_index)
        if ranked and (safety is None or ranked[0].score >= safety.score):
            return ranked[0]
        if safety is not None:
            return safety
        return self._fallback(position, game, spec)

    def candidates(self, position: Position, game: GameState, spec: TableSpec) -> list[ShotCandidate]:
        from kaisa.players.shots import generate

        me = game.shooter
        if not game.from_hand:
            return generate(position, game, spec, kinds=self.level.kinds)[: self.level.candidates]
        others = position.without(me)
        found: list[ShotCandidate] = []
        for cue in self._placements(others, me, spec):
            found += generate(others, game, spec, cue=cue, kinds=self.level.kinds)[:3]
        return sorted(found, key=lambda c: c.difficulty)[: self.level.candidates]

    def _placements(self, others: Position, me: BallId, spec: TableSpec) -> list[Point]:
        points = []
        n = self.level.placements
        for i in range(n):
            fx = 0.12 + 0.76 * ((i * 0.618) % 1.0)
            fy = (0.06, 0.14, 0.21)[i % 3]
            point = (spec.width * fx, spec.length * fy)
            try:
                check_hand_placement(others, me, point, spec)
            except IllegalPlacementError:
                continue
            points.append(point)
        return points

    def windows(self, position: Position, game: GameState, spec: TableSpec) -> list[Window]:
        start = position.without(game.shooter) if game.from_hand else position
        tasks = []
        for candidate in self.candidates(position, game, spec):
            for factor in self.level.speeds:
                stroke = replace(candidate.stroke, speed=min(8.0, candidate.stroke.speed * factor))
                tasks.append(
                    (
                        start,
                        replace(candidate, stroke=stroke),
                        game,
                        self.level.scan_half_width,
                        self.level.scan_step,
                        spec,
                        self.options,
                    )
                )
        if self.parallel and len(tasks) > 1:
            results = list(_pool().map(_find_window_task, tasks))
        else:
            results = [_find_window_task(t) for t in tasks]
        return [w for w in results if w is not None]

    def evaluate(
        self, position: Position, game: GameState, spec: TableSpec = OFFICIAL, stroke_index: int = 0
    ) -> list[Evaluation]:
        """The widest found windows, evaluated under noise, best first: a first pass of ``samples`` plays
        each, then, when the two best are closer than :data:`REFINE_MARGIN`, a second look at the
        :data:`REFINE_TOP` best (:data:`REFINE_SAMPLES` more plays each, new draws), whose scores are then the
        mean over all their plays."""
        found = sorted(self.windows(position, game, spec), key=lambda w: (-w.width, w.candidate.difficulty))
        plays = [
            _Play(w.stroke, w.candidate.call, w.candidate.kind, w.width, 100 + i, self.level.samples)
            for i, w in enumerate(found[: self.level.evaluate])
        ]
        first = self._play_all(plays, position, game, spec, stroke_index)
        order = sorted(range(len(plays)), key=lambda i: -first[i].score)
        close = len(order) > 1 and first[order[0]].score - first[order[1]].score < REFINE_MARGIN
        top = order[:REFINE_TOP] if close else []
        again = [replace(plays[i], salt=plays[i].salt + 1000, samples=REFINE_SAMPLES) for i in top]
        for i, more in zip(top, self._play_all(again, position, game, spec, stroke_index), strict=True):
            first[i] = _pooled(first[i], plays[i].samples, more, REFINE_SAMPLES)
        return sorted(first, key=lambda e: -e.score)

    def _play_all(
        self, plays: Sequence[_Play], position: Position, game: GameState, spec: TableSpec, stroke_index: int
    ) -> list[Evaluation]:
        tasks = [(self, play, position, game, spec, stroke_index, part) for play in plays for part in _parts(play)]
        if self.parallel and len(tasks) > 1:
            tallies = iter(list(_pool().map(_tally_task, tasks)))
        else:
            tallies = iter([_tally_task(t) for t in tasks])
        out = []
        for play in plays:
            total = _Tally()
            for _ in _parts(play):
                total.add(next(tallies))
            out.append(self._score(play, total))
        return out

    def appraise(
        self,
        call: Call | None,
        stroke: Stroke,
        position: Position,
        game: GameState,
        samples: int,
        spec: TableSpec = OFFICIAL,
        salt: int = 7,
    ) -> Evaluation:
        """``stroke`` played ``samples`` times with this player's noise and scored as the search scores its
        candidates: the benchmark's common yardstick for two searches' choices (the same ``salt`` gives both
        the same noise draws)."""
        return self._play(_Play(stroke, call, "appraised", 0.0, salt, samples), position, game, spec, 0)

    def _play(self, play: _Play, position: Position, game: GameState, spec: TableSpec, stroke_index: int) -> Evaluation:
        """``play`` executed ``play.samples`` times with this level's noise (none if ``samples`` is 0: once
        as aimed), each simulated and ruled, and scored: expected points, the position left, the win."""
        total = _Tally()
        for part in _parts(play):
            total.add(self._tally(play, position, game, spec, stroke_index, part))
        return self._score(play, total)

    def _strokes(self, play: _Play, spec: TableSpec, stroke_index: int) -> list[Stroke]:
        """The ``play.samples`` noisy executions of ``play``'s stroke (the stroke itself if ``samples`` is 0),
        drawn from the seed, the action and the play's salt."""
        if not play.samples:
            return [play.stroke]
        rng = np.random.default_rng([self.seed, stroke_index, play.salt])
        if STRATIFIED:
            draws = _stratified_normals(rng, play.samples)
            return [self.noise.execute(play.stroke, draws[k], spec) for k in range(play.samples)]
        return [self.noise.apply(play.stroke, rng, spec) for _ in range(play.samples)]

    def _tally(
        self,
        play: _Play,
        position: Position,
        game: GameState,
        spec: TableSpec,
        stroke_index: int,
        part: tuple[int, int],
    ) -> _Tally:
        """The plays ``part`` (a slice of :meth:`_strokes`) of ``play``, each simulated and ruled, summed."""
        start = position.without(game.shooter) if game.from_hand else position
        call = play.call
        tally = _Tally()
        global _simulations
        for stroke in self._strokes(play, spec, stroke_index)[part[0] : part[1]]:
            _simulations += 1
            try:
                record = simulate(start, stroke, spec=spec)
            except SimulationError:
                continue  # a stroke the engine cannot play faithfully tells nothing
            ruling = judge(
                observe(record, call, options=self.options, spec=spec), call, game, options=self.options, spec=spec
            )
            tally.n += 1
            tally.points += ruling.points
            tally.pots += ruling.legal_pot
            tally.wins += ruling.game_over and ruling.winner == game.shooter
            tally.fouls += bool(ruling.fouls)
            for f in ruling.fouls:
                if f.points < 0:
                    tally.penalties[f.clause] = tally.penalties.get(f.clause, 0.0) + 1
            if self.level.position_weight:
                tally.position_value += self._position_value(ruling.position, ruling.state, game.shooter, spec)
        return tally

    def _score(self, play: _Play, tally: _Tally) -> Evaluation:
        """A play's tally as the search scores it: expected points, the position left, the win."""
        n = tally.n
        if n == 0:
            return Evaluation(play.call, play.stroke, play.kind, play.width, 0.0, 0.0, 1.0, {}, 0.0, -WIN_VALUE)
        expected = tally.points / n
        value = tally.position_value / n
        # Near 60 a win is worth more than its points: a white without nakki cannot finish (3), and at 59+ it
        # only gives 2 and the turn, which the referee's points and the position left already count.
        score = expected + self.level.position_weight * value + WIN_VALUE * tally.wins / n
        return Evaluation(
            play.call,
            play.stroke,
            play.kind,
            play.width,
            tally.pots / n,
            expected,
            tally.fouls / n,
            {clause: count / n for clause, count in tally.penalties.items()},
            value,
            score,
            tally.wins / n,
        )

    def _position_value(self, position: Position, state: GameState, me: BallId, spec: TableSpec) -> float:
        """The next shot's expected points: positive if it is ours, negative if the opponent's."""
        value = self.next_shot_value(position, state, spec)
        return value if state.shooter == me else -value

    def next_shot_value(self, position: Position, state: GameState, spec: TableSpec = OFFICIAL) -> float:
        """What the player to move can expect from the next shot: the best of ``reply_kinds`` by its chance
        (from its difficulty, :data:`REPLY_SPREAD`) times its points, a stroke that would win the game
        counting :data:`WIN_VALUE` more. From hand, the best over a few legal places behind the head string."""
        from kaisa.players.shots import generate

        shooter = state.shooter
        if state.from_hand:
            others = position.without(shooter)
            cues: list[Point | None] = list(self._placements(others, shooter, spec)[:3])
            position = others
        elif shooter in position:
            cues = [None]
        else:
            return 0.0
        sigma = max(1e-3, REPLY_SPREAD * self.noise.direction_sigma * self.noise.scale)
        score, target = state.scores[shooter], self.options.winning_score
        best = 0.0
        for cue in cues:
            for candidate in generate(position, state, spec, cue=cue, kinds=self.level.reply_kinds, limit=6):
                tolerance = 1.0 / (2.0**candidate.difficulty - 1.0) if candidate.difficulty > 0 else 1.0
                chance = math.erf(tolerance / (sigma * math.sqrt(2.0)))
                call = candidate.call
                points = pot_value(call.ball, (), middle_direct=is_middle_direct_kaisa(call))
                wins = score + points >= target and not call.ball.is_white  # a white needs a nakki (3)
                best = max(best, chance * (points + (WIN_VALUE if wins else 0.0)))
        return best

    # --- safety ----------------------------------------------------------------------------------------

    def safety(self, position: Position, game: GameState, spec: TableSpec, stroke_index: int) -> Evaluation | None:
        """No call: a contact with an object ball (centred or thin either side, soft or firmer) that leaves the
        opponent the least. Each is played once as aimed; the best :data:`SAFETY_SCREEN` are played again
        ``safety_samples`` times with noise (a safety that only works when struck perfectly is no safety)."""
        me = game.shooter
        cue = position.get(me)
        place = None
        if game.from_hand or cue is None:
            spots = self._placements(position.without(me), me, spec)
            if not spots:
                return None
            cue = place = spots[0]
        start = position.without(me) if place is not None else position
        plays: list[_Play] = []
        for ball, target in start.items():
            if ball == me or (game.from_hand and not target[1] > spec.head_string):
                continue
            aim = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0]))
            thin = math.degrees(math.asin(min(1.0, spec.ball_radius / max(1e-6, math.dist(cue, target)))))
            for offset, speed in ((0.0, 1.2), (thin, 1.6), (-thin, 1.6), (0.0, 2.2)):
                stroke = Stroke(me, speed, (aim + offset) % 360.0, follow=-0.2, place=place)
                plays.append(_Play(stroke, None, "safety", 0.0, 200 + len(plays), 0))
        if not plays:
            return None
        screened = self._play_all(plays, position, game, spec, stroke_index)
        best = sorted(range(len(plays)), key=lambda i: -screened[i].score)[:SAFETY_SCREEN]
        if self.level.safety_samples > 1:
            again = [replace(plays[i], samples=self.level.safety_samples) for i in best]
            noisy = self._play_all(again, position, game, spec, stroke_index)
            chosen = max(range(len(again)), key=lambda i: noisy[i].score)
            if not SAFETY_RECHECK:
                return noisy[chosen]
            # the best of a few noisy scores is the luckiest of them: its score, compared with a pot's, made the
            # master play safe where a deeper search potted; fresh plays of the chosen safety score it fairly
            fresh = replace(again[chosen], salt=again[chosen].salt + 1000, samples=SAFETY_RECHECK)
            return self._play_all([fresh], position, game, spec, stroke_index)[0]
        return screened[best[0]]

    def _fallback(self, position: Position, game: GameState, spec: TableSpec) -> Evaluation:
        call, stroke = self._lag.shot(position, game, spec, 0)
        return Evaluation(call, stroke, "baseline", 0.0, 0.0, 0.0, 0.0)


_NORMAL = NormalDist()


def _stratified_normals(rng: np.random.Generator, count: int) -> np.ndarray[Any, np.dtype[np.float64]]:
    """``count`` rows of five standard normals, each column a Latin hypercube sample: one draw from each of
    ``count`` equally likely slices of the normal distribution, the slices in a random order per column
    (:data:`STRATIFIED`)."""
    slices = np.stack([rng.permutation(count) for _ in range(5)], axis=1)
    uniform = (slices + rng.random((count, 5))) / count
    tiny = np.finfo(float).tiny
    clipped = np.clip(uniform, tiny, 1 - 1e-16)
    normals: np.ndarray[Any, np.dtype[np.float64]] = np.array([_NORMAL.inv_cdf(float(u)) for u in clipped.flat])
    return normals.reshape(count, 5)


def _pooled(a: Evaluation, n: int, b: Evaluation, m: int) -> Evaluation:
    """Two evaluations of the same stroke (``n`` and ``m`` plays) as one over all ``n + m`` plays."""

    def mean(x: float, y: float) -> float:
        return (n * x + m * y) / (n + m)

    clauses = a.penalties.keys() | b.penalties.keys()
    return replace(
        a,
        p_pot=mean(a.p_pot, b.p_pot),
        expected_points=mean(a.expected_points, b.expected_points),
        p_foul=mean(a.p_foul, b.p_foul),
        penalties={c: mean(a.penalties.get(c, 0.0), b.penalties.get(c, 0.0)) for c in sorted(clauses)},
        position_value=mean(a.position_value, b.position_value),
        score=mean(a.score, b.score),
        p_win=mean(a.p_win, b.p_win),
    )


def advise(
    position: Position, game: GameState, level: str = "master", spec: TableSpec = OFFICIAL, seed: int = 0
) -> list[Evaluation]:
    """The best calls in a position with their odds, for a player studying it (the advisor)."""
    player = SearchPlayer(level, seed=seed)
    ranked = player.evaluate(position, game, spec)
    safety = player.safety(position, game, spec, 0)
    return ranked + ([safety] if safety is not None else [])


def close_pool() -> None:
    """Shut the worker processes down: the work not yet started is dropped (after Ctrl+C the rest of an
    interrupted decision is not wanted), the tasks under way finish and the workers exit."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(cancel_futures=True)
        _POOL = None


__all__: Sequence[str] = [
    "LEVELS",
    "WIN_VALUE",
    "Evaluation",
    "Level",
    "SearchPlayer",
    "Window",
    "advise",
    "close_pool",
    "find_window",
]
