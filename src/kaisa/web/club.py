"""The scorekeeping mode for real club matches: the marker's API, the spectator streams and the exports.

A marker at a real table enters what happened (:class:`kaisa.game.marking.Marks`); the match layer asks the
referee, which does the points, the fouls, ball in hand and the respots. Entering needs the match's secret
token (header ``X-Kaisa-Token``), created with the match and stored only as a hash; reading (the scoreboard,
the spectator stream, the exports) is open. Every stroke is committed before the answer confirms it.
No rules live here: this module turns requests into actions and views.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Header, Request
from fastapi.responses import PlainTextResponse, Response, StreamingResponse
from pydantic import BaseModel, Field, PlainSerializer, PlainValidator, WithJsonSchema

from kaisa.call import parse_call
from kaisa.competition import GameState
from kaisa.competition.store import CompetitionStore, StoredCompetition, UnknownCompetitionError
from kaisa.errors import KaisaError
from kaisa.game import (
    Choose,
    ClockConfig,
    Forfeit,
    IllegalActionError,
    MarkedLag,
    MarkedShot,
    MatchState,
    Phase,
    PlaceW2,
    TakeBreak,
    replay,
)
from kaisa.game.marking import Marks
from kaisa.model import BallId
from kaisa.players import HUMAN
from kaisa.records.stats import MatchStats, aggregate, match_stats, to_csv, to_json
from kaisa.records.storage import PlayerInfo, Store
from kaisa.records.storage.changes import event_topic, match_topic
from kaisa.records.storage.values import RepeatedEntryError
from kaisa.session import FLAG_QUESTIONS, RuleOptions, Text
from kaisa.session.match import MatchSession, RunningBreak
from kaisa.session.view import Played
from kaisa.web import schemas
from kaisa.web.lan import base_url, is_loopback, reachable_host
from kaisa.web.scoresheet import scoresheet_to_pdf
from kaisa.web.service import MatchService
from kaisa.web.streams import Built, Streams, Watch

TOKEN_HEADER = "X-Kaisa-Token"
PocketName = Literal["HL", "HR", "ML", "MR", "FL", "FR"]
Token = Annotated[str | None, Header(alias=TOKEN_HEADER, description="the match's secret marker token")]
KEY_HEADER = "Idempotency-Key"
Key = Annotated[
    str | None,
    Header(
        alias=KEY_HEADER,
        min_length=1,
        max_length=100,
        description="the entry's key, made on the marker's phone: an entry sent again with the same key is "
        "answered with the first answer and recorded once",
    ),
]
MIN_CREATION_KEY = 16
"""Characters of a new match's key at least: its marker token is made from it (whoever sends the key again gets
the token), so it must be as hard to guess as a token."""
CreationKey = Annotated[
    str | None,
    Header(
        alias=KEY_HEADER,
        max_length=100,
        description=f"the new match's key, made on the marker's phone ({MIN_CREATION_KEY} to 100 random "
        "characters): a request sent again with the same key gets the same match and token, and creates nothing",
    ),
]
MAX_BREAK_SECONDS = 300.0
"""A break lasts at most five minutes (6)."""
COMPETITION_NOTE = "kaavio:competition"
"""The key of the note that ties a club match to the competition whose game it scores (noted when the match is
made, before any phone has its link; its answer is ``{"competition": id}``)."""


# --- request bodies -------------------------------------------------------------------------------------


def _marks(value: object) -> Marks:
    """The marker's marks from the request, by the vocabulary's own codec (one shape, stated in the referee)."""
    if isinstance(value, Marks):
        return value
    return Marks.from_json(value)  # its FormatError (a ValueError) reaches the 422 answer with its Finnish


MarksBody = Annotated[
    Marks,
    PlainValidator(_marks),
    PlainSerializer(lambda marks: marks.to_json(), return_type=dict),
    WithJsonSchema(
        {
            "type": "object",
            "description": "What happened in a stroke, as the marker saw it: the fields of "
            "kaisa.referee.marker.Marks (all optional), e.g. "
            '{"pots": [["K", "FL"]], "first_contact": "K", "place": [0.5, 0.3], "moves": {"R1": [0.7, 1.2]}, '
            '"hand_fault": "behind-ball-first"}',
            "properties": {name: {} for name in sorted(Marks.field_names())},
            "additionalProperties": False,
        }
    ),
]


class NewClubMatch(schemas.Strict):
    players: tuple[
        Annotated[str, Field(min_length=1, max_length=60)], Annotated[str, Field(min_length=1, max_length=60)]
    ]
    lag_winner: Literal[0, 1] = Field(0, description="which player won the lag at the table (1.1)")
    winner_takes: schemas.CueBallName = Field(
        "W1", description="the cue ball the lag winner chose (1.1); whoever has W1 breaks (1.2)"
    )
    table: str | None = Field(None, min_length=1, max_length=40, description="the club's number or name of the table")
    clock: Literal["off", "wall"] = Field("off", description="wall: the competition clock of rule 6")
    event: str | None = Field(None, min_length=1, max_length=120, description="the club night, e.g. 'Club night 2.12.'")
    options: dict[str, Any] = Field(default_factory=dict, description="rule options")


class MarkedStrokeIn(schemas.Strict):
    call: str | None = Field(None, max_length=200, description="the call in the call notation; null for no call")
    marks: MarksBody = Field(default_factory=Marks)
    stroke: int | None = Field(
        None,
        ge=1,
        description="the stroke's number as the marker sees it (1 for the break): an entry made for another stroke "
        "than the one due (sent late from a phone that was offline) is refused, not applied to another stroke",
    )
    shooter: schemas.CueBallName | None = Field(
        None, description="whose stroke the marker entered (the cue ball of the player at the table)"
    )


class FlagQuestionOut(BaseModel):
    name: str
    """The field of the marker's entry (``marks``)."""
    clause: str
    fi: str
    en: str


