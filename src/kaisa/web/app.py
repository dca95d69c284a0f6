"""The browser table's HTTP server: a FastAPI app over :class:`~kaisa.web.service.MatchService`.

The page (``static/``: plain ES modules, no build step) talks to the JSON API under ``/api``; its OpenAPI
schema is at ``/openapi.json`` and its documentation at ``/docs``. Errors answer with ``{"detail": ...}``
saying what was wrong and what is allowed: 404 for an unknown match, 409 for an action that does not fit the
match (not your turn, wrong phase, nothing to undo), 422 for a malformed or illegal request (a bad stroke, an
illegal placement, a call that does not parse). A refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from kaisa import __version__
from kaisa.call import CallError, parse_call
from kaisa.competition.store import UnknownCompetitionError
from kaisa.errors import KaisaError, error_text
from kaisa.game import IllegalActionError
from kaisa.model import BallId
from kaisa.players.kinds import KINDS
from kaisa.records.storage import (
    AccessDeniedError,
    DatabaseUnavailableError,
    StaleStateError,
    Store,
    UnknownMatchError,
)
from kaisa.table import OFFICIAL, table_to_json
from kaisa.web import schemas
from kaisa.web.club import club_router
from kaisa.web.competition import competition_router
from kaisa.web.invalid import invalid_request_text
from kaisa.web.pages import PAGES
from kaisa.web.security import OriginGuard
from kaisa.web.service import MatchService, UnknownActionError, call_of, game_of, position_of, stroke_of

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.ErrorOut, "description": "No such match"},
    409: {"model": schemas.ErrorOut, "description": "The action does not fit the match now"},
}


HISTORY_PAGE = 1000
"""The history's page size, default and largest: more than a long match has (the page reads every action
of its range, so its cost depends on the page, not on the match)."""


RETRY_AFTER = 2
"""Seconds a client should wait before trying again when the database is busy or unreachable (503)."""


HTTP_ERRORS: dict[int, tuple[str, str, str]] = {
    400: (
        "unreadable-body",
        "Pyynnön sisältöä ei voi lukea: lähetä kelvollinen JSON-olio.",
        "The request's body cannot be read: send a valid JSON object.",
    ),
    404: ("not-found", "Tällä palvelimella ei ole tätä osoitetta.", "This server has no such address."),
    405: (
        "method-not-allowed",
        "Tähän osoitteeseen ei voi lähettää tällaista pyyntöä.",
        "This address does not take this kind of request.",
    ),
}
"""Starlette's own refusals: their stable codes and texts."""


