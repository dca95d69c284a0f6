"""What the browser table does, on top of the match, the players and the store: no rules live here.

Each request loads the stored match, pushes one action through :class:`kaisa.game.Match` (which asks the
referee), records it in one transaction and answers with the match as the page shows it. Actions on one match
are serialised by a lock, so two tabs cannot play the same stroke twice; the store also refuses an action
played from a state that is not the stored one.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kaisa.call import Call, parse_call
from kaisa.errors import InvalidPositionError, InvalidStrokeError, KaisaError
from kaisa.game import (
    Action,
    Choose,
    ClockConfig,
    Entry,
    IllegalActionError,
    Lag,
    Match,
    MatchConfig,
    MatchState,
    Phase,
    PlaceW2,
    Shot,
    TakeBreak,
    action_to_json,
)
from kaisa.model import BallId, Position, Stroke
from kaisa.players import Player, decide_action, lag_stroke, make_player
from kaisa.records.storage import AccessDeniedError, MatchInfo, PlayerInfo, Store
from kaisa.referee import GameState, RuleOptions, judge, observe
from kaisa.referee.opening import w2_corridors
from kaisa.table import OFFICIAL
from kaisa.web import schemas

ANIMATION_RATE = 60.0
"""Hz: the page animates strokes from ball centres sampled this often."""
COMPUTER_KINDS = ("baseline", "beginner", "club", "master")


class UnknownActionError(KaisaError, LookupError):
    """No action with that index is stored for the match."""


class NotYourTurnError(IllegalActionError):
    """The action belongs to the other kind of player (a person's to a computer's turn, or the reverse)."""


def stroke_of(data: schemas.StrokeIn) -> Stroke:
    return Stroke.from_json(data.model_dump(exclude_none=True))


def call_of(text: str | None) -> Call | None:
    if text is None or not text.strip():
        return None
    return parse_call(text)


def _player_of_action(before: MatchState) -> int | None:
    """Who played an action from ``before`` (None: the lag, played by both)."""
    return before.to_move


class TableService:
    """The browser table's operations on one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._players: dict[tuple[int, int], Player] = {}

    @contextmanager
    def locked(self, match_id: int) -> Iterator[None]:
        """Serialise the actions on one match (the club API takes the same lock)."""
        with self._guard:
            lock = self._locks.setdefault(match_id, threading.Lock())
        with lock:
            yield

    # --- matches -------------------------------------------------------------------------------------

    def create_match(self, request: schemas.NewMatch) -> schemas.MatchView:
        options = RuleOptions.from_json(request.options)
        config = MatchConfig(
            players=(request.players[0].name, request.players[1].name),
            clock=ClockConfig(request.clock),
            options=options,
        )
        seed = request.seed if request.seed is not None else random.SystemRandom().randrange(2**31)
        infos = [PlayerInfo(p.name, p.kind) for p in request.players]
        match_id = self.store.create_match(config, infos, seed)
        return self.view(match_id)

    def list_matches(self) -> list[schemas.MatchSummary]:
        return [self._summary(info) for info in reversed(self.store.list_matches())]

    def view(self, match_id: int) -> schemas.MatchView:
        match = self.store.resume(match_id, stack=False)
        return self._view(match_id, match, self.store.match_info(match_id))

    def history(self, match_id: int) -> list[schemas.ActionOut]:
        match = self.store.resume(match_id)
        stored = self.store.actions(match_id)
        return [
            schemas.ActionOut(
                index=a.index,
                player=_player_of_action(entry.before),
                action=action_to_json(a.action),
                outcome=a.outcome,
                state_after=a.state_after.to_json(),
            )
            for a, entry in zip(stored, match.stack, strict=True)
        ]

    def animation(self, match_id: int, index: int) -> schemas.Played:
        """Action ``index`` played again from its stored state, with paths (replay stroke by stroke)."""
        match = self.store.resume(match_id)
        if not 0 <= index < len(match.stack):
            count = len(match.stack)
            which = "has no actions yet" if not count else f"has {count} actions, numbered 0 to {count - 1}"
            raise UnknownActionError(f"match {match_id} {which}: there is no action {index}")
        entry = match.stack[index]
        replay = Match(match.config, entry.before)
        replay.trajectory_rate = ANIMATION_RATE
        outcome = replay.push(entry.action)
        info = self.store.match_info(match_id)
        outcomes = self.store.outcomes(match_id)[: index + 1]
        return schemas.Played(
            match=self._view(match_id, replay, info, last=outcome.to_json(), outcomes=outcomes),
            action=action_to_json(entry.action),
            outcome=outcome.to_json(),
        )

    # --- actions --------------------------------------------------------------------------------------

    def lag(self, match_id: int, strokes: tuple[Stroke | None, Stroke | None], lift: bool = False) -> schemas.Played:
        with self.locked(match_id):
            match, info = self._load(match_id)
            if match.state.phase not in (Phase.LAG, Phase.SHOOTOUT_LAG):
                raise IllegalActionError(f"the match is in phase {match.state.phase.value}, not in a lag")
            played = []
            for i, stroke in enumerate(strokes):
                computer = self._computer(match_id, info, i)
                if stroke is None:
                    if computer is None:
                        raise NotYourTurnError(f"player {i + 1} is a person: send their lag stroke")
                    stroke = lag_stroke(computer, i, match)
                elif computer is not None:
                    raise NotYourTurnError(f"player {i + 1} is a computer player: send null for its lag stroke")
                played.append(stroke)
            return self.play(match_id, match, info, Lag((played[0], played[1]), lift))

    def choose(self, match_id: int, cue_ball: BallId) -> schemas.Played:
        return self._human(match_id, lambda _m: Choose(cue_ball))

    def place_w2(self, match_id: int, point: tuple[float, float]) -> schemas.Played:
        return self._human(match_id, lambda _m: PlaceW2(point))

    def shot(self, match_id: int, call: Call | None, stroke: Stroke, seconds: float | None = None) -> schemas.Played:
        return self._human(match_id, lambda m: Shot(call, stroke, 0.0 if seconds is None else seconds))

    def take_break(self, match_id: int, cue_ball: BallId, seconds: float) -> schemas.Played:
        with self.locked(match_id):
            match, info = self._load(match_id)
            return self.play(match_id, match, info, TakeBreak(cue_ball, seconds))

    def computer(self, match_id: int) -> schemas.Played:
        """The computer player whose turn it is plays its action."""
        with self.locked(match_id):
            match, info = self._load(match_id)
            state = match.state
            if state.phase is Phase.OVER:
                raise IllegalActionError("the match is over")
            if state.phase in (Phase.LAG, Phase.SHOOTOUT_LAG):
                both = [self._computer(match_id, info, i) for i in (0, 1)]
                if both[0] is None or both[1] is None:
                    raise NotYourTurnError(
                        "in a lag both players play at once: send the person's lag stroke with null for the computer"
                    )
                return self.play(match_id, match, info, decide_action(match, [both[0], both[1]]))
            mover = state.to_move
            assert mover is not None
            player = self._computer(match_id, info, mover)
            if player is None:
                raise NotYourTurnError(f"it is player {mover + 1}'s ({info.players[mover].name}) turn, a person's")
            players = [player, player]
            return self.play(match_id, match, info, decide_action(match, players))

    def undo(self, match_id: int) -> schemas.MatchView:
        """Casual matches only: take back the last person's action and the computer's actions after it."""
        with self.locked(match_id):
            match, info = self._load(match_id, stack=True)
            if match.config.clock.mode != "off":
                raise IllegalActionError("a match on the competition clock cannot be undone")
            if not match.stack:
                raise IllegalActionError("there is nothing to undo")
            while match.stack:
                before = match.stack[-1].before
                self.store.undo(match_id)
                match.pop()
                mover = before.to_move
                if mover is None or info.players[mover].kind == "human":
                    break
            return self._view(match_id, match, self.store.match_info(match_id))

    # --- study ----------------------------------------------------------------------------------------

    def study_shot(
        self, position: Position, stroke: Stroke, call: Call | None, game: GameState | None
    ) -> schemas.StudyShotOut:
        from kaisa.physics import simulate

        game = game or GameState(shooter=stroke.ball)
        if stroke.ball is not game.shooter:
            raise InvalidStrokeError(f"{game.shooter.value} is at the table: the stroke must be played with it")
        if call is not None:
            call.check_shooter(game.shooter)
        if stroke.place is None:
            _check_cue_ball(position, game)
        record = simulate(position, stroke, trajectories=ANIMATION_RATE)
        ruling = judge(observe(record, call), call, game)
        return schemas.StudyShotOut(record=record.to_json(), ruling=ruling.to_json())

    def advise(self, position: Position, game: GameState | None, level: str, limit: int) -> list[schemas.AdviceOut]:
        from kaisa.call import format_call
        from kaisa.players.search import advise

        game = game or GameState()
        if not game.from_hand:
            _check_cue_ball(position, game)
        evaluations = advise(position, game, level)
        return [
            schemas.AdviceOut(
                call=None if e.call is None else format_call(e.call),
                kind=e.kind,
                stroke=e.stroke.to_json(),
                p_pot=e.p_pot,
                expected_points=e.expected_points,
                p_foul=e.p_foul,
                p_win=e.p_win,
                penalties=e.penalties,
                window=e.window,
                position_value=e.position_value,
                score=e.score,
            )
            for e in evaluations[:limit]
        ]

    # --- helpers --------------------------------------------------------------------------------------

    def _load(self, match_id: int, *, stack: bool = False) -> tuple[Match, MatchInfo]:
        info = self.store.match_info(match_id)
        if info.has_token:
            raise AccessDeniedError(
                f"match {match_id} is a club match kept by a marker: enter it through /api/club with its token"
            )
        match = self.store.resume(match_id, stack=stack)
        match.trajectory_rate = ANIMATION_RATE
        return match, info

    def _computer(self, match_id: int, info: MatchInfo, index: int) -> Player | None:
        kind = info.players[index].kind
        if kind not in COMPUTER_KINDS:
            return None
        key = (match_id, index)
        if key not in self._players:
            seed = (info.seed or 0) + index
            self._players[key] = make_player(kind, info.players[index].name, seed)
        return self._players[key]

    def _human(self, match_id: int, build: Any) -> schemas.Played:
        with self.locked(match_id):
            match, info = self._load(match_id)
            mover = match.state.to_move
            if mover is not None and self._computer(match_id, info, mover) is not None:
                raise NotYourTurnError(
                    f"it is {info.players[mover].name}'s turn, a computer player: ask it to play (POST .../computer)"
                )
            return self.play(match_id, match, info, build(match))

    def play(self, match_id: int, match: Match, info: MatchInfo, action: Action) -> schemas.Played:
        """Push ``action``, record it in one transaction and answer the match after it (call it locked)."""
        before = match.state
        outcome = match.push(action)
        self.store.record(match_id, Entry(action, before, outcome), match.state)
        info = self.store.match_info(match_id)
        out = outcome.to_json()
        return schemas.Played(
            match=self._view(match_id, match, info, last=out), action=action_to_json(action), outcome=out
        )

    def _view(
        self,
        match_id: int,
        match: Match,
        info: MatchInfo,
        last: dict[str, Any] | None = None,
        outcomes: list[dict[str, Any]] | None = None,
    ) -> schemas.MatchView:
        """The view of ``match`` (the stored match, or a replay of it after ``len(outcomes)`` actions)."""
        state = match.state
        if outcomes is None:
            outcomes = self.store.outcomes(match_id) if info.actions else []
        last_action = None
        if outcomes and len(outcomes) == info.actions:
            last_action = self.store.last_action(match_id)
        if last is None and outcomes:
            last = outcomes[-1]
        if last is not None:
            last = {k: v for k, v in last.items() if k != "records"}
        owners = state.owners
        mover = state.to_move
        computer = False
        if state.phase is not Phase.OVER:
            if mover is not None:
                computer = info.players[mover].kind in COMPUTER_KINDS
            else:
                computer = all(p.kind in COMPUTER_KINDS for p in info.players)
        corridors = []
        if state.phase is Phase.PLACE_W2:
            corridors = [
                {"pocket": p.value, "from": list(a), "to": list(b), "clearance": c}
                for p, a, b, c in w2_corridors(state.position, match.config.spec, match.config.options)
            ]
        return schemas.MatchView(
            id=match_id,
            players=[
                schemas.PlayerOut(name=p.name, kind=p.kind, cue_ball=None if owners is None else owners[i].value)
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
            fouls=_fouls(outcomes),
            clock={
                "mode": match.config.clock.mode,
                **state.clock.to_json(),
                "limit": state.clock.limit,
            },
            shootout=None if state.shootout is None else state.shootout.to_json(),
            result=None if state.result is None else state.result.to_json(),
            strokes=state.strokes,
            actions=len(outcomes),
            can_undo=match.config.clock.mode == "off" and len(outcomes) > 0 and len(outcomes) == info.actions,
            w2_corridors=corridors,
            last=last,
            last_action=last_action,
            event=info.event,
            updated_at=info.updated_at.isoformat(),
        )

    def _summary(self, info: MatchInfo) -> schemas.MatchSummary:
        return schemas.MatchSummary(
            id=info.id,
            players=[schemas.PlayerOut(name=p.name, kind=p.kind, cue_ball=None) for p in info.players],
            status=info.status,
            actions=info.actions,
            result=None if info.result is None else info.result.to_json(),
            created_at=info.created_at.isoformat(),
            updated_at=info.updated_at.isoformat(),
        )


def _check_cue_ball(position: Position, game: GameState) -> None:
    if game.shooter not in position:
        raise InvalidPositionError(
            f"{game.shooter.value} is to play but is not on the table: put it in the position, or play it from hand "
            f"(a stroke with a place, or a state with {game.shooter.value} in in_hand)"
        )


def _fouls(outcomes: list[dict[str, Any]]) -> dict[str, int]:
    """Strokes with a foul, per cue ball."""
    fouls = {"W1": 0, "W2": 0}
    for outcome in outcomes:
        ruling = outcome.get("ruling")
        if ruling and ruling.get("fouls"):
            fouls[ruling["shooter"]] = fouls.get(ruling["shooter"], 0) + 1
    return fouls


def position_of(data: schemas.PositionIn) -> Position:
    return Position.from_json(data.model_dump())


def game_of(data: dict[str, Any] | None) -> GameState | None:
    return None if data is None else GameState.from_json(data)


__all__ = ["ANIMATION_RATE", "OFFICIAL", "NotYourTurnError", "TableService"]
