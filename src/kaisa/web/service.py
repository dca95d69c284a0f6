"""What the browser table does: requests turned into match-session calls and answers. No rules live here.

Each request opens the stored match through :class:`kaisa.session.registry.Sessions` (which locks it, pushes one
action through the match and records it in one transaction) and answers with the session's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kaisa.call import Call, format_call, parse_call
from kaisa.game import Choose, ClockConfig, IllegalActionError, PlaceW2, Shot, TakeBreak, action_to_json
from kaisa.model import BallId, Position, Stroke
from kaisa.records.storage import MatchInfo, PlayerInfo, Store
from kaisa.session import GameState, RuleOptions, call_words
from kaisa.session.aids import advise, aim, call_prospects
from kaisa.session.match import NotYourTurnError
from kaisa.session.registry import Sessions, UnknownActionError
from kaisa.session.study import study_setup, study_shot
from kaisa.session.view import ANIMATION_RATE, MatchView, Played
from kaisa.web import schemas

if TYPE_CHECKING:
    from kaisa.players.search import Evaluation


def stroke_of(data: schemas.StrokeIn) -> Stroke:
    return Stroke.from_json(data.model_dump(exclude_none=True))


def call_of(text: str | None) -> Call | None:
    if text is None or not text.strip():
        return None
    return parse_call(text)


def view_out(view: MatchView) -> schemas.MatchView:
    return schemas.MatchView.model_validate(view.to_json())


def played_out(played: Played) -> schemas.Played:
    return schemas.Played.model_validate(played.to_json())


DETAILED = 200
"""The history lists this many newest matches with their cue balls and strokes (one read each)."""


class MatchService:
    """The browser table's operations on the matches of one store, through its match sessions."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sessions = Sessions(store, trajectory_rate=ANIMATION_RATE)

    # --- matches -------------------------------------------------------------------------------------

    def create_match(self, request: schemas.NewMatch) -> schemas.MatchView:
        match_id = self.sessions.create(
            [PlayerInfo(p.name, p.kind) for p in request.players],
            clock=ClockConfig(request.clock),
            options=RuleOptions.from_json(request.options),
            seed=request.seed,
        )
        return self.view(match_id)

    def list_matches(self) -> list[schemas.MatchSummary]:
        """Every stored match, newest first; the newest :data:`DETAILED` with their cue balls and strokes."""
        return [self._summary(info, i < DETAILED) for i, info in enumerate(reversed(self.store.list_matches()))]

    def view(self, match_id: int) -> schemas.MatchView:
        return view_out(self.sessions.view(match_id))

    def history(self, match_id: int, offset: int = 0, limit: int | None = None) -> list[schemas.ActionOut]:
        return [
            schemas.ActionOut(
                index=a.index,
                player=player,
                action=action_to_json(a.action),
                outcome=a.outcome,
                state_after=a.state_after.to_json(),
            )
            for a, player in self.sessions.history(match_id, offset, limit)
        ]

    def animation(self, match_id: int, index: int) -> schemas.Played:
        """Action ``index`` played again from its stored state, with paths (replay stroke by stroke)."""
        played, _info = self.sessions.animation(match_id, index)
        return played_out(played)

    # --- actions --------------------------------------------------------------------------------------

    def lag(self, match_id: int, strokes: tuple[Stroke | None, Stroke | None], lift: bool = False) -> schemas.Played:
        with self.sessions.open(match_id) as session:
            return played_out(session.lag(strokes, lift))

    def choose(self, match_id: int, cue_ball: BallId) -> schemas.Played:
        with self.sessions.open(match_id) as session:
            return played_out(session.person(lambda _m: Choose(cue_ball)))

    def place_w2(self, match_id: int, point: tuple[float, float]) -> schemas.Played:
        with self.sessions.open(match_id) as session:
            return played_out(session.person(lambda _m: PlaceW2(point)))

    def shot(self, match_id: int, call: Call | None, stroke: Stroke, seconds: float | None = None) -> schemas.Played:
        with self.sessions.open(match_id) as session:
            return played_out(session.person(lambda _m: Shot(call, stroke, 0.0 if seconds is None else seconds)))

    def take_break(self, match_id: int, cue_ball: BallId, seconds: float) -> schemas.Played:
        with self.sessions.open(match_id) as session:
            return played_out(session.push(TakeBreak(cue_ball, seconds)))

    def computer(self, match_id: int) -> schemas.Played:
        """The computer player whose turn it is plays its action."""
        with self.sessions.open(match_id) as session:
            return played_out(session.play_computer())

    def undo(self, match_id: int) -> schemas.MatchView:
        """Casual matches only: take back the last person's action and the computer's actions after it."""
        with self.sessions.open(match_id) as session:
            return view_out(session.undo())

    def hint(self, match_id: int, level: str, limit: int) -> list[schemas.AdviceOut]:
        """The advisor's best calls for the person to move (read under the match's lock; nothing is recorded)."""
        with self.sessions.open(match_id) as session:
            return [advice_out(e) for e in session.hint(level)[:limit]]

    def aim(self, match_id: int, call: Call, stroke: Stroke, *, deep: bool = True) -> schemas.AimOut:
        """The aim helper on the match as it stands (a read: nothing is recorded)."""
        with self.sessions.open(match_id) as session:
            return schemas.AimOut.model_validate(session.aim(call, stroke, deep=deep).to_json())

    def call_prospects(
        self,
        call: Call,
        match_id: int | None,
        position: schemas.PositionIn | None,
        state: dict[str, Any] | None,
    ) -> list[dict[str, Any]]:
        """Why ``call`` cannot score in the match's state, or in ``position`` and ``state`` (empty: it can, or
        no state was given)."""
        if match_id is not None:
            opened = self.store.open_match(match_id)
            items = call_prospects(opened.state.position, opened.state.game, call, opened.config.spec)
        elif position is not None:
            game = game_of(state) or GameState()
            items = call_prospects(position_of(position), game, call)
        else:
            return []
        return [i.to_json() for i in items]

    def preview(self, match_id: int, call: Call | None, stroke: Stroke) -> schemas.StudyShotOut:
        """The stroke as it would play now, ruled, not recorded (read under the match's lock, no write)."""
        with self.sessions.open(match_id) as session:
            shot = session.preview(call, stroke)
        return schemas.StudyShotOut(record=shot.record.to_json(), ruling=shot.ruling.to_json())

    # --- study ----------------------------------------------------------------------------------------

    def study_aim(
        self, position: Position, game: GameState | None, call: Call, stroke: Stroke, *, deep: bool = True
    ) -> schemas.AimOut:
        game = game or GameState(shooter=stroke.ball)
        position, placed = study_setup(position, game, stroke)
        assert placed is not None
        stroke = placed
        return schemas.AimOut.model_validate(aim(position, game, call, stroke, deep=deep).to_json())

    def study_shot(
        self, position: Position, stroke: Stroke, call: Call | None, game: GameState | None
    ) -> schemas.StudyShotOut:
        game = game or GameState(shooter=stroke.ball)
        position, placed = study_setup(position, game, stroke)
        assert placed is not None
        shot = study_shot(position, placed, call, game)
        return schemas.StudyShotOut(record=shot.record.to_json(), ruling=shot.ruling.to_json())

    def advise(self, position: Position, game: GameState | None, level: str, limit: int) -> list[schemas.AdviceOut]:
        game = game or GameState()
        position, _ = study_setup(position, game)
        return [advice_out(e) for e in advise(position, game, level)[:limit]]

    # --- helpers --------------------------------------------------------------------------------------

    def _summary(self, info: MatchInfo, detailed: bool = False) -> schemas.MatchSummary:
        owners: list[str | None] = [None, None]
        strokes = None
        if detailed:
            state = self.store.open_match(info.id).state
            strokes = state.strokes
            if state.owners is not None:
                owners = [b.value for b in state.owners]
        return schemas.MatchSummary(
            id=info.id,
            strokes=strokes,
            players=[
                schemas.PlayerOut(name=p.name, kind=p.kind, cue_ball=owners[i]) for i, p in enumerate(info.players)
            ],
            status=info.status,
            actions=info.actions,
            result=None if info.result is None else info.result.to_json(),
            created_at=info.created_at.isoformat(),
            updated_at=info.updated_at.isoformat(),
        )


def advice_out(e: Evaluation) -> schemas.AdviceOut:
    words = None if e.call is None else call_words(e.call)
    return schemas.AdviceOut(
        call=None if e.call is None else format_call(e.call),
        words=None if words is None else {"fi": words.fi, "en": words.en},
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


def position_of(data: schemas.PositionIn) -> Position:
    return Position.from_json(data.model_dump())


def game_of(data: dict[str, Any] | None) -> GameState | None:
    return None if data is None else GameState.from_json(data)


__all__ = ["IllegalActionError", "MatchService", "NotYourTurnError", "UnknownActionError"]