def create_app(store: Store, *, close_store: bool = False) -> FastAPI:
    """The app serving ``store``'s matches (closed at shutdown when ``close_store``)."""
    service = MatchService(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        if close_store:
            store.close()

    app = FastAPI(
        responses={
            status: {"model": schemas.ErrorOut, "description": said}
            for status, said in (
                (400, "A host name this server does not answer to (code bad-host)"),
                (403, "A change sent by another site (cross-origin), or a wrong or missing match token"),
                (404, "No such match or action"),
                (409, "An action that does not fit the match's phase or turn, or a stale state"),
                (422, "A malformed or illegal request"),
                (503, "The database is busy or unreachable: try again after Retry-After seconds"),
            )
        },
        title="Kaisa browser table",
        version=__version__,
        description="Play Kaisa, the Finnish five-ball billiards game, against the computer or a friend, "
        "replay matches and study positions. Coordinates are metres, angles degrees (REFERENCE.md).",
        lifespan=lifespan,
        dependencies=[Depends(schemas.whole_number_params)],  # every router's ids and offsets: digits only
    )
    app.state.service = service

    def refuse(status: int) -> Callable[[Request, Exception], JSONResponse]:
        def handler(_request: Request, exc: Exception) -> JSONResponse:
            # one error shape (schemas.ErrorOut): the detail, a stable code, the error in Finnish and English
            assert isinstance(exc, KaisaError)
            text = error_text(exc)
            body: dict[str, Any] = {"detail": str(exc), "code": exc.code, "fi": text.fi, "en": text.en}
            headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else None
            return JSONResponse(body, status_code=status, headers=headers)

        return handler

    def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        # the offending input is not echoed: it may not even be JSON (NaN), and the field says enough
        errors = [
            {"loc": [str(part) for part in e["loc"]], "msg": str(e["msg"]), "type": str(e["type"])}
            for e in exc.errors()
        ]
        said = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors)
        detail = f"the request does not fit the API: {said}"
        text = invalid_request_text(exc.errors(), request.url.path)  # each field named, in words, both languages
        body = {"detail": detail, "code": "invalid-request", "fi": text.fi, "en": text.en}
        return JSONResponse({**body, "errors": errors}, status_code=422)

    def http_error(_request: Request, exc: Exception) -> JSONResponse:
        # starlette's own refusals (an unreadable body, an unknown address, a wrong method) in the one error shape
        assert isinstance(exc, StarletteHTTPException)
        code, fi, en = HTTP_ERRORS.get(
            exc.status_code, ("http-error", "Pyyntöä ei voi käsitellä.", "The request cannot be handled.")
        )
        body = {"detail": str(exc.detail), "code": code, "fi": fi, "en": en}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(DatabaseUnavailableError, refuse(503))
    app.add_middleware(OriginGuard)
    app.add_exception_handler(AccessDeniedError, refuse(403))
    app.add_exception_handler(UnknownMatchError, refuse(404))
    app.add_exception_handler(UnknownActionError, refuse(404))
    app.add_exception_handler(UnknownCompetitionError, refuse(404))
    app.add_exception_handler(StaleStateError, refuse(409))
    app.add_exception_handler(IllegalActionError, refuse(409))
    app.add_exception_handler(KaisaError, refuse(422))

    # --- the page ------------------------------------------------------------------------------------

    static = resources.files("kaisa.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    def page(file: str) -> Callable[[], FileResponse]:
        return lambda: FileResponse(str(static / file))

    for path, file in PAGES.items():
        app.add_api_route(path, page(file), methods=["GET"], include_in_schema=False)

    app.include_router(club_router(store, service))
    app.include_router(competition_router(store, service))

    # --- reference data ------------------------------------------------------------------------------

    @app.get("/api/table", tags=["reference"])
    def table() -> dict[str, Any]:
        """The official table to scale: playing area, pockets with their jaws, rails, lines and spots."""
        return table_to_json(OFFICIAL)

    @app.get("/api/players", tags=["reference"])
    def players() -> dict[str, dict[str, Any]]:
        """The kinds of player a match can have: names and descriptions in Finnish and English, whether the
        computer plays them, and their seat's execution noise."""
        return {kind: k.to_json() for kind, k in KINDS.items()}

    @app.post("/api/calls/check", tags=["reference"])
    def check_call(body: schemas.CallCheckIn) -> schemas.CallCheckOut:
        """Parse a call in the call notation and say whether ``shooter`` may make it, and, given a match or a
        position and state, why it cannot score there (the break, 2.1, from hand; from the referee)."""
        try:
            call = parse_call(body.call)
            call.check_shooter(BallId(body.shooter))
        except CallError as refused:
            if not body.verdict:
                raise
            said = error_text(refused)
            return schemas.CallCheckOut(
                valid=False, call="", ball="", pocket="", code=refused.code, fi=said.fi, en=said.en
            )
        from kaisa.call import format_call

        prospects = service.call_prospects(call, body.match, body.position, body.state)
        return schemas.CallCheckOut(
            call=format_call(call), ball=call.ball.value, pocket=call.pocket.value, prospects=prospects
        )

    # --- matches -------------------------------------------------------------------------------------

    @app.get("/api/matches", tags=["matches"])
    def list_matches() -> list[schemas.MatchSummary]:
        """Every stored match, newest first."""
        return service.list_matches()

    @app.post("/api/matches", status_code=201, tags=["matches"])
    def create_match(body: schemas.NewMatch) -> schemas.MatchView:
        """Start a match: it begins with the lag (1.1)."""
        return service.create_match(body)

    @app.get("/api/matches/{match_id}", responses=ERRORS, tags=["matches"])
    def get_match(match_id: int) -> schemas.MatchView:
        return service.view(match_id)

    @app.get("/api/matches/{match_id}/actions", responses=ERRORS, tags=["matches"])
    def match_actions(
        match_id: int,
        offset: Annotated[int, Query(ge=0, description="The first action of the page.")] = 0,
        limit: Annotated[int, Query(ge=1, le=HISTORY_PAGE, description="Actions in the page.")] = HISTORY_PAGE,
    ) -> list[schemas.ActionOut]:
        """The actions played, with their rulings and the states after them (the match's history), a page at a
        time: ``offset`` and ``limit``; a page costs the same at any length of match."""
        return service.history(match_id, offset, limit)

    @app.get("/api/matches/{match_id}/actions/{index}/animation", responses=ERRORS, tags=["matches"])
    def action_animation(match_id: int, index: int) -> schemas.Played:
        """Action ``index`` played again from its stored state with the balls' paths, for a replay."""
        return service.animation(match_id, index)

    @app.post("/api/matches/{match_id}/lag", responses=ERRORS, tags=["play"])
    def lag(match_id: int, body: schemas.LagIn) -> schemas.Played:
        """Both lag strokes (1.1): player 1 with W1 from the left half, player 2 with W2 from the right; null
        for a computer player's stroke."""
        strokes = tuple(None if s is None else stroke_of(s) for s in body.strokes)
        return service.lag(match_id, (strokes[0], strokes[1]), body.lift)

    @app.post("/api/matches/{match_id}/choose", responses=ERRORS, tags=["play"])
    def choose(match_id: int, body: schemas.ChooseIn) -> schemas.Played:
        """The lag winner takes W1 (and breaks) or W2 (and places it first) (1.2)."""
        return service.choose(match_id, BallId(body.cue_ball))

    @app.post("/api/matches/{match_id}/place-w2", responses=ERRORS, tags=["play"])
    def place_w2(match_id: int, body: schemas.PlaceIn) -> schemas.Played:
        """W2's opening place: beyond the centre line, clear of the kaisa's lines to the foot corners (1.2)."""
        return service.place_w2(match_id, (body.point[0], body.point[1]))

    @app.post("/api/matches/{match_id}/shot", responses=ERRORS, tags=["play"])
    def shot(match_id: int, body: schemas.ShotIn) -> schemas.Played:
        """A person's stroke with its call: simulated, ruled, recorded; the answer has the paths to animate."""
        return service.shot(match_id, call_of(body.call), stroke_of(body.stroke), body.seconds)

    @app.post("/api/matches/{match_id}/computer", responses=ERRORS, tags=["play"])
    def computer(match_id: int) -> schemas.Played:
        """The computer player whose turn it is plays (choice, placement or stroke)."""
        return service.computer(match_id)

    @app.post("/api/matches/{match_id}/break", responses=ERRORS, tags=["play"])
    def take_break(match_id: int, body: schemas.BreakIn) -> schemas.Played:
        """A player's one break of at most five minutes, which extends the competition clock (6)."""
        return service.take_break(match_id, BallId(body.cue_ball), body.seconds)

    @app.post("/api/matches/{match_id}/aim", responses=ERRORS, tags=["play"])
    def aim(match_id: int, body: schemas.AimIn) -> schemas.AimOut:
        """The aim helper: the centre of the window of directions that pots the call with this stroke (its
        speed, spin and elevation kept), found with the physics. Reads the match, records nothing."""
        return service.aim(match_id, parse_call(body.call), stroke_of(body.stroke))

    @app.post("/api/matches/{match_id}/hint", responses=ERRORS, tags=["play"])
    def hint(match_id: int, body: schemas.HintIn) -> list[schemas.AdviceOut]:
        """A hint: the advisor's best calls for the person to move, each with its stroke and odds. Reads the
        match and records nothing (the match goes on exactly as if it was never asked)."""
        return service.hint(match_id, body.level, body.limit)

    @app.post("/api/matches/{match_id}/preview", responses=ERRORS, tags=["play"])
    def preview(match_id: int, body: schemas.PreviewIn) -> schemas.StudyShotOut:
        """The full aiming aid: the stroke simulated and ruled as it would play now, without noise; nothing is
        recorded."""
        return service.preview(match_id, call_of(body.call), stroke_of(body.stroke))

    @app.post("/api/matches/{match_id}/undo", responses=ERRORS, tags=["play"])
    def undo(match_id: int) -> schemas.MatchView:
        """Casual matches: take back the last person's action (and the computer's actions after it)."""
        return service.undo(match_id)

    # --- study ---------------------------------------------------------------------------------------

    @app.post("/api/study/shot", tags=["study"])
    def study_shot(body: schemas.StudyShotIn) -> schemas.StudyShotOut:
        """Play a stroke from any position and rule it, without a match."""
        return service.study_shot(
            position_of(body.position), stroke_of(body.stroke), call_of(body.call), game_of(body.state)
        )

    @app.post("/api/study/aim", tags=["study"])
    def study_aim(body: schemas.StudyAimIn) -> schemas.AimOut:
        """The aim helper in any position and game state."""
        return service.study_aim(
            position_of(body.position), game_of(body.state), parse_call(body.call), stroke_of(body.stroke)
        )

    @app.post("/api/study/advise", tags=["study"])
    def study_advise(body: schemas.AdviseIn) -> list[schemas.AdviceOut]:
        """The advisor's best calls in a position, with their pot probability, expected points and foul risk."""
        return service.advise(position_of(body.position), game_of(body.state), body.level, body.limit)

    return app
