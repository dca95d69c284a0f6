"""The match as immutable values: actions a player takes, and the state between them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias

from kaisa.call import Call, format_call, parse_call
from kaisa.errors import FormatError
from kaisa.model import BallId, Position, Stroke
from kaisa.referee import GameState, MarkerEntry
from kaisa.table import Point

CUE_BALLS = (BallId.W1, BallId.W2)
GAME_MINUTES = 60.0
WARNING_MINUTES = 5.0
BREAK_MINUTES = 5.0
SHOOTOUT_INNINGS = 10


class Phase(StrEnum):
    LAG = "lag"
    CHOOSE = "choose"
    PLACE_W2 = "place-w2"
    PLAY = "play"
    SHOOTOUT_LAG = "shootout-lag"
    SHOOTOUT = "shootout"
    OVER = "over"


# --- actions ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lag:
    """Both players' lag strokes (1.1): player 1 with W1 from the left half, player 2 with W2 from the right,
    each with ``place`` behind the head string. ``lift`` takes the object balls off their spots."""

    strokes: tuple[Stroke, Stroke]
    lift: bool = False
    executed: tuple[Stroke, Stroke] | None = None
    """The strokes as the match's chance step executed them, when chance changed them (None: played as intended,
    or not pushed yet); a replay that carries them plays exactly these."""


@dataclass(frozen=True)
class Choose:
    """The lag winner picks a cue ball (1.1); whoever has W1 breaks (1.2). In the shoot-out (6) the lag winner
    names the cue ball of the player who shoots first."""

    cue_ball: BallId


@dataclass(frozen=True)
class PlaceW2:
    """W2's owner places W2 between the centre line and the foot cushion (1.2)."""

    point: Point


@dataclass(frozen=True)
class Shot:
    """A called stroke. ``stroke`` is the stroke the player intended; ``executed`` is the stroke the match's
    chance step played when chance changed it (None: played as intended, or not pushed yet; a replay that
    carries it plays exactly it). ``seconds`` is the clock time it took (0 with the clock off)."""

    call: Call | None
    stroke: Stroke
    seconds: float = 0.0
    executed: Stroke | None = None

    @property
    def played(self) -> Stroke:
        """The stroke that was simulated: the executed one once pushed."""
        return self.stroke if self.executed is None else self.executed


@dataclass(frozen=True)
class TakeBreak:
    """A player's one break of up to five minutes (6); it extends the playing time by its length."""

    cue_ball: BallId
    seconds: float


@dataclass(frozen=True)
class MarkedShot:
    """A stroke at a real table as the marker entered it (the scorekeeping mode): the referee rules the
    marker's facts instead of a simulation. ``entry.start`` is the match's position, with the struck ball where
    it was placed if it was in hand."""

    call: Call | None
    entry: MarkerEntry
    seconds: float = 0.0


@dataclass(frozen=True)
class MarkedLag:
    """The lag at a real table (1.1, or the shoot-out's lag): the marker enters the winner's index (0 or 1)."""

    winner: int


@dataclass(frozen=True)
class Forfeit:
    """A player loses the match by a ruling outside the strokes: 1.4, playing on with a cue over 200 cm after
    the referee ruled it over-long. The other player wins."""

    cue_ball: BallId
    clause: str = "1.4"


Action: TypeAlias = Lag | Choose | PlaceW2 | Shot | TakeBreak | MarkedShot | MarkedLag | Forfeit


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Lag):
        out: dict[str, Any] = {"kind": "lag", "strokes": [s.to_json() for s in action.strokes], "lift": action.lift}
        if action.executed is not None:
            out["executed"] = [s.to_json() for s in action.executed]
        return out
    if isinstance(action, Choose):
        return {"kind": "choose", "cue_ball": action.cue_ball.value}
    if isinstance(action, PlaceW2):
        return {"kind": "place-w2", "point": list(action.point)}
    if isinstance(action, Shot):
        shot: dict[str, Any] = {
            "kind": "shot",
            "call": None if action.call is None else format_call(action.call),
            "stroke": action.stroke.to_json(),
            "seconds": action.seconds,
        }
        if action.executed is not None:
            shot["executed"] = action.executed.to_json()
        return shot
    if isinstance(action, MarkedShot):
        return {
            "kind": "marked",
            "call": None if action.call is None else format_call(action.call),
            "entry": action.entry.to_json(),
            "seconds": action.seconds,
        }
    if isinstance(action, MarkedLag):
        return {"kind": "marked-lag", "winner": action.winner}
    if isinstance(action, Forfeit):
        return {"kind": "forfeit", "cue_ball": action.cue_ball.value, "clause": action.clause}
    return {"kind": "break", "cue_ball": action.cue_ball.value, "seconds": action.seconds}