class MarkerVocabulary(BaseModel):
    """The marker's vocabulary as the page builds its form from it (kaisa.referee.marker)."""

    fields: list[str]
    """Every field of ``marks``."""
    flags: list[FlagQuestionOut]
    """The yes/no facts, in the order the page asks them, with their clauses and words."""


class CorrectionIn(schemas.Strict):
    call: str | None = Field(None, max_length=200)
    marks: MarksBody


class LagWonIn(schemas.Strict):
    winner: Literal[0, 1]


class ForfeitIn(schemas.Strict):
    cue_ball: schemas.CueBallName
    clause: Literal["1.4"] = "1.4"


class BreakStartIn(schemas.Strict):
    cue_ball: schemas.CueBallName
    since: datetime | None = Field(
        None,
        description="when the break began, if before now (a phone that could not reach the server at once); "
        "at most five minutes back",
    )


class StarterIn(schemas.Strict):
    cue_ball: schemas.CueBallName = Field(description="the cue ball of the player who shoots first in the shoot-out")


class CompetitionGame(BaseModel):
    """The competition game a club match scores, as the kaavio has it now (read from the competition, so a
    result the director typed or corrected shows here at once)."""

    competition: int
    name: str
    """The competition's name."""
    game: int | None
    """The game's own number in the kaavio (None: the game no longer names this match)."""
    round: int | None
    state: str | None
    """The game's state in the kaavio (``running``, ``played``)."""
    points: list[str] | None
    """The game's result in the kaavio as the match's players 1 and 2, once played."""
    decided_by: Literal["marker", "director"] | None
    """Who decided the game: the marker's page ending the match, or the director typing (or correcting) the
    result. A decided game's club match takes no more entries: a correction goes through the director."""
    scoresheet_url: str | None
    bracket_url: str


class ClubView(schemas.MatchView):
    """A club match as the marker's page and the scoreboard show it: the match, the physical table, a break in
    progress and when the competition clock last started counting (the last entry other than a break)."""

    table_label: str | None = None
    """The club's number or name of the table (not the match's number)."""
    break_running: dict[str, Any] | None = None
    """``{"cue_ball": "W1", "since": ISO time}`` while a player's break (6) runs."""
    clock_since: str | None = None
    """When the clock last started counting: the playing time is ``clock.elapsed`` plus the time since then
    while a stroke is due, and a break extends the limit by its length (6)."""
    competition: CompetitionGame | None = None
    """The competition game the match scores (started from a kaavio), or None for a club match of its own."""


class ClubPlayed(BaseModel):
    match: ClubView
    action: dict[str, Any]
    outcome: dict[str, Any]


class ClubCreated(BaseModel):
    match: ClubView
    token: str
    """The marker's secret: only its hash is stored, so keep the marker's link."""
    marker_url: str
    scoreboard_url: str
    scoresheet_url: str


class EventView(BaseModel):
    event: str
    tables: list[ClubView]


class ScoresheetInning(BaseModel):
    number: int
    """The inning's number in the match (both players' innings counted together)."""
    player: int
    points: int
    score: int
    """The player's score after the inning."""
    strokes: list[int]
    """The stroke numbers of the inning, as the marker saw them."""
    fouls: list[dict[str, Any]]
    """Each foul with its clause, penalty and text (fi and en)."""


class Scoresheet(BaseModel):
    """The match's scoresheet (pöytäkirja): what a club files after a match."""

    id: int | None
    """The club match's number (None: a competition game played without a marker)."""
    event: str | None
    table_label: str | None
    date: str
    players: list[dict[str, Any]]
    innings: list[ScoresheetInning]
    runs: list[int]
    """Each player's best run (points in one inning)."""
    inning_counts: list[int]
    fouls: list[int]
    result: dict[str, Any] | None
    shootout: dict[str, Any] | None
    breaks: dict[str, float]
    competition: CompetitionGame | None = None
    """The competition, round and game the match was played for; its ``points`` are the result the kaavio
    records (the director's, when the director typed or corrected it)."""


