"""Match statistics: points, innings, runs (sarja), called-pot success and fouls, per match and per player.

The figures come from a match's stack (:class:`~kaisa.game.Entry`: the action, the state before it and its
outcome) and are what Finnish tournament tools keep for a game: the points, the innings (lyöntivuorot) and
the longest runs (sarjat), with the average per inning. Definitions, per player:

- ``points``: the net change of the player's score over the match, fouls included; it equals the final score
  (and shoot-out points, which add to the game score, are in it). ``recorded`` is the scoresheet's figure
  (a winner at 60 or more written as 60, rule 3), for a finished match.
- ``innings``: the regular innings the player began, counted as :class:`~kaisa.game.MatchState` counts them:
  player W1's first inning begins with the placing of W2, and every stroke that passes the turn begins the
  opponent's next one (so an inning begun when the record ends, or when time runs out, counts with run 0).
- ``runs``: one per regular inning, in order: the points *earned* in that inning (sarja), i.e. the sum of
  the ruling items, before foul penalties. Only the last stroke of an inning can be a foul (a foul passes the
  turn), so a run is the inning's net points plus that stroke's penalty. ``longest_run`` and
  ``second_longest_run`` are the two largest runs (0 when there are fewer).
- ``shootout_runs``: the same for the innings of the penalty shoot-out (6), kept apart from the game's innings;
  ``shootout_points`` the net points of the shoot-out.
- ``scored`` = all points earned (every run and shoot-out run); ``penalty_points`` = points lost to fouls
  (positive); ``fouls`` = strokes with at least one foul, ``fouls_by_clause`` = foul items per clause (a
  ball-in-hand fault cites 5 and 7c, so one foul stroke can have several items).
- ``called_shots`` = strokes with a call; ``legal_pots`` = strokes whose called pot was legal;
  ``called_pot_success`` = legal pots / called shots.
- ``points_per_inning`` = the net points of regular play (``points - shootout_points``) / ``innings``.

Invariants (the tests check them): ``sum(runs) + sum(shootout_runs) == scored``;
``points == scored - penalty_points``; ``len(runs) == innings``; ``points`` is the final score.

:func:`match_stats` reads a :class:`~kaisa.game.Match`, :func:`stored_stats` stored matches (their stored
rulings, no physics), :func:`record_stats` a record in the match notation (played again), and :func:`aggregate` adds matches up per player name. :func:`to_csv` and :func:`to_json`
export any of them; :func:`from_json` reads the JSON back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from kaisa.errors import FormatError
from kaisa.game import Entry, MarkedShot, Match, MatchConfig, MatchState, Phase, Result, Shot
from kaisa.model import BallId
from kaisa.records.storage.projections import Projection
from kaisa.spreadsheet import csv_text

if TYPE_CHECKING:
    from kaisa.records.storage import Store

# --- per match ------------------------------------------------------------------------------------------


def _top_two(runs: Sequence[int]) -> tuple[int, int]:
    ordered = [*sorted(runs, reverse=True), 0, 0]
    return ordered[0], ordered[1]


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


class _Rates:
    """The derived figures that a match's and a career's statistics share."""

    points: int
    shootout_points: int
    innings: int
    legal_pots: int
    called_shots: int

    @property
    def play_points(self) -> int:
        """Net points of regular play (the shoot-out left out)."""
        return self.points - self.shootout_points

    @property
    def points_per_inning(self) -> float | None:
        return _ratio(self.play_points, self.innings)

    @property
    def called_pot_success(self) -> float | None:
        return _ratio(self.legal_pots, self.called_shots)


@dataclass(frozen=True)
class PlayerStats(_Rates):
    """One player's figures in one match (see the module's definitions)."""

    player: int
    """1 or 2: player 1 lags with W1 from the left."""
    name: str
    cue_ball: str | None
    """``W1`` or ``W2`` once chosen (1.1)."""
    points: int = 0
    recorded: int | None = None
    won: bool | None = None
    """``None`` while the match is not finished."""
    innings: int = 0
    runs: tuple[int, ...] = ()
    shootout_runs: tuple[int, ...] = ()
    shootout_points: int = 0
    strokes: int = 0
    scored: int = 0
    penalty_points: int = 0
    fouls: int = 0
    fouls_by_clause: Mapping[str, int] = field(default_factory=dict)
    called_shots: int = 0
    legal_pots: int = 0

    @property
    def longest_run(self) -> int:
        return _top_two(self.runs)[0]

    @property
    def second_longest_run(self) -> int:
        return _top_two(self.runs)[1]

    @property
    def shootout_innings(self) -> int:
        return len(self.shootout_runs)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "name": self.name,
            "cue_ball": self.cue_ball,
            "points": self.points,
            "recorded": self.recorded,
            "won": self.won,
            "innings": self.innings,
            "runs": list(self.runs),
            "shootout_runs": list(self.shootout_runs),
            "shootout_points": self.shootout_points,
            "strokes": self.strokes,
            "scored": self.scored,
            "penalty_points": self.penalty_points,
            "fouls": self.fouls,
            "fouls_by_clause": dict(self.fouls_by_clause),
            "called_shots": self.called_shots,
            "legal_pots": self.legal_pots,
            # derived, for readers of the JSON; from_json recomputes them
            "longest_run": self.longest_run,
            "second_longest_run": self.second_longest_run,
            "points_per_inning": self.points_per_inning,
            "called_pot_success": self.called_pot_success,
        }

    @classmethod
    def from_json(cls, data: object) -> PlayerStats:
        if not isinstance(data, dict):
            raise FormatError("player statistics must be an object")
        try:
            return cls(
                player=int(data["player"]),
                name=str(data["name"]),
                cue_ball=None if data.get("cue_ball") is None else str(data["cue_ball"]),
                points=int(data["points"]),
                recorded=None if data.get("recorded") is None else int(data["recorded"]),
                won=None if data.get("won") is None else bool(data["won"]),
                innings=int(data["innings"]),
                runs=tuple(int(r) for r in data["runs"]),
                shootout_runs=tuple(int(r) for r in data.get("shootout_runs", [])),
                shootout_points=int(data.get("shootout_points", 0)),
                strokes=int(data["strokes"]),
                scored=int(data["scored"]),
                penalty_points=int(data["penalty_points"]),
                fouls=int(data["fouls"]),
                fouls_by_clause={str(k): int(v) for k, v in data.get("fouls_by_clause", {}).items()},
                called_shots=int(data["called_shots"]),
                legal_pots=int(data["legal_pots"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FormatError(f"malformed player statistics: {exc!r}") from None


@dataclass(frozen=True)
class MatchStats:
    """Both players' figures in one match, and how it ended."""

    players: tuple[PlayerStats, PlayerStats]
    finished: bool = False
    winner: int | None = None
    """1 or 2, the winning player."""
    reason: str | None = None
    actions: int = 0
    lags: int = 0
    """Lag actions played, a lag played again and the shoot-out's lag included."""
    event: str = ""
    date: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "date": self.date,
            "finished": self.finished,
            "winner": self.winner,
            "reason": self.reason,
            "actions": self.actions,
            "lags": self.lags,
            "players": [p.to_json() for p in self.players],
        }

    @classmethod
    def from_json(cls, data: object) -> MatchStats:
        if not isinstance(data, dict) or not isinstance(data.get("players"), list) or len(data["players"]) != 2:
            raise FormatError("match statistics must be an object with a list of two players")
        try:
            first, second = (PlayerStats.from_json(p) for p in data["players"])
            return cls(
                players=(first, second),
                finished=bool(data["finished"]),
                winner=None if data.get("winner") is None else int(data["winner"]),
                reason=None if data.get("reason") is None else str(data["reason"]),
                actions=int(data["actions"]),
                lags=int(data.get("lags", 0)),
                event=str(data.get("event", "")),
                date=str(data.get("date", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, FormatError):
                raise
            raise FormatError(f"malformed match statistics: {exc!r}") from None


@dataclass
class _Inning:
    shootout: bool
    scored: int = 0


@dataclass
class _Player:
    innings: list[_Inning] = field(default_factory=list)
    points: int = 0
    shootout_points: int = 0
    strokes: int = 0
    scored: int = 0
    penalty: int = 0
    fouls: int = 0
    by_clause: dict[str, int] = field(default_factory=dict)
    called: int = 0
    legal: int = 0


class _StateView(NamedTuple):
    """What statistics read of a match state: its phase, the players' cue balls, the innings begun, who is at
    the table. Ball ids and the phase are :class:`~kaisa.model.BallId` and :class:`~kaisa.game.Phase` values or
    their plain strings (the stored JSON, read as it is): both are ``str`` and compare and hash alike."""

    phase: str
    owners: Sequence[str] | None
    innings: Mapping[Any, int]
    shooter: str

    @classmethod
    def of(cls, state: MatchState) -> _StateView:
        return cls(state.phase, state.owners, state.innings, state.game.shooter)


class _Step(NamedTuple):
    """What statistics read of one action and its stored ruling."""

    lag: bool
    stroke: bool
    """A stroke the referee ruled (a played or marked shot)."""
    called: bool = False
    shooter: str = BallId.W1
    scored: int = 0
    fouls: tuple[tuple[str, int], ...] = ()
    """(clause, points) of each foul item."""
    legal_pot: bool = False
    turn_passes: bool = False


def _step_of(entry: Entry) -> _Step:
    action, outcome = entry.action, entry.outcome
    ruling = outcome.ruling
    if not isinstance(action, Shot | MarkedShot) or ruling is None:
        return _Step(lag=outcome.lag is not None, stroke=False, turn_passes=ruling is not None and ruling.turn_passes)
    return _Step(
        lag=outcome.lag is not None,
        stroke=True,
        called=action.call is not None,
        shooter=ruling.shooter,
        scored=sum(i.points for i in ruling.items),
        fouls=tuple((f.clause, f.points) for f in ruling.fouls),
        legal_pot=ruling.legal_pot,
        turn_passes=ruling.turn_passes,
    )


def entries_stats(
    config: MatchConfig, entries: Sequence[Entry], final: MatchState, *, event: str = "", date: str = ""
) -> MatchStats:
    """Statistics from a stack of entries that starts at the lag; ``final`` is the state after the last."""
    steps = [_step_of(e) for e in entries]
    states = [_StateView.of(e.before) for e in entries]
    states.append(_StateView.of(final))
    return _steps_stats(config.players, steps, states, final.result, event=event, date=date)


def _steps_stats(
    names: tuple[str, str],
    steps: Sequence[_Step],
    states: Sequence[_StateView],
    result: Result | None,
    *,
    event: str = "",
    date: str = "",
) -> MatchStats:
    """The statistics of a match from its steps and its states: ``states[i]`` is the state before ``steps[i]``
    and the last one the final state. One pass over plain values (this loop is what ``kaisa stats`` spends its
    time on for a club's thousand matches)."""
    acc = (_Player(), _Player())
    lags = 0
    shootout_phase = Phase.SHOOTOUT
    for index, step in enumerate(steps):
        before = states[index]
        after = states[index + 1]
        lags += step.lag
        if step.stroke:
            assert before.owners is not None
            p = acc[before.owners.index(step.shooter)]
            shootout = before.phase == shootout_phase
            innings = p.innings
            if not innings or innings[-1].shootout != shootout:
                innings.append(_Inning(shootout))  # a stack that does not start at the lag
            scored = step.scored
            penalty = -sum(points for _, points in step.fouls) if step.fouls else 0
            net = scored - penalty
            innings[-1].scored += scored
            p.points += net
            if shootout:
                p.shootout_points += net
            p.strokes += 1
            p.scored += scored
            if step.fouls:
                p.penalty += penalty
                p.fouls += 1
                for clause, _ in step.fouls:
                    p.by_clause[clause] = p.by_clause.get(clause, 0) + 1
            p.called += step.called
            p.legal += step.legal_pot
        # innings begun, as the match counts them
        owners = after.owners
        if owners is not None:
            if after.innings != before.innings:
                for cue_ball, count in after.innings.items():
                    began = count - before.innings.get(cue_ball, 0)
                    if began > 0:
                        acc[owners.index(cue_ball)].innings.extend(_Inning(False) for _ in range(began))
            if after.phase == shootout_phase and (before.phase != shootout_phase or step.turn_passes):
                acc[owners.index(after.shooter)].innings.append(_Inning(True))
    # the result is passed in
    final = states[-1]
    players = []
    for index, p in enumerate(acc):
        ball = final.owners[index] if final.owners is not None else None
        players.append(
            PlayerStats(
                player=index + 1,
                name=names[index],
                cue_ball=None if ball is None else str(ball),
                points=p.points,
                recorded=None if result is None or ball is None else result.recorded[BallId(ball)],
                won=None if result is None else result.winner == ball,
                innings=sum(not i.shootout for i in p.innings),
                runs=tuple(i.scored for i in p.innings if not i.shootout),
                shootout_runs=tuple(i.scored for i in p.innings if i.shootout),
                shootout_points=p.shootout_points,
                strokes=p.strokes,
                scored=p.scored,
                penalty_points=p.penalty,
                fouls=p.fouls,
                fouls_by_clause=dict(sorted(p.by_clause.items())),
                called_shots=p.called,
                legal_pots=p.legal,
            )
        )
    winner = None
    if result is not None and final.owners is not None:
        winner = list(final.owners).index(result.winner) + 1
    return MatchStats(
        players=(players[0], players[1]),
        finished=result is not None,
        winner=winner,
        reason=None if result is None else result.reason,
        actions=len(steps),
        lags=lags,
        event=event,
        date=date,
    )


def match_stats(match: Match, *, event: str = "", date: str = "") -> MatchStats:
    """Statistics of ``match`` from its stack (which must start at the lag: ``Match(config)``)."""
    return entries_stats(match.config, match.stack, match.state, event=event, date=date)


_PROJECTION = Projection(
    action=(("kind",), ("call",)),
    outcome=(
        ("ruling", "shooter"),
        ("ruling", "points"),
        ("ruling", "fouls"),
        ("ruling", "legal_pot"),
        ("ruling", "turn_passes"),
        ("lag",),
    ),
    state=(("phase",), ("owners",), ("innings",), ("game", "shooter")),
)
"""What statistics read of a stored match: the rulings' points and flags, and the states' innings. A ruling's
net ``points`` (its items and fouls) stand for its items, which carry their texts: the points earned are the net
points less the fouls' (negative) points, and the database sends a number instead of the texts."""

_PHASES = frozenset(Phase)
_BALLS = frozenset(BallId)
_STROKES = frozenset(("shot", "marked"))


class _UnreadableError(Exception):
    """A stored ruling lacks its net points (a record older than the figure): read the match in full."""


def _stored_states(match_id: int, states: Sequence[list[Any]]) -> list[_StateView]:
    """The stored states as they are (plain strings), checked just enough that the figures cannot be wrong."""
    out = []
    for phase, owners, innings, shooter in states:
        if phase not in _PHASES or shooter not in _BALLS or type(innings) is not dict:
            raise FormatError(f"match {match_id}: a stored state is malformed")
        if owners is not None and (type(owners) is not list or len(owners) != 2 or not _BALLS.issuperset(owners)):
            raise FormatError(f"match {match_id}: a stored state's cue balls are malformed")
        out.append(_StateView(phase, owners, innings, shooter))
    return out


def _stored_step(action: list[Any], outcome: list[Any]) -> _Step:
    kind, call = action
    shooter, points, fouls, legal_pot, turn_passes, lag = outcome
    if kind not in _STROKES or shooter is None:
        return _Step(lag is not None, False, turn_passes=bool(turn_passes))
    if type(points) is not int:
        raise _UnreadableError
    if fouls:
        penalties = tuple((str(f["clause"]), int(f["points"])) for f in fouls)
        scored = points - sum(p for _, p in penalties)
    else:
        penalties, scored = (), points
    return _Step(
        lag is not None, True, call is not None, shooter, scored, penalties, bool(legal_pot), bool(turn_passes)
    )


def stored_stats(store: Store, match_ids: Sequence[int] | None = None) -> Iterator[MatchStats]:
    """Statistics of stored matches (default: all, oldest first) read from their stored rulings and states:
    nothing is simulated again, and the database picks out only the figures' parts of each record, one read per
    hundred matches, so a club's thousand matches take seconds. Each is labelled ``match N``; the figures equal
    :func:`match_stats` of the match played (the tests check it)."""
    for m in store.projections(_PROJECTION, match_ids):
        try:
            # the state before each action, then the current state (which is the state after the last action)
            befores = [m.initial, *(state for _, _, state in m.actions[:-1])] if m.actions else []
            states = _stored_states(m.id, [*befores, m.state])
            try:
                steps = [_stored_step(a, o) for a, o, _ in m.actions]
            except _UnreadableError:
                stored = store.entries(m.id, records=False)
                yield entries_stats(stored.config, stored.entries, stored.state, event=f"match {m.id}")
                continue
            if len(states) != len(steps) + 1:
                raise ValueError("the states do not follow the actions")
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise FormatError(f"match {m.id}: a stored ruling or state is malformed ({exc})") from None
        yield _steps_stats(m.config.players, steps, states, m.result, event=f"match {m.id}")


def record_stats(text: str) -> MatchStats:
    """Statistics of a record in the match notation, played again and checked (:func:`replay_record`);
    the Event and Date tags label it."""
    from kaisa.records.notation import parse_record, replay_record

    tags = parse_record(text).tags
    return match_stats(replay_record(text), event=tags.get("Event", ""), date=tags.get("Date", ""))


# --- per player over matches ----------------------------------------------------------------------------


_TOTALS_FIELDS: tuple[str, ...] = (
    "name",
    "matches",
    "wins",
    "losses",
    "unfinished",
    "points",
    "innings",
    "longest_run",
    "second_longest_run",
    "shootout_innings",
    "shootout_points",
    "strokes",
    "scored",
    "penalty_points",
    "fouls",
    "called_shots",
    "legal_pots",
)
"""The stored fields of :class:`PlayerTotals`, in order."""


@dataclass(frozen=True)
class PlayerTotals(_Rates):
    """One player's figures added up over several matches (matched by name)."""

    name: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    unfinished: int = 0
    points: int = 0
    innings: int = 0
    longest_run: int = 0
    second_longest_run: int = 0
    """The second largest run over all the matches (it may come from the same match as the longest)."""
    shootout_innings: int = 0
    shootout_points: int = 0
    strokes: int = 0
    scored: int = 0
    penalty_points: int = 0
    fouls: int = 0
    called_shots: int = 0
    legal_pots: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in _TOTALS_FIELDS}
        out["points_per_inning"] = self.points_per_inning
        out["called_pot_success"] = self.called_pot_success
        return out

    @classmethod
    def from_json(cls, data: object) -> PlayerTotals:
        if not isinstance(data, dict):
            raise FormatError("player totals must be an object")
        try:
            return cls(str(data["name"]), *(int(data[name]) for name in _TOTALS_FIELDS[1:]))
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"malformed player totals: {exc!r}") from None