def action_from_json(data: object) -> Action:
    if not isinstance(data, dict) or "kind" not in data:
        raise FormatError(
            'an action is an object with a "kind": lag, choose, place-w2, shot, break, marked, marked-lag or forfeit'
        )
    kind = data["kind"]
    try:
        if kind == "lag":
            first, second = data["strokes"]
            executed = data.get("executed")
            return Lag(
                (Stroke.from_json(first), Stroke.from_json(second)),
                bool(data.get("lift", False)),
                None if executed is None else (Stroke.from_json(executed[0]), Stroke.from_json(executed[1])),
            )
        if kind == "choose":
            return Choose(BallId(data["cue_ball"]))
        if kind == "place-w2":
            x, y = data["point"]
            return PlaceW2((float(x), float(y)))
        if kind == "shot":
            call = data.get("call")
            executed = data.get("executed")
            return Shot(
                None if call is None else parse_call(call),
                Stroke.from_json(data["stroke"]),
                float(data.get("seconds", 0.0)),
                None if executed is None else Stroke.from_json(executed),
            )
        if kind == "break":
            return TakeBreak(BallId(data["cue_ball"]), float(data["seconds"]))
        if kind == "marked":
            call = data.get("call")
            return MarkedShot(
                None if call is None else parse_call(call),
                MarkerEntry.from_json(data["entry"]),
                float(data.get("seconds", 0.0)),
            )
        if kind == "marked-lag":
            winner = data["winner"]
            if winner not in (0, 1) or isinstance(winner, bool):
                raise FormatError(f"the lag winner is player 0 or 1, not {winner!r}")
            return MarkedLag(winner)
        if kind == "forfeit":
            return Forfeit(BallId(data["cue_ball"]), str(data.get("clause", "1.4")))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, FormatError):
            raise
        raise FormatError(f"malformed {kind} action: {exc}") from None
    raise FormatError(
        f"unknown action kind {kind!r}: the kinds are lag, choose, place-w2, shot, break, marked, marked-lag, forfeit"
    )


