"""Learn to pot a called ball on ``kaisa/KaisaShot-v0`` with the cross-entropy method, in numpy only.

A CleanRL-style single file: every choice is here, top to bottom. Run it from the repository::

    .venv/bin/python examples/train_shot.py                      # about 5 CPU-minutes: minutes on 2 idle cores
    .venv/bin/python examples/train_shot.py --generations 2 --population 4 --batch 4 --eval 10   # smoke test

**Task.** ``KaisaShot-v0`` with the call given: a random 5-ball layout, W1 to play, a direct pot the
geometry calls makeable; one stroke, played exactly (``--noise 0``, the default here; ``--noise 1`` gives the
stroke the execution noise of the baseline player's seat, which this small search does not learn through).

**Policy.** Linear in a few features of the position that the script computes from the observation: the
ghost-ball line to the called pocket (the aim a coach draws), the cut angle, the two distances. Its five
outputs are the stroke: speed, the aim *relative to the ghost-ball line*, elevation, side and follow. The
parameters start at random (the first generation aims a few degrees off the line and plays with random speed,
elevation and spin), so the agent has to learn to aim at the line, how hard to hit, how much spin, and the
corrections that the plain ghost-ball aim misses.

**Learning.** The cross-entropy method: each generation samples ``population`` parameter vectors from a
Gaussian, plays each on the same ``batch`` positions (common random numbers: the same layouts, calls and
noise for every candidate), keeps the best ``elite`` by mean shaped reward (the points, plus up to 0.5 for
moving the called ball towards its pocket) and refits the Gaussian to them. The strokes are played on a
Gymnasium async vector environment, one process per core.

**Evaluation.** On ``eval`` held-out positions (seeds never used in training): the learned policy (the
Gaussian's mean), a uniformly random policy, and the baseline computer player's ghost-ball stroke at the
same call (``env.baseline_action()``), each with the same layout, call and noise. Success is the called
pot made; 95% Wilson intervals. Writes the learning curve (PNG) and the numbers (JSON).
"""

from __future__ import annotations

import argparse
import json
import math
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


# --- playing on the vector environment ------------------------------------------------------------------


def play(envs: Any, seeds: list[int], policy: str | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rewards and successes of one stroke from each seed's position: ``policy`` is parameters, ``random``
    or ``baseline``."""
    n = envs.num_envs
    rewards: list[float] = []
    successes: list[float] = []
    for start in range(0, len(seeds), n):
        chunk = seeds[start : start + n]
        chunk = chunk + [chunk[-1]] * (n - len(chunk))  # pad the last chunk
        observation, _ = envs.reset(seed=chunk)
        if isinstance(policy, np.ndarray):
            actions = act(policy, observation)
        elif policy == "random":
            rng = np.random.default_rng(chunk)
            actions = rng.uniform(-1, 1, size=envs.action_space.shape).astype(np.float32)
        else:
            actions = np.stack(envs.call("baseline_action"))
        _, reward, _, _, info = envs.step(actions)
        keep = len(seeds[start : start + n])
        rewards.extend(np.asarray(reward)[:keep])
        successes.extend(np.asarray(info["success"], dtype=float)[:keep])
    return np.asarray(rewards), np.asarray(successes)


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
    parser.add_argument("--generations", type=int, default=25)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--batch", type=int, default=48, help="training positions per generation")
    parser.add_argument("--eval", type=int, default=600, help="held-out positions for the final evaluation")
    parser.add_argument("--check-every", type=int, default=5, help="generations between validation checks")
    parser.add_argument("--check", type=int, default=200, help="validation positions per check")
    parser.add_argument("--noise", type=float, default=0.0, help="execution noise of the seat (1: baseline's)")
    parser.add_argument("--envs", type=int, default=2, help="processes of the async vector environment")
    parser.add_argument("--std", type=float, default=0.5, help="the search's initial spread")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/train_shot"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    elite = min(args.elite, args.population)

    envs = gym.make_vec(
        ENV_ID, num_envs=args.envs, vectorization_mode="async" if args.envs > 1 else "sync",
        call="given", reward="shaped", noise=args.noise,
    )  # fmt: skip
    spread = np.repeat(args.std * np.array([1.0, 0.2, 1.0, 0.6, 0.6]), N_FEATURES)  # the aim's spread smaller
    mean = spread * rng.standard_normal(spread.size)  # a random start
    std = spread.copy()
    validation = [EVAL_SEEDS // 2 + i for i in range(args.check)]
    curve: list[dict[str, float]] = []
    started = time.perf_counter()
    strokes = 0
    for generation in range(args.generations + 1):
        if generation % args.check_every == 0 or generation == args.generations:
            _, success = play(envs, validation, mean)
            strokes += len(validation)
            low, high = wilson(success.sum(), len(success))
            curve.append(
                {"generation": generation, "strokes": strokes, "success": success.mean(), "low": low, "high": high}
            )
            print(
                f"generation {generation:3d}  strokes {strokes:6d}  validation success {100 * success.mean():5.1f}% "
                f"[{100 * low:.1f}, {100 * high:.1f}]  {time.perf_counter() - started:6.0f} s",
                flush=True,
            )
        if generation == args.generations:
            break
        seeds = [TRAIN_SEEDS + generation * args.batch + i for i in range(args.batch)]
        candidates = mean + std * rng.standard_normal((args.population, mean.size))
        scores = np.array([play(envs, seeds, theta)[0].mean() for theta in candidates])
        strokes += args.population * args.batch
        best = candidates[np.argsort(scores)[-elite:]]
        mean = SMOOTHING * best.mean(axis=0) + (1 - SMOOTHING) * mean
        std = np.sqrt(SMOOTHING * best.var(axis=0) + (1 - SMOOTHING) * std**2) + 0.01 * spread
        print(
            f"  generation {generation:3d}: mean reward {scores.mean():.3f}, elite {np.sort(scores)[-elite:].mean():.3f}",
            flush=True,
        )

    held_out = [EVAL_SEEDS + i for i in range(args.eval)]
    results = {}
    for name, policy in (("trained", mean), ("random", "random"), ("baseline", "baseline")):
        reward, success = play(envs, held_out, policy)
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
    envs.close()
    seconds = time.perf_counter() - started
    summary = {"args": {k: str(v) for k, v in vars(args).items()}, "seconds": seconds, "strokes": strokes,
               "curve": curve, "evaluation": results, "theta": mean.tolist()}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(summary, indent=2))
    plot(curve, results, args.out / "learning_curve.png")
    print(f"{strokes} training strokes in {seconds:.0f} s; wrote {args.out / 'results.json'} and learning_curve.png")


def plot(curve: list[dict[str, float]], results: dict[str, dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [c["strokes"] for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.plot(x, [100 * c["success"] for c in curve], marker="o", label="CEM policy (validation positions)")
    ax.fill_between(x, [100 * c["low"] for c in curve], [100 * c["high"] for c in curve], alpha=0.2)
    for name, style in (("baseline", "--"), ("random", ":")):
        r = results[name]
        ax.axhline(100 * r["success"], linestyle=style, color="grey")
        ax.text(x[-1], 100 * r["success"], f" {name} (held out)", va="bottom", ha="right", color="grey")
    ax.set_xlabel("strokes played (training and validation)")
    ax.set_ylabel("called pot made (%)")
    ax.set_title("KaisaShot-v0, given call: cross-entropy method on a linear policy")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    main()
