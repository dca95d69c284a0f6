"""Data to learn from: self-play of computer players, one row per stroke, written to Parquet.

The matches are the tournament's (:func:`kaisa.tournament.schedule`, :func:`kaisa.tournament.play_game`):
each is a pure function of a small frozen spec, played through a match session in memory, so a data set is
the same row for row on the local process pool and on Ray. Each worker turns its match's stack into rows
(:func:`match_rows`); this process alone writes the file, in schedule order, to a temporary name first and
renames it when complete, so a file under the final name is never half-written.

The columns are stated once, in :data:`COLUMNS` (name, Arrow type, meaning): the Parquet schema, the data
card written next to the data (``README.md``) and ``docs/DATASET.md``'s table come from them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from kaisa.errors import ErrorText
from kaisa.model import BALL_ORDER, BallId, Position, Stroke
from kaisa.tournament import Backend, GameSpec, TournamentError, make_backend, play_game, schedule

if TYPE_CHECKING:
    from kaisa.game import Match

DATA_FILE = "strokes.parquet"
CARD_FILE = "README.md"
BALLS = tuple(b.value for b in BALL_ORDER)
"""W1 W2 R1 R2 K: the ball columns' order."""
STROKE_FIELDS = ("speed", "direction", "elevation", "side", "follow", "place_x", "place_y")


class DatasetError(TournamentError):
    """A data set that cannot be written as asked (bad players or options, an output that cannot be written,
    a backend that cannot start). The message says what was wrong and what is allowed."""

    code = "bad-dataset"
    kind = ErrorText("Aineistoa ei voi kirjoittaa näin.", "The data set cannot be written as asked.")


def _ball_columns(prefix: str, when: str) -> list[tuple[str, pa.DataType, str]]:
    out = []
    for ball in BALLS:
        for axis in ("x", "y"):
            out.append(
                (f"{prefix}_{ball}_{axis}", pa.float64(), f"{ball}'s {axis} in metres {when}; null: off the table")
            )
    return out


def _stroke_columns(prefix: str, what: str) -> list[tuple[str, pa.DataType, str]]:
    meaning = {
        "speed": "cue speed, m/s",
        "direction": "degrees, 0 = +x, 90 = +y",
        "elevation": "cue elevation, degrees",
        "side": "tip offset sideways, fraction of the ball radius",
        "follow": "tip offset up (+) or down (-), fraction of the ball radius",
        "place_x": "x of a cue ball in hand placed for the stroke (m); null: not from hand",
        "place_y": "y of a cue ball in hand placed for the stroke (m); null: not from hand",
    }
    return [(f"{prefix}_{f}", pa.float64(), f"{what}: {meaning[f]}") for f in STROKE_FIELDS]


COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("match", pa.int32(), "the match's index in the schedule (pair by pair, game by game)"),
    ("stroke", pa.int32(), "the stroke's number in its match, from 0"),
    ("action", pa.int32(), "the action's index in the match (the lag and W2's placement are actions too)"),
    ("chance_seed", pa.int64(), "the seed of the match's chance step (its execution noise)"),
    ("player", pa.string(), "the shooter's name (the kind, numbered when entered twice)"),
    ("kind", pa.string(), "the shooter's player kind (baseline, beginner, club, master)"),
    ("opponent_kind", pa.string(), "the other player's kind"),
    ("shooter", pa.string(), "the shooter's cue ball, W1 or W2"),
    ("noise", pa.float64(), "the execution noise of the shooter's seat (multiples of the convention)"),
    ("score_shooter", pa.int32(), "the shooter's score before the stroke"),
    ("score_opponent", pa.int32(), "the other player's score before the stroke"),
    ("from_hand", pa.bool_(), "the stroke is played from behind the head string (ball in hand, the break)"),
    ("opening", pa.bool_(), "the break (1.2)"),
    ("shootout", pa.bool_(), "a stroke of the shoot-out"),
    ("state", pa.string(), "the game state before the stroke, JSON (kaisa.referee.GameState.from_json reads it)"),
    *_ball_columns("before", "before the stroke"),
    ("call", pa.string(), "the call in the notation (e.g. 'K FL', 'R1 HL kyyti W2'); null: no call"),
    ("call_ball", pa.string(), "the called ball; null: no call"),
    ("call_pocket", pa.string(), "the called pocket; null: no call"),
    *_stroke_columns("intended", "the stroke the player intended"),
    *_stroke_columns("executed", "the stroke the match's chance step played"),
    ("points", pa.int32(), "the shooter's net points from the stroke (negative: a foul's penalty)"),
    ("legal_pot", pa.bool_(), "the called pot was made and counts"),
    ("clauses", pa.list_(pa.string()), "every rule clause the ruling applied, in the rulebook's order"),
    ("foul_clauses", pa.list_(pa.string()), "the clauses of the fouls"),
    ("turn_passes", pa.bool_(), "the other player is at the table next"),
    ("game_over", pa.bool_(), "the stroke ended the game (60 reached)"),
    ("winner", pa.string(), "the winner's cue ball when the stroke ended the game, else null"),
    ("ruling", pa.string(), "the whole ruling, JSON (kaisa.referee.Ruling.to_json)"),
    *_ball_columns("after", "for the next stroke (at rest, respotted, a cue ball in hand removed)"),
    ("next_shooter", pa.string(), "the cue ball at the table next"),
)
SCHEMA = pa.schema([pa.field(name, kind, metadata={"description": text}) for name, kind, text in COLUMNS])


