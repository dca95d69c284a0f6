"""Running a competition night from the club's tables: the director's API, the live bracket and its stream.

The kaavio itself (draw, search, placings) is :mod:`kaisa.competition`; this module turns requests into its
operations, each one transaction of :class:`~kaisa.competition.store.CompetitionStore`. Changing a competition
needs the director's token (header ``X-Kaisa-Token``, made with the competition, stored only as a hash);
reading it (the bracket, the hall TV, the stream) is open.

A game started with a marker opens a club match for its table (:class:`kaisa.web.club.ClubService`, the
per-stroke scorekeeping). Its end flows back by reading, not by a hook in the club: whenever the competition
is read or its stream sees a change, each running game's club match is read, and a finished one's points,
innings and longest runs are recorded with the key ``match-<id>`` (so two readers record it once) and the
search runs. The stream is shared (:mod:`kaisa.web.streams`): one watcher per competition per process, woken by
any server process's write.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from pydantic import BaseModel, Field

from kaisa.competition import (
    CompetitionError,
    Game,
    GameState,
    Kaavio,
    KaavioType,
    PlacingMode,
    SearchRerun,
    Seeding,
    Settings,
    paper,
)
from kaisa.competition import placings as placing_mod
from kaisa.competition.kaavio import MIN_PLAYERS, interim_text
from kaisa.competition.kaisakaavio import from_xml, to_xml
from kaisa.competition.model import (
    MAX_COMPETITION_NAME,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TARGET,
    MIN_TARGET,
    PrizeSettings,
    Share,
    hand_reason,
)
from kaisa.competition.placings import RankingOptions
from kaisa.competition.store import Change, CompetitionStore, StoredCompetition, request_hash
from kaisa.errors import ErrorText, KaisaError
from kaisa.game import IllegalActionError, MatchState
from kaisa.records.storage import Store, UnknownMatchError
from kaisa.records.storage.changes import competition_topic, match_topic
from kaisa.web import schemas
from kaisa.web.club import ClubService, CompetitionGame, NewClubMatch, Scoresheet, match_result
from kaisa.web.scoresheet import scoresheet_to_pdf
from kaisa.web.service import MatchService
from kaisa.web.streams import Built, Streams, Watch

TOKEN_HEADER = "X-Kaisa-Token"
KEY_HEADER = "Idempotency-Key"
MAX_IMPORT_BYTES = 2_000_000
"""The largest KaisaKaavio file imported (a 128-player competition's file is about 100 kB)."""
Token = Annotated[str | None, Header(alias=TOKEN_HEADER, description="the competition director's secret token")]
Key = Annotated[
    str | None,
    Header(
        alias=KEY_HEADER,
        min_length=1,
        max_length=100,
        description="the change's key, made by the director's page: a change sent again with the same key is "
        "answered with the first answer and applied once",
    ),
]
CONFLICTS = {
    "not_ready",
    "table_busy",
    "locked",
    "late_entry_closed",
    "already_drawn",
    "player_out",
    "player_busy",
    "cup_drawn",
    "walkover",
    "full",
    "game_changed",
    "not_drawn",
}
"""Codes of refusals that do not fit the competition now (409); the others are bad input (422)."""
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Text = Annotated[str, Field(max_length=MAX_NAME)]
TableName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f]+$")]
Points = Annotated[str, Field(max_length=6, description="a score as KaisaKaavio reads it: 60, 30v (won), 12h (lost)")]


# --- errors ---------------------------------------------------------------------------------------------


