"""Small immutable values shared by every layer: ball ids, positions, strokes and the event log.

Their JSON forms are the project's external contract (DESIGN.md): a position is
``{"balls": {"W1": [x, y], ...}}`` with an off-table ball simply absent; a stroke is
``{"ball": "W1", "speed": 2.0, "direction": 135.0, "elevation": 0.0, "side": 0.0, "follow": -0.4}`` with
``"place": [x, y]`` for a ball in hand; an event is ``{"t": seconds, "type": ...}``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Literal, TypeAlias

from kaisa.errors import FormatError, InvalidPositionError, InvalidStrokeError
from kaisa.table import PocketId, Point, RailId


class BallId(StrEnum):
    """The five balls: the two cue balls (one dot, two dots), the two reds and the kaisa."""

    W1 = "W1"
    W2 = "W2"
    R1 = "R1"
    R2 = "R2"
    K = "K"

    @property
    def is_white(self) -> bool:
        return self in (BallId.W1, BallId.W2)

    @property
    def is_red(self) -> bool:
        return self in (BallId.R1, BallId.R2)

    @property
    def is_kaisa(self) -> bool:
        return self is BallId.K


BALL_ORDER: tuple[BallId, ...] = tuple(BallId)


def parse_ball(value: object) -> BallId:
    """Read a ball id, or raise :class:`InvalidPositionError` listing the valid ones."""
    try:
        return BallId(str(value)) if isinstance(value, str) else BallId(value)  # type: ignore[arg-type]
    except ValueError:
        valid = ", ".join(b.value for b in BallId)
        raise InvalidPositionError(f"unknown ball id {value!r}: the balls are {valid}") from None


def finite_number(value: object) -> float | None:
    """``value`` as a float when it is a number (never a bool) that a float holds finitely, else None.

    ``math.isfinite`` on a whole number too large for a float raises OverflowError, so every reader of a number
    from JSON, the notation or a form goes through here instead."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def shown_value(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about a value that may be huge."""
    try:
        text = repr(value)
    except ValueError:  # an int with more digits than Python converts to text
        return f"<a number of about {value.bit_length() * 3 // 10} digits>" if isinstance(value, int) else "<value>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _finite_point(value: object, what: str, error: type[Exception]) -> Point:
    if not (isinstance(value, (list, tuple)) and len(value) == 2):
        raise error(f"{what} must be a pair [x, y] of numbers in metres, got {shown_value(value)}")
    x, y = (finite_number(v) for v in value)
    if x is None or y is None:
        raise error(f"{what} must be a pair [x, y] of finite numbers in metres, got {shown_value(value)}")
    return (x, y)


class Position(Mapping[BallId, Point]):
    """Where the balls on the table lie; a ball off the table (pocketed, in hand) is absent.

    Immutable and hashable; iterates in the canonical ball order ``W1 W2 R1 R2 K``. This checks ids and
    coordinates only: whether the balls fit on a given table is the physics layer's question.
    """

    __slots__ = ("_balls",)
    _balls: tuple[tuple[BallId, Point], ...]

    def __init__(self, balls: Mapping[str, Point] | Mapping[BallId, Point] | None = None) -> None:
        parsed: dict[BallId, Point] = {}
        for key, value in (balls or {}).items():
            ball = parse_ball(key)
            parsed[ball] = _finite_point(value, f"position of {ball}", InvalidPositionError)
        object.__setattr__(self, "_balls", tuple((b, parsed[b]) for b in BALL_ORDER if b in parsed))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable; use with_ball or without")

    def __getitem__(self, ball: BallId | str) -> Point:
        for b, p in self._balls:
            if b == ball:
                return p
        raise KeyError(ball)

    def __iter__(self) -> Iterator[BallId]:
        return (b for b, _ in self._balls)

    def __len__(self) -> int:
        return len(self._balls)

    def __hash__(self) -> int:
        return hash(self._balls)

    def __reduce__(self) -> tuple[type[Position], tuple[dict[BallId, Point]]]:
        return (Position, (dict(self._balls),))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return self._balls == other._balls
        return super().__eq__(other)

    def __repr__(self) -> str:
        inner = ", ".join(f"{b.value}=({x:.4f}, {y:.4f})" for b, (x, y) in self._balls)
        return f"Position({inner})"

    def with_ball(self, ball: BallId | str, at: Point) -> Position:
        balls: dict[BallId, Point] = dict(self.items())
        balls[parse_ball(ball)] = at
        return Position(balls)

    def without(self, ball: BallId | str) -> Position:
        return Position({b: p for b, p in self.items() if b != ball})

    def to_json(self) -> dict[str, Any]:
        return {"balls": {b.value: [x, y] for b, (x, y) in self._balls}}

    @classmethod
    def from_json(cls, data: object) -> Position:
        if not isinstance(data, dict) or not isinstance(data.get("balls"), dict):
            raise FormatError('a position must be an object {"balls": {"W1": [x, y], ...}}')
        return cls(data["balls"])


