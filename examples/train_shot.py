"""Learn to pot a called ball on ``kaisa/KaisaShot-v0`` with the cross-entropy method, in numpy only.

A CleanRL-style single file: every choice is here, top to bottom. Run it from the repository::

    .venv/bin/python examples/train_shot.py --noise 1    # at most --cpu-budget (14) CPU-minutes in all processes
    .venv/bin/python examples/train_shot.py --generations 2 --population 4 --batch 4 --eval 10 --check 10   # smoke test

**Task.** ``KaisaShot-v0`` with the call given: a random 5-ball layout, W1 to play, a direct pot the
geometry calls makeable; one stroke with the execution noise of the baseline player's seat (``--noise 1``,
the default, the environment's default too; ``--noise 0`` plays the stroke exactly). The policy plays the
call it is given, as the baseline does, so the two are compared on the same pots; how many of them any
policy could make at a given noise is what ``examples/shot_ceiling.py`` measures.

**Policy.** Linear in a few features of the position that the script computes from the observation: the
ghost-ball line to the called pocket (the aim a coach draws), the cut angle, the two distances. Its five
outputs are the stroke: speed, the aim *relative to the ghost-ball line*, elevation, side and follow. The
search starts aimed on the line with random speed, elevation and spin (random parameters for those four
outputs, zeros for the aim's), so the agent has to learn how hard to hit, how much spin, and the corrections
of a few tenths of a degree that the plain ghost-ball aim misses: the execution noise moves the aim by 1/8
degree (one sigma), and a pot's window of directions is typically a few tenths of a degree wide.

**Learning.** The cross-entropy method: each generation samples ``population`` parameter vectors from a
Gaussian, plays each on the same ``batch`` fresh positions (common random numbers: the same layouts, calls
and noise for every candidate, so two candidates differ only by what they do), ranks them by mean score (1
for the called pot, plus :data:`SHAPING_WEIGHT` times the shaping of a miss) and refits the Gaussian to the
best ``elite``, the better weighing more. With the noise, a candidate's score on a few dozen positions is
mostly luck (the called pot is made about one time in ten), so the batch is large: the engine plays a stroke
in under a millisecond of CPU. The strokes are played by ``workers`` processes, each with its own
environment, each candidate's positions split between them.

**Evaluation.** On ``eval`` held-out positions (seeds never used in training): the learned policy (the
Gaussian's mean), a uniformly random policy, and the baseline computer player's ghost-ball stroke at the
same call (``env.baseline_action()``), each with the same layout, call and noise. Success is the called
pot made; 95% Wilson intervals. CPU time is counted for every process: the training's as this process's
time plus the time each worker measured for its tasks, the whole run's with ``getrusage`` (this process and
its ended workers). Writes the learning curve against CPU-minutes (PNG) and the numbers (JSON).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from kaisa.table import OFFICIAL, PocketId

ENV_ID = "kaisa/KaisaShot-v0"
POCKETS = list(PocketId)
N_FEATURES = 5
N_OUTPUTS = 5
AIM_SCALE = 5.0
"""Degrees of aim correction per unit of the aim output's linear part."""
SMOOTHING = 0.7
"""How far each generation moves the search's Gaussian to its elite (1: all the way)."""
SHAPING_WEIGHT = 0.2
"""What the shaping (up to 0.5 for a miss that moved the called ball towards its pocket) weighs in a
candidate's score beside the pot (1): enough to rank candidates that pot nothing, too little to trade a pot
for near misses (at full weight, the search learned to push balls towards pockets, not to pot them)."""
TRAIN_SEEDS = 0
EVAL_SEEDS = 10_000_000
"""Held-out positions are drawn from seeds at and above this; training seeds stay far below it."""


# --- features and the policy --------------------------------------------------------------------------