# --- state --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockState:
    """The competition clock (6). ``final_innings`` lists, once time is up, whose innings are still to be
    played as the final ones (W1, W2, W1, W2: the W2 player last)."""

    elapsed: float = 0.0
    breaks: Mapping[BallId, float] = field(default_factory=dict)
    warned: bool = False
    final_innings: tuple[BallId, ...] | None = None

    @property
    def limit(self) -> float:
        return GAME_MINUTES * 60 + sum(self.breaks.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "elapsed": self.elapsed,
            "breaks": {b.value: s for b, s in self.breaks.items()},
            "warned": self.warned,
            "final_innings": None if self.final_innings is None else [b.value for b in self.final_innings],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockState:
        final = data.get("final_innings")
        return cls(
            elapsed=float(data["elapsed"]),
            breaks={BallId(b): float(s) for b, s in data.get("breaks", {}).items()},
            warned=bool(data.get("warned", False)),
            final_innings=None if final is None else tuple(BallId(b) for b in final),
        )


@dataclass(frozen=True)
class ShootoutState:
    """The penalty shoot-out (6): innings each player has played (an inning ended by the win counts), and who
    started. ``choice_open``: the lag winner (``first`` until then) may still choose who starts (a
    :class:`Choose` naming the starter's cue ball); playing the first stroke is choosing to start."""

    first: BallId
    innings: Mapping[BallId, int]
    choice_open: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"first": self.first.value, "innings": {b.value: n for b, n in self.innings.items()}}
        if self.choice_open:
            out["choice_open"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShootoutState:
        return cls(
            BallId(data["first"]),
            {BallId(b): int(n) for b, n in data["innings"].items()},
            bool(data.get("choice_open", False)),
        )


@dataclass(frozen=True)
class Result:
    """How the match ended. ``recorded`` is the scoresheet: a winner at the winning score (60, or the rule
    option's target) or more is written as the winning score (3); a shoot-out won below it is written as it is
    (6)."""

    winner: BallId
    scores: Mapping[BallId, int]
    recorded: Mapping[BallId, int]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner.value,
            "scores": {b.value: s for b, s in self.scores.items()},
            "recorded": {b.value: s for b, s in self.recorded.items()},
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        return cls(
            BallId(data["winner"]),
            {BallId(b): int(s) for b, s in data["scores"].items()},
            {BallId(b): int(s) for b, s in data["recorded"].items()},
            str(data["reason"]),
        )


@dataclass(frozen=True)
class MatchState:
    """Everything about a match between two actions. ``owners[i]`` is player ``i``'s cue ball."""

    phase: Phase = Phase.LAG
    position: Position = field(default_factory=Position)
    game: GameState = field(default_factory=GameState)
    owners: tuple[BallId, BallId] | None = None
    lag_winner: int | None = None
    innings: Mapping[BallId, int] = field(default_factory=lambda: {BallId.W1: 0, BallId.W2: 0})
    run: int = 0
    """Points of the current inning so far (sarja)."""
    fouls: Mapping[BallId, int] = field(default_factory=lambda: {BallId.W1: 0, BallId.W2: 0})
    """Strokes with a foul so far, per cue ball: a running counter, so no view recounts the rulings."""
    longest_run: Mapping[BallId, int] = field(default_factory=lambda: {BallId.W1: 0, BallId.W2: 0})
    """The longest run (sarja) so far, per cue ball, the current inning included."""
    clock: ClockState = field(default_factory=ClockState)
    shootout: ShootoutState | None = None
    result: Result | None = None
    strokes: int = 0
    actions: int = 0
    """Actions played so far (a lag played again counts): players seed their decisions with it."""

    def player_of(self, cue_ball: BallId) -> int:
        assert self.owners is not None
        return self.owners.index(cue_ball)

    @property
    def to_move(self) -> int | None:
        """Index of the player whose action is next (None during the lag: both play at once)."""
        if self.phase in (Phase.PLAY, Phase.SHOOTOUT):
            return self.player_of(self.game.shooter)
        if self.phase is Phase.CHOOSE:
            return self.lag_winner
        if self.phase is Phase.PLACE_W2:
            return self.player_of(BallId.W2)
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value,
            "position": self.position.to_json(),
            "game": self.game.to_json(),
            "owners": None if self.owners is None else [b.value for b in self.owners],
            "lag_winner": self.lag_winner,
            "innings": {b.value: n for b, n in self.innings.items()},
            "run": self.run,
            "fouls": {b.value: n for b, n in self.fouls.items()},
            "longest_run": {b.value: n for b, n in self.longest_run.items()},
            "clock": self.clock.to_json(),
            "shootout": None if self.shootout is None else self.shootout.to_json(),
            "result": None if self.result is None else self.result.to_json(),
            "strokes": self.strokes,
            "actions": self.actions,
        }

    @classmethod
    def from_json(cls, data: object) -> MatchState:
        if not isinstance(data, dict):
            raise FormatError("a match state must be an object")
        try:
            owners = data.get("owners")
            return cls(
                phase=Phase(data["phase"]),
                position=Position.from_json(data["position"]),
                game=GameState.from_json(data["game"]),
                owners=None if owners is None else (BallId(owners[0]), BallId(owners[1])),
                lag_winner=data.get("lag_winner"),
                innings={BallId(b): int(n) for b, n in data["innings"].items()},
                run=int(data.get("run", 0)),
                fouls=_per_cue_ball(data.get("fouls")),
                longest_run=_per_cue_ball(data.get("longest_run")),
                clock=ClockState.from_json(data["clock"]),
                shootout=None if data.get("shootout") is None else ShootoutState.from_json(data["shootout"]),
                result=None if data.get("result") is None else Result.from_json(data["result"]),
                strokes=int(data.get("strokes", 0)),
                actions=int(data.get("actions", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, FormatError):
                raise
            raise FormatError(f"malformed match state: {exc}") from None


def _per_cue_ball(data: object) -> dict[BallId, int]:
    """A counter per cue ball from JSON (missing in records written before the counter existed: zeros)."""
    if data is None:
        return {BallId.W1: 0, BallId.W2: 0}
    if not isinstance(data, dict):
        raise FormatError('a counter per cue ball is an object {"W1": n, "W2": n}')
    return {ball: int(data.get(ball.value, 0)) for ball in CUE_BALLS}