class KaavioRefusalError(KaisaError):
    """Bad input to a competition (422), with the kaavio's Finnish and English text and its code."""

    def __init__(self, code: str, fi: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.text = ErrorText(fi, en)


class KaavioConflictError(IllegalActionError):
    """A change that does not fit the competition now (409): a game not ready, a busy table, a locked result."""

    def __init__(self, code: str, fi: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.text = ErrorText(fi, en)


def refusal(error: CompetitionError) -> KaisaError:
    kind = KaavioConflictError if error.code in CONFLICTS else KaavioRefusalError
    return kind(error.code.replace("_", "-"), error.text.fi, error.text.en)


# --- request bodies -------------------------------------------------------------------------------------


class ShareIn(schemas.Strict):
    amount: int = Field(default=0, ge=0, le=100000, description="euros, or percent with ``percent``")
    percent: bool = False

    def typed(self) -> Share:
        if self.percent and self.amount > 100:
            raise KaavioRefusalError(
                "bad-share", "Osuus voi olla enintään 100 %.", "A share can be at most 100 percent."
            )
        return Share(self.amount, self.percent)


class PrizesIn(schemas.Strict):
    """The prize split (KAAVIO 10): SBiL's share of the entry fees first, then the club's of what is left."""

    entry_fee: int | None = Field(default=None, ge=0, le=10000, description="euros a player; none: unchanged")
    sbil: ShareIn = Field(default_factory=ShareIn)
    club: ShareIn = Field(default_factory=ShareIn)
    winner_weight: int = Field(default=50, ge=0, le=100, description="v in percent: 0 even, 100 most to the winner")
    paid_places: int = Field(default=3, ge=1, le=128, description="paid places, extended to everyone tied on the last")

    def typed(self) -> PrizeSettings:
        return PrizeSettings(self.sbil.typed(), self.club.typed(), self.winner_weight, self.paid_places)


class NewCompetition(schemas.Strict):
    name: Annotated[str, Field(min_length=1, max_length=MAX_COMPETITION_NAME, description="e.g. 'Viikkokisa 10.4.'")]
    date: Annotated[str, Field(max_length=10, pattern=r"^(\d{4}-\d{2}-\d{2})?$", description="YYYY-MM-DD")] = ""
    club: Text = ""
    kind: KaavioType = Field(KaavioType.DOUBLE, description="the bracket type (KAAVIO 2)")
    target: int = Field(60, ge=MIN_TARGET, le=MAX_TARGET, description="points to win a game")
    placing: PlacingMode = Field(PlacingMode.POINTS, description="how places are decided at the end (KAAVIO 8)")
    seeding: Seeding = Seeding.NONE
    search_rerun: SearchRerun = Field(
        SearchRerun.KAISAKAAVIO,
        description="when the pairing search runs again (KAAVIO 4.3): as KaisaKaavio, or until it adds nothing",
    )
    tables: list[TableName] = Field(min_length=1, max_length=40, description="the club's tables for the night")
    entry_fee: int = Field(0, ge=0, le=10000, description="euros a player; the pot is split at the end (KAAVIO 10)")
    max_players: int = Field(MAX_PLAYERS, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    prizes: PrizesIn = Field(default_factory=PrizesIn)


class PlayerIn(schemas.Strict):
    name: Name
    club: Text = ""
    seed: int = Field(0, ge=0, le=24, description="seed number for a seeded draw; 0 for none")


class WithdrawIn(schemas.Strict):
    name: Name
    club: Text = ""


class DrawIn(schemas.Strict):
    seed: int | None = Field(None, ge=0, lt=2**31, description="the random seed; none: drawn (and stored)")


class StartIn(schemas.Strict):
    table: TableName | None = Field(None, description="the table; none: the first free one")
    marker: bool = Field(True, description="open a club match for the table's marker (per-stroke scorekeeping)")
    lag_winner: Literal[0, 1] = Field(0, description="which of the game's players won the lag (1.1)")
    winner_takes: schemas.CueBallName = "W1"
    clock: Literal["off", "wall"] = "off"
    expect: tuple[int, int] | None = Field(None, description="the game's players as the page shows them")


class ResultIn(schemas.Strict):
    points1: Points
    points2: Points
    innings: int = Field(0, ge=0, le=999)
    longest1: int = Field(0, ge=0, le=200)
    longest2: int = Field(0, ge=0, le=200)
    expect: tuple[int, int] | None = Field(None, description="the game's players as the page shows them")


class PairIn(schemas.Strict):
    players: tuple[int, int]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


# --- answers --------------------------------------------------------------------------------------------


class CompetitionCreated(BaseModel):
    id: int
    token: str
    """The director's secret: only its hash is stored, so keep the director's link."""
    director_url: str
    bracket_url: str
    tv_url: str


class CompetitionListed(BaseModel):
    id: int
    name: str
    date: str
    club: str
    players: int
    drawn: bool
    finished: bool


class CompetitionView(BaseModel):
    """The competition as the bracket, the hall TV and the director's page show it."""

    id: int
    version: int
    updated_at: str
    settings: dict[str, Any]
    kind_label: dict[str, str]
    drawn: bool
    finished: bool
    late_entries: bool
    """Whether a player may still be added (before the draw, or after it until a round-2 game starts)."""
    players: list[dict[str, Any]]
    games: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    placings: dict[str, list[dict[str, Any]]] | None
    """Each placing mode's places once the competition has ended (KAAVIO 8); the settings name the chosen one."""
    prizes: list[dict[str, Any]] | None
    prize_money: dict[str, int] | None = None
    """The entry fees, the SBiL and club shares taken off and the pot split (KAAVIO 10), once ended."""
    markers: dict[str, str] | None = None
    """The director's view only: each running game's marker link, by game number."""


class RankingRow(BaseModel):
    rank: int
    name: str
    points: int


class Ranking(BaseModel):
    """A ranking series (KAAVIO 10, the Kaisa default points): +1 for taking part, +1 a win, 15/12/10/8/7/6/5/4/3/2
    for places 1-10; equal totals share a rank."""

    competitions: list[CompetitionListed]
    rows: list[RankingRow]


class Changed(BaseModel):
    competition: CompetitionView
    answer: dict[str, Any]


# --- the service ----------------------------------------------------------------------------------------


class CompetitionService:
    """The director's operations and the views, over the competition store and the club's matches."""

    def __init__(self, store: Store, table: MatchService) -> None:
        self.store = store
        self.competitions = CompetitionStore(store)
        self.club = ClubService(store, table)
        self.sessions = table.sessions
        self._static: dict[int, tuple[int, CompetitionView]] = {}
        """Each competition's view at its latest version, without live scores (see :meth:`_standing`)."""
        self._running: dict[int, tuple[int, list[int]]] = {}
        """Each competition's running club matches at its latest version (for the stream's poll)."""

    # --- writing ---------------------------------------------------------------------------------------

    def create(self, body: NewCompetition) -> CompetitionCreated:
        settings = Settings(
            name=" ".join(body.name.split()),
            date=body.date,
            club=body.club.strip(),
            kind=body.kind,
            target=body.target,
            placing=body.placing,
            seeding=body.seeding,
            search_rerun=body.search_rerun,
            tables=tuple(dict.fromkeys(t.strip() for t in body.tables if t.strip())),
            max_players=body.max_players,
            entry_fee=body.entry_fee,
            prizes=body.prizes.typed(),
        )
        if not settings.tables:
            raise KaavioRefusalError("no-tables", "Anna vähintään yksi pöytä.", "Give at least one table.")
        return self._created(Kaavio(settings))

    def import_xml(self, data: bytes) -> CompetitionCreated:
        """A KaisaKaavio 1.0 file as a new competition of the club (a past one joins the ranking series); the
        same file imported again is refused, so a series never counts it twice."""
        try:
            k = from_xml(data)
        except CompetitionError as error:
            raise refusal(error) from None
        same = self.competitions.same_as(k)
        if same is not None:
            raise KaavioConflictError(
                "already-imported",
                f"Tämä kilpailu on jo tuotu (kilpailu {same}).",
                f"This competition has already been imported (competition {same}).",
            )
        return self._created(k)

    def _created(self, k: Kaavio) -> CompetitionCreated:
        """Store a new competition with a fresh director's token; the token and the links."""
        token = secrets.token_urlsafe(18)
        cid = self.competitions.create(k, token)
        return CompetitionCreated(
            id=cid,
            token=token,
            director_url=f"/kaavio#/director/{cid}/{token}",
            bracket_url=f"/kaavio#/bracket/{cid}",
            tv_url=f"/kaavio#/tv/{cid}",
        )

    def _change(self, cid: int, token: str | None, act: Change, key: str | None, request: str) -> Changed:
        """Apply a director's change; ``request`` (:func:`_request`) is stored with its key, so the key sent
        again with another request is refused (change-key-reused), not answered with the first answer."""
        self.competitions.check_token(cid, token)

        def run(k: Kaavio, markers: dict[str, str]) -> dict[str, Any]:
            try:
                answer: dict[str, Any] = act(k, markers)
            except CompetitionError as error:
                raise refusal(error) from None
            return answer

        changed = self.competitions.change(cid, run, key=key, request=request)
        return Changed(competition=self._view(changed.competition, director=True), answer=changed.answer)

    def add_player(self, cid: int, token: str | None, body: PlayerIn, key: str | None) -> Changed:
        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, Any]:
            p = k.add_player(body.name, body.club.strip(), body.seed)
            return {"player": p.to_json()}

        return self._change(cid, token, act, key, _request("players", body))

    def withdraw(self, cid: int, token: str | None, body: WithdrawIn, key: str | None) -> Changed:
        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, Any]:
            return {"player": k.withdraw(body.name, body.club.strip()).to_json()}

        return self._change(cid, token, act, key, _request("withdraw", body))

    def set_prizes(self, cid: int, token: str | None, body: PrizesIn, key: str | None) -> Changed:
        """The prize split's settings (and the entry fee), at any time: the split is shown once the night ends."""
        prize_settings = body.typed()

        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, Any]:
            fee = k.settings.entry_fee if body.entry_fee is None else body.entry_fee
            k.settings = replace(k.settings, entry_fee=fee, prizes=prize_settings)
            return {"prizes": prize_settings.to_json(), "entry_fee": fee}

        return self._change(cid, token, act, key, _request("prizes", body))

    def draw(self, cid: int, token: str | None, body: DrawIn, key: str | None) -> Changed:
        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, Any]:
            k.draw(body.seed)
            return {"seed": k.draw_seed, "games": len(k.games)}

        return self._change(cid, token, act, key, _request("draw", body))

    def start(self, cid: int, token: str | None, number: int, body: StartIn, key: str | None) -> Changed:
        """Start a ready game on a table; with a marker, open the table's club match first (a club match is
        its own transaction). Starting is idempotent: starts sent at once (a double tap, two directors' pages,
        a retry), with one key or none, open one club match (its creation key is made from the director's
        secret, the game and its players), and every answer names the match the game runs with; a club match
        made for a start that then does not start the game is deleted."""
        self.competitions.check_token(cid, token)
        if key is not None:
            seen = self.competitions.answered(cid, key, _request("start", body, number))
            if seen is not None:
                return Changed(competition=self._view(self.competitions.get(cid), director=True), answer=seen)
        stored = self.competitions.get(cid)
        trial = stored.kaavio
        try:
            _expect(trial, number, body.expect)
            running = trial.game(number)
            if running.state == GameState.RUNNING and (not body.table or body.table == running.table):
                # sent again (a retry after a lost answer): started once, answered with the same match
                return Changed(competition=self._view(stored, director=True), answer=_started(running, stored.markers))
            game = trial.start(number, body.table or "")
        except CompetitionError as error:
            raise refusal(error) from None
        if body.marker and not game.table:
            raise KaavioConflictError(
                "no-free-table",
                "Vapaata pöytää ei ole: odota, että jokin peli päättyy.",
                "There is no free table: wait until a game ends.",
            )
        match_id: int | None = None
        marker_token = ""
        if body.marker:
            s = trial.settings
            names = [trial.player(x).name for x in game.pair() if x is not None]
            created = self.club.create(
                NewClubMatch(
                    players=(names[0][:60], names[1][:60]),
                    lag_winner=body.lag_winner,
                    winner_takes=body.winner_takes,
                    table=game.table or None,
                    clock=body.clock,
                    event=event_label(cid, s),
                    options={"winning_score": s.target},  # played to the competition's target (3)
                ),
                key=_start_key(token or "", cid, game, body),
            )
            match_id, marker_token = created.match.id, created.token
            self.club.link(match_id, cid)

        def act(k: Kaavio, markers: dict[str, str]) -> dict[str, Any]:
            _expect(k, number, body.expect)
            now = k.game(number)
            if now.state == GameState.RUNNING and now.match_id and (not body.table or body.table == now.table):
                return _started(now, markers)  # started meanwhile by a start sent at the same time
            g = k.start(number, game.table, when=_now(), match_id="" if match_id is None else str(match_id))
            if match_id is not None:
                markers[str(match_id)] = marker_token
            return _started(g, markers)

        try:
            changed = self._change(cid, token, act, key, _request("start", body, number))
        except BaseException:
            self._drop_unused(cid, match_id)
            raise
        if changed.answer.get("match") != match_id:
            self._drop_unused(cid, match_id)
        return changed

    def _drop_unused(self, cid: int, match_id: int | None) -> None:
        """Delete a club match made for a start that did not start the game with it (unless another start, sent
        at the same time with the same creation key, did)."""
        if match_id is None:
            return
        if any(g.match_id == str(match_id) for g in self.competitions.get(cid).kaavio.games):
            return
        self.store.delete_match(match_id)

    def result(self, cid: int, token: str | None, number: int, body: ResultIn, key: str | None) -> Changed:
        """A result typed by the director (a game played without a marker, or a correction, KAAVIO 4.1)."""

        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, Any]:
            _expect(k, number, body.expect)
            added = k.record(
                number,
                body.points1.strip(),
                body.points2.strip(),
                innings=body.innings,
                longest1=body.longest1,
                longest2=body.longest2,
                when=_now(),
            )
            interim = interim_text(k, number)
            return {
                "game": number,
                "added": [g.number for g in added],
                "interim": None if interim is None else {"fi": interim.fi, "en": interim.en},
            }

        changed = self._change(cid, token, act, key, _request("result", body, number))
        self._tell_marker(cid, number)
        return changed

    def _tell_marker(self, cid: int, number: int) -> None:
        """A result typed or corrected for a game scored on a marker's page: the page (and the club night's
        scoreboard) learn it at once through the match's stream, since the club match counts as changed."""
        g = next((g for g in self.competitions.get(cid).kaavio.games if g.number == number), None)
        if g is not None and g.match_id.isdigit():
            with contextlib.suppress(UnknownMatchError):  # deleted meanwhile: nobody to tell
                self.store.touch(int(g.match_id))

    def pair(self, cid: int, token: str | None, body: PairIn, key: str | None) -> Changed:
        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, Any]:
            g = k.pair_by_hand(body.players[0], body.players[1], body.reason)
            return {"game": g.number}

        return self._change(cid, token, act, key, _request("pair", body))

    # --- results from the club matches ----------------------------------------------------------------

    def sync(self, cid: int) -> StoredCompetition:
        """Record the end of every running game's finished club match (once each: keyed by the match)."""
        stored = self.competitions.get(cid)
        for g in stored.kaavio.running():
            if not g.match_id:
                continue
            opened = self._match(g.match_id)
            if opened is None:
                continue
            state, target = opened
            if state.result is None or state.owners is None or target != stored.kaavio.target:
                continue  # played to another target (begun before the target was a rule): the director types it
            result = match_result(state, target)
            mid = g.match_id

            def act(k: Kaavio, _m: dict[str, str], mid: str = mid, result: dict[str, Any] = result) -> dict[str, Any]:
                now = next((h for h in k.running() if h.match_id == mid), None)
                if now is None:  # typed by the director meanwhile
                    return {"match": mid, "recorded": False}
                added = k.record(now.number, **result, when=_now())
                return {"match": mid, "game": now.number, "recorded": True, "added": [h.number for h in added]}

            try:
                stored = self.competitions.change(cid, act, key=f"match-{mid}").competition
            except CompetitionError:
                continue  # a result the kaavio refuses (e.g. both at a lower target): the director types it
        return stored

    def scoresheet(self, cid: int, number: int) -> Scoresheet:
        """Game ``number``'s pöytäkirja: its club match's innings and strokes under the competition, the round
        and the game's own number, with the result the kaavio records (the director's, when typed or corrected);
        a game played without a marker has its players and result only."""
        stored = self.sync(cid)
        k = stored.kaavio
        try:
            g = k.game(number)
        except CompetitionError as error:
            raise refusal(error) from None
        game = CompetitionGame(
            competition=cid,
            name=k.settings.name,
            game=g.number,
            round=g.round,
            state=g.state.value,
            points=[g.points1, g.points2] if g.state == GameState.PLAYED else None,
            decided_by="director" if g.state == GameState.PLAYED else None,
            scoresheet_url=f"/club/scoresheet#/kaavio/{cid}/{g.number}",
            bracket_url=f"/kaavio#/bracket/{cid}",
        )
        if g.match_id.isdigit():
            try:
                sheet = self.club.scoresheet(int(g.match_id))
            except UnknownMatchError:
                pass
            else:
                sheet.competition = sheet.competition or game
                return sheet
        names = [k.player(x).name if x is not None else "" for x in g.pair()]
        return Scoresheet(
            id=None,
            event=None,
            table_label=g.table or None,
            date=k.settings.date or (g.ended or g.started)[:10],
            players=[{"name": name, "cue_ball": None} for name in names],
            innings=[],
            runs=[g.longest1, g.longest2],
            inning_counts=[g.innings, g.innings],
            fouls=[0, 0],
            result=None,
            shootout=None,
            breaks={},
            competition=game,
        )

    def _match(self, match_id: str) -> tuple[MatchState, int] | None:
        """A club match's state and the points it is played to (its rule option ``winning_score``)."""
        try:
            opened = self.store.open_match(int(match_id))
        except (UnknownMatchError, ValueError):
            return None
        return opened.state, opened.config.options.winning_score

    # --- reading ---------------------------------------------------------------------------------------

    def view(self, cid: int, *, director_token: str | None = None) -> CompetitionView:
        if director_token is not None:
            self.competitions.check_token(cid, director_token)
        return self._view(self.sync(cid), director=director_token is not None)

    def _view(self, stored: StoredCompetition, *, director: bool = False) -> CompetitionView:
        k = stored.kaavio
        cached = self._static.get(stored.id)
        if cached is None or cached[0] != stored.version:
            cached = (stored.version, self._standing(stored))
            self._static[stored.id] = cached
        view = cached[1].model_copy()
        live = {g.number: self._live(g) for g in k.running() if g.match_id}
        if live:
            view.games = [{**g, "live": live.get(g["number"])} if g["number"] in live else g for g in view.games]
        if director:
            view.markers = {
                str(g.number): _marker_url(int(g.match_id), stored.markers[g.match_id]) or ""
                for g in k.running()
                if g.match_id and g.match_id in stored.markers
            }
        return view

    def _standing(self, stored: StoredCompetition) -> CompetitionView:
        """The view of one version of the competition, without the live scores: computed once per change and
        kept, since every page and stream asks for it. Each player's tallies are the kaavio's own, read over his
        own games only (a kaavio of those games), so a 128-player bracket costs one pass over the games."""
        k = stored.kaavio
        s = k.settings
        own: dict[int, list[Game]] = {p.number: [] for p in k.players}
        for g in k.games:
            for x in g.pair():
                if x is not None and x in own:
                    own[x].append(g)
        playing = {x: g.number for g in k.running() for x in g.pair() if x is not None}
        unfinished = {x for g in k.unfinished() for x in g.pair() if x is not None}
        finished = k.finished
        players = []
        for p in k.players:
            mine = Kaavio(s, [], own.get(p.number, []), k.drawn, k.draw_seed)
            out = k.drawn and mine.knocked_out(p.number)
            players.append(
                {
                    **p.to_json(),
                    "wins": mine.wins(p.number),
                    "losses": mine.losses(p.number),
                    "games": sum(1 for g in mine.games if g.state == GameState.PLAYED),
                    "points": mine.points_total(p.number),
                    "out": out,
                    "playing": playing.get(p.number),
                    "waiting": k.drawn and not out and p.number not in unfinished and not finished,
                }
            )
        names = {p.number: p.name for p in k.players}
        clubs = {p.number: p.club for p in k.players}
        games = []
        for g in k.games:
            outcome = g.outcome(k.target)
            played = g.state == GameState.PLAYED
            winner = next((x for x in g.pair() if played and x is not None and g.won(x, k.target)), None)
            games.append(
                {
                    **g.to_json(),
                    "names": [names.get(g.player1, ""), names.get(g.player2, "") if g.player2 else ""],
                    "clubs": [clubs.get(g.player1, ""), clubs.get(g.player2, "") if g.player2 else ""],
                    "outcome": outcome.value,
                    "winner": winner,
                    "hand_reason": hand_reason(g.comment),
                    "live": None,
                }
            )
        busy = {g.table: g.number for g in k.running() if g.table}
        tables = [{"table": t, "game": busy.get(t)} for t in s.tables]
        places: dict[str, list[dict[str, Any]]] | None = None
        prizes: list[dict[str, Any]] | None = None
        prize_money: dict[str, int] | None = None
        if finished:
            modes = [PlacingMode.POINTS, PlacingMode.FINALISTS, PlacingMode.TOP3_BY_ROUNDS]
            if s.kind == KaavioType.CUP or s.placing == PlacingMode.CUP:
                modes.append(PlacingMode.CUP)
            by_mode: dict[str, list[dict[str, Any]]] = {
                m.value: [
                    {"place": x.place, "number": x.number, "name": x.name, "wins": x.wins, "points": x.points}
                    for x in placing_mod.placings(k, m)
                ]
                for m in modes
            }
            places = by_mode
            if s.entry_fee > 0:
                mode = s.placing if s.placing.value in by_mode else PlacingMode.POINTS
                split = placing_mod.prizes(k, mode)
                prizes = split.to_json()["rows"]
                prize_money = {"entry_fees": split.entry_fees, "sbil": split.sbil, "club": split.club, "pot": split.pot}
        return CompetitionView(
            id=stored.id,
            version=stored.version,
            updated_at=stored.updated_at.isoformat(),
            settings=s.to_json(),
            kind_label={"fi": s.kind.label("fi"), "en": s.kind.label("en")},
            drawn=k.drawn,
            finished=finished,
            late_entries=k.late_entries_open,
            players=players,
            games=games,
            tables=tables,
            placings=places,
            prizes=prizes,
            prize_money=prize_money,
            markers=None,
        )

    def _live(self, g: Game) -> dict[str, Any] | None:
        """A running game's live score from its club match, in the game's player order."""
        try:
            v = self.sessions.view(int(g.match_id))
        except (UnknownMatchError, ValueError):
            return None
        balls = [p.get("cue_ball") for p in v.players]
        return {
            "match": v.id,
            "phase": v.phase,
            "scores": [v.scores.get(b, 0) if b else 0 for b in balls],
            "innings": [v.innings.get(b, 0) if b else 0 for b in balls],
            "run": v.run,
            "to_move": v.to_move,
            "cue_balls": balls,
        }

    def list(self) -> list[CompetitionListed]:
        return [
            CompetitionListed(
                id=c.id, name=c.name, date=c.date, club=c.club, players=c.players, drawn=c.drawn, finished=c.finished
            )
            for c in self.competitions.summaries()
        ]

    def ranking(self, since: str, until: str, name: str, options: RankingOptions | None = None) -> Ranking:
        """The series over the ended competitions dated ``since``..``until`` whose name contains ``name``."""
        chosen = [
            c
            for c in self.competitions.all()
            if c.kaavio.finished
            and (not since or c.kaavio.settings.date >= since)
            and (not until or c.kaavio.settings.date <= until)
            and name.casefold() in c.kaavio.settings.name.casefold()
        ]
        rows = placing_mod.ranking_series([c.kaavio for c in chosen], options or RankingOptions())
        return Ranking(
            competitions=[
                CompetitionListed(
                    id=c.id,
                    name=c.kaavio.settings.name,
                    date=c.kaavio.settings.date,
                    club=c.kaavio.settings.club,
                    players=len(c.kaavio.players),
                    drawn=True,
                    finished=True,
                )
                for c in chosen
            ],
            rows=[RankingRow(rank=r, name=n, points=p) for r, n, p in rows],
        )

    def poll(self, cid: int) -> tuple[object, ...]:
        """What changes when the competition or one of its running club matches changes: two small reads (the
        competition's change counter, the matches' last change), the running matches kept per version."""
        version, _ = self.competitions.version(cid)
        known = self._running.get(cid)
        if known is None or known[0] != version:
            stored = self.competitions.get(cid)
            known = (stored.version, [int(g.match_id) for g in stored.kaavio.running() if g.match_id.isdigit()])
            self._running[cid] = known
        ids = known[1]
        return (known[0], self.store.last_change(ids) if ids else None)

    def running_matches(self, cid: int) -> tuple[int, ...]:
        """The club matches of the competition's running games (as of its last :meth:`poll`)."""
        known = self._running.get(cid)
        return () if known is None else tuple(known[1])