def aggregate(matches: Sequence[MatchStats]) -> list[PlayerTotals]:
    """Each player's totals over ``matches``, by name, in the order the names first appear."""
    rows: dict[str, dict[str, int]] = {}
    runs: dict[str, list[int]] = {}
    for m in matches:
        for p in m.players:
            row = rows.setdefault(p.name, dict.fromkeys(_TOTALS_FIELDS[1:], 0))
            row["matches"] += 1
            row["wins"] += p.won is True
            row["losses"] += p.won is False
            row["unfinished"] += p.won is None
            for name in (
                "points",
                "innings",
                "shootout_innings",
                "shootout_points",
                "strokes",
                "scored",
                "penalty_points",
                "fouls",
                "called_shots",
                "legal_pots",
            ):
                row[name] += getattr(p, name)
            runs.setdefault(p.name, []).extend(p.runs)
    out = []
    for name, row in rows.items():
        row["longest_run"], row["second_longest_run"] = _top_two(runs[name])
        out.append(PlayerTotals(name, **row))
    return out


# --- export ---------------------------------------------------------------------------------------------

MATCH_COLUMNS = (
    "event",
    "date",
    "player",
    "name",
    "cue_ball",
    "result",
    "points",
    "recorded",
    "innings",
    "points_per_inning",
    "longest_run",
    "second_longest_run",
    "strokes",
    "called_shots",
    "legal_pots",
    "called_pot_success",
    "fouls",
    "penalty_points",
    "shootout_innings",
    "shootout_points",
)
"""Columns of the per-game table: one row per player per match."""