class ClubRefusalError(IllegalActionError):
    """A club request that does not fit the match now (409), with a Finnish and an English text and a stable
    code."""

    def __init__(self, code: str, fi: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.text = Text(fi, en)


class ClubRequestError(KaisaError):
    """A club request that cannot be right (422), with a Finnish and an English text and a stable code."""

    def __init__(self, code: str, fi: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.text = Text(fi, en)


def marker_token(key: str) -> str:
    """The marker token of a match created with ``key``: made from the key, so a repeated creation is answered
    with the same token although only the token's hash is stored (and only a hash of the key)."""
    digest = hashlib.sha256(f"kaisa marker token\0{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


# --- the service ----------------------------------------------------------------------------------------


class ClubService:
    """The marker's operations, each through the match's session (opened with the match's token). Every
    entry may carry a key made on the marker's phone: an entry whose key is already recorded is answered with
    the first answer and not recorded again (the key and the action are recorded in one transaction)."""

    def __init__(self, store: Store, table: MatchService) -> None:
        self.store = store
        self.table = table
        self.sessions = table.sessions
        self.competitions = CompetitionStore(store)

    def _open(self, match_id: int, token: str | None) -> AbstractContextManager[MatchSession]:
        return self.sessions.open(match_id, token=token, marker=True)

    def create(self, body: NewClubMatch, key: str | None = None) -> ClubCreated:
        """A new club match. With a ``key`` it is created once: sent again (a double tap, a retry after a dropped
        connection or a restarted server) it is answered with the same match and token; a match left half made
        by a server stopped in between is completed; another body with the same key is refused."""
        if key is not None and len(key) < MIN_CREATION_KEY:
            raise ClubRequestError(
                "creation-key-short",
                f"Uuden ottelun tunniste (Idempotency-Key) on liian lyhyt: siinä on oltava vähintään "
                f"{MIN_CREATION_KEY} satunnaista merkkiä, koska kirjurin salainen tunniste tehdään siitä.",
                f"a new match's Idempotency-Key has at least {MIN_CREATION_KEY} random characters (its marker "
                f"token is made from it), not {len(key)}",
            )
        token = secrets.token_urlsafe(18) if key is None else marker_token(key)
        match_id = self.sessions.create(
            [PlayerInfo(name, HUMAN) for name in body.players],
            clock=ClockConfig(body.clock),
            options=RuleOptions.from_json(body.options),
            event=body.event,
            token=token,
            key=key,
        )
        label = None if body.table is None else body.table.strip()
        with self._open(match_id, token) as session:
            if key is not None:
                _same_creation(session, body, label)
            if label is not None and session.info.table_label is None:
                self.store.set_table_label(match_id, label)
            # 1.1 and 1.2 at a real table: the lag is played there; its winner takes either cue ball, W1 breaks
            if session.state.phase is Phase.LAG:
                session.push(MarkedLag(body.lag_winner))
            if session.state.phase is Phase.CHOOSE:
                session.push(Choose(BallId(body.winner_takes)))
        return ClubCreated(
            match=self.view(match_id),
            token=token,
            marker_url=f"/club#/match/{match_id}/{token}",
            scoreboard_url=f"/scoreboard#/match/{match_id}",
            scoresheet_url=f"/club/scoresheet#/match/{match_id}",
        )

    def _played(self, session: MatchSession, key: str | None, request: str, act: Callable[[], Played]) -> ClubPlayed:
        """Run one entry once: a key already recorded with the same ``request`` (its hash, :func:`_request`) is
        answered with its first action and outcome and the match as it is now (an undo since then shows); with
        another request it is refused."""
        seen = session.answered(key)
        if seen is None:
            self._check_open(session)
            try:
                played = act().to_json()
            except RepeatedEntryError as repeated:  # recorded by another process in between
                seen = repeated.answer
            else:
                match = self._club_view(ClubView.model_validate(played["match"]), session.state)
                return ClubPlayed(match=match, action=played["action"], outcome=played["outcome"])
        _same_entry(session, seen, request)
        return ClubPlayed(match=self.view(session.id), action=seen["action"], outcome=seen["outcome"])

    def _changed(self, session: MatchSession, key: str | None, request: str, act: Callable[[], object]) -> ClubView:
        """Run one entry that records no action of its own (an undo, a correction) once (a key already recorded
        with another request is refused)."""
        seen = session.answered(key)
        if seen is None:
            self._check_open(session)
            try:
                act()
            except RepeatedEntryError as repeated:
                seen = repeated.answer
        if seen is not None:
            _same_entry(session, seen, request)
        return self.view(session.id)

    def place_w2(self, match_id: int, token: str | None, point: tuple[float, float], key: str | None) -> ClubPlayed:
        with self._open(match_id, token) as session:
            request = _request("place-w2", point=list(point))
            return self._played(session, key, request, lambda: session.push(PlaceW2(point), key=key, body=request))

    def stroke(self, match_id: int, token: str | None, body: MarkedStrokeIn, key: str | None) -> ClubPlayed:
        call = None if body.call is None or not body.call.strip() else parse_call(body.call)
        with self._open(match_id, token) as session:
            if key is None and body.stroke is None:
                # neither says which stroke the entry is: sent twice, it would be recorded twice
                raise ClubRequestError(
                    "entry-unidentified",
                    "Kirjauksesta puuttuu sekä tunniste (Idempotency-Key) että lyönnin numero: kumpikin kertoo, mikä "
                    "lyönti kirjataan, ja ilman niitä kahdesti lähetetty kirjaus tallentuisi kahdesti. Lähetä "
                    "kirjaus tunnisteen tai lyönnin numeron kanssa.",
                    "The entry has neither an Idempotency-Key nor the stroke's number: either says which stroke it "
                    "is, and without them an entry sent twice would be recorded twice. Send it with a key or the "
                    "stroke's number.",
                )
            seconds = self._seconds(session)

            def mark() -> Played:
                _due(session, body)
                return session.mark(call, body.marks, seconds, key=key, body=request)

            request = _request("stroke", body=body.model_dump(mode="json"))
            return self._played(session, key, request, mark)

    def lag_won(self, match_id: int, token: str | None, winner: int, key: str | None) -> ClubPlayed:
        with self._open(match_id, token) as session:
            request = _request("lag", winner=winner)
            return self._played(session, key, request, lambda: session.push(MarkedLag(winner), key=key, body=request))

    def start_break(
        self, match_id: int, token: str | None, cue_ball: BallId, since: datetime | None = None
    ) -> ClubView:
        """A player's break begins (noted in the store: a restarted server shows it still running)."""
        now = datetime.now(UTC)
        if since is not None:
            since = since if since.tzinfo else since.replace(tzinfo=UTC)
            since = min(now, max(now - timedelta(seconds=MAX_BREAK_SECONDS), since))
        with self._open(match_id, token) as session:
            if session.match.config.clock.mode != "wall":
                raise ClubRefusalError(
                    "break-no-clock",
                    "Taukoja lasketaan vain kilpailukellon kanssa (6).",
                    "breaks are counted only with the competition clock on (6)",
                )
            if cue_ball in session.state.clock.breaks:
                raise ClubRefusalError(
                    "break-taken",
                    f"{cue_ball.value}-pelaaja on jo pitänyt taukonsa (6: yksi tauko ottelussa)",
                    f"the {cue_ball.value} player has had their break already (6: one break a match)",
                )
            self._check_open(session)
            running = session.running_break()
            if running is None or running.cue_ball is not cue_ball:
                session.start_break(cue_ball, since or now)
        return self.view(match_id)

    def choose_starter(self, match_id: int, token: str | None, cue_ball: BallId, key: str | None) -> ClubPlayed:
        """6: the shoot-out's lag winner chooses who shoots first (before the first stroke of the shoot-out)."""
        with self._open(match_id, token) as session:

            def choose() -> Played:
                state = session.state
                if state.phase is not Phase.SHOOTOUT or state.shootout is None or not state.shootout.choice_open:
                    raise ClubRefusalError(
                        "shootout-starter-closed",
                        "Rankkarin aloittajaa ei voi nyt valita: rankkarin teikkauksen voittaja valitsee "
                        "aloittajan teikkauksen jälkeen, ennen ensimmäistä rangaistuslyöntiä (6).",
                        "who starts the shoot-out cannot be chosen now: the winner of the shoot-out's lag chooses "
                        "after the lag, before the first stroke of the shoot-out (6)",
                    )
                return session.push(Choose(cue_ball), key=key, body=request)

            request = _request("shootout-starter", cue_ball=cue_ball.value)
            return self._played(session, key, request, choose)

    def take_break(
        self, match_id: int, token: str | None, cue_ball: BallId, seconds: float, key: str | None
    ) -> ClubPlayed:
        with self._open(match_id, token) as session:
            request = _request("break", cue_ball=cue_ball.value, seconds=seconds)
            played = self._played(
                session, key, request, lambda: session.push(TakeBreak(cue_ball, seconds), key=key, body=request)
            )
            played.match = self.view(match_id)
            return played

    def forfeit(self, match_id: int, token: str | None, cue_ball: BallId, key: str | None) -> ClubPlayed:
        with self._open(match_id, token) as session:
            request = _request("forfeit", cue_ball=cue_ball.value)
            return self._played(session, key, request, lambda: session.push(Forfeit(cue_ball), key=key, body=request))

    def undo(self, match_id: int, token: str | None, key: str | None) -> ClubView:
        with self._open(match_id, token) as session:
            # the marked lag and the choice of cue ball are the match's creation, not entries
            request = _request("undo")
            return self._changed(session, key, request, lambda: session.undo_entry(keep=2, key=key, body=request))

    def correct(self, match_id: int, token: str | None, index: int, body: CorrectionIn, key: str | None) -> ClubView:
        call = None if body.call is None or not body.call.strip() else parse_call(body.call)
        with self._open(match_id, token) as session:
            request = _request("correct", index=index, body=body.model_dump(mode="json"))
            return self._changed(
                session, key, request, lambda: session.correct(index, call, body.marks, key=key, body=request)
            )

    # --- reading ------------------------------------------------------------------------------------

    def view(self, match_id: int, competitions: dict[int, StoredCompetition | None] | None = None) -> ClubView:
        opened = MatchSession(self.sessions, self.store.open_match(match_id))
        return self._club_view(ClubView.model_validate(opened.view().to_json()), opened.state, competitions)

    def _club_view(
        self, view: ClubView, state: MatchState, competitions: dict[int, StoredCompetition | None] | None = None
    ) -> ClubView:
        info = self.store.match_info(view.id)
        running: RunningBreak | None = self.sessions.running_break(view.id)
        view.table_label = info.table_label
        view.break_running = None if running is None else running.to_json()
        view.clock_since = self._clock_since(view.id, info.created_at).isoformat()
        view.competition = self.game_of(view.id, state, competitions)
        return view

    # --- a competition's game ---------------------------------------------------------------------------

    def link(self, match_id: int, competition: int) -> None:
        """Tie a new club match to the competition whose game it scores (a note kept with the match)."""
        self.store.note(match_id, COMPETITION_NOTE, {"competition": competition})

    def game_of(
        self, match_id: int, state: MatchState, competitions: dict[int, StoredCompetition | None] | None = None
    ) -> CompetitionGame | None:
        """The competition game club match ``match_id`` scores, read from the kaavio now (``competitions``:
        the competitions read so far, for a view of many matches)."""
        note = self.store.answered(match_id, COMPETITION_NOTE)
        cid = None if note is None else note.get("competition")
        if not isinstance(cid, int):
            return None
        known = {} if competitions is None else competitions
        if cid not in known:
            try:
                known[cid] = self.competitions.get(cid)
            except UnknownCompetitionError:
                known[cid] = None
        stored = known[cid]
        name = "" if stored is None else stored.kaavio.settings.name
        bracket = f"/kaavio#/bracket/{cid}"
        game = None if stored is None else next((g for g in stored.kaavio.games if g.match_id == str(match_id)), None)
        if stored is None or game is None:
            return CompetitionGame(
                competition=cid, name=name, game=None, round=None, state=None, points=None, decided_by=None,
                scoresheet_url=None, bracket_url=bracket,
            )  # fmt: skip
        played = game.state == GameState.PLAYED
        points = [game.points1, game.points2] if played else None
        decided: Literal["marker", "director"] | None = None
        if state.result is not None and state.owners is not None:
            mine = match_result(state, stored.kaavio.target)
            decided = "marker" if not played or [mine["points1"], mine["points2"]] == points else "director"
        elif played:
            decided = "director"
        return CompetitionGame(
            competition=cid,
            name=name,
            game=game.number,
            round=game.round,
            state=game.state.value,
            points=points,
            decided_by=decided,
            scoresheet_url=f"/club/scoresheet#/kaavio/{cid}/{game.number}",
            bracket_url=bracket,
        )

    def _check_open(self, session: MatchSession) -> None:
        """Refuse an entry to a competition game's club match once the game is decided: by the director's
        result, or by the match's own end (which the kaavio records): a later change would leave the bracket,
        the placings and the pöytäkirja telling different results. A correction goes through the director."""
        game = self.game_of(session.id, session.state)
        if game is None:
            return
        if game.game is None:
            raise ClubRefusalError(
                "match-not-in-competition",
                f"Tämä ottelu ei ole enää kilpailun {game.name} peli: sille ei oteta kirjauksia. Katso kaaviosta, "
                "millä pöydällä peli pelataan.",
                f"This match is no longer a game of the competition {game.name}: it takes no entries. Look at the "
                "bracket for the table the game is played on.",
            )
        if game.decided_by is None:
            return
        score = "" if game.points is None else f" {game.points[0]}–{game.points[1]}"
        score_en = "" if game.points is None else f" {game.points[0]}-{game.points[1]}"
        if game.decided_by == "director":
            fi = f"Kilpailunjohtaja on kirjannut pelin {game.game} tuloksen{score}"
            en = f"The competition director has recorded game {game.game}'s result{score_en}"
        else:
            fi = f"Peli {game.game} päättyi kirjurin sivulla{score}"
            en = f"Game {game.game} ended on the marker's page{score_en}"
        raise ClubRefusalError(
            "game-decided",
            f"{fi}: peli on ratkaistu, eikä ottelulle oteta enää kirjauksia. Korjauksen tekee kilpailunjohtaja "
            "kaavion tulossivulla.",
            f"{en}: the game is decided and its match takes no more entries. A correction is made by the "
            "competition director on the bracket's result form.",
        )

    def event(
        self, event: str, known: dict[int, ClubView] | None = None, changed: frozenset[str] | None = None
    ) -> EventView:
        """Every table of the night, each match once: a competition's club match only while its game names it
        (a start refused or repeated leaves none behind to show as a 0-0 game in progress). With ``known``
        views (kept by a stream), only the matches whose topic is in ``changed`` (None: every match) or that are
        not known yet are read again."""
        seen: dict[int, StoredCompetition | None] = {}
        tables = []
        for info in self.store.list_matches(event=event):
            if known is not None and info.id in known and changed is not None and match_topic(info.id) not in changed:
                view = known[info.id]
            else:
                view = self.view(info.id, seen)
                if known is not None:
                    known[info.id] = view
            if view.competition is None or view.competition.game is not None:
                tables.append(view)
        return EventView(event=event, tables=tables)

    def stats(self, match_id: int) -> MatchStats:
        config, _state, actions = self.store.load(match_id)
        info = self.store.match_info(match_id)
        return match_stats(replay(config, actions), event=info.event or "", date=info.created_at.date().isoformat())

    def event_stats(self, event: str) -> list[MatchStats]:
        return [self.stats(i.id) for i in self.store.list_matches(event=event)]

    def scoresheet(self, match_id: int) -> Scoresheet:
        """The match's scoresheet: every inning's points with its strokes and fouls (with their clauses)."""
        view = self.view(match_id)
        info = self.store.match_info(match_id)
        owners = [p.cue_ball for p in view.players]
        innings: list[ScoresheetInning] = []
        scores = [0, 0]
        runs = [0, 0]
        counts = [0, 0]
        fouls = [0, 0]
        number = 0
        inning: ScoresheetInning | None = None
        for stored in self.store.actions(match_id):
            ruling = stored.outcome.get("ruling")
            if not isinstance(stored.action, MarkedShot) or ruling is None:
                continue
            number += 1
            seat = owners.index(ruling["shooter"]) if ruling["shooter"] in owners else 0
            if inning is None or inning.player != seat:
                counts[seat] += 1
                inning = ScoresheetInning(
                    number=len(innings) + 1, player=seat, points=0, score=scores[seat], strokes=[], fouls=[]
                )
                innings.append(inning)
            inning.points += int(ruling["points"])
            scores[seat] += int(ruling["points"])
            inning.score = scores[seat]
            inning.strokes.append(number)
            inning.fouls.extend(ruling["fouls"])
            fouls[seat] += len(ruling["fouls"])
            runs[seat] = max(runs[seat], inning.points)
            if ruling["turn_passes"]:
                inning = None
        return Scoresheet(
            id=match_id,
            event=info.event,
            table_label=info.table_label,
            date=info.created_at.date().isoformat(),
            players=[p.model_dump() for p in view.players],
            innings=innings,
            runs=runs,
            inning_counts=counts,
            fouls=fouls,
            result=view.result,
            shootout=view.shootout,
            breaks={b: float(s) for b, s in (view.clock.get("breaks") or {}).items()},
            competition=view.competition,
        )

    # --- helpers ------------------------------------------------------------------------------------

    def _clock_since(self, match_id: int, created: datetime) -> datetime:
        log = self.store.action_log(match_id)
        since = next((at for action, at in reversed(log) if action.get("kind") != "break"), None)
        return since or created

    def _seconds(self, session: MatchSession) -> float:
        """Competition clock at a real table: a stroke took the time since the previous entry other than a
        break. A break in between is counted too, and its length extends the limit (6), so the time played
        before the break is not lost and the break itself costs nothing."""
        if session.match.config.clock.mode != "wall":
            return 0.0
        start = self._clock_since(session.id, session.info.created_at)
        return max(0.0, min(3600.0, (datetime.now(UTC) - start).total_seconds()))

    def check(self, match_id: int, token: str | None) -> None:
        self.store.check_token(match_id, token)


# --- the router -----------------------------------------------------------------------------------------


def club_router(store: Store, table: MatchService, streams: Streams | None = None) -> APIRouter:
    streams = streams or Streams(store)
    service = ClubService(store, table)
    router = APIRouter(prefix="/api/club", tags=["club"])
    errors: dict[int | str, dict[str, Any]] = {
        403: {"model": schemas.ErrorOut, "description": "The marker token is missing or wrong"},
        404: {"model": schemas.ErrorOut, "description": "No such match"},
        409: {"model": schemas.ErrorOut, "description": "The entry does not fit the match now"},
    }

    @router.post(
        "/matches",
        status_code=201,
        responses={
            422: errors[409]
            | {
                "description": "A malformed body, "
                "a key under 16 characters, or a key already used for another match (code creation-key-reused)"
            }
        },
    )
    def create(body: NewClubMatch, key: CreationKey = None) -> ClubCreated:
        """A club match at a real table: the players, who won the lag and which cue ball they took (W1 breaks),
        the table, the clock, the club night. Answers the marker's secret token and link (keep them: only the
        token's hash is stored). Sent again with the same ``Idempotency-Key``, it is answered with the same match
        and token and creates nothing."""
        return service.create(body, key)

    @router.get("/marker-facts")
    def marker_facts() -> MarkerVocabulary:
        """The marker's vocabulary the page builds its form from: every field of ``marks``, and the yes/no facts
        with their clauses and their words in Finnish and English."""
        return MarkerVocabulary(
            fields=sorted(Marks.field_names()),
            flags=[FlagQuestionOut(**q.to_json()) for q in FLAG_QUESTIONS],
        )

    @router.get("/matches/{match_id}", responses=errors)
    def club_view(match_id: int) -> ClubView:
        """The match with its table, a break in progress and the clock's start."""
        return service.view(match_id)

    @router.get("/matches/{match_id}/access", status_code=204, responses=errors)
    def access(match_id: int, token: Token = None) -> Response:
        """204 if the token lets its holder enter strokes for the match (403 if not): for a marker's page."""
        service.check(match_id, token)
        return Response(status_code=204)

    @router.get("/matches/{match_id}/marker-qr", responses=errors, response_class=Response)
    def marker_qr(match_id: int, request: Request, token: Token = None) -> Response:
        """The marker's link as a QR code (SVG), for a phone to open without typing the token. The link uses
        this server's address on the club's network when the page was opened on this machine; a server that
        listens on this machine only (``kaisa club`` without ``--host``) answers ``X-Marker-Local: 1``: no phone
        can open the link, and the page says how to start the server for phones."""
        service.check(match_id, token)
        base, local = _lan_base(request)
        url = f"{base}/club#/match/{match_id}/{token}"
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False, title=url)
        headers = {"X-Marker-Url": url, "X-Marker-Local": "1" if local else "0"}
        return Response(out.getvalue(), media_type="image/svg+xml", headers=headers)

    @router.post("/matches/{match_id}/place-w2", responses=errors)
    def place_w2(match_id: int, body: schemas.PlaceIn, token: Token = None, key: Key = None) -> ClubPlayed:
        """Where W2 was placed before the break (1.2), approximately."""
        return service.place_w2(match_id, token, (body.point[0], body.point[1]), key)

    @router.post("/matches/{match_id}/strokes", responses=errors)
    def stroke(match_id: int, body: MarkedStrokeIn, token: Token = None, key: Key = None) -> ClubPlayed:
        """One stroke as the marker saw it: ruled, committed, then answered with the ruling and the respots.
        Sent again with the same ``Idempotency-Key``, it is answered the same and recorded once."""
        return service.stroke(match_id, token, body, key)

    @router.put("/matches/{match_id}/strokes/{index}", responses=errors)
    def correct_stroke(match_id: int, index: int, body: CorrectionIn, token: Token = None, key: Key = None) -> ClubView:
        """Correct entered stroke ``index`` (an action index): the match is replayed, later strokes re-entered."""
        return service.correct(match_id, token, index, body, key)

    @router.post("/matches/{match_id}/undo", responses=errors)
    def undo(match_id: int, token: Token = None, key: Key = None) -> ClubView:
        """Take back the last entry (once per ``Idempotency-Key``)."""
        return service.undo(match_id, token, key)

    @router.post("/matches/{match_id}/lag", responses=errors)
    def lag_won(match_id: int, body: LagWonIn, token: Token = None, key: Key = None) -> ClubPlayed:
        """The shoot-out's lag winner (6)."""
        return service.lag_won(match_id, token, body.winner, key)

    @router.post("/matches/{match_id}/break-start", responses=errors)
    def start_break(match_id: int, body: BreakStartIn, token: Token = None) -> ClubView:
        """A player's break (6) begins: the scoreboard shows it; it is recorded with its length when it ends."""
        return service.start_break(match_id, token, BallId(body.cue_ball), body.since)

    @router.post("/matches/{match_id}/shootout-starter", responses=errors)
    def choose_starter(match_id: int, body: StarterIn, token: Token = None, key: Key = None) -> ClubPlayed:
        """Who shoots first in the penalty shoot-out (6), as its lag winner chose; before its first stroke (a
        first stroke entered without a choice is the lag winner starting)."""
        return service.choose_starter(match_id, token, BallId(body.cue_ball), key)

    @router.post("/matches/{match_id}/break", responses=errors)
    def take_break(match_id: int, body: schemas.BreakIn, token: Token = None, key: Key = None) -> ClubPlayed:
        """A player's one break of up to five minutes (6), recorded when it ends."""
        return service.take_break(match_id, token, BallId(body.cue_ball), body.seconds, key)

    @router.post("/matches/{match_id}/forfeit", responses=errors)
    def forfeit(match_id: int, body: ForfeitIn, token: Token = None, key: Key = None) -> ClubPlayed:
        """1.4: a player kept playing with a cue ruled over 200 cm: they lose the match automatically."""
        return service.forfeit(match_id, token, BallId(body.cue_ball), key)

    @router.get("/matches/{match_id}/scoresheet", responses=errors)
    def scoresheet(match_id: int) -> Scoresheet:
        """The match's scoresheet (pöytäkirja): innings, points, runs, fouls with clauses, the result."""
        return service.scoresheet(match_id)

    @router.get("/matches/{match_id}/scoresheet.pdf", responses=errors, response_class=Response)
    def scoresheet_pdf(match_id: int, lang: Literal["fi", "en"] = "fi") -> Response:
        """The scoresheet as an A4 PDF, to print and sign."""
        sheet = service.scoresheet(match_id)
        return Response(
            scoresheet_to_pdf(sheet.model_dump(), lang),
            media_type="application/pdf",
            headers={"Content-Disposition": f'inline; filename="poytakirja-{match_id}.pdf"'},
        )

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
    async def match_stream(match_id: int) -> StreamingResponse:
        """Server-sent events: a ``view`` event with the match whenever it changes (the spectator display)."""

        def build(_changed: frozenset[str] | None) -> Built:
            return Built(service.view(match_id).model_dump_json(), frozenset({match_topic(match_id)}))

        # one watcher per match in this process, however many spectators (404 before the stream starts)
        return await streams.response(Watch(("match", match_id), build, lambda: store.last_change([match_id])))

    @router.get("/events/{event}/stream", response_class=StreamingResponse)
    async def event_stream(event: str) -> StreamingResponse:
        """Server-sent events: an ``event`` view with every table of the club night whenever one changes."""

        tables: dict[int, ClubView] = {}

        def build(changed: frozenset[str] | None) -> Built:
            # only the tables whose match changed are read again (a new table, or anything after a poll: all)
            view = service.event(event, tables, changed)
            topics = {event_topic(event), *(match_topic(table.id) for table in view.tables)}
            return Built(view.model_dump_json(), frozenset(topics))

        return await streams.response(Watch(("event", event), build, lambda: store.last_change(event=event)))

    return router


CREATION_FIELDS = {
    "players": ("pelaajat", "players"),
    "clock": ("kello", "clock"),
    "options": ("sääntövalinnat", "rule options"),
    "event": ("seurailta", "club night"),
    "table": ("pöytä", "table"),
    "lag_winner": ("teikkauksen voittaja", "lag winner"),
    "winner_takes": ("voittajan lyöntipallo", "the winner's cue ball"),
}
"""The fields of a new match that a repeated creation is compared on, as a refusal names them (fi, en)."""


def match_result(state: MatchState, target: int) -> dict[str, Any]:
    """A finished club match as the kaavio records it, in the match's player order: the scoresheet's points
    (the match is played to ``target``, so its winner is recorded at the target, or below it marked v after a
    shoot-out, KAAVIO 7), the innings (the more of the two players') and each player's longest run."""
    assert state.result is not None and state.owners is not None
    result = state.result
    balls: list[BallId] = list(state.owners)
    recorded = [result.recorded.get(b, 0) for b in balls]
    won = [b == result.winner for b in balls]
    texts = []
    for i in (0, 1):
        other = recorded[1 - i]
        mark = "v" if won[i] and (recorded[i] < target or other >= target) else ""
        texts.append(f"{min(recorded[i], target)}{mark}")
    return {
        "points1": texts[0],
        "points2": texts[1],
        "innings": max(state.innings.get(b, 0) for b in balls),
        "longest1": state.longest_run.get(balls[0], 0),
        "longest2": state.longest_run.get(balls[1], 0),
    }


def _due(session: MatchSession, body: MarkedStrokeIn) -> None:
    """Refuse a stroke entered for another stroke than the one due, or for the other player (an entry a phone
    kept while offline, made against a match that has moved on since): applied, it would be ruled as a stroke
    it is not."""
    state = session.state
    due = state.strokes + 1
    if body.stroke is not None and body.stroke != due:
        raise ClubRefusalError(
            "stroke-not-due",
            f"Kirjaus tehtiin lyönnille {body.stroke}, mutta vuorossa on lyönti {due}: sitä ei kirjattu. "
            "Tarkista lyöntiluettelo ja kirjaa lyönti uudelleen.",
            f"the entry was made for stroke {body.stroke}, but stroke {due} is due: it was not recorded. "
            "Check the strokes entered and enter the stroke again.",
        )
    shooter = state.game.shooter.value
    if body.shooter is not None and state.phase in (Phase.PLAY, Phase.SHOOTOUT) and body.shooter != shooter:
        names = {p.get("cue_ball"): p.get("name") for p in session.view().players}
        them, entered = names.get(shooter) or shooter, names.get(body.shooter) or body.shooter
        raise ClubRefusalError(
            "stroke-other-player",
            f"Lyönti {due} on pelaajan {them} ({shooter}) lyönti, mutta se kirjattiin pelaajalle "
            f"{entered} ({body.shooter}): sitä ei kirjattu. Tarkista lyöntiluettelo ja kirjaa lyönti uudelleen.",
            f"stroke {due} is {them}'s ({shooter}), but it was entered as {entered}'s "
            f"({body.shooter}): it was not recorded. Check the strokes entered and enter the stroke again.",
        )


def _request(entry: str, **content: object) -> str:
    """A hash of an entry's request (what it is and its body), stored with the entry's key: the key sent again
    with another request is refused (:func:`_same_entry`), not answered with the first entry's answer."""
    text = json.dumps({"entry": entry, **content}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _same_entry(session: MatchSession, seen: dict[str, Any], request: str) -> None:
    """Refuse an entry whose key is already recorded with another request (entries recorded before requests
    were hashed carry none and are taken as the same)."""
    if seen.get("body", request) != request:
        raise ClubRequestError(
            "entry-key-reused",
            f"Tällä tunnisteella (Idempotency-Key) on jo tallennettu ottelun {session.id} toinen kirjaus: tätä "
            "kirjausta ei tallennettu. Uusi kirjaus tarvitsee uuden tunnisteen.",
            f"this Idempotency-Key already recorded another entry of match {session.id}: this one was not "
            "recorded; a new entry needs a new key",
        )


def _same_creation(session: MatchSession, body: NewClubMatch, label: str | None) -> None:
    """Refuse a repeated creation whose body is not the one the match was created with (the parts a stopped
    server may not have stored yet, the table and the lag, are compared only once they are stored)."""
    config, info, state = session.match.config, session.info, session.state
    same = {
        "players": list(config.players) == list(body.players),
        "clock": config.clock.mode == body.clock,
        "options": config.options == RuleOptions.from_json(body.options),
        "event": info.event == body.event,
        "table": info.table_label is None or info.table_label == label,
        "lag_winner": state.lag_winner is None or state.lag_winner == body.lag_winner,
        "winner_takes": state.owners is None
        or state.lag_winner is None
        or state.owners[state.lag_winner].value == body.winner_takes,
    }
    differs = [CREATION_FIELDS[name] for name, equal in same.items() if not equal]
    if differs:
        raise ClubRequestError(
            "creation-key-reused",
            f"Tällä tunnisteella (Idempotency-Key) on jo luotu ottelu {info.id}, jossa on eri "
            f"{', '.join(fi for fi, _ in differs)}: uusi ottelu tarvitsee uuden tunnisteen.",
            f"this Idempotency-Key already created match {info.id}, with other {', '.join(en for _, en in differs)}: "
            "a new match needs a new key",
        )


def _lan_base(request: Request) -> tuple[str, bool]:
    """This server's address as a phone on the club's network reaches it, and whether only this machine can
    reach it: the page's own address when the page was opened at another address than this machine's own;
    else the address the server listens on (``app.state.bind_host``, set by ``kaisa play`` and ``kaisa club``),
    on the club's network when it listens on every network. A server listening on 127.0.0.1 (or one whose
    address is not known) is this machine's only."""
    base = str(request.base_url).rstrip("/")
    if not is_loopback(request.url.hostname):
        return base, False
    host = reachable_host(getattr(request.app.state, "bind_host", None))
    if host is None:
        return base, True
    return base_url(request.url.scheme, host, request.url.port), False


__all__ = ["ClubRefusalError", "ClubService", "ClubView", "CompetitionGame", "MarksBody", "club_router", "match_result"]
