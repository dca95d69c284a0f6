"""The match as a page shows it: :class:`MatchView` (made by :func:`view_of`) and :class:`Played`, the answer to one
pushed action.

Kept apart from the session that plays (:mod:`kaisa.session.match`) because the registry's replays, the web's
answers and their schema all read the view without playing anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from kaisa.game import Action, Match, Outcome, Phase, action_to_json
from kaisa.players import COMPUTER_KINDS
from kaisa.referee.opening import w2_corridors

if TYPE_CHECKING:
    from kaisa.records.storage import MatchInfo

ANIMATION_RATE = 60.0
"""Hz: pages animate strokes from ball centres sampled this often."""


def is_computer(kind: str) -> bool:
    return kind in COMPUTER_KINDS


@dataclass(frozen=True)
class MatchView:
    """A match as a page shows it. ``to_move`` is the index of the player to act (None in a lag)."""

    id: int
    players: list[dict[str, Any]]
    phase: str
    position: dict[str, Any]
    scores: dict[str, int]
    innings: dict[str, int]
    run: int
    shooter: str
    to_move: int | None
    computer_to_move: bool
    """The next action is a computer player's (the page asks ``/computer`` for it)."""
    from_hand: bool
    opening: bool
    lag_winner: int | None
    fouls: dict[str, int]
    clock: dict[str, Any]
    shootout: dict[str, Any] | None
    result: dict[str, Any] | None
    strokes: int
    actions: int
    can_undo: bool
    w2_corridors: list[dict[str, Any]]
    last: dict[str, Any] | None
    """The last action's outcome (its ruling, lag result and notes), without paths."""
    last_action: dict[str, Any] | None = None
    """The last action (its call, stroke or marked facts)."""
    event: str | None = None
    """The club night the match belongs to."""
    updated_at: str | None = None
    """When the match last changed (ISO 8601, UTC): a live clock counts on from it."""
    winning_score: int = 60
    """The points that win the game (3): the rule option, 60 unless a competition's target sets another."""
    clock_since: str | None = None
    """When the competition clock last started counting (ISO 8601, UTC): the last entry other than a break, or
    the match's creation. The time of the stroke due is the time since then (a break in it extends the limit,
    6), so a reloaded page or a second screen counts the turn from the same moment."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


LAGS = ("lag", "marked-lag")
"""The kinds of action that Undo never takes back: a lag played again could give another result."""


def view_of(
    match: Match,
    info: MatchInfo,
    *,
    last: dict[str, Any] | None,
    last_action: dict[str, Any] | None,
    actions: int,
    current: bool = True,
    clock_since: datetime | None = None,
) -> MatchView:
    """The view of ``match`` after ``actions`` actions (``current``: the stored match as it is now, which
    may be undone; otherwise a replay of it)."""
    state = match.state
    config = match.config
    owners = state.owners
    mover = state.to_move
    computer = False
    if state.phase is not Phase.OVER:
        if mover is not None:
            computer = is_computer(info.players[mover].kind)
        else:
            computer = all(is_computer(p.kind) for p in info.players)
    corridors = []
    if state.phase is Phase.PLACE_W2:
        corridors = [
            {"pocket": p.value, "from": list(a), "to": list(b), "clearance": c}
            for p, a, b, c in w2_corridors(state.position, config.spec, config.options)
        ]
    if last is not None:
        last = {k: v for k, v in last.items() if k != "records"}
    return MatchView(
        id=info.id,
        players=[
            {"name": p.name, "kind": p.kind, "cue_ball": None if owners is None else owners[i].value}
            for i, p in enumerate(info.players)
        ],
        phase=state.phase.value,
        position=state.position.to_json(),
        scores={b.value: s for b, s in state.game.scores.items()},
        innings={b.value: n for b, n in state.innings.items()},
        run=state.run,
        shooter=state.game.shooter.value,
        to_move=mover,
        computer_to_move=computer,
        from_hand=state.game.from_hand,
        opening=state.game.opening,
        lag_winner=state.lag_winner,
        fouls={b.value: n for b, n in state.fouls.items()},
        clock={"mode": config.clock.mode, **state.clock.to_json(), "limit": state.clock.limit},
        shootout=None if state.shootout is None else state.shootout.to_json(),
        result=None if state.result is None else state.result.to_json(),
        strokes=state.strokes,
        actions=actions,
        can_undo=current
        and config.clock.mode == "off"
        and actions > 0
        and state.phase not in (Phase.OVER, Phase.CHOOSE)  # the choice follows the lag, which stands
        and (last_action is None or last_action.get("kind") not in LAGS),
        w2_corridors=corridors,
        last=last,
        last_action=last_action if current else None,
        event=info.event,
        updated_at=info.updated_at.isoformat(),
        winning_score=config.options.winning_score,
        clock_since=None if clock_since is None or not current else clock_since.isoformat(),
    )


@dataclass(frozen=True)
class Played:
    """What one pushed action gave: the action as recorded (with its executed strokes), what it produced and
    the match after it."""

    action: Action
    outcome: Outcome
    view: MatchView

    def to_json(self) -> dict[str, Any]:
        return {"match": self.view.to_json(), "action": action_to_json(self.action), "outcome": self.outcome.to_json()}
