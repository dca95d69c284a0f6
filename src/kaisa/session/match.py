"""One stored match opened to play on (:class:`MatchSession`): push an action and record it, a person's, a
computer player's or a marker's entry, the lag, breaks (6), undo and corrections, and the aids asked for during a
match.

A stroke costs two store round trips: one read (:meth:`Store.open_match`, by :class:`kaisa.session.registry.Sessions`)
and one write (:meth:`Store.record`). No rules live here: the game layer's :class:`kaisa.game.Match` asks the
referee.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from kaisa.call import Call
from kaisa.errors import ErrorText, KaisaError
from kaisa.game import (
    Action,
    Entry,
    IllegalActionError,
    Lag,
    MarkedShot,
    Match,
    MatchState,
    Outcome,
    Phase,
    TakeBreak,
    action_to_json,
)
from kaisa.game.marking import MarkingError, Marks, check_state, correct, marked_shot
from kaisa.game.match import Simulator
from kaisa.model import BallId, Stroke
from kaisa.players import HUMAN, MatchStalledError, Player, decide_action, lag_stroke, push_nudged
from kaisa.referee import RuleOptions
from kaisa.referee.ruling import RulingItem
from kaisa.session.aids import Aim, advise, aim, call_prospects
from kaisa.session.study import StudyShot, study_shot
from kaisa.session.view import LAGS, MatchView, Played, view_of

if TYPE_CHECKING:
    from kaisa.players.search import Evaluation
    from kaisa.records.storage import MatchInfo, Store
    from kaisa.records.storage.values import EntryKey, OpenedMatch


class NotYourTurnError(IllegalActionError):
    """The action belongs to the other kind of player (a person's to a computer's turn, or the reverse)."""

    code = "not-your-turn"
    kind = ErrorText("Nyt ei ole tämän pelaajan vuoro.", "It is not this player's turn.")


class Opener(Protocol):
    """What a match session asks of the sessions that opened it (:class:`kaisa.session.registry.Sessions`): the
    store, how strokes are simulated and sampled, and the computer player in a seat. A protocol, so that this
    module need not import the registry, which imports it."""

    simulate: Simulator | None
    trajectory_rate: float | None

    @property
    def store(self) -> Store: ...

    def computer(self, info: MatchInfo, seat: int, options: RuleOptions | None = None) -> Player | None: ...


class MatchSession:
    """One stored match opened to play on (hold it only inside :meth:`kaisa.session.registry.Sessions.open`)."""

    def __init__(self, sessions: Opener, opened: OpenedMatch, *, recorded: bool = True) -> None:
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
        if self._last_action is not None and self._last_action.get("kind") in LAGS:
            raise IllegalActionError("the lag stands: it cannot be undone (it would be played again for a new result)")
        while self.info.actions:
            if self._last_action is not None and self._last_action.get("kind") in LAGS:
                break  # back to the lag, which stands
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

    def aim(self, call: Call, stroke: Stroke, *, deep: bool = True) -> Aim:
        """:func:`aim` in this match's position and state, under its rule options (reads, records nothing)."""
        state = self.match.state
        if state.phase not in (Phase.PLAY, Phase.SHOOTOUT):
            raise IllegalActionError(f"the match is in phase {state.phase.value}: no stroke is due")
        config = self.match.config
        return aim(state.position, state.game, call, stroke, options=config.options, spec=config.spec, deep=deep)

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


def _entry_key(
    key: str | None, body: str | None, answer: Callable[[int | None, datetime], dict[str, Any]]
) -> EntryKey | None:
    """An entry's key with its stored answer, which carries ``body`` (the request's hash) when given."""
    from kaisa.records.storage.values import EntryKey

    if key is None:
        return None
    if body is None:
        return EntryKey(key, answer)
    return EntryKey(key, lambda index, at: {**answer(index, at), "body": body})


def _done(kind: str) -> Callable[[int | None, datetime], dict[str, Any]]:
    """The stored answer of a keyed entry that records no action of its own (an undo, a correction): a repeat
    is answered with the match as it is then."""
    return lambda _index, at: {"done": kind, "at": at.isoformat()}