def _request(what: str, body: BaseModel, number: int | None = None) -> str:
    """The hash of a director's change request: what it is, the game it names and its body."""
    return request_hash(what, number=number, body=body.model_dump(mode="json"))


def event_label(cid: int, settings: Settings) -> str:
    """The club night the competition's club matches belong to (the club's event scoreboard shows them)."""
    return f"{settings.name[:100]} · kaavio {cid}"


def _expect(k: Kaavio, number: int, expect: tuple[int, int] | None) -> None:
    if expect is None:
        return
    g = k.game(number)
    if set(g.pair()) != set(expect):
        raise CompetitionError(
            "game_changed",
            f"Pelin {number} pelaajat ovat muuttuneet (tulos korjattiin välillä): katso kaavio uudelleen.",
            f"Game {number} has other players now (a result was corrected meanwhile): look at the bracket again.",
        )


def _started(g: Game, markers: dict[str, str]) -> dict[str, Any]:
    """The answer to a start: the game, its table and the club match it runs with (with the marker's link)."""
    mid = int(g.match_id) if g.match_id.isdigit() else None
    return {
        "game": g.number,
        "table": g.table,
        "match": mid,
        "marker_url": _marker_url(mid, markers.get(g.match_id, "")),
    }


def _start_key(token: str, cid: int, game: Game, body: StartIn) -> str:
    """The creation key of the club match a start opens: the same for every start of this game with these
    players, table and lag, and secret (made from the director's token), since the marker's token is made from
    it."""
    what = json.dumps([cid, game.number, game.pair(), game.table, body.lag_winner, body.winner_takes, body.clock])
    return hashlib.sha256(f"kaavio start\0{token}\0{what}".encode()).hexdigest()


