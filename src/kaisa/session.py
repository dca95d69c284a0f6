"""The match session: the one way an interface drives a match.

The browser table, the marker's pages, ``kaisa match``, the tournament and the environments all play through
here: load a stored match, push an action through :class:`kaisa.game.Match` (which asks the referee, and
whose chance step executes strokes), record it, and give the view. A session also runs the computer players'
turns and owns the per-match lock, so two requests cannot play the same stroke twice. The running counters
(innings, runs, fouls) live in the match state, so no interface recounts them from stored JSON.

A stroke costs two store round trips: one read (:meth:`Store.open_match`: the match, its state and its last
action) and one write (:meth:`Store.record`). No rules live here.

Study mode (:func:`study_shot`) plays one stroke from any position and game state through a
:meth:`Match.at` match, so a study stroke is checked and ruled exactly like a stroke in a match.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from kaisa.call import Call
from kaisa.errors import ErrorText, FormatError, InvalidPositionError, InvalidStrokeError, KaisaError
from kaisa.game import (
    Action,
    ClockConfig,
    Entry,
    IllegalActionError,
    Lag,
    MarkedShot,
    Match,
    MatchConfig,
    MatchState,
    Outcome,
    Phase,
    Shot,
    TakeBreak,
    action_to_json,
)
from kaisa.game.marking import MarkingError, Marks, check_state, correct, marked_shot
from kaisa.game.match import Simulator
from kaisa.model import BallId, Event, Position, ShotRecord, Stroke
from kaisa.players import (
    COMPUTER_KINDS,
    HUMAN,
    MatchStalledError,
    Player,
    decide_action,
    lag_stroke,
    make_player,
    push_nudged,
    seat_noise,
)
from kaisa.records.storage import AccessDeniedError, StorageError
from kaisa.referee import GameState, LateFall, RuleOptions, Ruling, opponent_of
from kaisa.referee.marker import FLAG_QUESTIONS, FlagQuestion
from kaisa.referee.opening import IllegalPlacementError, check_hand_placement, w2_corridors
from kaisa.referee.prospects import call_words
from kaisa.referee.ruling import RulingItem, Text
from kaisa.table import OFFICIAL, TableSpec

if TYPE_CHECKING:
    from kaisa.players.search import Evaluation
    from kaisa.records.storage import MatchInfo, PlayerInfo, Store
    from kaisa.records.storage.store import EntryKey, OpenedMatch, StoredAction

ANIMATION_RATE = 60.0
"""Hz: pages animate strokes from ball centres sampled this often."""


class UnknownActionError(KaisaError, LookupError):
    """No action with that index is stored for the match."""

    code = "unknown-action"
    kind = ErrorText("Ottelussa ei ole tätä kirjausta.", "The match has no such action.")


class NotYourTurnError(IllegalActionError):
    """The action belongs to the other kind of player (a person's to a computer's turn, or the reverse)."""

    code = "not-your-turn"
    kind = ErrorText("Nyt ei ole tämän pelaajan vuoro.", "It is not this player's turn.")


def is_computer(kind: str) -> bool:
    return kind in COMPUTER_KINDS


def match_config(
    players: Sequence[PlayerInfo],
    *,
    clock: ClockConfig | None = None,
    options: RuleOptions | None = None,
    seed: int = 0,
    noise: float = 1.0,
) -> MatchConfig:
    """The configuration of a match between ``players``: each computer player's seat gets its kind's execution
    noise (times ``noise``), a person's none; ``seed`` seeds the chance step."""
    return MatchConfig(
        players=(players[0].name, players[1].name),
        clock=clock or ClockConfig(),
        options=options or RuleOptions(),
        noise=(seat_noise(players[0].kind, noise), seat_noise(players[1].kind, noise)),
        seed=seed,
    )


# --- the view ---------------------------------------------------------------------------------------------


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
        can_undo=current and config.clock.mode == "off" and actions > 0 and state.phase is not Phase.OVER,
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


# --- sessions -----------------------------------------------------------------------------------------------