def features(observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of observations: the ghost-ball aim in degrees, and the features
    (1, cue-to-ghost distance, ball-to-pocket distance, signed cut / 90, |cut| / 90)."""
    obs = np.atleast_2d(observation)
    width, length, r = OFFICIAL.width, OFFICIAL.length, OFFICIAL.ball_radius
    balls = obs[:, :15].reshape(-1, 5, 3)
    xy = np.stack([(balls[..., 0] + 1) / 2 * width, (balls[..., 1] + 1) / 2 * length], axis=-1)
    slot = np.argmax(obs[:, 15:19], axis=1)
    pocket = np.argmax(obs[:, 19:25], axis=1)
    cue = xy[:, 0]
    ball = xy[np.arange(len(obs)), 1 + slot]
    mouth = np.array([OFFICIAL.pockets[p].mouth_centre for p in POCKETS])[pocket]
    to_pocket = mouth - ball
    d_obj = np.linalg.norm(to_pocket, axis=1)
    u = to_pocket / d_obj[:, None]
    ghost = ball - 2 * r * u
    to_ghost = ghost - cue
    d_cue = np.linalg.norm(to_ghost, axis=1)
    aim = np.degrees(np.arctan2(to_ghost[:, 1], to_ghost[:, 0]))
    cut = (np.degrees(np.arctan2(u[:, 1], u[:, 0])) - aim + 180) % 360 - 180
    phi = np.stack([np.ones(len(obs)), d_cue, d_obj, cut / 90, np.abs(cut) / 90], axis=1)
    return aim, phi


def act(theta: np.ndarray, observation: np.ndarray) -> np.ndarray:
    """The actions of the linear policy ``theta`` (``N_OUTPUTS x N_FEATURES``) for a batch of observations."""
    aim, phi = features(observation)
    out = phi @ theta.reshape(N_OUTPUTS, N_FEATURES).T
    direction = aim + AIM_SCALE * out[:, 1]
    action: np.ndarray = np.tanh(out)  # speed, -, elevation, side, follow in [-1, 1]
    action[:, 1] = ((direction + 180) % 360 - 180) / 180
    return action.astype(np.float32)


# --- playing: one environment per worker process ------------------------------------------------------

_ENV: Any = None
"""This worker's environment (a process pool's initializer makes it)."""


def _start(noise: float) -> None:
    global _ENV
    import kaisa.envs  # noqa: F401 - registers the environments in a spawned worker

    _ENV = gym.make(ENV_ID, call="given", reward="shaped", noise=noise).unwrapped


def _play_chunk(job: tuple[list[int], str | np.ndarray]) -> tuple[np.ndarray, float]:
    """The reward, success and score (rows) of one stroke from each seed's position (columns), and the CPU
    seconds this took."""
    seeds, policy = job
    cpu = time.process_time()
    rewards, successes, scores = out = np.zeros((3, len(seeds)))
    for i, seed in enumerate(seeds):
        observation, _ = _ENV.reset(seed=seed)
        if isinstance(policy, np.ndarray):
            action = act(policy, observation)[0]
        elif policy == "random":
            action = np.random.default_rng(seed).uniform(-1, 1, size=N_OUTPUTS).astype(np.float32)
        else:
            action = _ENV.baseline_action()
        _, reward, _, _, info = _ENV.step(action)
        rewards[i], successes[i] = float(reward), float(info["success"])
        scores[i] = successes[i] + SHAPING_WEIGHT * (float(reward) - info["points"])  # the pot, or a little shaping
    return out, time.process_time() - cpu


class Player:
    """Plays policies on positions, in this process (``workers=1``) or on a pool of worker processes, and
    counts the CPU seconds of every process (``cpu``)."""

    def __init__(self, workers: int, noise: float) -> None:
        self.workers = workers
        self.worker_cpu = 0.0
        self.pool: Any = None
        if workers > 1:
            import multiprocessing

            self.pool = multiprocessing.get_context("spawn").Pool(workers, _start, (noise,))
        else:
            _start(noise)

    def play(self, jobs: list[tuple[list[int], str | np.ndarray]]) -> list[np.ndarray]:
        """For each (seeds, policy) job: the rewards, successes and scores (rows) on those seeds' positions."""
        chunks: list[tuple[int, tuple[list[int], str | np.ndarray]]] = []
        for j, (seeds, policy) in enumerate(jobs):
            size = max(1, math.ceil(len(seeds) / self.workers))
            chunks.extend((j, (seeds[k : k + size], policy)) for k in range(0, len(seeds), size))
        done = (
            self.pool.map(_play_chunk, [c for _, c in chunks])
            if self.pool
            else map(_play_chunk, [c for _, c in chunks])
        )
        parts: list[list[np.ndarray]] = [[] for _ in jobs]
        for (j, _), (part, cpu) in zip(chunks, done, strict=True):
            parts[j].append(part)
            if self.pool:
                self.worker_cpu += cpu
        return [np.concatenate(p, axis=1) for p in parts]

    def cpu(self) -> float:
        """CPU seconds so far: this process and the workers (measured in each worker, task by task)."""
        return time.process_time() + self.worker_cpu

    def close(self) -> float:
        """Stops the workers; the CPU seconds of this process and its ended children, as the kernel counts them."""
        if self.pool:
            self.pool.close()
            self.pool.join()
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a success rate."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# --- the cross-entropy method -------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--generations", type=int, default=60)
    parser.add_argument("--population", type=int, default=24)
    parser.add_argument("--elite", type=int, default=6)
    parser.add_argument("--batch", type=int, default=900, help="training positions per generation")
    parser.add_argument("--eval", type=int, default=600, help="held-out positions for the final evaluation")
    parser.add_argument("--check-every", type=int, default=5, help="generations between validation checks")
    parser.add_argument("--check", type=int, default=600, help="validation positions per check")
    parser.add_argument("--noise", type=float, default=1.0, help="execution noise of the seat (1: baseline's)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (1: play in this process)")
    parser.add_argument("--std", type=float, default=0.5, help="the search's initial spread")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu-budget", type=float, default=14.0, help="CPU-minutes of training (all processes) after which it stops"
    )
    parser.add_argument("--out", type=Path, default=Path("runs/train_shot"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    elite = min(args.elite, args.population)
    weights = np.log(elite + 0.5) - np.log(np.arange(1, elite + 1))  # the best weighs most
    weights /= weights.sum()

    player = Player(args.workers, args.noise)
    # the aim's spread is small: AIM_SCALE * 0.025 = 1/8 degree per unit of a feature, the direction noise's sigma
    spread = np.repeat(args.std * np.array([1.0, 0.05, 1.0, 0.6, 0.6]), N_FEATURES)
    mean = spread * rng.standard_normal(spread.size)  # a random stroke (speed, elevation, spin) ...
    mean[N_FEATURES : 2 * N_FEATURES] = 0.0  # ... aimed on the ghost-ball line
    std = spread.copy()
    validation = [EVAL_SEEDS // 2 + i for i in range(args.check)]
    curve: list[dict[str, float]] = []
    started = time.perf_counter()
    strokes = 0
    step_cpu = check_cpu = 0.0  # the CPU seconds of the last generation and of the last validation check
    for generation in range(args.generations + 1):
        # stop where one more generation and the last check would overrun the budget: what is reported is within it
        spent = player.cpu() > 60 * args.cpu_budget - 1.1 * (step_cpu + check_cpu)
        last = generation == args.generations or (generation > 0 and spent)
        if generation % args.check_every == 0 or last:
            before = player.cpu()
            [(_, success, _)] = player.play([(validation, mean)])
            strokes += len(validation)
            low, high = wilson(success.sum(), len(success))
            cpu = player.cpu()
            check_cpu = cpu - before
            curve.append(
                {"generation": generation, "strokes": strokes, "cpu_minutes": cpu / 60,
                 "success": success.mean(), "low": low, "high": high}
            )  # fmt: skip
            print(
                f"generation {generation:3d}  strokes {strokes:7d}  validation success {100 * success.mean():5.1f}% "
                f"[{100 * low:.1f}, {100 * high:.1f}]  {cpu / 60:5.2f} CPU-min  {time.perf_counter() - started:5.0f} s",
                flush=True,
            )
        if last:
            if generation < args.generations:
                print(f"stopped after {generation} generations: the next would overrun {args.cpu_budget:g} CPU-minutes")
            break
        before = player.cpu()
        seeds = [TRAIN_SEEDS + generation * args.batch + i for i in range(args.batch)]
        candidates = mean + std * rng.standard_normal((args.population, mean.size))
        scores = np.array([score.mean() for _, _, score in player.play([(seeds, theta) for theta in candidates])])
        strokes += args.population * args.batch
        best = candidates[np.argsort(scores)[::-1][:elite]]
        centre = weights @ best
        mean = SMOOTHING * centre + (1 - SMOOTHING) * mean
        spread_now = np.sqrt(weights @ (best - centre) ** 2)
        std = np.sqrt(SMOOTHING * spread_now**2 + (1 - SMOOTHING) * std**2) + 0.01 * spread
        print(
            f"  generation {generation:3d}: mean score {scores.mean():.3f}, elite {np.sort(scores)[-elite:].mean():.3f}",
            flush=True,
        )
        step_cpu = player.cpu() - before

    training_cpu = player.cpu()
    held_out = [EVAL_SEEDS + i for i in range(args.eval)]
    results = {}
    names = ("trained", "random", "baseline")
    played = player.play([(held_out, policy) for policy in (mean, "random", "baseline")])
    for name, (reward, success, _) in zip(names, played, strict=True):
        low, high = wilson(success.sum(), len(success))
        results[name] = {
            "success": success.mean(),
            "low": low,
            "high": high,
            "mean_reward": reward.mean(),
            "n": len(success),
        }
        print(
            f"{name:9s} success {100 * success.mean():5.1f}% [{100 * low:.1f}, {100 * high:.1f}]  mean shaped reward {reward.mean():.3f}"
        )
    total_cpu = player.close()
    seconds = time.perf_counter() - started
    summary = {"args": {k: str(v) for k, v in vars(args).items()}, "seconds": seconds, "strokes": strokes,
               "training_cpu_minutes": training_cpu / 60, "total_cpu_minutes": total_cpu / 60,
               "curve": curve, "evaluation": results, "theta": mean.tolist()}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(summary, indent=2))
    plot(curve, results, args.out / "learning_curve.png", args.noise)
    print(
        f"{strokes} training and validation strokes, {training_cpu / 60:.2f} CPU-minutes of training "
        f"({total_cpu / 60:.2f} in all, with start-up and the evaluation: getrusage of this process and its workers), "
        f"{seconds:.0f} s; wrote {args.out / 'results.json'} and learning_curve.png"
    )


def plot(curve: list[dict[str, float]], results: dict[str, dict[str, float]], path: Path, noise: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [c["cpu_minutes"] for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.plot(x, [100 * c["success"] for c in curve], marker="o", label="CEM policy (validation positions)")
    ax.fill_between(x, [100 * c["low"] for c in curve], [100 * c["high"] for c in curve], alpha=0.2)
    for name, style in (("baseline", "--"), ("random", ":")):
        r = results[name]
        ax.axhline(100 * r["success"], linestyle=style, color="grey")
        ax.text(x[-1], 100 * r["success"], f" {name} (held out)", va="bottom", ha="right", color="grey")
    ax.set_xlabel("CPU-minutes of training (all processes)")
    ax.set_ylabel("called pot made (%)")
    ax.set_title(f"KaisaShot-v0, given call, noise {noise:g}: cross-entropy method on a linear policy")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    main()