TOTALS_COLUMNS = (*_TOTALS_FIELDS, "points_per_inning", "called_pot_success")
"""Columns of the per-player table over several matches."""


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}"
    return csv_text(str(value))


def _match_rows(m: MatchStats) -> list[dict[str, object]]:
    rows = []
    for p in m.players:
        result = "" if p.won is None else ("W" if p.won else "L")
        values: dict[str, object] = {"event": m.event, "date": m.date, "result": result}
        for name in MATCH_COLUMNS:
            if name not in values:
                values[name] = getattr(p, name)
        rows.append(values)
    return rows


Exportable = MatchStats | Sequence[MatchStats] | Sequence[PlayerTotals]


def _split(stats: Exportable) -> tuple[list[MatchStats], list[PlayerTotals] | None]:
    """The matches to export, or the player totals (``None`` when it is matches)."""
    if isinstance(stats, MatchStats):
        return [stats], None
    items = list(stats)
    if items and all(isinstance(i, PlayerTotals) for i in items):
        return [], [i for i in items if isinstance(i, PlayerTotals)]
    if not all(isinstance(i, MatchStats) for i in items):
        raise TypeError("export a MatchStats, a list of them, or a list of PlayerTotals (not mixed)")
    return [i for i in items if isinstance(i, MatchStats)], None