MIN_SPEED = 0.01
"""Slowest cue speed accepted, m/s: a slower touch moves a ball less than a millimetre, and the engine needs
ever more events to settle a vanishing speed."""
MAX_SPEED = 8.0
"""Fastest cue speed accepted, m/s: harder than any break in play."""
MAX_ELEVATION = 60.0
"""Steepest cue elevation accepted, degrees. The engine has no airborne motion, so no jump strokes."""
MAX_TIP_OFFSET = 0.5
"""Largest distance of the cue tip from the ball's centre, as a fraction of the radius (the miscue limit)."""


@dataclass(frozen=True)
class Stroke:
    """One stroke of the cue.

    ``speed`` is the cue's speed at impact (m/s); ``direction`` the horizontal aim in degrees (0 = +x,
    90 = +y, towards the foot); ``elevation`` the cue's angle above the bed in degrees; ``side`` and
    ``follow`` the tip's offset from the ball's centre as fractions of its radius (``side > 0`` right of
    centre as seen by the player, ``follow > 0`` above centre, negative is draw). ``place`` puts the cue
    ball there first (ball in hand).
    """

    ball: BallId
    speed: float
    direction: float
    elevation: float = 0.0
    side: float = 0.0
    follow: float = 0.0
    place: Point | None = None

    JSON_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"ball", "speed", "direction", "elevation", "side", "follow", "place"}
    )

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "ball", BallId(self.ball))
        except ValueError:
            raise InvalidStrokeError(f"unknown cue ball {self.ball!r}: the cue balls are W1 and W2") from None
        if not self.ball.is_white:
            raise InvalidStrokeError(f"the cue ball must be W1 or W2, got {self.ball.value}")
        for name in ("speed", "direction", "elevation", "side", "follow"):
            value = getattr(self, name)
            number = finite_number(value)
            if number is None:
                raise InvalidStrokeError(f"stroke {name} must be a finite number, got {shown_value(value)}")
            object.__setattr__(self, name, number)
        if not MIN_SPEED <= self.speed <= MAX_SPEED:
            raise InvalidStrokeError(
                f"stroke speed {self.speed} m/s is out of range: allowed is {MIN_SPEED} to {MAX_SPEED} m/s"
            )
        if not 0 <= self.elevation <= MAX_ELEVATION:
            raise InvalidStrokeError(
                f"stroke elevation {self.elevation} deg is out of range: allowed is [0, {MAX_ELEVATION}] deg"
            )
        offset = math.hypot(self.side, self.follow)
        if offset > MAX_TIP_OFFSET + 1e-12:
            raise InvalidStrokeError(
                f"cue tip offset {offset:.3f} (side {self.side}, follow {self.follow}) is outside the legal tip "
                f"area: sqrt(side^2 + follow^2) must be at most {MAX_TIP_OFFSET} ball radii"
            )
        object.__setattr__(self, "direction", self.direction % 360.0)
        if self.place is not None:
            object.__setattr__(self, "place", _finite_point(self.place, "stroke place", InvalidStrokeError))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ball": self.ball.value,
            "speed": self.speed,
            "direction": self.direction,
            "elevation": self.elevation,
            "side": self.side,
            "follow": self.follow,
        }
        if self.place is not None:
            out["place"] = list(self.place)
        return out

    @classmethod
    def from_json(cls, data: object) -> Stroke:
        if not isinstance(data, dict):
            raise FormatError('a stroke must be an object {"ball": "W1", "speed": 2.0, "direction": 90.0, ...}')
        missing = [k for k in ("ball", "speed", "direction") if k not in data]
        if missing:
            raise FormatError(f"stroke is missing {', '.join(missing)}; required are ball, speed and direction")
        unknown = sorted(set(data) - cls.JSON_KEYS)
        if unknown:
            raise FormatError(f"stroke has unknown keys {unknown}; allowed are {sorted(cls.JSON_KEYS)}")
        place = data.get("place")
        return cls(
            ball=data["ball"],
            speed=data["speed"],
            direction=data["direction"],
            elevation=data.get("elevation", 0.0),
            side=data.get("side", 0.0),
            follow=data.get("follow", 0.0),
            place=None if place is None else _finite_point(place, "stroke place", InvalidStrokeError),
        )


