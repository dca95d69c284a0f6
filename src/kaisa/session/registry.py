"""The sessions of one store (:class:`Sessions`): create matches, open one locked to play on, read its view, its
history and a replayed action, and keep each match's computer players.

A newcomer looks here for how a match is created or opened; what is done with an opened match is in
:mod:`kaisa.session.match`.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from kaisa.errors import ErrorText, KaisaError
from kaisa.game import ClockConfig, Match, MatchConfig, MatchState
from kaisa.game.match import Simulator
from kaisa.players import Player, make_player, seat_noise
from kaisa.records.storage import AccessDeniedError, StorageError
from kaisa.referee import RuleOptions
from kaisa.session.match import MatchSession, RunningBreak
from kaisa.session.view import ANIMATION_RATE, MatchView, Played, is_computer, view_of

if TYPE_CHECKING:
    from kaisa.records.storage import MatchInfo, PlayerInfo, Store
    from kaisa.records.storage.values import StoredAction


class UnknownActionError(KaisaError, LookupError):
    """No action with that index is stored for the match."""

    code = "unknown-action"
    kind = ErrorText("Ottelussa ei ole tätä kirjausta.", "The match has no such action.")


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
        from kaisa.records.storage.values import MatchInfo, OpenedMatch  # SQLAlchemy: not for a lone stroke

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


def _creation_digest(key: str) -> str:
    """The stored form of a match's creation key (only a hash of it is stored)."""
    return hashlib.sha256(f"kaisa creation key\0{key}".encode()).hexdigest()
