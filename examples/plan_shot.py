"""A trained policy that plans: ``train_shot.py``'s learned stroke as the prior, a search on the model at decision time.

Strong game agents pair a learned policy with a search at the moment of the decision; this file does that for
``kaisa/KaisaShot-v0``. Run it from the repository, after ``examples/train_shot.py`` has written its policy::

    .venv/bin/python examples/train_shot.py --noise 1 --cpu-budget 14           # the learned part (CPU-minutes)
    .venv/bin/python examples/plan_shot.py --policy runs/train_shot/results.json  # plans on 600 held-out positions
    .venv/bin/python examples/plan_shot.py --policy runs/smoke/results.json --eval 4 --step 0.2 --workers 1  # smoke

**What is learned.** The linear policy of ``train_shot.py`` (the cross-entropy method, within its CPU budget):
from the observation, the stroke's speed, elevation, side and follow, and the aim relative to the ghost-ball
line. Played as it is, it is the ``trained`` row of the table.

**What is searched, at each decision.** The planner reads the position and the call from the observation
(:func:`kaisa.envs.shot_env.observed_shot`: nothing but what the policy sees) and simulates strokes on the
task's model (:func:`kaisa.envs.shot_env.pots`: the same physics and referee as the environment, played
exactly). For each candidate stroke (``--speeds``, :data:`CANDIDATES`: the policy's stroke, softer and firmer,
with its own spin or with follow; aimed where the policy aims) it scans the aim ``--span`` degrees either side,
every ``--step`` degrees, the edges of each run of pots bisected to ``step / 8``: the *windows* of directions
that pot the call. The environment's noise model is known (:class:`kaisa.game.chance.StrokeNoise` times the
seat's ``noise``): the chance that an aim pots is the windows convolved with the direction's Gaussian. The
planner plays the candidate and aim with the highest chance; where no scan finds a window it plays the
policy's stroke. The noise of speed, side and follow is integrated too (``--robust``, default
``speed,side,follow``; ``""`` for the direction's alone): the ``--robust-top`` (3) best candidates are scanned
again near their best aim with one of those parts moved by plus and minus ``sqrt(3)`` sigmas at a time
(three-point Gauss-Hermite). Without it the trained policy's elevated strokes potted well below the planner's
own estimate (docs/ENVIRONMENTS.md). The planner never sees the environment's seed or the noise actually drawn.

**Choosing the call too** (``--call agent``, the game as played: the player calls). For each of the ``--calls``
(3) easiest direct pots that the geometry sees in the observed position (:func:`kaisa.envs.shot_env.makeable_calls`),
the trained policy gives its stroke at that call (it reads the observation as ``call="given"`` would show it)
and the first pass searches around it; the robust pass then takes the best candidates of all the calls
together, and the planner plays the call and stroke with the highest chance. The baseline calls its easiest
pot by its geometry, and the ``trained`` row plays the trained policy's stroke at that call.

**Evaluation.** On the held-out positions of ``train_shot.py`` (seeds from 10,000,000; the same layout, call and
noise for every policy): the planner, the trained policy alone, the baseline computer player's stroke at the
same call, the same search around the baseline's stroke (``planned on baseline``: what the search makes
without the learned prior) and a random policy; the called pot made, with 95% Wilson intervals; and the planner's cost per
decision (CPU seconds and simulated strokes), measured in the worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from train_shot import ENV_ID, EVAL_SEEDS, N_OUTPUTS, act, wilson

from kaisa.call import Call
from kaisa.envs import decode_stroke, encode_stroke
from kaisa.envs.shot_env import (
    BALLS_SIZE,
    DIRECT_CALLS,
    POCKETS,
    SLOTS,
    STROKE_PARTS,
    direct_call_index,
    makeable_calls,
    observed_shot,
    pots,
    slot_of,
)
from kaisa.game.chance import StrokeNoise
from kaisa.model import MAX_SPEED, MAX_TIP_OFFSET, BallId, Position, Stroke
from kaisa.referee import GameState
from kaisa.table import OFFICIAL

ME = BallId.W1
GAUSS_HERMITE = ((-math.sqrt(3.0), 1 / 6), (0.0, 2 / 3), (math.sqrt(3.0), 1 / 6))
"""Three-point Gauss-Hermite rule for a standard normal: (point, weight); exact for polynomials up to degree 5."""
CANDIDATES = "1x,0.6x,1.6x,8,3,1.3:0.2,2:0.2,1:0.3,1.6x:0.2"
"""The candidate strokes (see :attr:`Settings.speeds`): the policy's, the policy's softer and firmer, with its
spin or with follow; chosen on positions of seeds from 7,000,000 (neither training nor held out)."""
ROBUST_SPAN = 0.5
"""Degrees either side of a candidate's nominal best aim that are scanned again for the other parts' noise."""
BISECTIONS = 3
"""Bisections of each window edge: the edges to ``step / 8``."""


@dataclass(frozen=True)
class Settings:
    noise: float
    span: float
    step: float
    speeds: tuple[str, ...]
    """Candidate strokes, each ``speed[:follow]``: ``"1.4x"`` is a multiple of the prior's speed, ``"8"`` a
    speed in m/s; a follow (ball radii, negative for draw) replaces the prior's, whose other parts stay."""
    robust: tuple[str, ...]
    """The parts of the stroke whose noise the planner integrates over (besides the direction's)."""
    robust_top: int
    """How many of the best candidates (by the direction's noise alone) are scanned again for those parts."""
    level: bool = False
    """Play every candidate level (elevation 0): a raised cue makes the speed's and the tip's noise cost more."""
    calls: int = 3
    """With ``call="agent"``: how many of the geometry's easiest calls are searched."""