@dataclass(frozen=True)
class MatchRows:
    """One match's strokes as rows (column name to value), and its spec. Equal whatever process made them."""

    spec: GameSpec
    rows: tuple[dict[str, Any], ...]
    finished: bool
    error: str | None = None


def _position(prefix: str, position: Position) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for ball in BALL_ORDER:
        point = position.get(ball)
        out[f"{prefix}_{ball.value}_x"] = None if point is None else float(point[0])
        out[f"{prefix}_{ball.value}_y"] = None if point is None else float(point[1])
    return out


def _stroke(prefix: str, stroke: Stroke) -> dict[str, float | None]:
    place = stroke.place
    return {
        f"{prefix}_speed": stroke.speed,
        f"{prefix}_direction": stroke.direction,
        f"{prefix}_elevation": stroke.elevation,
        f"{prefix}_side": stroke.side,
        f"{prefix}_follow": stroke.follow,
        f"{prefix}_place_x": None if place is None else float(place[0]),
        f"{prefix}_place_y": None if place is None else float(place[1]),
    }


def stroke_rows(match: Match, spec: GameSpec) -> list[dict[str, Any]]:
    """The rows of every stroke in ``match`` (its stack), in order."""
    from kaisa.game import Phase, Shot

    rows: list[dict[str, Any]] = []
    first, second = spec.seats
    kinds = (spec.kinds[first], spec.kinds[second])
    names = (spec.names[first], spec.names[second])
    for index, entry in enumerate(match.stack):
        shot, ruling, before = entry.action, entry.outcome.ruling, entry.before
        if not isinstance(shot, Shot) or ruling is None:
            continue
        game = before.game
        seat = before.player_of(game.shooter)
        other = BallId.W2 if game.shooter is BallId.W1 else BallId.W1
        call = shot.call
        rows.append(
            {
                "match": spec.index,
                "stroke": len(rows),
                "action": index,
                "chance_seed": spec.chance_seed,
                "player": names[seat],
                "kind": kinds[seat],
                "opponent_kind": kinds[1 - seat],
                "shooter": game.shooter.value,
                "noise": float(match.config.noise[seat]),
                "score_shooter": game.score(game.shooter),
                "score_opponent": game.score(other),
                "from_hand": game.from_hand,
                "opening": game.opening,
                "shootout": before.phase is Phase.SHOOTOUT,
                "state": json.dumps(game.to_json(), sort_keys=True),
                **_position("before", before.position),
                "call": None if call is None else str(call),
                "call_ball": None if call is None else call.ball.value,
                "call_pocket": None if call is None else call.pocket.value,
                **_stroke("intended", shot.stroke),
                **_stroke("executed", shot.played),
                "points": ruling.points,
                "legal_pot": ruling.legal_pot,
                "clauses": list(ruling.clauses),
                "foul_clauses": [f.clause for f in ruling.fouls],
                "turn_passes": ruling.turn_passes,
                "game_over": ruling.game_over,
                "winner": None if ruling.winner is None else ruling.winner.value,
                "ruling": json.dumps(ruling.to_json(), sort_keys=True),
                **_position("after", ruling.position),
                "next_shooter": ruling.state.shooter.value,
            }
        )
    return rows


def match_rows(spec: GameSpec) -> MatchRows:
    """Play the match ``spec`` describes (:func:`kaisa.tournament.play_game`) and turn it into rows, in the
    worker: only the rows travel back."""
    result = play_game(spec)
    assert result.match is not None
    return MatchRows(spec, tuple(stroke_rows(result.match, spec)), result.finished, result.error)


def table_of(matches: Sequence[MatchRows]) -> pa.Table:
    """The rows of ``matches``, in their order, as an Arrow table with :data:`SCHEMA`."""
    rows = [row for m in matches for row in m.rows]
    return pa.Table.from_pylist(rows, schema=SCHEMA)


@dataclass(frozen=True)
class Dataset:
    """A written data set: where, what was played, and how long it took."""

    path: Path
    """The Parquet file."""
    card: Path
    kinds: tuple[str, ...]
    games: int
    seed: int
    noise: float
    backend: str
    matches: int
    strokes: int
    unfinished: int
    seconds: float