# --- the event log ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StrikeEvent:
    """The cue strikes ``ball``."""

    t: float
    ball: BallId
    positions: Mapping[BallId, Point] = field(default_factory=dict, compare=False)
    type: ClassVar[Literal["strike"]] = "strike"

    def fields_json(self) -> dict[str, Any]:
        return {"ball": self.ball.value}


@dataclass(frozen=True)
class BallContactEvent:
    """``ball`` touches ``other``; a burst of repeated contacts between the same two balls is one event."""

    t: float
    ball: BallId
    other: BallId
    positions: Mapping[BallId, Point] = field(default_factory=dict, compare=False)
    type: ClassVar[Literal["ball"]] = "ball"

    def fields_json(self) -> dict[str, Any]:
        return {"ball": self.ball.value, "other": self.other.value}

    def involves(self, ball: BallId) -> bool:
        return ball in (self.ball, self.other)


@dataclass(frozen=True)
class RailEvent:
    """``ball`` touches the straight nose of ``rail``."""

    t: float
    ball: BallId
    rail: RailId
    positions: Mapping[BallId, Point] = field(default_factory=dict, compare=False)
    type: ClassVar[Literal["rail"]] = "rail"

    def fields_json(self) -> dict[str, Any]:
        return {"ball": self.ball.value, "rail": self.rail.value}


@dataclass(frozen=True)
class JawEvent:
    """``ball`` touches a jaw of ``pocket`` (its rounded tip or facing); ``side`` is the rail ending at that
    jaw, ``None`` when a marker did not say which."""

    t: float
    ball: BallId
    pocket: PocketId
    side: RailId | None
    positions: Mapping[BallId, Point] = field(default_factory=dict, compare=False)
    type: ClassVar[Literal["jaw"]] = "jaw"

    def fields_json(self) -> dict[str, Any]:
        out = {"ball": self.ball.value, "pocket": self.pocket.value}
        if self.side is not None:
            out["side"] = self.side.value
        return out


@dataclass(frozen=True)
class PocketEvent:
    """``ball`` drops into ``pocket``."""

    t: float
    ball: BallId
    pocket: PocketId
    positions: Mapping[BallId, Point] = field(default_factory=dict, compare=False)
    type: ClassVar[Literal["pocket"]] = "pocket"

    def fields_json(self) -> dict[str, Any]:
        return {"ball": self.ball.value, "pocket": self.pocket.value}


@dataclass(frozen=True)
class OffTableEvent:
    """``ball`` leaves the table (8f). Only a marker at a real table reports this; the simulator has no
    airborne motion."""

    t: float
    ball: BallId
    positions: Mapping[BallId, Point] = field(default_factory=dict, compare=False)
    type: ClassVar[Literal["off"]] = "off"

    def fields_json(self) -> dict[str, Any]:
        return {"ball": self.ball.value}


Event: TypeAlias = StrikeEvent | BallContactEvent | RailEvent | JawEvent | PocketEvent | OffTableEvent

EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.type: cls for cls in (StrikeEvent, BallContactEvent, RailEvent, JawEvent, PocketEvent, OffTableEvent)
}


def event_to_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"t": event.t, "type": event.type}
    out.update(event.fields_json())
    if event.positions:
        out["positions"] = {b.value: [x, y] for b, (x, y) in event.positions.items()}
    return out


def event_from_json(data: object, index: int = 0) -> Event:
    """Read one event; ``index`` only makes the error message point at the right entry."""
    where = f"event {index}"
    if not isinstance(data, dict):
        raise FormatError(f"{where} must be an object with keys t and type")
    kind = data.get("type")
    if kind not in EVENT_TYPES:
        raise FormatError(f"{where} has type {kind!r}; allowed are {', '.join(EVENT_TYPES)}")
    t = finite_number(data.get("t"))
    if t is None or t < 0:
        raise FormatError(f"{where} needs a time t in seconds (a number >= 0), got {shown_value(data.get('t'))}")
    try:
        ball = BallId(str(data.get("ball")))
        raw_positions = data.get("positions", {})
        if not isinstance(raw_positions, dict):
            raise FormatError(f"{where} positions must be an object {{ball: [x, y]}}")
        positions = {
            BallId(str(b)): _finite_point(p, f"{where} position", FormatError) for b, p in raw_positions.items()
        }
        if kind == "strike":
            return StrikeEvent(t, ball, positions)
        if kind == "ball":
            return BallContactEvent(t, ball, BallId(str(data.get("other"))), positions)
        if kind == "rail":
            return RailEvent(t, ball, RailId(str(data.get("rail"))), positions)
        if kind == "jaw":
            pocket = PocketId(str(data.get("pocket")))
            side = data.get("side")
            return JawEvent(t, ball, pocket, None if side is None else RailId(str(side)), positions)
        if kind == "pocket":
            return PocketEvent(t, ball, PocketId(str(data.get("pocket"))), positions)
        return OffTableEvent(t, ball, positions)
    except (ValueError, AttributeError) as exc:
        raise FormatError(f"{where} ({kind}) is malformed: {exc}") from None