@dataclass
class Plan:
    action: np.ndarray
    chance: float
    """The planner's own estimate of the chance that the action pots (0: it found no window)."""
    simulations: int
    chosen: str = ""
    """The candidate stroke played (one of :attr:`Settings.speeds`; empty: the prior's, no window found)."""


def windows(
    position: Position, call: Call, stroke: Stroke, low: float, high: float, step: float
) -> tuple[list[tuple[float, float]], int]:
    """The runs of directions (offsets in degrees from ``stroke``'s) from ``low`` to ``high`` that pot ``call``
    when the stroke is played exactly, and the strokes simulated to find them."""
    offsets = np.arange(low, high + step / 2, step)

    def hit(offset: float) -> bool:
        return pots(position, call, replace(stroke, direction=stroke.direction + offset))

    hits = [hit(float(o)) for o in offsets]
    sims = len(offsets)
    found: list[tuple[float, float]] = []
    k = 0
    while k < len(hits):
        if not hits[k]:
            k += 1
            continue
        first = k
        while k + 1 < len(hits) and hits[k + 1]:
            k += 1
        edges = []
        for inside, outside in ((offsets[first], offsets[first] - step), (offsets[k], offsets[k] + step)):
            inside, outside = float(inside), float(outside)
            for _ in range(BISECTIONS):
                middle = (inside + outside) / 2
                sims += 1
                if hit(middle):
                    inside = middle
                else:
                    outside = middle
            edges.append((inside + outside) / 2)
        found.append((edges[0], edges[1]))
        k += 1
    return found, sims


def perturbed(stroke: Stroke, part: str, z: float, noise: StrokeNoise) -> Stroke:
    """``stroke`` with one part moved by ``z`` sigmas of the noise model (speed, side, follow or elevation)."""
    if part == "speed":
        return replace(stroke, speed=min(MAX_SPEED, max(0.01, stroke.speed + z * noise.speed_sigma * noise.scale)))
    if part == "elevation":
        return replace(stroke, elevation=max(0.0, stroke.elevation + z * noise.elevation_sigma * noise.scale))
    tip = z * noise.tip_sigma * noise.scale / OFFICIAL.ball_radius
    side, follow = stroke.side + (tip if part == "side" else 0.0), stroke.follow + (tip if part == "follow" else 0.0)
    offset = math.hypot(side, follow)
    if offset > MAX_TIP_OFFSET:
        side, follow = side * MAX_TIP_OFFSET / offset, follow * MAX_TIP_OFFSET / offset
    return replace(stroke, side=side, follow=follow)


def chances(runs: list[tuple[float, float]], aims: np.ndarray, sigma: float) -> np.ndarray:
    """For each aim (offset in degrees), the chance that a direction drawn around it with ``sigma`` falls in a run."""
    out = np.zeros(len(aims))
    for low, high in runs:
        if sigma > 0:
            out += _phi((high - aims) / sigma) - _phi((low - aims) / sigma)
        else:
            out += (aims >= low) & (aims <= high)
    return out


