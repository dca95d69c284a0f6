"""``kaisa bench records``: statistics of stored matches read from their stored rulings v re-played through
the physics, per match, side by side in one run; and statistics over many stored matches (copies of the
played ones), as ``kaisa stats`` computes them."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table


@dataclass(frozen=True)
class RecordsBench:
    """Seconds per match read from the stored rulings (``stored``) and re-played (``replayed``), over the same
    ``played`` matches; and the seconds for the statistics of ``many`` stored matches."""

    played: int
    actions: int
    stored: float
    replayed: float
    many: int
    many_seconds: float

    @property
    def ratio(self) -> float:
        return self.replayed / self.stored

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "actions": self.actions,
            "stored_s_per_match": self.stored,
            "replayed_s_per_match": self.replayed,
            "ratio": self.ratio,
            "many": self.many,
            "many_s": self.many_seconds,
        }


def run_records_bench(console: Console, url: str, played: int, many: int, seed: int) -> RecordsBench:
    """Play ``played`` matches between baseline players into the database at ``url``, time their statistics
    both ways, then store copies up to ``many`` matches and time ``stats`` over all of them."""
    from kaisa.game import Match, replay
    from kaisa.players import BaselinePlayer, MatchStalledError, play_match
    from kaisa.records.stats import match_stats, stored_stats
    from kaisa.records.storage import PlayerInfo, open_store
    from kaisa.session.registry import match_config

    seats = (PlayerInfo("Aino", "baseline"), PlayerInfo("Eero", "baseline"))

    with open_store(url) as store:
        ids: list[int] = []
        attempt = seed
        with console.status("playing the matches to store...") as status:
            while len(ids) < played:
                attempt += 1
                status.update(f"playing match {len(ids) + 1} of {played}...")
                config = match_config(seats, seed=attempt)
                match = Match(config)
                try:
                    play_match(match, (BaselinePlayer("Aino", attempt), BaselinePlayer("Eero", attempt + 1)))
                except MatchStalledError:
                    continue
                ids.append(store.import_match(match, kinds=("baseline", "baseline")))
        actions = sum(store.match_info(i).actions for i in ids)
        stored_times, replayed_times = [], []
        for match_id in ids:  # side by side, match by match
            start = time.perf_counter()
            [fast] = list(stored_stats(store, [match_id]))
            stored_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            config, _, recorded = store.load(match_id)
            slow = match_stats(replay(config, recorded), event=f"match {match_id}")
            replayed_times.append(time.perf_counter() - start)
            if fast.to_json() != slow.to_json():
                raise AssertionError(f"match {match_id}: the stored statistics differ from the replayed ones")
        with console.status(f"storing copies up to {many} matches..."):
            index = 0
            while len(store.list_matches()) < many:
                missing = many - len(store.list_matches())
                store.copy_match(ids[index % len(ids)], min(missing, 100))
                index += 1
        start = time.perf_counter()
        total = sum(1 for _ in stored_stats(store))
        many_seconds = time.perf_counter() - start
    return RecordsBench(
        played=len(ids),
        actions=actions,
        stored=statistics.mean(stored_times),
        replayed=statistics.mean(replayed_times),
        many=total,
        many_seconds=many_seconds,
    )


def print_records_bench(console: Console, result: RecordsBench) -> None:
    table = Table(title="Statistics of stored matches: stored rulings v re-played", title_justify="left")
    table.add_column("")
    table.add_column("s per match", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row("re-played through the physics (before)", f"{result.replayed:.3f}", "1")
    table.add_row("read from the stored rulings (now)", f"{result.stored:.4f}", f"{result.ratio:.0f}x faster")
    console.print(table)
    console.print(
        f"{result.played} baseline matches, {result.actions} actions in all, each measured both ways side by side."
    )
    console.print(
        f"kaisa stats over {result.many} stored matches (copies of those): {result.many_seconds:.1f} s "
        f"({1000 * result.many_seconds / max(1, result.many):.1f} ms per match)"
    )
