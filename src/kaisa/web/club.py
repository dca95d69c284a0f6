"""The scorekeeping mode for real club matches: the marker's API, the spectator streams and the exports.

A marker at a real table enters what happened (:class:`kaisa.game.marking.Marks`); the match layer asks the
referee, which does the points, the fouls, ball in hand and the respots. Entering needs the match's secret
token (header ``X-Kaisa-Token``), created with the match and stored only as a hash; reading (the scoreboard,
the spectator stream, the exports) is open. Every stroke is committed before the answer confirms it.
No rules live here: this module turns requests into actions and views.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import PlainTextResponse, Response, StreamingResponse
from pydantic import BaseModel, Field

from kaisa.call import parse_call
from kaisa.game import (
    Choose,
    ClockConfig,
    Forfeit,
    MarkedLag,
    PlaceW2,
    TakeBreak,
    replay,
)
from kaisa.game.marking import Marks
from kaisa.model import BallId
from kaisa.players import HUMAN
from kaisa.records.stats import MatchStats, aggregate, match_stats, to_csv, to_json
from kaisa.records.storage import PlayerInfo, Store
from kaisa.session import LateFall, MatchSession, RuleOptions
from kaisa.table import PocketId
from kaisa.web import schemas
from kaisa.web.service import MatchService, played_out, view_out

POLL_SECONDS = 0.5
"""How often a spectator stream looks for a change in the database (which any server process may write)."""
HEARTBEAT_SECONDS = 15.0
TOKEN_HEADER = "X-Kaisa-Token"
PocketName = Literal["HL", "HR", "ML", "MR", "FL", "FR"]
Token = Annotated[str | None, Header(alias=TOKEN_HEADER, description="the match's secret marker token")]


# --- request bodies -------------------------------------------------------------------------------------


class LateFallIn(schemas.Strict):
    ball: schemas.BallName
    caused_by: schemas.CueBallName | None = Field(None, description="the player's cue ball if a player caused it")


class MarksIn(schemas.Strict):
    """What happened in a stroke, as the marker saw it."""

    struck: schemas.CueBallName | None = Field(None, description="the ball struck, if not the player's own (7i)")
    pots: list[tuple[schemas.BallName, PocketName]] = Field(default_factory=list, max_length=5)
    off_table: list[schemas.BallName] = Field(default_factory=list, max_length=5)
    first_contact: schemas.BallName | None = Field(None, description="the first ball the cue ball hit")
    nakki: list[schemas.BallName] = Field(default_factory=list, max_length=5)
    called_as_called: bool = Field(True, description="the marker's judgement: the called pot went as called")
    place: schemas.PointIn | None = Field(None, description="where the cue ball in hand was placed")
    moves: dict[schemas.BallName, schemas.PointIn] = Field(
        default_factory=dict, description="where balls came to rest, where it matters (on or near a spot)"
    )
    mankeli: bool = False
    frozen_short_of_haaki: bool = False
    konsti_ball_frozen_to_cushion: bool = False
    konsti_pair_frozen: bool = False
    cushion_pots: list[schemas.BallName] = Field(default_factory=list, max_length=5)
    hand_fault: str | None = Field(None, max_length=200, description="a section 5 fault from hand, in words")
    talonmies_angle: float | None = Field(None, ge=0, le=180, allow_inf_nan=False)
    touched_by_player: bool = False
    jump_over_mask: bool = False
    restored_by_referee: bool = False
    late_fall: LateFallIn | None = None

    def to_marks(self) -> Marks:
        return Marks(
            struck=None if self.struck is None else BallId(self.struck),
            pots=tuple((BallId(b), PocketId(p)) for b, p in self.pots),
            off_table=tuple(BallId(b) for b in self.off_table),
            first_contact=None if self.first_contact is None else BallId(self.first_contact),
            nakki=frozenset(BallId(b) for b in self.nakki),
            called_as_called=self.called_as_called,
            place=None if self.place is None else (self.place[0], self.place[1]),
            moves={BallId(b): (p[0], p[1]) for b, p in self.moves.items()},
            mankeli=self.mankeli,
            frozen_short_of_haaki=self.frozen_short_of_haaki,
            konsti_ball_frozen_to_cushion=self.konsti_ball_frozen_to_cushion,
            konsti_pair_frozen=self.konsti_pair_frozen,
            cushion_pots=frozenset(BallId(b) for b in self.cushion_pots),
            hand_fault=self.hand_fault,
            talonmies_angle=self.talonmies_angle,
            touched_by_player=self.touched_by_player,
            jump_over_mask=self.jump_over_mask,
            restored_by_referee=self.restored_by_referee,
            late_fall=None
            if self.late_fall is None
            else LateFall(
                BallId(self.late_fall.ball),
                None if self.late_fall.caused_by is None else BallId(self.late_fall.caused_by),
            ),
        )


class NewClubMatch(schemas.Strict):
    players: tuple[
        Annotated[str, Field(min_length=1, max_length=60)], Annotated[str, Field(min_length=1, max_length=60)]
    ]
    breaker: Literal[0, 1] = Field(0, description="which player breaks (and so plays W1, 1.2)")
    clock: Literal["off", "wall"] = Field("off", description="wall: the competition clock of rule 6")
    event: str | None = Field(None, min_length=1, max_length=120, description="the club night, e.g. 'Club night 2.12.'")
    options: dict[str, Any] = Field(default_factory=dict, description="rule options")


class MarkedStrokeIn(schemas.Strict):
    call: str | None = Field(None, max_length=200, description="the call in the call notation; null for no call")
    marks: MarksIn = Field(default_factory=lambda: MarksIn.model_validate({}))


class CorrectionIn(schemas.Strict):
    call: str | None = Field(None, max_length=200)
    marks: MarksIn


class LagWonIn(schemas.Strict):
    winner: Literal[0, 1]


class ForfeitIn(schemas.Strict):
    cue_ball: schemas.CueBallName
    clause: Literal["1.4"] = "1.4"


class ClubCreated(BaseModel):
    match: schemas.MatchView
    token: str
    """The marker's secret: only its hash is stored, so keep the marker's link."""
    marker_url: str
    scoreboard_url: str


class EventView(BaseModel):
    event: str
    tables: list[schemas.MatchView]


# --- the service ----------------------------------------------------------------------------------------


class ClubService:
    """The marker's operations, each through the match's session (opened with the match's token)."""

    def __init__(self, store: Store, table: MatchService) -> None:
        self.store = store
        self.table = table
        self.sessions = table.sessions

    def _open(self, match_id: int, token: str | None) -> AbstractContextManager[MatchSession]:
        return self.sessions.open(match_id, token=token, marker=True)

    def create(self, body: NewClubMatch) -> ClubCreated:
        token = secrets.token_urlsafe(18)
        match_id = self.sessions.create(
            [PlayerInfo(name, HUMAN) for name in body.players],
            clock=ClockConfig(body.clock),
            options=RuleOptions.from_json(body.options),
            event=body.event,
            token=token,
        )
        # 1.1 and 1.2 at a real table: the lag is played there, and its winner breaks with W1
        with self._open(match_id, token) as session:
            session.push(MarkedLag(body.breaker))
            session.push(Choose(BallId.W1))
        return ClubCreated(
            match=self.table.view(match_id),
            token=token,
            marker_url=f"/club#/match/{match_id}/{token}",
            scoreboard_url=f"/scoreboard#/match/{match_id}",
        )

    def place_w2(self, match_id: int, token: str | None, point: tuple[float, float]) -> schemas.Played:
        with self._open(match_id, token) as session:
            return played_out(session.push(PlaceW2(point)))

    def stroke(self, match_id: int, token: str | None, body: MarkedStrokeIn) -> schemas.Played:
        call = None if body.call is None or not body.call.strip() else parse_call(body.call)
        with self._open(match_id, token) as session:
            return played_out(session.mark(call, body.marks.to_marks(), self._seconds(session)))

    def lag_won(self, match_id: int, token: str | None, winner: int) -> schemas.Played:
        with self._open(match_id, token) as session:
            return played_out(session.push(MarkedLag(winner)))

    def take_break(self, match_id: int, token: str | None, cue_ball: BallId, seconds: float) -> schemas.Played:
        with self._open(match_id, token) as session:
            return played_out(session.push(TakeBreak(cue_ball, seconds)))

    def forfeit(self, match_id: int, token: str | None, cue_ball: BallId) -> schemas.Played:
        with self._open(match_id, token) as session:
            return played_out(session.push(Forfeit(cue_ball)))

    def undo(self, match_id: int, token: str | None) -> schemas.MatchView:
        with self._open(match_id, token) as session:
            # the marked lag and the choice of W1 are the match's creation, not entries
            return view_out(session.undo_entry(keep=2))

    def correct(self, match_id: int, token: str | None, index: int, body: CorrectionIn) -> schemas.MatchView:
        call = None if body.call is None or not body.call.strip() else parse_call(body.call)
        with self._open(match_id, token) as session:
            return view_out(session.correct(index, call, body.marks.to_marks()))

    # --- reading ------------------------------------------------------------------------------------

    def event(self, event: str) -> EventView:
        infos = self.store.list_matches(event=event)
        return EventView(event=event, tables=[self.table.view(i.id) for i in infos])

    def stats(self, match_id: int) -> MatchStats:
        config, _state, actions = self.store.load(match_id)
        info = self.store.match_info(match_id)
        return match_stats(replay(config, actions), event=info.event or "", date=info.created_at.date().isoformat())

    def event_stats(self, event: str) -> list[MatchStats]:
        return [self.stats(i.id) for i in self.store.list_matches(event=event)]

    # --- helpers ------------------------------------------------------------------------------------

    def _seconds(self, session: MatchSession) -> float:
        """Competition clock at a real table: a stroke took the time since the previous entry other than a
        break. A break in between is counted too, and its length extends the limit (6), so the time played
        before the break is not lost and the break itself costs nothing."""
        if session.match.config.clock.mode != "wall":
            return 0.0
        log = self.store.action_log(session.id)
        since = next((at for action, at in reversed(log) if action.get("kind") != "break"), None)
        start = since or session.info.created_at
        return max(0.0, min(3600.0, (datetime.now(UTC) - start).total_seconds()))

    def check(self, match_id: int, token: str | None) -> None:
        self.store.check_token(match_id, token)


# --- the router -----------------------------------------------------------------------------------------


def club_router(store: Store, table: MatchService) -> APIRouter:
    service = ClubService(store, table)
    router = APIRouter(prefix="/api/club", tags=["club"])
    errors: dict[int | str, dict[str, Any]] = {
        403: {"model": schemas.ErrorOut, "description": "The marker token is missing or wrong"},
        404: {"model": schemas.ErrorOut, "description": "No such match"},
        409: {"model": schemas.ErrorOut, "description": "The entry does not fit the match now"},
    }

    @router.post("/matches", status_code=201)
    def create(body: NewClubMatch) -> ClubCreated:
        """A club match at a real table: the players, who breaks (W1), the clock, the club night. Answers the
        marker's secret token and link (keep them: only the token's hash is stored)."""
        return service.create(body)

    @router.get("/matches/{match_id}/access", status_code=204, responses=errors)
    def access(match_id: int, token: Token = None) -> Response:
        """204 if the token lets its holder enter strokes for the match (403 if not): for a marker's page."""
        service.check(match_id, token)
        return Response(status_code=204)

    @router.post("/matches/{match_id}/place-w2", responses=errors)
    def place_w2(match_id: int, body: schemas.PlaceIn, token: Token = None) -> schemas.Played:
        """Where W2 was placed before the break (1.2), approximately."""
        return service.place_w2(match_id, token, (body.point[0], body.point[1]))

    @router.post("/matches/{match_id}/strokes", responses=errors)
    def stroke(match_id: int, body: MarkedStrokeIn, token: Token = None) -> schemas.Played:
        """One stroke as the marker saw it: ruled, committed, then answered with the ruling and the respots."""
        return service.stroke(match_id, token, body)

    @router.put("/matches/{match_id}/strokes/{index}", responses=errors)
    def correct_stroke(match_id: int, index: int, body: CorrectionIn, token: Token = None) -> schemas.MatchView:
        """Correct entered stroke ``index`` (an action index): the match is replayed, later strokes re-entered."""
        return service.correct(match_id, token, index, body)

    @router.post("/matches/{match_id}/undo", responses=errors)
    def undo(match_id: int, token: Token = None) -> schemas.MatchView:
        """Take back the last entry."""
        return service.undo(match_id, token)

    @router.post("/matches/{match_id}/lag", responses=errors)
    def lag_won(match_id: int, body: LagWonIn, token: Token = None) -> schemas.Played:
        """The shoot-out's lag winner (6)."""
        return service.lag_won(match_id, token, body.winner)

    @router.post("/matches/{match_id}/break", responses=errors)
    def take_break(match_id: int, body: schemas.BreakIn, token: Token = None) -> schemas.Played:
        """A player's one break of up to five minutes (6)."""
        return service.take_break(match_id, token, BallId(body.cue_ball), body.seconds)

    @router.post("/matches/{match_id}/forfeit", responses=errors)
    def forfeit(match_id: int, body: ForfeitIn, token: Token = None) -> schemas.Played:
        """1.4: a player kept playing with a cue ruled over 200 cm: the opponent wins."""
        return service.forfeit(match_id, token, BallId(body.cue_ball))

    @router.get("/matches/{match_id}/export", responses=errors)
    def export(match_id: int, format: Literal["json", "csv"] = "json") -> PlainTextResponse:
        """The match's result and statistics (points, innings, runs, points per inning)."""
        stats = service.stats(match_id)
        if format == "csv":
            return PlainTextResponse(to_csv(stats), media_type="text/csv")
        return PlainTextResponse(to_json(stats), media_type="application/json")

    @router.get("/events/{event}")
    def event(event: str) -> EventView:
        """Every table of a club night, as the scoreboard shows them."""
        return service.event(event)

    @router.get("/events/{event}/results")
    def results(
        event: str, format: Literal["json", "csv"] = "json", by: Literal["match", "player"] = "match"
    ) -> PlainTextResponse:
        """A club night's results as one table: a row per player per match, or per player over the night."""
        matches = service.event_stats(event)
        data: Any = aggregate(matches) if by == "player" else matches
        if format == "csv":
            return PlainTextResponse(to_csv(data), media_type="text/csv")
        return PlainTextResponse(to_json(data), media_type="application/json")

    @router.get("/matches/{match_id}/stream", responses=errors, response_class=StreamingResponse)
    async def match_stream(match_id: int, request: Request) -> StreamingResponse:
        """Server-sent events: a ``view`` event with the match whenever it changes (the spectator display)."""
        table.view(match_id)  # 404 before the stream starts

        def current() -> str:
            return table.view(match_id).model_dump_json()

        return _stream(request, lambda: store.last_change([match_id]), current)

    @router.get("/events/{event}/stream", response_class=StreamingResponse)
    async def event_stream(event: str, request: Request) -> StreamingResponse:
        """Server-sent events: an ``event`` view with every table of the club night whenever one changes."""

        def current() -> str:
            return service.event(event).model_dump_json()

        return _stream(request, lambda: store.last_change(event=event), current)

    return router


def _stream(request: Request, changed: Any, current: Any) -> StreamingResponse:
    async def events() -> AsyncIterator[str]:
        seen: object = object()
        quiet = 0.0
        while not await request.is_disconnected():
            moment = await asyncio.to_thread(changed)
            if moment != seen:
                seen = moment
                quiet = 0.0
                data = await asyncio.to_thread(current)
                yield f"event: view\ndata: {data}\n\n"
            elif quiet >= HEARTBEAT_SECONDS:
                quiet = 0.0
                yield ": still here\n\n"
            await asyncio.sleep(POLL_SECONDS)
            quiet += POLL_SECONDS

    return StreamingResponse(
        events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


__all__ = ["ClubService", "MarksIn", "club_router"]