_ERF = np.vectorize(math.erf, otypes=[float])


def _phi(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = 0.5 * (1.0 + _ERF(x / math.sqrt(2.0)))
    return result


@dataclass(frozen=True)
class _Candidate:
    """A candidate stroke after the first pass: its best chance from the direction's noise alone."""

    chance: float
    call: Call
    stroke: Stroke
    name: str
    nominal: np.ndarray
    """The chance by aim (offsets in degrees on the planner's grid)."""


def _first_pass(
    position: Position, call: Call, prior: np.ndarray, settings: Settings, aims: np.ndarray, sigma: float
) -> tuple[list[_Candidate], int]:
    """Every candidate stroke around the ``prior`` action's, its windows scanned: those with a window, and the
    strokes simulated."""
    values = np.zeros(7)
    values[:STROKE_PARTS] = prior
    base = decode_stroke(values, ME, position, GameState(shooter=ME))
    sims = 0
    found: list[_Candidate] = []
    for candidate in settings.speeds:
        speed, _, follow = candidate.partition(":")
        wanted = base.speed * float(speed[:-1]) if speed.endswith("x") else float(speed)
        stroke = replace(base, speed=min(MAX_SPEED, max(0.05, wanted)))
        if settings.level:
            stroke = replace(stroke, elevation=0.0)
        if follow:
            stroke = replace(stroke, follow=float(follow), side=0.0)
        runs, n = windows(position, call, stroke, -settings.span, settings.span, settings.step)
        sims += n
        if runs:
            expected = chances(runs, aims, sigma)
            found.append(_Candidate(float(expected.max()), call, stroke, candidate, expected))
    return found, sims


def _robust_best(
    position: Position, first: list[_Candidate], settings: Settings, aims: np.ndarray, noise: StrokeNoise
) -> tuple[_Candidate | None, Stroke | None, float, int]:
    """The ``robust_top`` best candidates scanned again near their best aim with the other parts' noise: the
    best of them, its stroke aimed, its chance, and the strokes simulated."""
    sigma = noise.direction_sigma * noise.scale
    best, best_stroke, best_chance, sims = None, None, 0.0, 0
    for candidate in sorted(first, key=lambda c: -c.chance)[: settings.robust_top]:
        # the other parts' noise, one at a time (three-point Gauss-Hermite), scanned near the nominal best aim
        centre = float(aims[int(np.argmax(candidate.nominal))])
        low, high = max(-settings.span, centre - ROBUST_SPAN), min(settings.span, centre + ROBUST_SPAN)
        expected = candidate.nominal.copy()
        for part in settings.robust:
            for z, weight in (GAUSS_HERMITE[0], GAUSS_HERMITE[2]):
                moved = perturbed(candidate.stroke, part, z, noise)
                runs, n = windows(position, candidate.call, moved, low, high, settings.step)
                sims += n
                expected += weight * (chances(runs, aims, sigma) - candidate.nominal)
        inside = (aims >= low) & (aims <= high)
        i = int(np.argmax(np.where(inside, expected, -1.0)))
        if expected[i] > best_chance:
            best, best_chance = candidate, float(expected[i])
            best_stroke = replace(candidate.stroke, direction=candidate.stroke.direction + float(aims[i]))
    return best, best_stroke, best_chance, sims


def plan(observation: np.ndarray, prior: np.ndarray, settings: Settings) -> Plan:
    """The planner's action for one observation, searching around the ``prior`` action's stroke (see the
    module's docstring)."""
    position, call = observed_shot(observation)
    if call is None:
        return Plan(prior, 0.0, 0)
    noise = StrokeNoise(settings.noise)
    aims = np.arange(-settings.span, settings.span + 1e-9, settings.step / 8)
    first, sims = _first_pass(position, call, prior, settings, aims, noise.direction_sigma * noise.scale)
    best, stroke, chance, more = _robust_best(position, first, settings, aims, noise)
    if best is None or stroke is None:
        return Plan(prior, 0.0, sims + more)  # no window, or the other parts' noise leaves no chance near one
    action = np.clip(encode_stroke(stroke)[:STROKE_PARTS], -1.0, 1.0).astype(np.float32)
    return Plan(action, chance, sims + more, best.name)


def with_call(observation: np.ndarray, call: Call) -> np.ndarray:
    """The observation as ``call="given"`` would show it with ``call``: what the trained policy reads."""
    shown = np.array(observation, dtype=np.float32)
    shown[BALLS_SIZE:] = 0.0
    shown[BALLS_SIZE + slot_of(call.ball)] = 1.0
    shown[BALLS_SIZE + len(SLOTS) + POCKETS.index(call.pocket)] = 1.0
    return shown


def call_action(stroke_action: np.ndarray, call: Call) -> np.ndarray:
    """A ``call="agent"`` action: the stroke's five numbers and ``call`` as the largest of the 24 after them."""
    action = np.full(STROKE_PARTS + len(DIRECT_CALLS), -1.0, dtype=np.float32)
    action[:STROKE_PARTS] = stroke_action[:STROKE_PARTS]
    action[STROKE_PARTS + direct_call_index(call)] = 1.0
    return action


def plan_call(observation: np.ndarray, theta: np.ndarray, settings: Settings, fallback: np.ndarray) -> Plan:
    """With ``call="agent"``: the planner chooses the call too. For each of the ``calls`` easiest direct pots
    that the geometry sees (:func:`kaisa.envs.shot_env.makeable_calls`, read from the observed position), the
    trained policy's stroke at that call and the first pass around it; then the robust pass over the best
    candidates of all calls together, and the call and stroke with the highest chance. ``fallback`` (the
    baseline's action) where the geometry sees no pot or no window is found."""
    position, _ = observed_shot(observation)
    noise = StrokeNoise(settings.noise)
    sigma = noise.direction_sigma * noise.scale
    aims = np.arange(-settings.span, settings.span + 1e-9, settings.step / 8)
    first: list[_Candidate] = []
    sims = 0
    seen: set[Call] = set()
    for found in makeable_calls(position):
        call = Call(found.ball, found.pocket)
        if call in seen:
            continue
        seen.add(call)
        prior = act(theta, with_call(observation, call))[0]
        more, n = _first_pass(position, call, prior, settings, aims, sigma)
        first += more
        sims += n
        if len(seen) == settings.calls:
            break
    best, stroke, chance, more_sims = _robust_best(position, first, settings, aims, noise)
    if best is None or stroke is None:
        return Plan(fallback, 0.0, sims + more_sims)
    stroke_action = np.clip(encode_stroke(stroke)[:STROKE_PARTS], -1.0, 1.0)
    return Plan(call_action(stroke_action, best.call), chance, sims + more_sims, f"{best.call} {best.name}")


# --- playing: one environment per worker process ------------------------------------------------------

_ENV: Any = None


def _start(noise: float, call: str = "given") -> None:
    global _ENV
    import gymnasium as gym

    import kaisa.envs  # noqa: F401 - registers the environments in a spawned worker

    _ENV = gym.make(ENV_ID, call=call, noise=noise).unwrapped


def _play(job: tuple[list[int], str, np.ndarray, Settings]) -> list[tuple[float, float, int, float, str]]:
    """For each seed: the called pot made (0/1), the CPU seconds of the decision, the strokes it simulated, and
    the planner's own estimate of its chance (0 for the policies that do not plan)."""
    seeds, name, theta, settings = job
    out = []
    for seed in seeds:
        observation, _ = _ENV.reset(seed=seed)
        started = time.process_time()
        sims, estimate, chosen = 0, 0.0, ""
        agent = _ENV.call_mode == "agent"
        if name == "planned" and agent:
            planned = plan_call(observation, theta, settings, _ENV.baseline_action())
            action, sims, estimate, chosen = planned.action, planned.simulations, planned.chance, planned.chosen
        elif name in ("planned", "planned on baseline"):
            if agent:
                raise SystemExit("planned on baseline is for call=given")
            prior = act(theta, observation)[0] if name == "planned" else _ENV.baseline_action()
            planned = plan(observation, prior, settings)
            action, sims, estimate, chosen = planned.action, planned.simulations, planned.chance, planned.chosen
        elif name == "trained" and agent:
            # the baseline's call (the geometry's easiest), the trained policy's stroke at it
            baseline = _ENV.baseline_action()
            found = makeable_calls(observed_shot(observation)[0])
            if found:
                call = Call(found[0].ball, found[0].pocket)
                action = call_action(act(theta, with_call(observation, call))[0], call)
            else:
                action = baseline
        elif name == "trained":
            action = act(theta, observation)[0]
        elif name == "random":
            size = N_OUTPUTS + (len(DIRECT_CALLS) if agent else 0)
            action = np.random.default_rng(seed).uniform(-1, 1, size=size).astype(np.float32)
        else:
            action = _ENV.baseline_action()
        cpu = time.process_time() - started
        info = _ENV.step(action)[4]
        out.append((float(info["success"]), cpu, sims, estimate, chosen))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--policy", type=Path, required=True, help="train_shot.py's results.json (its theta)")
    parser.add_argument("--eval", type=int, default=600, help="held-out positions")
    parser.add_argument("--first-seed", type=int, default=EVAL_SEEDS, help="the first position's seed")
    parser.add_argument("--noise", type=float, default=1.0, help="execution noise of the seat (1: baseline's)")
    parser.add_argument("--span", type=float, default=1.2, help="degrees scanned either side of the policy's aim")
    parser.add_argument("--step", type=float, default=0.025, help="degrees between scanned aims")
    parser.add_argument("--speeds", default=CANDIDATES, help="candidate speeds: 1.4x (times the policy's), 8 (m/s)")
    parser.add_argument("--robust", default="speed,side,follow", help="parts whose noise the plan integrates over")
    parser.add_argument("--robust-top", type=int, default=3, help="candidates scanned again for those parts")
    parser.add_argument("--level", action="store_true", help="play every candidate stroke level (elevation 0)")
    parser.add_argument("--call", choices=("given", "agent"), default="given", help="who calls: the task or the player")
    parser.add_argument("--calls", type=int, default=3, help="with --call agent: the easiest calls searched")
    parser.add_argument("--policies", default="planned,planned on baseline,trained,baseline,random")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs/plan_shot.json"))
    args = parser.parse_args()
    if args.calls < 1:
        parser.error(f"--calls is how many calls are searched, at least 1, not {args.calls}")
    theta = np.array(json.loads(args.policy.read_text())["theta"])
    settings = Settings(
        args.noise,
        args.span,
        args.step,
        tuple(args.speeds.split(",")),
        tuple(p for p in args.robust.split(",") if p),
        args.robust_top,
        args.level,
        args.calls,
    )
    seeds = [args.first_seed + i for i in range(args.eval)]
    names = args.policies.split(",")
    size = max(1, math.ceil(len(seeds) / (4 * args.workers)))
    jobs = [(seeds[k : k + size], name, theta, settings) for name in names for k in range(0, len(seeds), size)]
    started = time.perf_counter()
    if args.workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.workers, _start, (args.noise, args.call)) as pool:
            done = pool.map(_play, jobs, chunksize=1)
    else:
        _start(args.noise, args.call)
        done = [_play(job) for job in jobs]
    rows: dict[str, list[tuple[float, float, int, float, str]]] = {name: [] for name in names}
    for (_, name, _, _), part in zip(jobs, done, strict=True):
        rows[name].extend(part)
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        table = np.array([row[:4] for row in rows[name]])
        chosen = [row[4] for row in rows[name]]
        made = table[:, 0]
        low, high = wilson(made.sum(), len(made))
        results[name] = {"success": made.mean(), "low": low, "high": high, "n": len(made),
                         "cpu_per_decision": table[:, 1].mean(), "cpu_per_decision_max": table[:, 1].max(),
                         "simulations_per_decision": table[:, 2].mean(), "estimated_chance": table[:, 3].mean(),
                         "chosen": {c: chosen.count(c) for c in sorted(set(chosen))}}  # fmt: skip
        print(
            f"{name:20s} called pot made {100 * made.mean():5.1f}% [{100 * low:.1f}, {100 * high:.1f}]  "
            f"{1000 * table[:, 1].mean():7.1f} CPU-ms per decision (max {1000 * table[:, 1].max():.0f}), "
            f"{table[:, 2].mean():5.0f} strokes simulated",
            flush=True,
        )
    if "planned" in results and "baseline" in results and results["baseline"]["success"] > 0:
        p, b = results["planned"], results["baseline"]
        print(
            f"planned / baseline = {p['success'] / b['success']:.2f}; intervals apart: {p['low'] > b['high']}; "
            f"the planner's own estimate {100 * p['estimated_chance']:.1f}%"
        )
    summary = {"args": {k: str(v) for k, v in vars(args).items()}, "seconds": time.perf_counter() - started,
               "evaluation": results}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2))
    print(f"wrote {args.out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