def to_csv(stats: Exportable) -> str:
    """CSV with a header row: a match or several give one row per player per match (:data:`MATCH_COLUMNS`);
    player totals give one row per player (:data:`TOTALS_COLUMNS`). Ratios have four decimals; an empty cell
    is a figure that does not exist (no innings, no called shot, a match not finished)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    matches, totals = _split(stats)
    if totals is not None:
        writer.writerow(TOTALS_COLUMNS)
        for player in totals:
            data = player.to_json()
            writer.writerow([_cell(data[c]) for c in TOTALS_COLUMNS])
        return out.getvalue()
    writer.writerow(MATCH_COLUMNS)
    for m in matches:
        for row in _match_rows(m):
            writer.writerow([_cell(row[c]) for c in MATCH_COLUMNS])
    return out.getvalue()


def to_json(stats: Exportable) -> str:
    """JSON text: ``{"kind": "match", ...}``, ``{"kind": "matches", "matches": [...]}`` or
    ``{"kind": "players", "players": [...]}``; :func:`from_json` reads it back."""
    data: dict[str, Any]
    matches, totals = _split(stats)
    if isinstance(stats, MatchStats):
        data = {"kind": "match", **stats.to_json()}
    elif totals is not None:
        data = {"kind": "players", "players": [t.to_json() for t in totals]}
    else:
        data = {"kind": "matches", "matches": [m.to_json() for m in matches]}
    return json.dumps(data, ensure_ascii=False, indent=1)


def from_json(text: str) -> MatchStats | list[MatchStats] | list[PlayerTotals]:
    """Read what :func:`to_json` wrote."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"statistics JSON does not parse: {exc}") from None
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "match":
        return MatchStats.from_json(data)
    if kind == "matches" and isinstance(data.get("matches"), list):
        return [MatchStats.from_json(m) for m in data["matches"]]
    if kind == "players" and isinstance(data.get("players"), list):
        return [PlayerTotals.from_json(p) for p in data["players"]]
    raise FormatError('statistics JSON has a "kind": match, matches or players, with its list')


__all__ = [
    "MATCH_COLUMNS",
    "TOTALS_COLUMNS",
    "MatchStats",
    "PlayerStats",
    "PlayerTotals",
    "aggregate",
    "csv_text",
    "entries_stats",
    "from_json",
    "match_stats",
    "record_stats",
    "stored_stats",
    "to_csv",
    "to_json",
]
