"""A ruling: what a stroke earned and cost, clause by clause, in Finnish and English."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kaisa.errors import FormatError
from kaisa.model import BallId, Event, Position, event_to_json, events_from_json, finite_number, parse_ball, shown_value
from kaisa.referee.state import GameState
from kaisa.table import Point


@dataclass(frozen=True)
class Text:
    """A short explanation for a person, in Finnish and English."""

    fi: str
    en: str

    def to_json(self) -> dict[str, str]:
        return {"fi": self.fi, "en": self.en}

    @classmethod
    def from_json(cls, data: object) -> Text:
        if not isinstance(data, dict) or not isinstance(data.get("fi"), str) or not isinstance(data.get("en"), str):
            raise FormatError('a text for people is an object {"fi": "...", "en": "..."}')
        return cls(data["fi"], data["en"])


@dataclass(frozen=True)
class RulingItem:
    """One line of a ruling: the clause it applies, its points (0 for a note) and why."""

    clause: str
    points: int
    fi: str
    en: str
    key: str = ""
    """The clause's wording this line says (``rattles`` of 1.3), "" for a line not from the catalogue: a page
    can treat a kind of line apart without reading its text."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"clause": self.clause, "points": self.points, "fi": self.fi, "en": self.en}
        if self.key:
            out["key"] = self.key
        return out

    @classmethod
    def from_json(cls, data: object) -> RulingItem:
        if not isinstance(data, dict) or not isinstance(data.get("clause"), str):
            raise FormatError('a ruling item is an object {"clause", "points", "fi", "en"} with an optional "key"')
        points = data.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 1000:
            raise FormatError(f"a ruling item's points are a whole number, got {shown_value(points)}")
        text = Text.from_json(data)
        key = data.get("key", "")
        if not isinstance(key, str) or len(key) > 40:
            raise FormatError(f"a ruling item's key is a short text, got {shown_value(key)}")
        return cls(data["clause"], points, text.fi, text.en, key)


def item(clause: str, points: int, text: Text) -> RulingItem:
    return RulingItem(clause, points, text.fi, text.en)


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one stroke.

    ``items`` are the points earned, ``fouls`` the fouls with their penalties, ``notes`` everything else the
    referee applied (a voided pot, a respot, the turn passing); ``points`` is the net change of the shooter's
    score and always equals the sum of ``items`` and ``fouls``.
    """

    shooter: BallId
    legal_pot: bool
    items: tuple[RulingItem, ...]
    fouls: tuple[RulingItem, ...]
    notes: tuple[RulingItem, ...]
    turn_passes: bool
    in_hand: frozenset[BallId]
    respots: dict[BallId, Point]
    game_over: bool
    winner: BallId | None
    events: tuple[Event, ...]
    position: Position
    """Where the balls stand for the next stroke: at rest, respotted, cue balls in hand removed."""
    state: GameState
    """The game state for the next stroke."""

    @property
    def points(self) -> int:
        return sum(i.points for i in self.items) + sum(f.points for f in self.fouls)

    @property
    def clauses(self) -> list[str]:
        """Every clause this ruling applied, in the rulebook's order."""
        seen = {i.clause for i in (*self.items, *self.fouls, *self.notes)}
        return sorted(seen, key=clause_sort_key)

    def to_json(self) -> dict[str, Any]:
        return {
            "shooter": self.shooter.value,
            "legal_pot": self.legal_pot,
            "points": self.points,
            "items": [i.to_json() for i in self.items],
            "fouls": [f.to_json() for f in self.fouls],
            "notes": [n.to_json() for n in self.notes],
            "clauses": self.clauses,
            "turn_passes": self.turn_passes,
            "in_hand": sorted(b.value for b in self.in_hand),
            "respots": {b.value: [p[0], p[1]] for b, p in self.respots.items()},
            "game_over": self.game_over,
            "winner": None if self.winner is None else self.winner.value,
            "events": [event_to_json(e) for e in self.events],
            "position": self.position.to_json(),
            "state": self.state.to_json(),
        }

    @classmethod
    def from_json(cls, data: object) -> Ruling:
        """Read what :meth:`to_json` wrote (a stored outcome, the API's answer); the derived ``points`` and
        ``clauses`` are checked against the items, so a hand-edited ruling that does not add up is refused."""
        if not isinstance(data, dict):
            raise FormatError("a ruling must be an object as Ruling.to_json writes it")
        try:
            flags: dict[str, bool] = {}
            for key in ("legal_pot", "turn_passes", "game_over"):
                if not isinstance(data[key], bool):
                    raise FormatError(f"a ruling's {key} is true or false, not {shown_value(data[key])}")
                flags[key] = data[key]
            lists: dict[str, tuple[RulingItem, ...]] = {}
            for key in ("items", "fouls", "notes"):
                if not isinstance(data[key], list):
                    raise FormatError(f"a ruling's {key} are a list of items")
                lists[key] = tuple(RulingItem.from_json(i) for i in data[key])
            if not isinstance(data["in_hand"], list) or not isinstance(data["respots"], dict):
                raise FormatError('a ruling\'s in_hand is a list of balls and its respots an object {"K": [x, y]}')
            respots: dict[BallId, Point] = {}
            for ball, point in data["respots"].items():
                if not isinstance(point, list) or len(point) != 2:
                    raise FormatError(f"a respot is a point [x, y], not {shown_value(point)}")
                x, y = finite_number(point[0]), finite_number(point[1])
                if x is None or y is None:
                    raise FormatError(f"a respot is a point of finite numbers, not {shown_value(point)}")
                respots[parse_ball(ball)] = (x, y)
            winner = data.get("winner")
            ruling = cls(
                shooter=parse_ball(data["shooter"]),
                legal_pot=flags["legal_pot"],
                items=lists["items"],
                fouls=lists["fouls"],
                notes=lists["notes"],
                turn_passes=flags["turn_passes"],
                in_hand=frozenset(parse_ball(b) for b in data["in_hand"]),
                respots=respots,
                game_over=flags["game_over"],
                winner=None if winner is None else parse_ball(winner),
                events=events_from_json(data["events"]),
                position=Position.from_json(data["position"]),
                state=GameState.from_json(data["state"]),
            )
        except KeyError as exc:
            raise FormatError(f"a ruling is missing {exc}") from None
        if "points" in data and data["points"] != ruling.points:
            raise FormatError(f"a ruling's points ({shown_value(data['points'])}) are not the sum of its items")
        return ruling


def clause_sort_key(clause: str) -> tuple[int, str]:
    """Order clauses as the rulebook does: 1.2 < 1.3 < 2 < 2.1 < 3 < 4 < 4.1 < 5 < 7a < 8c."""
    head = ""
    for ch in clause:
        if ch.isdigit():
            head += ch
        else:
            break
    return (int(head) if head else 99, clause)