def write_dataset(
    kinds: Sequence[str],
    games: int,
    out: Path,
    *,
    seed: int = 2014,
    noise: float = 1.0,
    backend: str | Backend = "local",
    workers: int | None = None,
    address: str | None = None,
    ray_options: dict[str, Any] | None = None,
    max_actions: int | None = None,
    on_start: Callable[[int], None] | None = None,
    on_match: Callable[[MatchRows], None] | None = None,
    command: str | None = None,
) -> Dataset:
    """Play ``games`` matches between every pair of ``kinds`` (as a tournament schedules them: a kind entered
    twice plays itself) on ``backend`` and write their strokes to ``out/strokes.parquet`` with the data card
    ``out/README.md``. ``max_actions`` cuts each match after that many actions (unfinished). Raises :class:`DatasetError` (a :class:`TournamentError`) for bad input before any
    match is played, an output that cannot be written, or a backend that cannot start."""
    import time

    try:
        specs = schedule(kinds, games, seed, noise)
    except TournamentError as exc:
        raise DatasetError(str(exc)) from None
    if max_actions is not None:
        if max_actions < 1:
            raise DatasetError(f"--max-actions must be at least 1, not {max_actions}")
        specs = tuple(replace(s, max_actions=max_actions) for s in specs)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"--out {out}: cannot make the data set's directory: {exc.strerror or exc}") from None
    runner = (
        make_backend(backend, workers=workers, address=address, ray_options=ray_options)
        if isinstance(backend, str)
        else backend
    )
    results: list[MatchRows | None] = [None] * len(specs)
    started = time.perf_counter()
    with runner:
        completed = runner.play(specs, match_rows)
        if on_start is not None:
            on_start(len(specs))
        for i, result in completed:
            if not isinstance(result, MatchRows) or result.spec != specs[i]:
                raise DatasetError(f"a worker answered match {i} with something else: a mixed-up backend")
            results[i] = result
            if on_match is not None:
                on_match(result)
    seconds = time.perf_counter() - started
    matches = [r for r in results if r is not None]
    table = table_of(matches)
    path, card = out / DATA_FILE, out / CARD_FILE
    written = Dataset(
        path=path,
        card=card,
        kinds=tuple(k.strip() for k in kinds),
        games=games,
        seed=seed,
        noise=float(noise),
        backend=runner.name,
        matches=len(matches),
        strokes=table.num_rows,
        unfinished=sum(not m.finished for m in matches),
        seconds=seconds,
    )
    _write_atomically(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))
    _write_atomically(card, lambda tmp: tmp.write_text(data_card(written, command), encoding="utf-8"))
    return written


def _write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise DatasetError(f"cannot write {path}: {exc.strerror or exc}") from None


def columns_table() -> str:
    """The columns as a Markdown table (name, type, meaning)."""
    lines = ["| column | type | meaning |", "| --- | --- | --- |"]
    lines += [f"| `{name}` | {kind} | {text} |" for name, kind, text in COLUMNS]
    return "\n".join(lines)


def data_card(dataset: Dataset, command: str | None = None) -> str:
    """The data card written next to the data: what it is, how it was made, how to read it, the columns."""
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    players = ", ".join(dataset.kinds)
    return f"""# Kaisa self-play strokes

One row per stroke of {dataset.matches} simulated matches of Kaisa (the Finnish five-ball billiards game,
first to 60), played by the computer players {players}: every pair of entrants {dataset.games} times,
sides alternating. {dataset.strokes} strokes; {dataset.unfinished} matches unfinished.

- **Made** {made} by `{command or "kaisa dataset"}` with kaisa on the {dataset.backend} backend in
  {dataset.seconds:.0f} s. Seed {dataset.seed}: the same command gives the same rows on any backend.
- **Physics and rules**: Kaisa's engine (pooltool 0.6.0's physics, compiled) on the official table, ruled by kaisa's referee (the 2014
  rulebook); every ruling names its clauses. Execution noise: each seat's noise times {dataset.noise:g},
  applied by the match's chance step; both the intended and the executed stroke are given.
- **Not** real players' strokes: the strokes are what the computer players chose, with their biases (the
  baseline calls only direct pots). Positions come from play, so they follow the players' habits.
- **License**: as kaisa's (MIT).

## Reading it

```python
import pandas as pd
strokes = pd.read_parquet("{DATA_FILE}")

import datasets  # Hugging Face
ds = datasets.Dataset.from_parquet("{DATA_FILE}")
```

Coordinates are metres on the official table (`docs/` of kaisa: x across the bed, y from the head cushion);
`state` and `ruling` are JSON that `kaisa.referee.GameState.from_json` and the ruling's JSON read back.

## Columns

{columns_table()}
"""
