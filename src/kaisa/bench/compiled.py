"""Kaisa's engine (:mod:`kaisa.physics.compiled`) against pooltool 0.6.0, its reference: agreement and speed.

Plays seeded random Kaisa strokes three ways in one process, stroke by stroke (which goes first rotating):
stock pooltool, pooltool with the fast layer (:mod:`kaisa.physics.fast`), and the engine. For each stroke it
compares the engine's record with stock pooltool's: the event sequence (each event's type, balls, rail, pocket
and jaw side, in order), every final ball position, the referee's ruling on a random call, the whole record
bit for bit (times and positions as floats) and, every ``paths_every`` strokes, the positions sampled for
animation. pooltool's last bits depend on the processor's BLAS kernel and numpy's vector loops, so the run
happens in a child process under :data:`kaisa.physics.reference.REFERENCE_ENVIRONMENT` (the kernel the engine
writes out). pooltool is a development dependency: without it there is nothing to compare against. Tests
never assert on the times.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kaisa.call import Call
from kaisa.layouts import random_call, random_layout, starting_position, wild_stroke
from kaisa.model import BallId, Event, Position, ShotRecord, Stroke
from kaisa.table import OFFICIAL, TableSpec

KINDS = ("break", "pot", "bank", "frozen", "cushion", "two-ball")
"""The stroke kinds, in turn: a break from hand behind the head string onto the starting position; a stroke
aimed at a ball with spin (pots, kisses, cannons); a stroke in any direction (banks, kicks, jaws); a layout
with balls frozen together at contact distance, struck into the cluster; balls touching rails (placed
exactly at contact, pushed to the 1 micrometre gap as every placement is); two balls, hard, sometimes with
an elevated cue."""


def _at(centre: tuple[float, float], distance: float, angle: float) -> tuple[float, float]:
    return (centre[0] + distance * math.cos(angle), centre[1] + distance * math.sin(angle))


def _stroke(rng: np.random.Generator, cue: tuple[float, float], target: tuple[float, float], **kw: Any) -> Stroke:
    aim = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])) + float(rng.normal(0, kw.pop("spread", 2)))
    side, follow = rng.uniform(-0.35, 0.35, size=2)
    return Stroke(
        BallId.W1,
        speed=float(rng.uniform(kw.pop("soft", 0.5), kw.pop("hard", 6.0))),
        direction=aim,
        side=float(side),
        follow=float(follow),
        **kw,
    )


def _fits(position: dict[str, tuple[float, float]], p: tuple[float, float], spec: TableSpec) -> bool:
    r = spec.ball_radius
    return (
        spec.is_on_bed(p)
        and spec.cushion_gap(p) >= 0
        and all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * r - 1e-9 for q in position.values())
    )


def _break(rng: np.random.Generator, spec: TableSpec) -> tuple[Position, Stroke]:
    position = starting_position(spec)
    r = spec.ball_radius
    placed = {b.value: p for b, p in position.items()}
    while True:
        x = float(rng.uniform(r + 0.01, spec.width - r - 0.01))
        place = (x, float(rng.uniform(r + 0.01, spec.head_string - 0.01)))
        if _fits(placed, place, spec):
            break
    target = position[[BallId.K, BallId.R1][int(rng.integers(2))]]
    stroke = _stroke(rng, place, target, soft=3.0, hard=8.0, spread=1.5, place=place)
    return position, stroke


def _frozen(rng: np.random.Generator, spec: TableSpec) -> tuple[Position, Stroke]:
    r = spec.ball_radius
    while True:
        base = random_layout(rng, spec, balls=2)
        placed = {b.value: p for b, p in base.items()}
        anchor = placed["W2"]
        angle = float(rng.uniform(0, 2 * math.pi))
        chain = [_at(anchor, 2 * r, angle)]
        chain.append(_at(chain[0], 2 * r, angle + float(rng.choice([0.0, math.pi / 3, -math.pi / 3]))))
        if (
            all(_fits(placed, p, spec) for p in chain)
            and math.hypot(chain[1][0] - anchor[0], chain[1][1] - anchor[1]) >= 2 * r - 1e-9
        ):
            placed["K"], placed["R1"] = chain
            free = random_layout(rng, spec, balls=5)["R2"]
            if _fits(placed, free, spec):
                placed["R2"] = free
            position = Position(placed)
            target = [anchor, *chain][int(rng.integers(3))]
            return position, _stroke(rng, placed["W1"], target, soft=0.3, hard=7.0)


def _cushion(rng: np.random.Generator, spec: TableSpec) -> tuple[Position, Stroke]:
    r = spec.ball_radius
    while True:
        placed = {b.value: p for b, p in random_layout(rng, spec).items()}
        moved = 0
        for ball in ("K", "R1", "W2")[: int(rng.integers(1, 4))]:
            wall = int(rng.integers(4))
            x, y = placed[ball]
            p = [(r, y), (spec.width - r, y), (x, r), (x, spec.length - r)][wall]
            rest = {b: q for b, q in placed.items() if b != ball}
            if _fits(rest, p, spec) and abs(spec.cushion_gap(p)) < 1e-12:
                placed[ball] = p
                moved += 1
        position = Position(placed)
        if moved:
            targets = [b for b in position if b is not BallId.W1]
            target = position[targets[int(rng.integers(len(targets)))]]
            return position, _stroke(rng, placed["W1"], target, soft=0.5, hard=7.0)


def agreement_cases(strokes: int, seed: int, spec: TableSpec = OFFICIAL) -> Iterator[tuple[str, Position, Stroke]]:
    """Seeded random Kaisa strokes of every kind in :data:`KINDS`, in turn."""
    rng = np.random.default_rng(seed)
    for i in range(strokes):
        kind = KINDS[i % len(KINDS)]
        if kind == "break":
            position, stroke = _break(rng, spec)
        elif kind == "frozen":
            position, stroke = _frozen(rng, spec)
        elif kind == "cushion":
            position, stroke = _cushion(rng, spec)
        elif kind == "two-ball":
            position = random_layout(rng, spec, balls=2)
            stroke = _stroke(rng, position["W1"], position["W2"], soft=2.0, hard=8.0, spread=4)
            if rng.random() < 0.3:
                stroke = replace(stroke, elevation=float(rng.uniform(2, 15)))
        else:
            position = random_layout(rng, spec)
            if kind == "pot":
                targets = [b for b in position if b is not BallId.W1]
                target = position[targets[int(rng.integers(len(targets)))]]
                stroke = _stroke(rng, position["W1"], target)
            else:
                stroke = wild_stroke(rng)
        yield kind, position, stroke


def event_sequence(record: ShotRecord) -> tuple[tuple[object, ...], ...]:
    """The domain events without times and positions: type, balls, rail, pocket, jaw side, in order."""
    return tuple(_signature(e) for e in record.events)


def _signature(event: Event) -> tuple[object, ...]:
    return (event.type, *(getattr(event, f.name) for f in fields(event) if f.name not in ("t", "positions")))


def _bit_identical(a: ShotRecord, b: ShotRecord) -> bool:
    return a == b and all(dict(x.positions) == dict(y.positions) for x, y in zip(a.events, b.events, strict=True))


def final_difference(a: ShotRecord, b: ShotRecord) -> float:
    """The largest distance (m) between a ball's final positions in two records; inf if a ball rests in one
    and not the other."""
    if set(a.final) != set(b.final):
        return math.inf
    return max((math.hypot(p[0] - b.final[ball][0], p[1] - b.final[ball][1]) for ball, p in a.final.items()), default=0)


@dataclass
class Agreement:
    """What the agreement run found, with the cases that disagreed."""

    strokes: int = 0
    same_sequence: int = 0
    same_ruling: int = 0
    bit_identical: int = 0
    largest_final_difference: float = 0.0
    fast_equals_stock: int = 0
    paths_compared: int = 0
    same_paths: int = 0
    refused: int = 0
    """Strokes stock pooltool raised on (the same exception from every backend counts as agreement)."""
    seconds: dict[str, float] = field(default_factory=lambda: {"stock": 0.0, "fast": 0.0, "compiled": 0.0})
    disagreements: list[tuple[int, str]] = field(default_factory=list)

    def share(self, count: int) -> float:
        return count / self.strokes if self.strokes else 0.0

    def ms(self, which: str) -> float:
        return 1000 * self.seconds[which] / self.strokes if self.strokes else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "strokes": self.strokes,
            "refused_by_pooltool": self.refused,
            "identical_event_sequences": self.share(self.same_sequence),
            "identical_rulings": self.share(self.same_ruling),
            "bit_identical_records": self.share(self.bit_identical),
            "paths_compared": self.paths_compared,
            "identical_paths": self.same_paths / self.paths_compared if self.paths_compared else 1.0,
            "largest_final_difference_m": self.largest_final_difference,
            "stock_ms": self.ms("stock"),
            "fast_ms": self.ms("fast"),
            "compiled_ms": self.ms("compiled"),
        }


def _ruling(record: ShotRecord, call: Call) -> Any:
    from kaisa.referee import GameState, judge, observe

    return judge(observe(record, call), call, GameState())


def agreement(strokes: int, seed: int = 2014, console: Console | None = None, paths_every: int = 10) -> Agreement:
    """Play ``strokes`` seeded strokes (:func:`agreement_cases`) on stock pooltool, the fast layer and the
    engine, timing each, and compare the engine's records with stock pooltool's (and, every ``paths_every``
    strokes, the positions sampled at 60 Hz). Runs in a child process under the reference environment unless
    this process is in it already."""
    from kaisa.physics import reference

    if not reference.in_reference_environment():
        return _agreement_in_child(strokes, seed, paths_every)
    from kaisa.physics import compiled, fast

    simulate_pooltool = reference.simulate

    rng = np.random.default_rng(seed + 1)
    cases = list(agreement_cases(strokes, seed))
    calls = [random_call(rng, position) for _, position, _ in cases]
    for _, position, stroke in cases[: min(6, strokes)]:  # every kernel loaded (or compiled) before timing
        simulate_pooltool(position, stroke)
        compiled.simulate(position, stroke)
    result = Agreement()
    backends = ("stock", "fast", "compiled")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("stock v fast v compiled", total=strokes)
            for i, ((kind, position, stroke), call) in enumerate(zip(cases, calls, strict=True)):
                records: dict[str, ShotRecord | Refusal] = {}
                for k in range(3):
                    which = backends[(i + k) % 3]
                    if which == "compiled":
                        t0 = time.perf_counter()
                        records[which] = _play(compiled.simulate, position, stroke)
                    else:
                        (fast.use_stock if which == "stock" else fast.use_fast)()
                        t0 = time.perf_counter()
                        records[which] = _play(simulate_pooltool, position, stroke)
                    result.seconds[which] += time.perf_counter() - t0
                _compare(result, i, kind, records, call)
                if paths_every and i % paths_every == 0 and not isinstance(records["stock"], Refusal):
                    result.paths_compared += 1
                    ours = _play(lambda p, s: compiled.simulate(p, s, trajectories=60), position, stroke)
                    theirs = _play(lambda p, s: simulate_pooltool(p, s, trajectories=60), position, stroke)
                    result.same_paths += ours == theirs
                progress.advance(task)
    finally:
        fast.use_fast()
    return result


def _agreement_in_child(strokes: int, seed: int, paths_every: int) -> Agreement:
    """:func:`agreement` in a fresh Python under the reference environment (numpy and OpenBLAS read it at
    import); its progress goes to this process's stderr."""
    from kaisa.physics import reference

    code = (
        "import json, sys; from dataclasses import asdict; from rich.console import Console; "
        "from kaisa.bench.compiled import agreement; "
        f"r = agreement({strokes}, {seed}, Console(stderr=True), {paths_every}); print(json.dumps(asdict(r)))"
    )
    env = {**os.environ, **reference.reference_environment()}
    done = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the agreement run under the reference environment failed (status {done.returncode})")
    fields_ = json.loads(done.stdout.strip().splitlines()[-1])
    fields_["disagreements"] = [tuple(d) for d in fields_["disagreements"]]
    return Agreement(**fields_)


