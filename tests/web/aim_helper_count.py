"""How often the aim helper says that nothing pots a call that a deeper search pots: the helper before issue 31
(the person's speed, then the geometric route's, scans of 0.8 and 3 degrees) against the helper now (speeds and
spins searched, a fine scan), on the random calls of :mod:`tests.web.aid_agreement` with a power a person might
have set (1-6 m/s).

    PYTHONPATH=src python -m tests.web.aim_helper_count --calls 200

Prints the counts and the helper's time per call now (figures, not a test).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from kaisa.call import parse_call
from kaisa.model import BallId, Position, Stroke
from kaisa.session import GameState
from kaisa.session.aids import aim
from kaisa.session.study import warm_up_physics
from kaisa.table import OFFICIAL, table_to_json
from tests.web.aid_agreement import trials

OLD_SCANS = ((0.8, 0.04), (3.0, 0.1))


def old_finds(position: Position, game: GameState, call_text: str, stroke: Stroke) -> bool:
    """The helper as it was: the person's speed, then the route's, each scanned 0.8 then 3 degrees wide."""
    from kaisa.players.candidates import ShotCandidate
    from kaisa.players.search import find_window
    from kaisa.players.shots import generate

    call = parse_call(call_text)
    routes = [c for c in generate(position, game, OFFICIAL) if c.call == call]
    speeds = [stroke.speed]
    base = stroke.direction
    if routes:
        base = routes[0].stroke.direction
        if abs(routes[0].stroke.speed - stroke.speed) > 0.05:
            speeds.append(routes[0].stroke.speed)
    for speed in speeds:
        candidate = ShotCandidate(call, replace(stroke, direction=base, speed=speed), 0.0, "person")
        for half_width, step in OLD_SCANS:
            if find_window(position, candidate, game, half_width, step, OFFICIAL) is not None:
                return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    warm_up_physics(notice=False)
    rng = random.Random(args.seed)
    game = GameState()
    old_none = new_none = rescued = 0
    seconds: list[float] = []
    for trial in trials(table_to_json(OFFICIAL), args.calls, args.seed):
        position = Position.from_json({"balls": trial.position})
        stroke = Stroke(BallId.W1, round(rng.uniform(1.0, 6.0), 2), trial.direction)
        old = old_finds(position, game, trial.call, stroke)
        start = time.perf_counter()
        new = aim(position, game, parse_call(trial.call), stroke).found
        seconds.append(time.perf_counter() - start)
        old_none += not old
        new_none += not new
        rescued += new and not old
    print(f"{args.calls} calls")
    print(f"before: 'not possible' {old_none} times, {rescued} of them for calls the search now pots")
    print(f"now: 'no window found' {new_none} times")
    print(f"helper time now: median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s")


if __name__ == "__main__":
    main()
