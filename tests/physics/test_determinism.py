"""The same bits on every machine (issue 26): seeded strokes, a seeded match and a record's replay give
identical results whichever processor-dependent numeric path the process was started with.

A stroke amplifies a last-bit difference into another game, so anything that computes differently on
another processor (OpenBLAS picks its kernel by CPU, numpy dispatches its SIMD loops by CPU, numba compiles
for the host CPU) would make a club's records unreadable on another machine. Each environment below runs
in its own subprocess and differs from the host in exactly one of those paths; the outputs must be equal
to the bit (floats are printed with ``float.hex``, records are compared as text).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

pytestmark = pytest.mark.slow

AVX512_FEATURES = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
"""numpy's AVX-512 dispatch targets, spelled as numpy 2.3's ``NPY_DISABLE_CPU_FEATURES`` accepts them."""

CONTROLLED = ("OPENBLAS_CORETYPE", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NPY_DISABLE_CPU_FEATURES")
"""The variables the environments set: none of them is inherited from the shell that runs the tests."""

STROKES = 30
MATCH_SEED = "5"

CHECK_ENVIRONMENT = """
import ctypes, glob, os, sys
import numpy, numba
from numpy._core._multiarray_umath import __cpu_features__

# which OpenBLAS kernel runs (numpy's bundled scipy-openblas names it), so the test sees the setting took
[library] = glob.glob(os.path.join(os.path.dirname(numpy.__file__) + ".libs", "libscipy_openblas*.so"))
corename = ctypes.CDLL(library).scipy_openblas_get_corename64_
corename.restype = ctypes.c_char_p
print("OpenBLAS kernel:", corename().decode(), file=sys.stderr)
for feature in os.environ.get("NPY_DISABLE_CPU_FEATURES", "").split():
    assert not __cpu_features__[feature], f"numpy still dispatches {feature}"
if os.environ.get("NUMBA_CPU_NAME"):
    assert numba.config.CPU_NAME == os.environ["NUMBA_CPU_NAME"], numba.config.CPU_NAME
"""

STROKES_DRIVER = (
    CHECK_ENVIRONMENT
    + """
import numpy as np
from kaisa.errors import KaisaError
from kaisa.layouts import random_layout, random_stroke
from kaisa.model import event_to_json
from kaisa.physics import simulate

def exact(value):
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(v) for v in value]
    return value

for seed in range(int(sys.argv[1])):
    rng = np.random.default_rng(seed)
    position = random_layout(rng)
    stroke = random_stroke(rng, position)
    try:
        record = simulate(position, stroke)
    except KaisaError as error:
        print(seed, "refused", type(error).__name__, error)
        continue
    print(seed, "events", [exact(event_to_json(e)) for e in record.events])
    print(seed, "final", exact(record.final.to_json()), exact(record.duration))
"""
)

CLI_DRIVER = CHECK_ENVIRONMENT + "from kaisa.cli import main; sys.argv[0] = 'kaisa'; main()"
"""``kaisa ARGS`` in a process whose environment was checked first."""


@dataclass(frozen=True)
class Environment:
    name: str
    settings: dict[str, str]


@dataclass(frozen=True)
class Played:
    """What one environment produced: the strokes' printout and the seeded match's record."""

    strokes: str
    record: Path
    blas_kernel: str


def run(environment: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-c", *args],
        capture_output=True,
        text=True,
        timeout=900,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, f"{args[1:]}: status {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The process environments, by name. The generic numba target compiles into its own cache folder, so it
    neither overwrites nor reads the host build's kernels (its first compile takes about a minute)."""
    generic_cache = tmp_path_factory.mktemp("numba-generic")
    variants = [
        Environment("numba-generic", {"NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": str(generic_cache)}),
        Environment("openblas-Prescott", {"OPENBLAS_CORETYPE": "Prescott"}),
        Environment("openblas-Haswell", {"OPENBLAS_CORETYPE": "Haswell"}),
        Environment("openblas-SkylakeX", {"OPENBLAS_CORETYPE": "SkylakeX"}),
        Environment("numpy-no-avx512", {"NPY_DISABLE_CPU_FEATURES": AVX512_FEATURES}),
    ]
    base = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    base.update({"COLUMNS": "200", "NO_COLOR": "1"})
    return {e.name: {**base, **e.settings} for e in variants}


def in_parallel(jobs: dict[str, Callable[[], T]]) -> dict[str, T]:
    """Run the jobs two at a time (the machines running the suite have two cores), in the given order, so
    that the numba-generic build (listed first) compiles while the others run."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def played(environments: dict[str, dict[str, str]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    """Each environment's 30 seeded strokes and its ``kaisa match --p1 baseline --p2 baseline --seed 5``."""
    folder = tmp_path_factory.mktemp("records")

    def play(name: str) -> Played:
        environment = environments[name]
        strokes = run(environment, STROKES_DRIVER, str(STROKES))
        record = folder / f"{name}.txt"
        match = ["match", "--p1", "baseline", "--p2", "baseline", "--seed", MATCH_SEED, "--no-db"]
        run(environment, CLI_DRIVER, *match, "--record", str(record))
        kernel = re.search(r"^OpenBLAS kernel: (.*)$", strokes.stderr, re.MULTILINE)
        assert kernel, strokes.stderr[-2000:]
        return Played(strokes.stdout, record, kernel.group(1))

    return in_parallel({name: functools.partial(play, name) for name in environments})


def differences(outputs: dict[str, str]) -> list[str]:
    """For each environment whose output differs from the first one's: its name and the first line that differs."""
    (reference_name, reference), *others = outputs.items()
    found = []
    for name, text in others:
        if text != reference:
            ours, theirs = reference.splitlines(), text.splitlines()
            line = next(
                (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs))
            )
            found.append(
                f"{name} v {reference_name}, line {line + 1}: "
                f"{theirs[line] if line < len(theirs) else '<end>'!r} v {ours[line] if line < len(ours) else '<end>'!r}"
            )
    return found


def test_the_environments_run_different_blas_kernels(played: dict[str, Played]) -> None:
    """OpenBLAS honours ``OPENBLAS_CORETYPE`` (it names Prescott's kernel Katmai), so the others compare
    three kernels, not one."""
    kernels = {played[f"openblas-{core}"].blas_kernel for core in ("Prescott", "Haswell", "SkylakeX")}
    assert len(kernels) == 3, kernels


def test_seeded_strokes_give_the_same_events_and_final_positions_to_the_bit(played: dict[str, Played]) -> None:
    outputs = {name: p.strokes for name, p in played.items()}
    assert len(next(iter(outputs.values())).splitlines()) >= STROKES  # every stroke printed something
    assert not differences(outputs)


def test_a_seeded_match_writes_the_same_record(played: dict[str, Played]) -> None:
    records = {name: p.record.read_text(encoding="utf-8") for name, p in played.items()}
    assert '[Result "W' in next(iter(records.values()))  # the match was played to a result
    assert not differences(records)


def test_a_record_written_under_one_environment_replays_under_every_other(
    played: dict[str, Played], environments: dict[str, dict[str, str]]
) -> None:
    """The record written under the first environment (the numba generic target) is read under each of the
    others; ``kaisa replay`` stops with the first ruling or result that comes out differently."""
    written = next(iter(played.values())).record
    replays = in_parallel(
        {
            name: functools.partial(run, environment, CLI_DRIVER, "replay", str(written))
            for name, environment in list(environments.items())[1:]
        }
    )
    for name, done in replays.items():
        assert "verified" in done.stdout, f"{name}: {done.stdout[-2000:]}"