@dataclass(frozen=True)
class Refusal:
    """A stroke a backend did not play: the exception it raised (pooltool's own models assert on a few
    contacts, e.g. ``v_n_0 < 0`` in the Stronge cushion model; the engine stops at the same contact and
    raises the same :class:`~kaisa.errors.SimulationError`)."""

    kind: str
    message: str


def _play(simulate: Any, position: Position, stroke: Stroke) -> ShotRecord | Refusal:
    try:
        record: ShotRecord = simulate(position, stroke)
    except Exception as exc:  # whatever pooltool raises is compared, not hidden
        return Refusal(type(exc).__name__, str(exc))
    return record


def _compare(result: Agreement, i: int, kind: str, records: dict[str, ShotRecord | Refusal], call: Call) -> None:
    stock, ours, fast_ = records["stock"], records["compiled"], records["fast"]
    result.strokes += 1
    if isinstance(stock, Refusal) or isinstance(ours, Refusal) or isinstance(fast_, Refusal):
        # both refusing with the same kind of error agrees (pooltool's message names its own assertion)
        agree = isinstance(stock, Refusal) and isinstance(ours, Refusal) and stock.kind == ours.kind
        result.refused += isinstance(stock, Refusal)
        result.fast_equals_stock += fast_ == stock
        result.same_sequence += agree
        result.same_ruling += agree
        result.bit_identical += agree
        if not agree:
            result.largest_final_difference = math.inf
            result.disagreements.append((i, kind))
        return
    result.fast_equals_stock += _bit_identical(fast_, stock)
    same = event_sequence(ours) == event_sequence(stock)
    result.same_sequence += same
    ruled = _ruling(ours, call) == _ruling(stock, call)
    result.same_ruling += ruled
    result.bit_identical += _bit_identical(ours, stock)
    difference = final_difference(ours, stock)
    result.largest_final_difference = max(result.largest_final_difference, difference)
    if not (same and ruled and difference <= 1e-3):
        result.disagreements.append((i, kind))


