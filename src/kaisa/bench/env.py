"""The research environments' own cost, measured side by side with bare simulate-and-rule calls.

The same seeded 5-ball strokes are played, alternately (and each stroke's two plays in turn first and second:
the second finds the caches warm, which made an earlier version read 9% where the cost is 1-2%), as steps of the PettingZoo environment (decode the
action, play it through the match session, observe, reward) and as bare ``simulate`` + ``observe`` + ``judge``
calls, so both see the same machine load. Each case is an episode reset to the case's position (untimed). The
environment's execution noise is off, so the match's chance step plays the identical stroke.

Then the vector environments: the same seeded ``KaisaShot-v0`` episodes (one stroke each, the baseline's
stroke at the given call) on ``gymnasium.make_vec`` with one environment in this process (sync) and with two
worker processes (async), side by side: the ratio is what a second core buys.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.call import Call
from kaisa.layouts import random_call, random_layout, random_stroke
from kaisa.model import Position, Stroke

if TYPE_CHECKING:
    from kaisa.referee import GameState


@dataclass(frozen=True)
class VectorBenchmark:
    episodes: int
    sync_seconds: float
    """One environment, in this process."""
    async_seconds: float
    """Two environments, each in its own process."""

    @property
    def speedup(self) -> float:
        return self.sync_seconds / self.async_seconds


@dataclass(frozen=True)
class EnvBenchmark:
    strokes: int
    env_seconds: float
    bare_seconds: float
    vector: VectorBenchmark | None = None

    @property
    def overhead(self) -> float:
        """The environment's time over the bare calls', minus one."""
        return self.env_seconds / self.bare_seconds - 1


def bare_call(position: Position, stroke: Stroke, call: Call, game: GameState) -> float:
    """CPU seconds one bare simulate-observe-judge of ``stroke`` takes (this process's CPU time: what other
    processes on a busy machine take does not count, so the ratio holds under load)."""
    from kaisa.physics import simulate
    from kaisa.referee import judge, observe

    started = time.process_time()
    judge(observe(simulate(position, stroke), call), call, game)
    return time.process_time() - started


def env_benchmark(strokes: int = 300, seed: int = 2014, console: Console | None = None) -> EnvBenchmark:
    from kaisa.envs import KaisaAECEnv, call_index, encode_stroke
    from kaisa.game import MatchState, Phase
    from kaisa.model import BallId
    from kaisa.physics import simulate
    from kaisa.referee import GameState, judge, observe

    rng = np.random.default_rng(seed)
    cases: list[tuple[Position, Stroke, Call, int]] = []
    while len(cases) < strokes:
        position = random_layout(rng)
        stroke, call = random_stroke(rng, position), random_call(rng, position)
        try:
            index = call_index(call, BallId.W1)
        except ValueError:
            continue  # a call the environments do not enumerate
        cases.append((position, stroke, call, index))
    environment = KaisaAECEnv(noise=0.0)
    environment.reset(seed=seed)
    states = [
        MatchState(
            phase=Phase.PLAY,
            position=position,
            game=GameState(shooter=BallId.W1),
            owners=(BallId.W1, BallId.W2),
            innings={BallId.W1: 1, BallId.W2: 1},
        )
        for position, *_ in cases
    ]
    actions = [{"call": index, "stroke": encode_stroke(stroke)} for _, stroke, _, index in cases]
    for (position, stroke, call, _), action, state in list(zip(cases, actions, states, strict=True))[:10]:
        judge(observe(simulate(position, stroke), call), call, GameState())  # warm the kernels and caches
        environment.reset(options={"state": state})
        environment.step(action)
    env_seconds = bare_seconds = 0.0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("environment steps and bare calls", total=strokes)
        for k, ((position, stroke, call, _), action, state) in enumerate(zip(cases, actions, states, strict=True)):
            environment.reset(options={"state": state})  # an episode from the case's position, W1 to play
            played = environment.match.state

            # in turn first and second: the second of two plays of one stroke finds the caches warm
            if k % 2:
                bare_seconds += bare_call(position, stroke, call, played.game)
            t0 = time.process_time()
            environment.step(action)
            env_seconds += time.process_time() - t0
            if not k % 2:
                bare_seconds += bare_call(position, stroke, call, played.game)
            progress.advance(task)
    return EnvBenchmark(strokes, env_seconds, bare_seconds, vector_benchmark(strokes, seed, console))


def vector_benchmark(episodes: int = 300, seed: int = 2014, console: Console | None = None) -> VectorBenchmark:
    """``episodes`` seeded KaisaShot-v0 episodes on one environment (sync) and on two processes (async)."""
    import gymnasium as gym

    from kaisa.envs import SHOT_ENV_ID

    seeds = [seed + i for i in range(episodes + episodes % 2)]
    seconds = {}
    with Progress(console=console, transient=True) as progress:
        for mode, n in (("sync", 1), ("async", 2)):
            task = progress.add_task(f"KaisaShot-v0 on {n} {'process' if n == 1 else 'processes'}", total=len(seeds))
            envs: Any = gym.make_vec(SHOT_ENV_ID, num_envs=n, vectorization_mode=mode)
            envs.reset(seed=seeds[:n])  # start the workers, warm the kernels (untimed)
            envs.step(np.stack(envs.call("baseline_action")))
            started = time.perf_counter()
            for i in range(0, len(seeds), n):
                envs.reset(seed=seeds[i : i + n])
                envs.step(np.stack(envs.call("baseline_action")))
                progress.advance(task, n)
            seconds[mode] = time.perf_counter() - started
            envs.close()
    return VectorBenchmark(len(seeds), seconds["sync"], seconds["async"])


def print_env_report(result: EnvBenchmark, console: Console) -> None:
    table = Table(
        title=f"Environments: {result.strokes} seeded 5-ball strokes, as environment steps and as bare calls",
        title_justify="left",
    )
    table.add_column("")
    table.add_column("steps per CPU s", justify="right")
    table.add_column("CPU ms/step", justify="right")
    for name, seconds in (("environment step (AEC)", result.env_seconds), ("simulate + rule", result.bare_seconds)):
        table.add_row(name, f"{result.strokes / seconds:.1f}", f"{1000 * seconds / result.strokes:.2f}")
    console.print(table)
    verdict = "[green]within[/]" if result.overhead < 0.10 else "[red]outside[/]"
    console.print(f"environment overhead = [bold]{100 * result.overhead:.1f}%[/] ({verdict} the 10% target)")
    vector = result.vector
    if vector is None:
        return
    table = Table(
        title=f"Vector environments: {vector.episodes} seeded KaisaShot-v0 episodes (gymnasium.make_vec)",
        title_justify="left",
    )
    table.add_column("")
    table.add_column("episodes/s", justify="right")
    for name, seconds in (
        ("1 environment, sync", vector.sync_seconds),
        ("2 processes, async", vector.async_seconds),
    ):
        table.add_row(name, f"{vector.episodes / seconds:.1f}")
    console.print(table)
    console.print(f"2 processes v 1 = [bold]{vector.speedup:.2f}x[/] the throughput")
