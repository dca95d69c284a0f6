"""Screen variants of the master against cached deep-search choices, paired layout by layout (issue 26).

``kaisa bench master`` measures the master against a deep search derived from it (:func:`kaisa.bench.master.
deep_level`), which costs about 15 processor-seconds a layout. To compare several variants of the master on
the same 200 seeded layouts, this script computes the deep search's choices once (``deep``), then for each
variant only the master's choice (``master``), both appraised exactly as :func:`kaisa.bench.master.regret_at`
does (32 plays, the judge's seed per layout): the regret of the unchanged master here equals the bench's
(0.0692 on seed 2014). A variant is Python run before the workers fork, e.g.::

    python docs/benchmarks/master_screen.py deep                       # the deep search of the master as it is
    python docs/benchmarks/master_screen.py master base                # the master as it is
    python docs/benchmarks/master_screen.py master w6s30 \\
        'levels.LEVELS["master"] = replace(levels.LEVELS["master"], evaluate=6, samples=30); search.REFINE_SAMPLES = 30'

``DEEP`` (a file) chooses where the deep choices are kept; a variant given to ``deep`` changes the master that
the deep search is derived from. It prints the mean regret (SE), the first 111 layouts' mean, simulations and
processor seconds per decision (one process, no workers) and saves each layout's figures next to ``DEEP``.
"""

from __future__ import annotations

import os
import pickle
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace  # noqa: F401 - for the variants
from multiprocessing import get_context
from pathlib import Path

from kaisa.bench import master as bench
from kaisa.players import levels, search  # noqa: F401 - levels for the variants
from kaisa.players.search import SearchPlayer
from kaisa.referee import GameState

LAYOUTS = bench.layouts(200, 2014)
DEEP = Path(os.environ.get("DEEP", "runs/master-screen/deep.pkl"))


def deep_at(index: int) -> tuple[int, float]:
    position, game = LAYOUTS[index], GameState()
    search.COARSE_FIRST = False  # the deep search scans every direction, as in the bench
    choice = SearchPlayer(bench.deep_level(), seed=2014 + index, parallel=False).decide(position, game)
    search.COARSE_FIRST = True
    judge = SearchPlayer("master", seed=10_000 + index, parallel=False)
    return index, judge.appraise(choice.call, choice.stroke, position, game, bench.APPRAISAL_SAMPLES).score


def master_at(job: tuple[int, float]) -> tuple[int, float, int, float, str]:
    index, deep_score = job
    position, game = LAYOUTS[index], GameState()
    before, started = search.simulations(), time.process_time()
    choice = SearchPlayer("master", seed=2014 + index, parallel=False).decide(position, game)
    simulations, cpu = search.simulations() - before, time.process_time() - started
    judge = SearchPlayer("master", seed=10_000 + index, parallel=False)
    score = judge.appraise(choice.call, choice.stroke, position, game, bench.APPRAISAL_SAMPLES).score
    return index, deep_score - score, simulations, cpu, choice.kind


def main() -> None:
    mode, name = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "deep"
    if len(sys.argv) > 3:
        exec(sys.argv[3])  # the variant, before the workers fork
    DEEP.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(2, mp_context=get_context("fork")) as pool:
        if mode == "deep":
            DEEP.write_bytes(pickle.dumps(dict(pool.map(deep_at, range(len(LAYOUTS))))))
            print(f"saved the deep choices' scores for {len(LAYOUTS)} layouts in {DEEP}")
            return
        deep = pickle.loads(DEEP.read_bytes())
        rows = list(pool.map(master_at, sorted(deep.items())))
    (DEEP.parent / f"master-{name}.pkl").write_bytes(pickle.dumps(rows))
    regret = [row[1] for row in rows]
    print(
        f"{name}: regret {statistics.mean(regret):.4f} (SE {statistics.stdev(regret) / len(regret) ** 0.5:.4f}), "
        f"first 111 {statistics.mean(regret[:111]):.4f}; {statistics.mean(r[2] for r in rows):.0f} simulations and "
        f"{statistics.median(r[3] for r in rows):.2f} processor-s (median) per decision; "
        f"{sum(r[4] == 'safety' for r in rows)} safeties"
    )


if __name__ == "__main__":
    main()
