"""A ruling: what a stroke earned and cost, clause by clause, in Finnish and English."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kaisa.model import BallId, Event, Position, event_to_json
from kaisa.referee.state import GameState
from kaisa.table import Point


@dataclass(frozen=True)
class Text:
    """A short explanation for a person, in Finnish and English."""

    fi: str
    en: str


@dataclass(frozen=True)
class RulingItem:
    """One line of a ruling: the clause it applies, its points (0 for a note) and why."""

    clause: str
    points: int
    fi: str
    en: str

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "points": self.points, "fi": self.fi, "en": self.en}


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


def clause_sort_key(clause: str) -> tuple[int, str]:
    """Order clauses as the rulebook does: 1.2 < 1.3 < 2 < 2.1 < 3 < 4 < 4.1 < 5 < 7a < 8c."""
    head = ""
    for ch in clause:
        if ch.isdigit():
            head += ch
        else:
            break
    return (int(head) if head else 99, clause)