def print_agreement_report(result: Agreement, console: Console, seed: int) -> None:
    n = result.strokes
    table = Table(
        title=f"Compiled event loop v pooltool: {n} seeded Kaisa strokes ({', '.join(KINDS)}), seed {seed}",
        title_justify="left",
    )
    table.add_column("")
    table.add_column("ms/stroke", justify="right")
    table.add_column("v stock", justify="right")
    table.add_column("v fast", justify="right")
    for which in ("stock", "fast", "compiled"):
        ms = result.ms(which)
        table.add_row(
            which if which != "fast" else "fast layer",
            f"{ms:.3f}",
            f"{result.ms('stock') / ms:.2f}x",
            f"{result.ms('fast') / ms:.2f}x",
        )
    console.print(table)
    largest = result.largest_final_difference
    rows = (
        ("identical event sequences", result.share(result.same_sequence), 0.999),
        ("identical rulings", result.share(result.same_ruling), 0.999),
    )
    for label, share, bar in rows:
        verdict = "[green]meets[/]" if share >= bar else "[red]below[/]"
        console.print(f"{label}: [bold]{100 * share:.2f}%[/] ({verdict} the {100 * bar:.1f}% bar)")
    verdict = "[green]within[/]" if largest <= 1e-3 else "[red]outside[/]"
    console.print(f"largest final-position difference: [bold]{largest * 1000:.6f} mm[/] ({verdict} 1 mm)")
    console.print(
        f"bit-identical records (times and positions as floats): {100 * result.share(result.bit_identical):.2f}%; "
        f"fast layer bit-identical to stock: {100 * result.share(result.fast_equals_stock):.2f}%"
    )
    if result.paths_compared:
        console.print(
            f"positions sampled for animation (60 Hz) identical: {result.same_paths} of {result.paths_compared} strokes"
        )
    if result.refused:
        console.print(f"strokes pooltool raised on: {result.refused} (the engine refusing the same counts as agreeing)")
    if result.disagreements:
        shown = ", ".join(f"#{i} ({kind})" for i, kind in result.disagreements[:10])
        console.print(f"[red]disagreeing strokes[/]: {shown}")
    ratio = result.ms("stock") / result.ms("compiled") if result.ms("compiled") else 0.0
    verdict = "[green]meets[/]" if ratio >= 15 else "[yellow]short of[/]"
    console.print(f"compiled v stock = [bold]{ratio:.2f}x[/] per stroke ({verdict} the 15x target)")


def print_agreement_line(figures: dict[str, Any], console: Console) -> None:
    """The compiled loop's figures (:meth:`Agreement.to_json`) as one line of ``kaisa bench``."""
    f = figures
    console.print(
        f"[bold]Engine v pooltool[/] ({f['strokes']} seeded strokes, rotating, under the reference kernel): "
        f"stock {f['stock_ms']:.2f}, fast {f['fast_ms']:.2f}, compiled {f['compiled_ms']:.3f} ms per stroke: "
        f"[bold]{f['stock_ms'] / f['compiled_ms']:.2f}x[/] v stock, {f['fast_ms'] / f['compiled_ms']:.2f}x v fast; "
        f"identical event sequences {100 * f['identical_event_sequences']:.2f}%, rulings "
        f"{100 * f['identical_rulings']:.2f}%, largest final difference {1000 * f['largest_final_difference_m']:.6f} mm"
    )


__all__ = ["KINDS", "Agreement", "agreement", "agreement_cases", "print_agreement_line", "print_agreement_report"]