@dataclass(frozen=True)
class Trajectories:
    """Ball centres sampled at a fixed rate for animation. ``None`` where a ball has dropped."""

    rate: float
    times: tuple[float, ...]
    balls: Mapping[BallId, tuple[Point | None, ...]]

    def to_json(self) -> dict[str, Any]:
        return {
            "rate": self.rate,
            "t": list(self.times),
            "balls": {b.value: [None if p is None else [p[0], p[1]] for p in ps] for b, ps in self.balls.items()},
        }

    @classmethod
    def from_json(cls, data: object) -> Trajectories:
        if not isinstance(data, dict) or not isinstance(data.get("t"), list) or not isinstance(data.get("balls"), dict):
            raise FormatError(
                'trajectories are an object {"rate": hz, "t": [...], "balls": {"W1": [[x, y] | null, ...]}}'
            )
        rate = finite_number(data.get("rate"))
        if rate is None or rate <= 0:
            raise FormatError(f"trajectories need a sampling rate in Hz above 0, got {shown_value(data.get('rate'))}")
        times = []
        for t in data["t"]:
            number = finite_number(t)
            if number is None:
                raise FormatError(f"trajectory times are finite numbers, got {shown_value(t)}")
            times.append(number)
        balls: dict[BallId, tuple[Point | None, ...]] = {}
        for key, samples in data["balls"].items():
            if not isinstance(samples, list) or len(samples) != len(times):
                raise FormatError(f"the trajectory of {shown_value(key)} needs one sample per time ({len(times)})")
            balls[parse_ball(key)] = tuple(
                None if p is None else _finite_point(p, "a trajectory sample", FormatError) for p in samples
            )
        return cls(rate, tuple(times), balls)


@dataclass(frozen=True)
class ShotRecord:
    """Everything that happened in one stroke: the domain event log in time order and where the balls
    came to rest (a pocketed ball is absent from ``final``).

    ``position`` is where the balls really started: the cue ball on its ``place`` for a ball in hand,
    and any ball touching a cushion moved the micrometre off it that the engine needs.
    """

    position: Position
    stroke: Stroke
    events: tuple[Event, ...]
    final: Position
    duration: float
    trajectories: Trajectories | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stroke": self.stroke.to_json(),
            "start": self.position.to_json(),
            "events": [event_to_json(e) for e in self.events],
            "final": self.final.to_json(),
            "duration": self.duration,
        }
        if self.trajectories is not None:
            out["trajectories"] = self.trajectories.to_json()
        return out

    @classmethod
    def from_json(cls, data: object) -> ShotRecord:
        """Read what :meth:`to_json` wrote (``kaisa simulate --json``, a stored outcome's records)."""
        if not isinstance(data, dict):
            raise FormatError('a shot record is an object {"stroke", "start", "events", "final", "duration"}')
        missing = [k for k in ("stroke", "start", "events", "final", "duration") if k not in data]
        if missing:
            raise FormatError(f"a shot record is missing {', '.join(missing)}")
        duration = finite_number(data["duration"])
        if duration is None or duration < 0:
            raise FormatError(f"a shot's duration is a number of seconds >= 0, got {shown_value(data['duration'])}")
        trajectories = data.get("trajectories")
        return cls(
            position=Position.from_json(data["start"]),
            stroke=Stroke.from_json(data["stroke"]),
            events=events_from_json(data["events"]),
            final=Position.from_json(data["final"]),
            duration=duration,
            trajectories=None if trajectories is None else Trajectories.from_json(trajectories),
        )


def events_from_json(data: object) -> tuple[Event, ...]:
    """Read an event log: a list of events, or an object with an ``events`` list (a simulate output)."""
    if isinstance(data, dict) and "events" in data:
        data = data["events"]
    if not isinstance(data, list):
        raise FormatError('an event log must be a list of events, or an object {"events": [...]}')
    events = tuple(event_from_json(item, i) for i, item in enumerate(data))
    times = [e.t for e in events]
    if times != sorted(times):
        raise FormatError("events must be in time order (t never decreasing)")
    return events