def _marker_url(match_id: int | None, token: str) -> str | None:
    return None if match_id is None else f"/club#/match/{match_id}/{token}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- the router -----------------------------------------------------------------------------------------


def competition_router(store: Store, table: MatchService, streams: Streams | None = None) -> APIRouter:
    streams = streams or Streams(store)
    service = CompetitionService(store, table)
    router = APIRouter(prefix="/api/kaavio", tags=["competitions"])
    errors: dict[int | str, dict[str, Any]] = {
        403: {"model": schemas.ErrorOut, "description": "The director's token is missing or wrong"},
        404: {"model": schemas.ErrorOut, "description": "No such competition or game"},
        409: {"model": schemas.ErrorOut, "description": "The change does not fit the competition now"},
    }

    @router.post("/competitions", status_code=201)
    def create(body: NewCompetition) -> CompetitionCreated:
        """A competition: name, date, club, bracket type, target points, tables. Answers the director's secret
        token and link (keep them: only the token's hash is stored)."""
        return service.create(body)

    @router.post(
        "/competitions/import",
        status_code=201,
        response_model=CompetitionCreated,
        responses={
            **errors,
            413: {"model": schemas.ErrorOut, "description": "The file is larger than the most that is read"},
        },
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/xml": {"schema": {"type": "string"}}}}
        },
    )
    async def import_file(request: Request) -> CompetitionCreated | Response:
        """A KaisaKaavio 1.0 competition file (the XML as the request body, at most 2 MB) as a new competition:
        a past competition joins the club's ranking series. Answers the new competition's director token and
        links, as creating one does; the same file imported again is refused (409)."""
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_IMPORT_BYTES:
                mb = MAX_IMPORT_BYTES // 1_000_000
                return JSONResponse(
                    {
                        "detail": f"the file is larger than {mb} MB, the most that is read",
                        "code": "file-too-large",
                        "fi": f"Tiedosto on liian suuri: enintään {mb} Mt luetaan.",
                        "en": f"The file is too large: at most {mb} MB is read.",
                    },
                    status_code=413,
                )
        return await asyncio.to_thread(service.import_xml, bytes(data))

    @router.get("/competitions")
    def competitions() -> list[CompetitionListed]:
        """Every competition, newest first."""
        return service.list()

    @router.get("/choices")
    def choices() -> dict[str, list[dict[str, str]]]:
        """The bracket types with their names in Finnish and English (KAAVIO 2), the placing modes, seedings and
        when the search runs again."""
        return {
            "kinds": [{"value": k.value, "fi": k.label("fi"), "en": k.label("en")} for k in KaavioType],
            "placings": [{"value": m.value} for m in PlacingMode],
            "seedings": [{"value": x.value} for x in Seeding],
            "search_reruns": [{"value": x.value} for x in SearchRerun],
        }

    @router.get("/ranking")
    def ranking(
        since: Annotated[str, Query(max_length=10, pattern=r"^(\d{4}-\d{2}-\d{2})?$")] = "",
        until: Annotated[str, Query(max_length=10, pattern=r"^(\d{4}-\d{2}-\d{2})?$")] = "",
        name: Annotated[str, Query(max_length=120)] = "",
        beat_1: Annotated[int, Query(ge=0, le=100, description="bonus for a win over the series' 1st")] = 0,
        beat_2: Annotated[int, Query(ge=0, le=100, description="bonus for a win over the series' 2nd")] = 0,
        beat_3: Annotated[int, Query(ge=0, le=100, description="bonus for a win over the series' 3rd")] = 0,
        ko2_round1: Annotated[int, Query(ge=0, le=100, description="bonus for a round-1 win under Pudari2")] = 0,
    ) -> Ranking:
        """A ranking series over the ended competitions, by date (``since``, ``until``: YYYY-MM-DD, as a month,
        a quarter, a half-year or a year) and by name (e.g. every "Viikkokisa"), with KAAVIO 10's optional
        bonuses (the series' ranking before each competition, by date, decides who is 1st-3rd)."""
        return service.ranking(since, until, name, RankingOptions(beat_1, beat_2, beat_3, ko2_round1))

    @router.get("/competitions/{cid}", responses=errors)
    def view(cid: int) -> CompetitionView:
        """The bracket: players, games by round (running ones with their live score), tables, placings at the
        end. Records the end of any finished club match first."""
        return service.view(cid)

    @router.get("/competitions/{cid}/director", responses=errors)
    def director(cid: int, token: Token = None) -> CompetitionView:
        """The bracket with the markers' links of the running games (the director's token)."""
        return service.view(cid, director_token=token or "")

    @router.post("/competitions/{cid}/players", responses=errors)
    def add_player(cid: int, body: PlayerIn, token: Token = None, key: Key = None) -> Changed:
        """Register a player; after the draw a late entry, until a round-2 game starts (KAAVIO 3.1)."""
        return service.add_player(cid, token, body, key)

    @router.post("/competitions/{cid}/players/withdraw", responses=errors)
    def withdraw(cid: int, body: WithdrawIn, token: Token = None, key: Key = None) -> Changed:
        """Take a registered player off the list before the draw (after it, his games are recorded as lost)."""
        return service.withdraw(cid, token, body, key)

    @router.post("/competitions/{cid}/prizes", responses=errors)
    def set_prizes(cid: int, body: PrizesIn, token: Token = None, key: Key = None) -> Changed:
        """The prize split's settings: the entry fee, SBiL's and the club's shares (euros or percent, rounded up),
        the winner weight and the paid places (KAAVIO 10)."""
        return service.set_prizes(cid, token, body, key)

    @router.post("/competitions/{cid}/draw", responses=errors)
    def draw(cid: int, body: DrawIn, token: Token = None, key: Key = None) -> Changed:
        """Draw numbers at random (seeded) and make rounds 1 and 2 (KAAVIO 3)."""
        return service.draw(cid, token, body, key)

    @router.post("/competitions/{cid}/games/{number}/start", responses=errors)
    def start(cid: int, number: int, body: StartIn, token: Token = None, key: Key = None) -> Changed:
        """Start a ready game on a free table; with ``marker`` a club match opens for the table's marker."""
        return service.start(cid, token, number, body, key)

    @router.post("/competitions/{cid}/games/{number}/result", responses=errors)
    def result(cid: int, number: int, body: ResultIn, token: Token = None, key: Key = None) -> Changed:
        """Type a game's result (played without a marker), or correct one (KAAVIO 4.1); the search runs."""
        return service.result(cid, token, number, body, key)

    @router.post("/competitions/{cid}/pair", responses=errors)
    def pair(cid: int, body: PairIn, token: Token = None, key: Key = None) -> Changed:
        """Pair two players by hand (hae käsin), with the reason recorded."""
        return service.pair(cid, token, body, key)

    @router.get("/competitions/{cid}/kaisakaavio.xml", responses=errors, response_class=Response)
    def export(cid: int) -> Response:
        """The competition as a KaisaKaavio 1.0 file."""
        k = service.competitions.get(cid).kaavio
        return PlainTextResponse(
            to_xml(k),
            media_type="application/xml",
            headers={"Content-Disposition": f'attachment; filename="kaavio-{cid}.xml"'},
        )

    @router.get("/competitions/{cid}/games/{number}/scoresheet", responses=errors)
    def scoresheet(cid: int, number: int) -> Scoresheet:
        """Game ``number``'s pöytäkirja: the competition, the round and the game's own number, the innings of its
        club match (a game played without a marker: its players and result), the result the kaavio records."""
        return service.scoresheet(cid, number)

    @router.get("/competitions/{cid}/games/{number}/scoresheet.pdf", responses=errors, response_class=Response)
    def scoresheet_pdf(cid: int, number: int, lang: schemas.Language = "fi") -> Response:
        """Game ``number``'s pöytäkirja as an A4 PDF, to print and sign."""
        sheet = service.scoresheet(cid, number)
        return attachment(
            scoresheet_to_pdf(sheet.model_dump(), lang), "application/pdf", f"poytakirja-{cid}-{number}.pdf"
        )

    def attachment(data: bytes, media: str, name: str) -> Response:
        return Response(data, media_type=media, headers={"Content-Disposition": f'inline; filename="{name}"'})

    @router.get("/competitions/{cid}/scoresheets.pdf", responses=errors, response_class=Response)
    def scoresheets_pdf(
        cid: int, lang: schemas.Language = "fi", blanks: Annotated[int, Query(ge=0, le=100)] = 0
    ) -> Response:
        """Pelipöytäkirjat (KAAVIO 9): a sheet for every game to play whose players are known, A4 landscape, 10 a
        page, and ``blanks`` empty sheets."""
        k = service.sync(cid).kaavio
        return attachment(paper.scoresheets_pdf(k, lang, blanks=blanks), "application/pdf", f"poytakirjat-{cid}.pdf")

    @router.get("/competitions/{cid}/results.pdf", responses=errors, response_class=Response)
    def results_pdf(cid: int, lang: schemas.Language = "fi") -> Response:
        """The bracket on paper: results by round, who is out and who waits, the placings at the end (A4)."""
        k = service.sync(cid).kaavio
        return attachment(paper.results_pdf(k, lang), "application/pdf", f"kaavio-{cid}.pdf")

    @router.get("/competitions/{cid}/results.csv", responses=errors, response_class=Response)
    def results_csv(cid: int, lang: schemas.Language = "fi") -> Response:
        """Every game as a row of CSV (UTF-8 with a byte order mark, for spreadsheets)."""
        k = service.sync(cid).kaavio
        return attachment(paper.results_csv(k, lang), "text/csv; charset=utf-8", f"tulokset-{cid}.csv")

    @router.get("/competitions/{cid}/placings.csv", responses=errors, response_class=Response)
    def placings_csv(cid: int, lang: schemas.Language = "fi") -> Response:
        """The placings as CSV once the competition has ended."""
        k = service.sync(cid).kaavio
        return attachment(paper.placings_csv(k, lang), "text/csv; charset=utf-8", f"sijoitukset-{cid}.csv")

    @router.get("/competitions/{cid}/stream", responses=errors, response_class=StreamingResponse)
    async def stream(cid: int) -> StreamingResponse:
        """Server-sent events: a ``view`` event with the competition whenever it or a running game changes."""

        def build(_changed: frozenset[str] | None) -> Built:
            view = service.view(cid)
            topics = {competition_topic(cid), *(match_topic(m) for m in service.running_matches(cid))}
            return Built(view.model_dump_json(), frozenset(topics))

        # one watcher per competition in this process (404 before the stream starts)
        return await streams.response(Watch(("competition", cid), build, lambda: service.poll(cid)))

    return router


__all__ = ["CompetitionService", "KaavioConflictError", "KaavioRefusalError", "competition_router", "match_result"]