class Sessions:
    """The match sessions of one store: create matches, open one to play on (locked), read views.

    ``trajectory_rate`` (Hz) samples the paths of every shot for animation (the browser table); the
    computer players are made once per match seat and kept, as their worker pools are."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        trajectory_rate: float | None = None,
        simulate: Simulator | None = None,
    ) -> None:
        self._store = store
        self.trajectory_rate = trajectory_rate
        self.simulate = simulate
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._players: dict[tuple[int, int], Player] = {}
        self._unrecorded = 0
        """Matches played in memory count down from -1, so their computer players are not mixed up."""

    @property
    def store(self) -> Store:
        if self._store is None:
            raise KaisaError("these sessions keep no records: open them on a store")
        return self._store

    # --- creating ----------------------------------------------------------------------------------------

    def unrecorded(
        self, players: Sequence[PlayerInfo], config: MatchConfig, state: MatchState | None = None
    ) -> MatchSession:
        """A match played in memory only (an environment's episode, ``kaisa match --no-db``): the same session
        without a store."""
        from kaisa.records.storage.store import MatchInfo, OpenedMatch  # SQLAlchemy: not for a lone stroke

        now = datetime.now(UTC)
        match = Match(config, state)
        self._unrecorded -= 1
        info = MatchInfo(
            id=self._unrecorded,
            players=(players[0], players[1]),
            status="playing",
            seed=config.seed,
            actions=0,
            result=None,
            created_at=now,
            updated_at=now,
        )
        return MatchSession(self, OpenedMatch(info, config, match.state, None), recorded=False)

    def create(
        self,
        players: Sequence[PlayerInfo],
        *,
        clock: ClockConfig | None = None,
        options: RuleOptions | None = None,
        seed: int | None = None,
        event: str | None = None,
        token: str | None = None,
        state: MatchState | None = None,
        key: str | None = None,
    ) -> int:
        """Store a new match between ``players`` and return its id. Without a ``seed`` one is drawn, and stored:
        the chance step and the computer players are seeded from it. With a creation ``key`` (made by the client)
        the match is created once: a request sent again with the key (a double tap, a retry after a dropped
        connection) gets the id of the match created with it, and nothing new is stored."""
        from kaisa.records.storage import DuplicateMatchError

        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        config = match_config(players, clock=clock, options=options, seed=seed)
        digest = None if key is None else _creation_digest(key)
        if digest is not None and (found := self.store.find_content(digest)) is not None:
            return found
        try:
            return self.store.create_match(
                config, list(players), seed, event=event, token=token, state=state, content_hash=digest
            )
        except DuplicateMatchError as duplicate:
            return duplicate.match_id
        except StorageError:
            # two requests with the key at once on another server process: the database's unique index let one in
            found = None if digest is None else self.store.find_content(digest)
            if found is None:
                raise
            return found

    def running_break(self, match_id: int) -> RunningBreak | None:
        """The break (6) running now in the match, if any (noted in the store: it survives a restart)."""
        return MatchSession(self, self.store.open_match(match_id)).running_break()

    # --- opening ----------------------------------------------------------------------------------------

    @contextmanager
    def locked(self, match_id: int) -> Iterator[None]:
        """Serialise the actions on one match within this process (the store refuses a stale action from
        another process)."""
        with self._guard:
            lock = self._locks.setdefault(match_id, threading.Lock())
        with lock:
            yield

    @contextmanager
    def open(self, match_id: int, *, token: str | None = None, marker: bool = False) -> Iterator[MatchSession]:
        """The stored match, locked, ready to play on. A club match (kept by a marker, with a token) opens only
        with ``marker`` and its ``token``; a match without a token only without ``marker``."""
        if marker:
            self.store.check_token(match_id, token)
        with self.locked(match_id):
            opened = self.store.open_match(match_id)
            if opened.info.has_token and not marker:
                raise AccessDeniedError(
                    f"match {match_id} is a club match kept by a marker: enter it through /api/club with its token"
                )
            yield MatchSession(self, opened)

    def view(self, match_id: int) -> MatchView:
        """The match as it is now (one read)."""
        return MatchSession(self, self.store.open_match(match_id)).view()

    def computer(self, info: MatchInfo, seat: int, options: RuleOptions | None = None) -> Player | None:
        """The computer player in ``seat`` (None for a person), made once per match and seat, playing by the
        match's rule ``options``."""
        kind = info.players[seat].kind
        if not is_computer(kind):
            return None
        key = (info.id, seat)
        if key not in self._players:
            self._players[key] = make_player(
                kind, info.players[seat].name, (info.seed or 0) + seat, options=options or RuleOptions()
            )
        return self._players[key]

    # --- reading ------------------------------------------------------------------------------------------

    def history(
        self, match_id: int, offset: int = 0, limit: int | None = None
    ) -> list[tuple[StoredAction, int | None]]:
        """The recorded actions (all, or the page from ``offset``, at most ``limit``) with the index of the
        player who played each (None: the lag, both); a page costs the same at any length of match."""
        stored = self.store.actions(match_id, offset, limit)
        if not stored:
            return []
        before = self.store.stored_action(match_id, offset)[1]
        out: list[tuple[StoredAction, int | None]] = []
        for a in stored:
            out.append((a, before.to_move))
            before = a.state_after
        return out

    def animation(self, match_id: int, index: int, rate: float = ANIMATION_RATE) -> tuple[Played, MatchInfo]:
        """Action ``index`` played again from its stored state with paths sampled at ``rate`` Hz (replay stroke
        by stroke), and the view as of that action. Costs the same at any length of match."""
        opened = self.store.open_match(match_id)
        count = opened.info.actions
        if not 0 <= index < count:
            which = "has no actions yet" if not count else f"has {count} actions, numbered 0 to {count - 1}"
            raise UnknownActionError(f"match {match_id} {which}: there is no action {index}")
        stored, before = self.store.stored_action(match_id, index)
        replay = Match(opened.config, before, simulate=self.simulate, trajectory_rate=rate)
        outcome = replay.push(stored.action)
        view = view_of(replay, opened.info, last=outcome.to_json(), last_action=None, actions=index + 1, current=False)
        return Played(replay.stack[-1].action, outcome, view), opened.info


class MatchSession:
    """One stored match opened to play on (hold it only inside :meth:`Sessions.open`)."""

    def __init__(self, sessions: Sessions, opened: OpenedMatch, *, recorded: bool = True) -> None:
        self.sessions = sessions
        self.recorded = recorded
        self.info = opened.info
        self.id = opened.info.id
        self.match = Match(
            opened.config,
            opened.state,
            simulate=sessions.simulate,
            trajectory_rate=sessions.trajectory_rate,
        )
        self._last: dict[str, Any] | None = None if opened.last is None else opened.last.outcome
        self._last_action: dict[str, Any] | None = None if opened.last is None else action_to_json(opened.last.action)
        self._clock_since = self._since(opened)

    def _since(self, opened: OpenedMatch) -> datetime:
        """When the clock last started counting: the last entry other than a break (one read more for each
        break at the end, at most one per player), or the match's creation."""
        last = opened.last
        while self.recorded and last is not None and isinstance(last.action, TakeBreak) and last.index > 0:
            last = self.store.stored_action(self.id, last.index - 1)[0]
        return opened.info.created_at if last is None or isinstance(last.action, TakeBreak) else last.created_at

    @property
    def state(self) -> MatchState:
        return self.match.state

    # --- playing -----------------------------------------------------------------------------------------

    def push(
        self,
        action: Action,
        *,
        key: str | None = None,
        check: Callable[[MatchState], None] | None = None,
        body: str | None = None,
    ) -> Played:
        """Play ``action`` and record it in one transaction (with its executed strokes). ``check`` may refuse
        the state the action leads to (nothing is recorded then). With an entry ``key`` (made by the client)
        the key and this answer are recorded in the same transaction: see :meth:`answered`; ``body`` (a hash of
        the request) is stored in the answer, so that the key sent again with another request can be refused."""
        before = self.match.state
        outcome = self.match.push(action)
        entry = self.match.stack[-1]
        if check is not None:
            try:
                check(self.match.state)
            except BaseException:
                self.match.pop()
                raise
        if self.recorded:
            keyed = _entry_key(key, body, lambda index, at: self._played(entry, outcome, index or 0, at).to_json())
            try:
                recorded = self.store.record(self.id, Entry(entry.action, before, outcome), self.match.state, key=keyed)
            except BaseException:
                self.match.pop()
                raise
            index, at = recorded.index, recorded.at
        else:
            index, at = self.info.actions, datetime.now(UTC)
        return self._played(entry, outcome, index, at, commit=True)

    def _played(self, entry: Entry, outcome: Outcome, index: int, at: datetime, *, commit: bool = False) -> Played:
        """The answer to a pushed action recorded as action ``index`` at ``at`` (``commit``: and the session
        now stands after it)."""
        info = replace(
            self.info,
            actions=index + 1,
            updated_at=at,
            status="over" if self.match.state.phase is Phase.OVER else "playing",
            result=self.match.state.result,
        )
        last, last_action = outcome.to_json(), action_to_json(entry.action)
        since = self._clock_since if isinstance(entry.action, TakeBreak) else at
        if commit:
            self.info, self._last, self._last_action, self._clock_since = info, last, last_action, since
        view = view_of(self.match, info, last=last, last_action=last_action, actions=info.actions, clock_since=since)
        return Played(entry.action, outcome, view)

    def answered(self, key: str | None) -> dict[str, Any] | None:
        """The answer the entry with ``key`` got when it was recorded (None: no such entry yet). An entry sent
        again (a retry after a dropped connection or a killed server, a double tap) is answered with this
        instead of being recorded twice."""
        if key is None or not self.recorded:
            return None
        return self.store.answered(self.id, key)

    def person(self, build: Callable[[Match], Action]) -> Played:
        """A person's action (refused when it is a computer player's turn)."""
        mover = self.match.state.to_move
        if mover is not None and self.computer(mover) is not None:
            raise NotYourTurnError(
                f"it is {self.info.players[mover].name}'s turn, a computer player: ask it to play (POST .../computer)"
            )
        return self.push(build(self.match))

    def lag(self, strokes: tuple[Stroke | None, Stroke | None], lift: bool = False) -> Played:
        """The lag: a person's stroke for each person, None for each computer player (it lags itself)."""
        state = self.match.state
        if state.phase not in (Phase.LAG, Phase.SHOOTOUT_LAG):
            raise IllegalActionError(f"the match is in phase {state.phase.value}, not in a lag")
        played = []
        for seat, stroke in enumerate(strokes):
            computer = self.computer(seat)
            if stroke is None:
                if computer is None:
                    raise NotYourTurnError(f"player {seat + 1} is a person: send their lag stroke")
                stroke = lag_stroke(computer, seat, self.match)
            elif computer is not None:
                raise NotYourTurnError(f"player {seat + 1} is a computer player: send null for its lag stroke")
            played.append(stroke)
        return self.push(Lag((played[0], played[1]), lift))

    def play_computer(self) -> Played:
        """The computer player whose turn it is plays its action."""
        state = self.match.state
        if state.phase is Phase.OVER:
            raise IllegalActionError("the match is over")
        if state.phase in (Phase.LAG, Phase.SHOOTOUT_LAG):
            both = [self.computer(0), self.computer(1)]
            if both[0] is None or both[1] is None:
                raise NotYourTurnError(
                    "in a lag both players play at once: send the person's lag stroke with null for the computer"
                )
            return self.push(decide_action(self.match, [both[0], both[1]]))
        mover = state.to_move
        assert mover is not None
        player = self.computer(mover)
        if player is None:
            raise NotYourTurnError(f"it is player {mover + 1}'s ({self.info.players[mover].name}) turn, a person's")
        return push_nudged(self.push, decide_action(self.match, [player, player]))

    def mark(
        self, call: Call | None, marks: Marks, seconds: float = 0.0, *, key: str | None = None, body: str | None = None
    ) -> Played:
        """A stroke at a real table as its marker entered it (the referee rules the marker's facts); an entry
        that would leave the balls where no table can have them is refused (:func:`check_state`)."""
        state = self.match.state
        if state.phase not in (Phase.PLAY, Phase.SHOOTOUT):
            raise IllegalActionError(f"the match is in phase {state.phase.value}: no stroke is due")
        return self.push(marked_shot(state, call, marks, seconds), key=key, check=check_state, body=body)

    def correct(
        self, index: int, call: Call | None, marks: Marks, *, key: str | None = None, body: str | None = None
    ) -> MatchView:
        """Correct the entered stroke at action ``index``: the match is replayed with it changed and every later
        stroke re-entered against the positions the correction leads to (refused, with the reason, when a later
        stroke no longer fits), then rewritten in one transaction."""
        match = self.store.resume(self.id)
        if not 0 <= index < len(match.stack) or not isinstance(match.stack[index].action, MarkedShot):
            strokes = sum(isinstance(e.action, MarkedShot) for e in match.stack)
            raise MarkingError(
                "not-a-stroke",
                f"Korjattavaa lyöntiä ei löydy: vain kirjattuja lyöntejä voi korjata, ja ottelussa on {strokes} "
                "kirjattua lyöntiä. Valitse korjattava lyönti lyöntiluettelosta.",
                f"There is no such stroke to correct: only entered strokes can be corrected, and the match has "
                f"{strokes} (action {index} of match {self.id} is not one). Choose the stroke in the list of strokes.",
            )
        old = match.stack[index].action
        assert isinstance(old, MarkedShot)
        before = match.stack[index].before
        names = {BallId(p["cue_ball"]): p["name"] for p in self.view().players if p.get("cue_ball")}
        fixed = correct(match, index, marked_shot(before, call, marks, old.seconds), names)
        return self.rewrite(index, fixed, key=key, body=body)

    def start_break(self, cue_ball: BallId, since: datetime | None = None) -> RunningBreak:
        """A player's break (6) begins (``since``: when, default now): noted in the store, so that it survives a
        restart, until its length is recorded (a :class:`TakeBreak`). It runs while the match stays as it was when
        it began (any later action or undo ends it); noted again meanwhile, the first start stands."""
        state = self.match.state
        if self.match.config.clock.mode != "wall":
            raise IllegalActionError("breaks are counted only with the competition clock on")
        if state.phase is Phase.OVER:
            raise IllegalActionError("the match is over")
        if cue_ball in state.clock.breaks:
            raise IllegalActionError(f"{cue_ball.value}'s player has had their one break (6)")
        since = since or datetime.now(UTC)
        answer = {"cue_ball": cue_ball.value, "since": since.isoformat()}
        return RunningBreak.from_json(self.store.note(self.id, _break_key(cue_ball, self.info), answer))

    def running_break(self) -> RunningBreak | None:
        """The break running now, if any: the latest one noted since the match last changed whose length is not
        recorded yet."""
        state = self.match.state
        if not self.recorded or state.phase is Phase.OVER or self.match.config.clock.mode != "wall":
            return None
        noted = []
        for ball in (BallId.W1, BallId.W2):
            if ball not in state.clock.breaks:
                answer = self.store.answered(self.id, _break_key(ball, self.info))
                if answer is not None:
                    noted.append(RunningBreak.from_json(answer))
        return max(noted, key=lambda b: b.since, default=None)

    def undo_entry(self, *, keep: int = 0, key: str | None = None, body: str | None = None) -> MatchView:
        """A marker takes back the last entry (any clock), never the first ``keep`` actions."""
        if self.info.actions <= keep:
            raise IllegalActionError("there is no entered stroke or placement to undo")
        self.store.undo(self.id, key=_entry_key(key, body, _done("undo")))
        self._reload()
        return self.view()

    def undo(self, *, to_person: bool = True) -> MatchView:
        """Take back the last action (casual matches only) and, ``to_person``, the computer's actions before it
        back to the last person's action."""
        if self.match.config.clock.mode != "off":
            raise IllegalActionError("a match on the competition clock cannot be undone")
        if not self.info.actions:
            raise IllegalActionError("there is nothing to undo")
        if self.match.state.phase is Phase.OVER:
            raise IllegalActionError("the match is over and its result stands: there is nothing to undo")
        while self.info.actions:
            self.store.undo(self.id)
            self._reload()
            mover = self.match.state.to_move
            if not to_person or mover is None or self.info.players[mover].kind == HUMAN:
                break
        return self.view()

    def rewrite(self, keep: int, match: Match, *, key: str | None = None, body: str | None = None) -> MatchView:
        """Replace the actions from index ``keep`` on with those of ``match`` (a correction replayed by the game
        layer from the stored actions), in one transaction."""
        self.store.rewrite(self.id, keep, match.stack[keep:], match.state, key=_entry_key(key, body, _done("correct")))
        self._reload()
        return self.view()

    def _reload(self) -> None:
        opened = self.store.open_match(self.id)
        self.info = opened.info
        self.match = Match(
            opened.config, opened.state, simulate=self.sessions.simulate, trajectory_rate=self.match.trajectory_rate
        )
        self._last = None if opened.last is None else opened.last.outcome
        self._last_action = None if opened.last is None else action_to_json(opened.last.action)
        self._clock_since = self._since(opened)

    def computer(self, seat: int) -> Player | None:
        return self.sessions.computer(self.info, seat, self.match.config.options)

    @property
    def store(self) -> Store:
        return self.sessions.store

    @property
    def over(self) -> bool:
        return self.match.over

    def play_out(self, on_played: Callable[[Played], None] | None = None, max_actions: int = 5000) -> None:
        """Let the computer players play until the match is over (both seats must be computer players)."""
        for _ in range(max_actions):
            if self.match.over:
                return
            played = self.play_computer()
            if on_played is not None:
                on_played(played)
        if not self.match.over:
            raise MatchStalledError(f"the match did not finish within {max_actions} actions")

    def aim(self, call: Call, stroke: Stroke) -> Aim:
        """:func:`aim` in this match's position and state, under its rule options (reads, records nothing)."""
        state = self.match.state
        if state.phase not in (Phase.PLAY, Phase.SHOOTOUT):
            raise IllegalActionError(f"the match is in phase {state.phase.value}: no stroke is due")
        config = self.match.config
        return aim(state.position, state.game, call, stroke, options=config.options, spec=config.spec)

    def call_prospects(self, call: Call) -> list[RulingItem]:
        """:func:`call_prospects` in this match's position and state."""
        state = self.match.state
        return call_prospects(state.position, state.game, call, self.match.config.spec)

    def preview(self, call: Call | None, stroke: Stroke) -> StudyShot:
        """The stroke as it would play now, noise-free, ruled but not recorded (the full aiming aid)."""
        state = self.match.state
        if state.phase not in (Phase.PLAY, Phase.SHOOTOUT):
            raise IllegalActionError(f"the match is in phase {state.phase.value}: no stroke is due")
        return study_shot(state.position, stroke, call, state.game, trajectory_rate=self.match.trajectory_rate)

    def hint(self, level: str) -> list[Evaluation]:
        """The advisor's calls for the person to move now, best first (a hint during a match): a read that changes
        and records nothing, seeded by the match's seed and the action number, so a turn's hint is the same when
        asked again."""
        state = self.match.state
        if state.phase not in (Phase.PLAY, Phase.SHOOTOUT):
            raise IllegalActionError(f"the match is in phase {state.phase.value}: no stroke is due to advise on")
        mover = state.to_move
        if mover is not None and self.computer(mover) is not None:
            raise NotYourTurnError(f"it is {self.info.players[mover].name}'s turn, a computer player: it needs no hint")
        return advise(state.position, state.game, level, seed=(self.info.seed or 0) + state.actions)

    # --- the view ------------------------------------------------------------------------------------------

    def view(self) -> MatchView:
        return view_of(
            self.match,
            self.info,
            last=self._last,
            last_action=self._last_action,
            actions=self.info.actions,
            clock_since=self._clock_since,
        )


@dataclass(frozen=True)
class RunningBreak:
    """A player's break (6) in progress: whose, and since when (its length is recorded when it ends)."""

    cue_ball: BallId
    since: datetime

    def to_json(self) -> dict[str, Any]:
        return {"cue_ball": self.cue_ball.value, "since": self.since.isoformat()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunningBreak:
        try:
            since = datetime.fromisoformat(str(data["since"]))
            return cls(BallId(data["cue_ball"]), since if since.tzinfo else since.replace(tzinfo=UTC))
        except (KeyError, ValueError) as error:
            raise KaisaError(f"a running break is {{cue_ball, since}} with an ISO time, not {data!r}") from error


def _break_key(cue_ball: BallId, info: MatchInfo) -> str:
    """The store's key of a break noted while the match stands as ``info`` says (a later change of the match
    makes a new key, so an old note never comes back)."""
    return f"break:{cue_ball.value}:{info.updated_at.isoformat()}"


def _creation_digest(key: str) -> str:
    """The stored form of a match's creation key (only a hash of it is stored)."""
    return hashlib.sha256(f"kaisa creation key\0{key}".encode()).hexdigest()


def _entry_key(
    key: str | None, body: str | None, answer: Callable[[int | None, datetime], dict[str, Any]]
) -> EntryKey | None:
    """An entry's key with its stored answer, which carries ``body`` (the request's hash) when given."""
    from kaisa.records.storage.store import EntryKey

    if key is None:
        return None
    if body is None:
        return EntryKey(key, answer)
    return EntryKey(key, lambda index, at: {**answer(index, at), "body": body})


def _done(kind: str) -> Callable[[int | None, datetime], dict[str, Any]]:
    """The stored answer of a keyed entry that records no action of its own (an undo, a correction): a repeat
    is answered with the match as it is then."""
    return lambda _index, at: {"done": kind, "at": at.isoformat()}


# --- study: one stroke from any position ---------------------------------------------------------------------


def physics_ready() -> bool:
    """Whether the physics engine's compiled kernels are cached (else the first stroke compiles them)."""
    from kaisa.physics import kernels_cached

    return kernels_cached()


def warm_up_physics(*, notice: bool = True) -> None:
    """Compile or load the physics engine's kernels now, so the first stroke does not wait for them.
    ``notice=False`` when the caller says why it waits (a spinner) instead of the physics' one-line notice."""
    from kaisa.physics import warm_up

    warm_up(notice=notice)


def check_position(position: Position) -> None:
    """Refuse a position the table cannot hold (off the bed, overlapping balls), with the reason."""
    from kaisa.physics import validate_position

    validate_position(position)


def simulate_stroke(position: Position, stroke: Stroke, *, trajectories: float | None = None) -> ShotRecord:
    """One stroke simulated on the official table, with no rules (``kaisa simulate``)."""
    from kaisa.physics import simulate

    return simulate(position, stroke, trajectories=trajectories)


def rule_stroke(
    position: Position,
    call: Call | None,
    game: GameState | None = None,
    options: RuleOptions | None = None,
    *,
    stroke: Stroke | None = None,
    events: tuple[Event, ...] | None = None,
    final: Position | None = None,
    log_json: object = None,
) -> Ruling:
    """The referee's ruling on one stroke from ``position``: ``stroke`` simulated, or ``events`` as they
    happened (with the ``final`` position at rest, if known), or ``log_json`` as read from a file (a list of
    events, or ``kaisa simulate --json`` output, validated against ``position``) — ``kaisa rule``."""
    from kaisa.referee import StrokeLog, judge, observe

    game = game or GameState()
    options = options or RuleOptions()
    given = sum(x is not None for x in (stroke, events, log_json))
    if given != 1:
        raise FormatError("rule either a stroke (simulated) or an event log (as it happened), not both or neither")
    if stroke is not None:
        log = StrokeLog.of(simulate_stroke(position, stroke))
    elif log_json is not None:
        log = StrokeLog.from_json(position, log_json)  # checked: a log that starts elsewhere is refused
    else:
        assert events is not None
        log = StrokeLog.from_events(position, events, final)
    return judge(observe(log, call, options=options), call, game, options=options)


class StudyStateError(KaisaError):
    """A study's game state that no match can be in (a score of 60, the break with W2 at the table, the 2.1 flag
    from hand, a ball both in hand and on the table). ``text`` says it in Finnish and English."""

    code = "invalid-study-state"
    kind = ErrorText("Tutkittava pelitilanne ei ole mahdollinen.", "The game state to study is not possible.")

    def __init__(self, fi: str, en: str) -> None:
        super().__init__(en)
        self.text = Text(fi, en)


def check_study_state(position: Position, game: GameState, options: RuleOptions | None = None) -> None:
    """Refuse a game state set for study that no match can reach, saying why in Finnish and English: each score
    below the winning score (3: 60, or ``options.winning_score``), the break W1's from hand at 0-0 (1.2), the
    direct middle kaisa flag (2.1) only for a shooter continuing an inning at the table, a cue ball in hand off
    the table (the shooter's is put down where its stroke is placed) and the shooter's ball on the table or in
    hand."""
    target = (options or RuleOptions()).winning_score
    for ball, score in game.scores.items():
        if score >= target:
            said = str(score) if len(str(score)) <= 12 else f"yli {target}"
            said_en = str(score) if len(str(score)) <= 12 else f"more than {target}"
            raise StudyStateError(
                f"Pelaajalla {ball.value} on {said} pistettä: {target} pistettä voittaa pelin (3), joten "
                f"pisteet ovat enintään {target - 1}.",
                f"{ball.value} has {said_en} points: {target} wins the game (3), so a score is at most {target - 1}.",
            )
    if game.opening:
        if game.shooter is not BallId.W1:
            raise StudyStateError(
                "Aloituslyönnin lyö W1 (1.2): valitse lyöjäksi W1 tai poista aloituslyönti.",
                "W1 breaks (1.2): make W1 the shooter, or clear the break.",
            )
        if any(game.scores.values()):
            raise StudyStateError(
                "Aloituslyönnissä pisteet ovat 0–0 (1.2): nollaa pisteet tai poista aloituslyönti.",
                "At the break the score is 0–0 (1.2): set both scores to 0, or clear the break.",
            )
        if BallId.W2 in game.in_hand:
            raise StudyStateError(
                "Aloituslyönnissä W2 on sijoitettu pöydälle (1.2), ei käsipallona.",
                "At the break W2 has been placed on the table (1.2): it is not in hand.",
            )
    if game.last_pot_direct_middle_kaisa and game.from_hand:
        raise StudyStateError(
            "Edellinen suoraan keskipussiin mennyt kaisa (2.1) tarkoittaa, että lyöjä jatkaa samaa lyöntivuoroa "
            "pöydältä: lyöjä ei voi olla käsipallossa eikä aloituslyönnissä.",
            "The previous direct middle kaisa (2.1) means the shooter goes on with the same inning from the table: "
            "the shooter cannot be in hand or at the break.",
        )
    for ball in sorted(game.in_hand - {game.shooter}, key=lambda b: b.value):
        if ball in position:
            raise StudyStateError(
                f"{ball.value} on käsipallona eli pois pöydältä: poista se pöydältä tai käsipallosta.",
                f"{ball.value} is in hand, so it is off the table: take it off the table or out of hand.",
            )
    if not game.from_hand and game.shooter not in position:
        raise StudyStateError(
            f"Lyöjä on {game.shooter.value}, mutta se ei ole pöydällä: aseta se pöydälle tai käsipalloksi.",
            f"{game.shooter.value} is to play but is not on the table: put it on the table, or in hand.",
        )


def study_setup(
    position: Position, game: GameState, stroke: Stroke | None = None, options: RuleOptions | None = None
) -> tuple[Position, Stroke | None]:
    """A study's position, state and stroke checked (:func:`check_study_state`) and, when the shooter plays from
    hand with its ball set on the table, that ball taken up to be placed there by its stroke (5)."""
    check_study_state(position, game, options)
    if game.from_hand and game.shooter in position:
        if stroke is not None and stroke.place is None:
            stroke = replace(stroke, place=position[game.shooter])
        position = position.without(game.shooter)
    return position, stroke


def advise(position: Position, game: GameState | None, level: str, seed: int = 0) -> list[Evaluation]:
    """The advisor's evaluated calls in ``position`` (``game``: default W1 at the table), best first: a search
    level's ranked calls, or for ``baseline`` the one stroke the baseline player would play, appraised the same
    way (:data:`ADVISOR_LEVELS`). Refuses a cue ball that is neither on the table nor in hand."""
    from kaisa.players.kinds import BASELINE
    from kaisa.players.search import advise as search_advise

    game = game or GameState()
    if not game.from_hand and game.shooter not in position:
        raise InvalidPositionError(
            f"{game.shooter.value} is to play but is not on the table: put it in the position, or play it from hand "
            f"(a state with {game.shooter.value} in in_hand)"
        )
    if level == BASELINE:
        return [_baseline_advice(position, game, seed)]
    return search_advise(position, game, level=level, seed=seed)


ADVISOR_LEVELS = COMPUTER_KINDS
"""The levels :func:`advise` plays: every computer player's kind (baseline, beginner, club, master)."""

BASELINE_SAMPLES = 12
"""Noisy executions that appraise the baseline player's stroke in :func:`advise`."""


def _baseline_advice(position: Position, game: GameState, seed: int) -> Evaluation:
    """The baseline player's stroke, played with its seat's noise and scored as the search scores its own (no
    look at the position left: the baseline never thinks of it)."""
    from kaisa.players import BASELINE, BaselinePlayer
    from kaisa.players.levels import LEVELS
    from kaisa.players.search import SearchPlayer

    call, stroke = BaselinePlayer(BASELINE, seed).shot(position, game, OFFICIAL, 0)
    yardstick = SearchPlayer("beginner", seed=seed, noise=seat_noise(BASELINE) / LEVELS["beginner"].noise)
    appraised = yardstick.appraise(call, stroke, position, game, BASELINE_SAMPLES)
    return replace(appraised, kind="direct" if call is not None else "safety")


@dataclass(frozen=True)
class Aim:
    """The centre of the run of directions that pots a call with a given stroke (the physics, not geometry)."""

    direction: float
    """Degrees: the window's centre."""
    width: float
    """Degrees: how far the direction may err and still pot (0.03-0.5 on most pots)."""
    speed: float
    """m/s: the stroke's speed, or the geometric aim's when the person's speed pots in no direction."""
    simulations: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def call_prospects(position: Position, game: GameState, call: Call, spec: TableSpec = OFFICIAL) -> list[RulingItem]:
    """Why ``call`` cannot score in this state, as the referee would say it (empty: it can): the referee's
    :func:`kaisa.referee.prospects.call_prospects`, the very list the judge voids a pot by, so the page marks a
    call before the stroke exactly as the ruling would void it after."""
    from kaisa.referee.prospects import call_prospects as referee_prospects

    return referee_prospects(position, call, game, spec)


AIM_SCANS = ((0.8, 0.04), (3.0, 0.1))
"""(half width, step) in degrees of the window scans around the first aim, narrow first."""


def aim(
    position: Position,
    game: GameState,
    call: Call,
    stroke: Stroke,
    *,
    options: RuleOptions | None = None,
    spec: TableSpec = OFFICIAL,
) -> Aim:
    """Aim ``stroke`` (its speed, spin, elevation and place kept) at the centre of the window of directions that
    pots ``call`` legally, found by the players' window search around the geometric aim of the call (or the
    stroke's own direction when the geometry has no route for it). Raises :class:`InvalidStrokeError` when no
    direction near it pots the call."""
    from kaisa.players.candidates import ShotCandidate
    from kaisa.players.search import find_window
    from kaisa.players.shots import generate

    options = options or RuleOptions()
    call.check_shooter(game.shooter)
    if game.from_hand and stroke.place is None:
        raise InvalidStrokeError(f"{game.shooter.value} plays from hand: place it behind the head string first")
    if not game.from_hand and game.shooter not in position:
        raise InvalidPositionError(f"{game.shooter.value} is to play but is not on the table")
    start = position.without(game.shooter) if game.from_hand else position
    if call.ball not in start:
        raise InvalidStrokeError(f"the called ball {call.ball.value} is not on the table")
    try:
        routes = [c for c in generate(position, game, spec, cue=stroke.place) if c.call == call]
    except (ValueError, KaisaError):
        routes = []
    speeds = [stroke.speed]
    base = stroke.direction
    if routes:
        base = routes[0].stroke.direction
        if abs(routes[0].stroke.speed - stroke.speed) > 0.05:
            speeds.append(routes[0].stroke.speed)
    simulations = 0
    for speed in speeds:
        candidate = ShotCandidate(call, replace(stroke, direction=base, speed=speed), 0.0, "person")
        for half_width, step in AIM_SCANS:
            window = find_window(start, candidate, game, half_width, step, spec, options)
            if window is None:
                simulations += 2 * round(half_width / step) + 1
                continue
            direction = (window.stroke.direction + 180.0) % 360.0 - 180.0
            return Aim(round(direction, 4), round(window.width, 4), speed, simulations + window.simulations)
    raise InvalidStrokeError(
        f"no direction within {AIM_SCANS[-1][0]:g} degrees of the aim pots {call} at "
        f"{' or '.join(f'{v:.2f}' for v in speeds)} m/s: try another speed, spin or call"
    )


@dataclass(frozen=True)
class StudyShot:
    """A study stroke as simulated and ruled."""

    record: ShotRecord
    ruling: Ruling


def study_shot(
    position: Position,
    stroke: Stroke,
    call: Call | None,
    game: GameState | None = None,
    *,
    trajectory_rate: float | None = ANIMATION_RATE,
    simulate: Simulator | None = None,
) -> StudyShot:
    """Play ``stroke`` from ``position`` (``game``: the state, default the stroke's ball at the table) through a
    match, exactly as in play. A stroke with a ``place`` puts its ball there first (study lets you put the cue
    ball anywhere); a cue ball in hand must be placed legally."""
    game = game or GameState(shooter=stroke.ball)
    if stroke.place is not None and not game.from_hand:
        position = position.with_ball(stroke.ball, stroke.place)
        stroke = replace(stroke, place=None)
    if stroke.place is None and game.shooter not in position and stroke.ball is game.shooter:
        raise InvalidPositionError(
            f"{game.shooter.value} is to play but is not on the table: put it in the position, or play it from hand "
            f"(a stroke with a place, or a state with {game.shooter.value} in in_hand)"
        )
    match = Match.at(position, game, simulate=simulate, trajectory_rate=trajectory_rate)
    try:
        outcome = match.push(Shot(call, stroke))
    except IllegalActionError as error:  # outside a match there is no turn to wait for: the stroke is invalid
        raise InvalidStrokeError(str(error)) from None
    assert outcome.ruling is not None and outcome.records
    return StudyShot(outcome.records[0], outcome.ruling)


__all__ = [
    "ANIMATION_RATE",
    "FLAG_QUESTIONS",
    "Aim",
    "FlagQuestion",
    "GameState",
    "IllegalPlacementError",
    "LateFall",
    "MatchSession",
    "MatchView",
    "NotYourTurnError",
    "Played",
    "RuleOptions",
    "Ruling",
    "RunningBreak",
    "Sessions",
    "StudyShot",
    "StudyStateError",
    "Text",
    "UnknownActionError",
    "advise",
    "aim",
    "call_prospects",
    "call_words",
    "check_hand_placement",
    "check_position",
    "check_study_state",
    "match_config",
    "opponent_of",
    "physics_ready",
    "rule_stroke",
    "simulate_stroke",
    "study_setup",
    "study_shot",
    "view_of",
    "warm_up_physics",
]
