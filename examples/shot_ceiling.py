"""How many called pots *any* policy can make on ``kaisa/KaisaShot-v0`` at a given execution noise, measured.

Why: ``examples/train_shot.py`` compares a learned policy with the baseline player on held-out positions; this
script says how far up a policy could go at all, so that a target such as "twice the baseline" can be checked
against what the noise allows before anyone trains for it. Run it from the repository::

    .venv/bin/python examples/shot_ceiling.py --positions 200            # about 1 CPU-minute (3 with --call agent)
    .venv/bin/python examples/shot_ceiling.py --positions 3 --step 0.2   # smoke test

**Method.** On the held-out positions of ``train_shot.py`` (the same seeds), for each call and each of a few
strokes (the baseline's ghost-ball stroke and firmer or softer ones, see :data:`VARIANTS`), the aim is scanned
around the ghost-ball line with the stroke played exactly (noise 0): the directions that pot the called ball
form its window. The chance that a stroke aimed at ``a`` pots under the direction noise alone (Gaussian, sigma
0.125 degrees times ``--noise``) is the window's indicator convolved with that Gaussian; the bound of a
position is that chance at the best aim, for the best of the strokes, and, with ``call="agent"``, for the best
of the direct pots the baseline's geometry calls makeable (:func:`kaisa.envs.shot_env.makeable_calls`; a
position with none counts 0). The bound is generous: it leaves out the noise of speed, elevation and tip,
picks the best stroke per position with hindsight and knows each window exactly; a policy that sees only the
observation makes fewer. The baseline is measured the same way (its own stroke and aim: its *expected*
success) and as played once per position with the noise (as ``train_shot.py`` counts it).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from kaisa.call import Call
from kaisa.envs.encoding import encode_stroke
from kaisa.envs.shot_env import STROKE_PARTS, KaisaShotEnv, makeable_calls
from kaisa.game.chance import StrokeNoise
from kaisa.model import BallId, Position, Stroke

EVAL_SEEDS = 10_000_000
"""The first held-out seed of ``examples/train_shot.py``."""
VARIANTS: dict[str, tuple[float, float, float, float] | None] = {
    "baseline stroke": None,
    "firm 8 m/s": (8.0, 0.0, 0.0, 0.0),
    "5 m/s": (5.0, 0.0, 0.0, 0.0),
    "soft 1.3 m/s, follow": (1.3, 0.0, 0.0, 0.2),
}
"""Strokes tried at every call: None is the baseline's own, otherwise (speed m/s, elevation, side, follow)."""


def pot_chances(
    env: KaisaShotEnv, position: Position, call: Call, stroke: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """1.0 where the stroke, aimed ``offsets`` degrees off its own direction and played exactly, pots the call."""
    hits = np.zeros(len(offsets))
    for i, offset in enumerate(offsets):
        action = stroke.copy()
        action[1] = ((180 * action[1] + offset + 180) % 360 - 180) / 180
        env.reset(seed=0, options={"position": position, "call": call})
        hits[i] = env.step(action)[4]["success"]
    return hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="held-out positions (seeds from 10,000,000)")
    parser.add_argument("--noise", type=float, default=1.0, help="execution noise of the seat (1: baseline's)")
    parser.add_argument("--call", choices=("given", "agent"), default="given", help="who calls, as in the env")
    parser.add_argument("--span", type=float, default=1.2, help="degrees scanned either side of the aim")
    parser.add_argument("--step", type=float, default=0.025, help="degrees between scanned aims")
    parser.add_argument("--out", type=Path, default=Path("runs/shot_ceiling.json"))
    args = parser.parse_args()
    sigma = StrokeNoise().direction_sigma * args.noise
    offsets = np.arange(-args.span, args.span + args.step / 2, args.step)
    if sigma > 0:
        kernel = np.exp(-0.5 * ((offsets[:, None] - offsets[None, :]) / sigma) ** 2)
        kernel /= kernel.sum(axis=1, keepdims=True)
    else:
        kernel = np.eye(len(offsets))
    centre = int(np.argmin(np.abs(offsets)))

    drawn = KaisaShotEnv(call=args.call, noise=args.noise)
    exact = KaisaShotEnv(call="given", noise=0.0)
    names = list(VARIANTS)
    bound = np.zeros(args.positions)
    per_variant = np.zeros((args.positions, len(names)))
    expected = np.zeros(args.positions)
    played = np.zeros(args.positions)
    started = time.process_time()
    for k in range(args.positions):
        drawn.reset(seed=EVAL_SEEDS + k)
        action = drawn.baseline_action()
        played[k] = drawn.step(action)[4]["success"]  # the baseline as train_shot.py counts it
        position = drawn.position
        calls = [drawn.call] if args.call == "given" else [Call(c.ball, c.pocket) for c in makeable_calls(position)]
        for call_number, call in enumerate(calls):
            assert call is not None
            exact.reset(seed=0, options={"position": position, "call": call})
            own = exact.baseline_action()
            for j, name in enumerate(names):
                stroke = own.copy()
                if (variant := VARIANTS[name]) is not None:
                    speed, elevation, side, follow = variant
                    direction = 180.0 * float(own[1])
                    stroke = encode_stroke(Stroke(BallId.W1, speed, direction, elevation, side, follow))[:STROKE_PARTS]
                chance = kernel @ pot_chances(exact, position, call, stroke, offsets)
                per_variant[k, j] = max(per_variant[k, j], chance.max())
                if j == 0 and call_number == 0:
                    expected[k] = chance[centre]  # the baseline's own aim at its own (easiest) call
        bound[k] = per_variant[k].max()
        if (k + 1) % 25 == 0 or k + 1 == args.positions:
            print(
                f"{k + 1:4d} positions  bound {100 * bound[: k + 1].mean():5.1f}%  baseline expected "
                f"{100 * expected[: k + 1].mean():5.1f}%  played {100 * played[: k + 1].mean():5.1f}%  "
                f"{(time.process_time() - started) / 60:.1f} CPU-min",
                flush=True,
            )
    ratio = bound.mean() / expected.mean() if expected.mean() > 0 else math.inf
    summary = {
        "positions": args.positions,
        "first_seed": EVAL_SEEDS,
        "call": args.call,
        "noise": args.noise,
        "direction_sigma_degrees": sigma,
        "bound": bound.mean(),
        "bound_per_stroke": dict(zip(names, per_variant.mean(axis=0).tolist(), strict=True)),
        "baseline_expected": expected.mean(),
        "baseline_played": played.mean(),
        "bound_over_baseline_expected": ratio,
        "cpu_minutes": (time.process_time() - started) / 60,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2))
    for name, value in summary["bound_per_stroke"].items():
        print(f"  one stroke for every position, {name:22s} {100 * value:5.1f}%")
    print(
        f"bound (best stroke per position) {100 * bound.mean():.1f}% = {ratio:.2f} x the baseline's expected "
        f"{100 * expected.mean():.1f}%; wrote {args.out}"
    )


if __name__ == "__main__":
    main()
