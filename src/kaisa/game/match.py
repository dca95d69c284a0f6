"""A Kaisa match from the lag to the result, as a state machine with a stack of actions.

``Match.push(action)`` plays one action (simulating and ruling strokes) and ``Match.pop()`` undoes the last
one exactly, as python-chess keeps a move stack. Rules stay in the referee; this module only sequences them:
lag (1.1), choice of cue ball and W2's placement (1.2), the break and the innings, ball in hand, the
competition clock with its final innings (6) and the penalty shoot-out (6, REFERENCE.md section 8).

Decisions where the rulebook is silent (REFERENCE.md section 8 gives the rest):

- Lag balls are simulated one at a time (player 1 with W1 in the left half, player 2 with W2 in the right);
  they could only meet by crossing the long centre line, which loses the lag anyway.
- Final innings: when time is up, the final innings are W1, W2, W1, W2. If W1 is at the table when time runs
  out, that inning is W1's first final inning; if W2 is, W2's inning finishes first and does not count.
- Shoot-out: the winner of its lag chooses who starts (a :class:`Choose` naming the starter's cue ball; playing
  the first stroke is choosing to start); the cue ball is in hand behind the head string at the start of each
  inning and the inning's first pot is the kaisa from the centre spot into a corner (6, REFERENCE.md section 10).
  An inning ended by the win counts in the shoot-out's innings; the switch to the shoot-out credits no game
  inning to the player who would have been next.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from kaisa.errors import ErrorText, FormatError, InvalidStrokeError, KaisaError
from kaisa.game.chance import StrokeNoise, chance_rng
from kaisa.game.state import (
    CUE_BALLS,
    SHOOTOUT_INNINGS,
    WARNING_MINUTES,
    Action,
    Choose,
    Forfeit,
    Lag,
    MarkedLag,
    MarkedShot,
    MatchState,
    Phase,
    PlaceW2,
    Result,
    ShootoutState,
    Shot,
    TakeBreak,
    action_to_json,
)
from kaisa.layouts import starting_position
from kaisa.model import BallId, Position, ShotRecord, Stroke, finite_number, shown_value
from kaisa.referee import GameState, RuleOptions, Ruling, StrokeLog, judge, observe, opponent_of
from kaisa.referee.opening import (
    IllegalPlacementError,
    LagResult,
    check_hand_placement,
    check_w2_placement,
    judge_lag,
    lag_start_is_legal,
    observe_lag,
)
from kaisa.table import OFFICIAL, Point, SpotId, TableSpec, TableSpecError

LAG_SAMPLE_RATE = 100.0
"""Hz: how often a lag ball's path is sampled to see whether it crossed the long centre line."""


class IllegalActionError(KaisaError):
    """An action that does not fit the match's phase or turn (says what is expected)."""

    code = "illegal-action"
    kind = ErrorText("Toiminto ei sovi ottelun tilanteeseen.", "The action does not fit the match as it stands.")


@dataclass(frozen=True)
class ClockConfig:
    """``mode``: ``off``, ``sim`` (each stroke takes ``seconds_per_stroke``) or ``wall`` (real time). The
    driver writes each Shot's ``seconds`` from this, and the match adds the Shot's own seconds, so a replay keeps time."""

    mode: str = "off"
    seconds_per_stroke: float = 30.0

    def __post_init__(self) -> None:
        if self.mode not in ("off", "sim", "wall"):
            raise ValueError(f"clock mode must be off, sim or wall, not {self.mode!r}")


SEED_RANGE = (-(2**63), 2**63 - 1)
"""Seeds are stored as 64-bit integers."""


@dataclass(frozen=True)
class MatchConfig:
    """What a match is played under: the players' names, the clock, the rule options, the table, and chance.

    ``noise[i]`` is the execution noise of player ``i``'s seat (multiples of the stroke-noise convention; 0
    plays every stroke exactly as intended) and ``seed`` seeds the chance step, so a match is reproducible."""

    players: tuple[str, str] = ("player 1", "player 2")
    clock: ClockConfig = field(default_factory=ClockConfig)
    options: RuleOptions = field(default_factory=RuleOptions)
    spec: TableSpec = OFFICIAL
    noise: tuple[float, float] = (0.0, 0.0)
    seed: int = 0

    def __post_init__(self) -> None:
        for name in self.players:
            if not isinstance(name, str) or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
                raise FormatError(f"a player's name is text without control characters (NUL, newline), not {name!r}")
        for scale in self.noise:
            number = finite_number(scale)
            if number is None or not 0 <= number <= 100:
                raise ValueError(f"a seat's execution noise is a number from 0 to 100, not {shown_value(scale)}")
        if (
            isinstance(self.seed, bool)
            or not isinstance(self.seed, int)
            or not SEED_RANGE[0] <= self.seed <= SEED_RANGE[1]
        ):
            raise ValueError(f"a match's seed is a 64-bit whole number, not {shown_value(self.seed)}")

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "clock": {"mode": self.clock.mode, "seconds_per_stroke": self.clock.seconds_per_stroke},
            "options": self.options.to_json(),
            "noise": list(self.noise),
            "seed": self.seed,
            # only a table other than the official one is written, so the records of official matches stay as they were
            **({} if self.spec == OFFICIAL else {"table": self.spec.to_json()}),
        }

    @classmethod
    def from_json(cls, data: object) -> MatchConfig:
        """Read what :meth:`to_json` wrote, strictly: names are texts, numbers are finite numbers (no bools)."""
        if not isinstance(data, dict):
            raise FormatError("a match configuration is an object with players, clock, options, noise and seed")
        players, clock, noise = data.get("players"), data.get("clock", {}), data.get("noise", [0.0, 0.0])
        if not (isinstance(players, list | tuple) and len(players) == 2 and all(isinstance(p, str) for p in players)):
            raise FormatError("a match configuration names two players")
        if not isinstance(clock, dict) or not isinstance(clock.get("mode", "off"), str):
            raise FormatError('a clock is an object {"mode": "off" | "sim" | "wall", "seconds_per_stroke": s}')
        per_stroke = finite_number(clock.get("seconds_per_stroke", 30.0))
        if per_stroke is None or not 0 <= per_stroke <= 3600:
            raise FormatError("a clock's seconds_per_stroke is a number from 0 to 3600")
        if not (isinstance(noise, list | tuple) and len(noise) == 2):
            raise FormatError("a match's noise is one number per seat, [p1, p2]")
        scales = (finite_number(noise[0]), finite_number(noise[1]))
        if scales[0] is None or scales[1] is None:
            raise FormatError("a seat's execution noise is a finite number from 0 to 100")
        seed = data.get("seed", 0)
        try:
            spec = OFFICIAL if data.get("table") is None else TableSpec.from_json(data["table"])
        except TableSpecError as exc:
            raise FormatError(f"a match's table: {exc}") from None
        try:
            return cls(
                players=(players[0], players[1]),
                clock=ClockConfig(clock.get("mode", "off"), per_stroke),
                options=RuleOptions.from_json(data.get("options", {})),
                spec=spec,
                noise=(scales[0], scales[1]),
                seed=seed,
            )
        except ValueError as exc:
            if isinstance(exc, FormatError):
                raise
            raise FormatError(str(exc)) from None


@dataclass(frozen=True)
class Outcome:
    """What one action produced: the simulated records and the referee's rulings, for records and display."""

    records: tuple[ShotRecord, ...] = ()
    ruling: Ruling | None = None
    lag: LagResult | None = None
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"notes": list(self.notes)}
        if self.ruling is not None:
            out["ruling"] = self.ruling.to_json()
        if self.lag is not None:
            out["lag"] = self.lag.to_json()
        if self.records:
            out["records"] = [r.to_json() for r in self.records]
        return out

    @classmethod
    def from_json(cls, data: object) -> Outcome:
        """Read what :meth:`to_json` wrote (a stored outcome: its ruling, lag and records come back typed)."""
        if not isinstance(data, dict):
            raise FormatError("an outcome is an object with notes, and a ruling, a lag or records")
        notes = data.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise FormatError("an outcome's notes are a list of texts")
        records = data.get("records", [])
        if not isinstance(records, list):
            raise FormatError("an outcome's records are a list of shot records")
        ruling, lag = data.get("ruling"), data.get("lag")
        return cls(
            records=tuple(ShotRecord.from_json(r) for r in records),
            ruling=None if ruling is None else Ruling.from_json(ruling),
            lag=None if lag is None else LagResult.from_json(lag),
            notes=tuple(notes),
        )


@dataclass(frozen=True)
class Entry:
    action: Action
    before: MatchState
    outcome: Outcome


Simulator = Callable[..., ShotRecord]


def _default_simulator() -> Simulator:
    from kaisa.physics import simulate

    return simulate


class Match:
    """One match: ``push`` an action, ``pop`` to undo it; ``stack`` holds what was played.

    ``simulate`` plays a stroke (default :func:`kaisa.physics.simulate`); ``trajectory_rate`` (Hz) samples
    the balls' paths of every shot for animation (None: no paths). Constructors: ``Match(config)`` from the
    lag, :meth:`at` from any position and game state (study), :meth:`at_break` from the break, and
    :meth:`from_stack` for a stored match with its entries."""

    def __init__(
        self,
        config: MatchConfig | None = None,
        state: MatchState | None = None,
        *,
        simulate: Simulator | None = None,
        trajectory_rate: float | None = None,
    ) -> None:
        self.config = config or MatchConfig()
        self.state = state or self.initial_state()
        self.stack: list[Entry] = []
        self._simulate = simulate or _default_simulator()
        self.trajectory_rate = trajectory_rate

    @classmethod
    def at(
        cls,
        position: Position,
        game: GameState,
        config: MatchConfig | None = None,
        *,
        simulate: Simulator | None = None,
        trajectory_rate: float | None = None,
    ) -> Match:
        """A match in play from ``position`` with ``game`` (scores, who is at the table, ball in hand, the
        break): for studying a position. Player 1 has W1."""
        innings = {BallId.W1: int(game.shooter is BallId.W1), BallId.W2: int(game.shooter is BallId.W2)}
        state = MatchState(
            phase=Phase.PLAY, position=position, game=game, owners=(BallId.W1, BallId.W2), innings=innings
        )
        return cls(config, state, simulate=simulate, trajectory_rate=trajectory_rate)

    @classmethod
    def at_break(
        cls,
        w2: Point,
        config: MatchConfig | None = None,
        *,
        simulate: Simulator | None = None,
        trajectory_rate: float | None = None,
    ) -> Match:
        """A match at the break: the starting position with W2 placed at ``w2`` (checked, 1.2) and W1 to break
        from hand; player 1 has W1."""
        match = cls(config, simulate=simulate, trajectory_rate=trajectory_rate)
        check_w2_placement(match.state.position, w2, match.config.spec, match.config.options)
        match.state = replace(
            match.state,
            phase=Phase.PLAY,
            position=match.state.position.with_ball(BallId.W2, w2),
            game=GameState(shooter=BallId.W1, opening=True),
            owners=(BallId.W1, BallId.W2),
            innings={BallId.W1: 1, BallId.W2: 0},
        )
        return match

    @classmethod
    def from_stack(
        cls,
        config: MatchConfig,
        state: MatchState,
        entries: list[Entry],
        *,
        simulate: Simulator | None = None,
        trajectory_rate: float | None = None,
    ) -> Match:
        """A stored match: its current ``state`` and the ``entries`` that led to it (each with its outcome),
        so ``pop`` undoes right back to the first of them."""
        match = cls(config, state, simulate=simulate, trajectory_rate=trajectory_rate)
        match.stack = list(entries)
        return match

    def initial_state(self) -> MatchState:
        return MatchState(phase=Phase.LAG, position=starting_position(self.config.spec))

    # --- chance ------------------------------------------------------------------------------------

    def execute(self, stroke: Stroke, seat: int, state: MatchState, salt: int = 0) -> Stroke:
        """The chance step: ``stroke`` as player ``seat`` executes it, with the seat's noise and the match's
        seeded generator for this action (the same stroke for the same seed, action and seat, always)."""
        scale = self.config.noise[seat]
        if scale == 0:
            return stroke
        return StrokeNoise(scale).apply(stroke, chance_rng(self.config.seed, state.actions, salt), self.config.spec)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    # --- the stack ---------------------------------------------------------------------------------

    def push(self, action: Action) -> Outcome:
        """Play ``action``. Raises :class:`IllegalActionError` (or a placement error) and changes nothing
        if the action does not fit the phase or breaks a placement rule. A stroke is executed by the chance
        step first; the entry records the action with its executed stroke."""
        before = self.state
        action = self._executed(before, action)
        state, outcome = self._apply(before, action)
        state = replace(state, actions=before.actions + 1)
        self.state = state
        entry = Entry(action, before, outcome)
        self.stack.append(entry)
        return outcome

    def _executed(self, state: MatchState, action: Action) -> Action:
        """``action`` with its strokes executed (a replayed action already carries them)."""
        if isinstance(action, Shot) and action.executed is None:
            seat = state.to_move
            if seat is None:
                return action  # not a shot's phase: _apply refuses it
            executed = self.execute(action.stroke, seat, state)
            return action if executed == action.stroke else replace(action, executed=executed)
        if isinstance(action, Lag) and action.executed is None:
            first, second = action.strokes
            both = (self.execute(first, 0, state, 1), self.execute(second, 1, state, 2))
            return action if both == action.strokes else replace(action, executed=both)
        return action

    def pop(self) -> Action:
        """Undo the last action exactly."""
        if not self.stack:
            raise IllegalActionError("there is nothing to undo")
        entry = self.stack.pop()
        self.state = entry.before
        return entry.action

    # --- applying actions --------------------------------------------------------------------------

    def _apply(self, state: MatchState, action: Action) -> tuple[MatchState, Outcome]:
        phase = state.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the match is over")
        if isinstance(action, TakeBreak):
            return self._take_break(state, action)
        if isinstance(action, Forfeit):
            return self._forfeit(state, action)
        expected: dict[Phase, tuple[type, ...]] = {
            Phase.LAG: (Lag, MarkedLag),
            Phase.SHOOTOUT_LAG: (Lag, MarkedLag),
            Phase.CHOOSE: (Choose,),
            Phase.PLACE_W2: (PlaceW2,),
            Phase.PLAY: (Shot, MarkedShot),
            Phase.SHOOTOUT: (Shot, MarkedShot, Choose),
        }
        if not isinstance(action, expected[phase]):
            names = " or ".join(t.__name__ for t in expected[phase])
            raise IllegalActionError(
                f"the match expects a {names} action in phase {phase.value}, not {type(action).__name__}"
            )
        if isinstance(action, MarkedLag):
            clause = "6: shoot-out lag" if phase is Phase.SHOOTOUT_LAG else "1.1: lag"
            note = f"{clause} won by player {action.winner + 1}"
            return self._lag_won(state, action.winner, Outcome(notes=(note,)))
        if isinstance(action, MarkedShot):
            return self._marked_shot(state, action)
        if isinstance(action, Lag):
            return self._lag(state, action)
        if isinstance(action, Choose) and phase is Phase.SHOOTOUT:
            return self._choose_shootout_starter(state, action)
        if isinstance(action, Choose):
            if action.cue_ball not in CUE_BALLS:
                raise IllegalActionError(f"the lag winner chooses W1 or W2, not {action.cue_ball.value}")
            winner = state.lag_winner
            assert winner is not None
            other = opponent_of(action.cue_ball)
            owners = (action.cue_ball, other) if winner == 0 else (other, action.cue_ball)
            return replace(state, owners=owners, phase=Phase.PLACE_W2), Outcome()
        if isinstance(action, PlaceW2):
            check_w2_placement(state.position, action.point, self.config.spec, self.config.options)
            position = state.position.with_ball(BallId.W2, action.point)
            game = GameState(shooter=BallId.W1, opening=True)
            innings = {BallId.W1: 1, BallId.W2: 0}
            return replace(state, position=position, game=game, phase=Phase.PLAY, innings=innings), Outcome()
        assert isinstance(action, Shot)
        return self._shot(state, action)

    def _take_break(self, state: MatchState, action: TakeBreak) -> tuple[MatchState, Outcome]:
        if self.config.clock.mode == "off":
            raise IllegalActionError("breaks are counted only with the competition clock on")
        if action.cue_ball not in CUE_BALLS:
            raise IllegalActionError(f"breaks are taken by the players, W1 or W2, not {action.cue_ball.value}")
        if action.cue_ball in state.clock.breaks:
            raise IllegalActionError(f"{action.cue_ball.value}'s player has had their one break (6)")
        if not 0 < action.seconds <= 300:
            raise IllegalActionError("a break lasts at most five minutes (6)")
        breaks = {**state.clock.breaks, action.cue_ball: action.seconds}
        return replace(state, clock=replace(state.clock, breaks=breaks)), Outcome(notes=("6: break",))

    def _lag(self, state: MatchState, action: Lag) -> tuple[MatchState, Outcome]:
        spec = self.config.spec
        objects = Position() if action.lift else state.position.without(BallId.W1).without(BallId.W2)
        if state.phase is Phase.SHOOTOUT_LAG:
            objects = Position()
        facts = []
        records = []
        strokes = action.strokes if action.executed is None else action.executed
        for index, (stroke, half, ball) in enumerate(zip(strokes, ("left", "right"), CUE_BALLS, strict=True)):
            where = (
                f"placed behind the head string in the {half} half "
                f"(x {'<' if half == 'left' else '>'} {spec.long_axis:.2f} m, y < {spec.head_string:.2f} m)"
            )
            if stroke.ball is not ball:
                raise InvalidStrokeError(f"player {index + 1} lags with {ball.value}, not {stroke.ball.value} (1.1)")
            if stroke.place is None or not lag_start_is_legal(stroke.place, half, spec):
                raise IllegalPlacementError(f"player {index + 1} lags with {ball.value} {where}")
            blocked = [b.value for b, p in objects.items() if math.dist(p, stroke.place) < spec.ball_diameter]
            if blocked:
                raise IllegalPlacementError(
                    f"player {index + 1}'s lag ball at {stroke.place} would overlap {', '.join(blocked)}; "
                    "place it clear of the balls, or lift them"
                )
            record = self._simulate(objects, stroke, trajectories=LAG_SAMPLE_RATE, spec=spec)
            assert record.trajectories is not None
            xs = [p[0] for p in record.trajectories.balls[ball] if p is not None]
            facts.append(observe_lag(StrokeLog.of(record), half, xs, spec))
            records.append(record)
        result = judge_lag(facts[0], facts[1], spec)
        outcome = Outcome(records=tuple(records), lag=result)
        if result.winner is None:
            return state, outcome  # lag again
        return self._lag_won(state, result.winner, outcome)

    def _lag_won(self, state: MatchState, winner: int, outcome: Outcome) -> tuple[MatchState, Outcome]:
        if winner not in (0, 1):
            raise IllegalActionError(f"the lag is won by player 0 or 1, not {winner!r}")
        if state.phase is Phase.SHOOTOUT_LAG:
            assert state.owners is not None
            return self._start_shootout_inning(
                replace(
                    state,
                    shootout=ShootoutState(state.owners[winner], {b: 0 for b in CUE_BALLS}, choice_open=True),
                    phase=Phase.SHOOTOUT,
                ),
                state.owners[winner],
            ), outcome
        return replace(state, lag_winner=winner, phase=Phase.CHOOSE), outcome

    def _choose_shootout_starter(self, state: MatchState, action: Choose) -> tuple[MatchState, Outcome]:
        """6: "Teikkauksen voittaja valitsee kumpi aloittaa": the lag winner names who shoots first."""
        so = state.shootout
        if so is None or not so.choice_open:
            raise IllegalActionError(
                "who starts the shoot-out was chosen when its first stroke was played; the choice is made once (6)"
            )
        if action.cue_ball not in CUE_BALLS:
            raise IllegalActionError(f"the shoot-out is started by W1 or W2, not {action.cue_ball.value}")
        chosen = replace(state, shootout=replace(so, first=action.cue_ball, choice_open=False))
        note = f"6: {action.cue_ball.value} starts the penalty shoot-out"
        return self._start_shootout_inning(chosen, action.cue_ball), Outcome(notes=(note,))

    def _shootout_game(self, state: MatchState) -> tuple[MatchState, GameState]:
        """The referee's game state for a stroke: in the shoot-out it says so (6); the first stroke closes the
        lag winner's choice of who starts."""
        if state.phase is not Phase.SHOOTOUT:
            return state, state.game
        so = state.shootout
        if so is not None and so.choice_open:
            state = replace(state, shootout=replace(so, choice_open=False))
        return state, state.game.evolve(shootout=True)

    def _forfeit(self, state: MatchState, action: Forfeit) -> tuple[MatchState, Outcome]:
        if state.owners is None or action.cue_ball not in CUE_BALLS:
            raise IllegalActionError("a forfeit names the losing player's cue ball, W1 or W2, once both have one")
        winner = opponent_of(action.cue_ball)
        reason = f"{action.clause}: {action.cue_ball.value} forfeits"
        return self._finish(state, winner, reason, forfeit=True), Outcome(notes=(reason,))

    def _marked_shot(self, state: MatchState, action: MarkedShot) -> tuple[MatchState, Outcome]:
        state, game = self._shootout_game(state)
        entry = action.entry
        if action.call is not None:
            action.call.check_shooter(game.shooter)
        expected = state.position
        if game.from_hand:
            if game.shooter not in entry.start:
                raise IllegalActionError(
                    f"{game.shooter.value} plays from hand: the entry's start must show where it was placed"
                )
            check_hand_placement(expected, game.shooter, entry.start[game.shooter], self.config.spec)
            expected = expected.with_ball(game.shooter, entry.start[game.shooter])
        if entry.start != expected:
            raise IllegalActionError("the entry's start is not the match's position: enter strokes in order")
        ruling = judge(
            entry.to_facts(action.call), action.call, game, options=self.config.options, spec=self.config.spec
        )
        return self._ruled(state, ruling, action.seconds, ())

    def _shot(self, state: MatchState, action: Shot) -> tuple[MatchState, Outcome]:
        state, game = self._shootout_game(state)
        spec, stroke = self.config.spec, action.played
        if stroke.ball is not game.shooter:
            raise IllegalActionError(f"{game.shooter.value} is at the table: the stroke must be played with it")
        if action.call is not None:
            action.call.check_shooter(game.shooter)
        position = state.position
        if game.from_hand:
            if stroke.place is None:
                raise IllegalActionError(
                    f"{game.shooter.value} plays from hand: the stroke needs a place behind the head string"
                )
            check_hand_placement(position.without(game.shooter), game.shooter, stroke.place, spec)
        elif stroke.place is not None:
            raise IllegalActionError(
                f"{game.shooter.value} is on the table and is played from where it lies (no place)"
            )
        elif game.shooter not in position:
            raise IllegalActionError(
                f"{game.shooter.value} is to play but is not on the table: put it in the position, or play it from hand"
            )
        record = self._simulate(position, stroke, spec=spec, trajectories=self.trajectory_rate)
        ruling = judge(
            observe(record, action.call, options=self.config.options, spec=spec),
            action.call,
            game,
            options=self.config.options,
            spec=spec,
        )
        return self._ruled(state, ruling, action.seconds, (record,))

    def _ruled(
        self, state: MatchState, ruling: Ruling, seconds: float, records: tuple[ShotRecord, ...]
    ) -> tuple[MatchState, Outcome]:
        """The match after a ruled stroke: scores, innings, the clock, the end or the shoot-out."""
        notes: list[str] = []
        clock = state.clock
        if self.config.clock.mode != "off":
            clock = replace(clock, elapsed=clock.elapsed + max(0.0, seconds))
        shooter = ruling.shooter
        run = state.run + ruling.points
        fouls = {**state.fouls, shooter: state.fouls.get(shooter, 0) + 1} if ruling.fouls else state.fouls
        longest = state.longest_run
        if run > longest.get(shooter, 0):
            longest = {**longest, shooter: run}
        next_state = replace(
            state,
            position=ruling.position,
            game=ruling.state,
            run=run,
            strokes=state.strokes + 1,
            clock=clock,
            fouls=fouls,
            longest_run=longest,
        )
        if ruling.game_over:
            if state.phase is Phase.SHOOTOUT and next_state.shootout is not None:
                so = next_state.shootout  # the winning inning counts as played (6)
                next_state = replace(
                    next_state, shootout=replace(so, innings={**so.innings, shooter: so.innings[shooter] + 1})
                )
            target = self.config.options.winning_score
            return self._finish(next_state, ruling.shooter, f"{target} points (3)"), Outcome(
                records, ruling, notes=tuple(notes)
            )
        if state.phase is Phase.SHOOTOUT:
            return self._after_shootout_stroke(next_state, ruling), Outcome(records, ruling)
        if ruling.turn_passes:
            next_state = replace(next_state, run=0)
        next_state = self._tick_clock(next_state, state, ruling, notes)
        if ruling.turn_passes and next_state.phase is Phase.PLAY:
            nxt = ruling.state.shooter  # an inning is credited when it starts; none at the switch to the shoot-out
            next_state = replace(next_state, innings={**next_state.innings, nxt: next_state.innings[nxt] + 1})
        return next_state, Outcome(records, ruling, notes=tuple(notes))

    def _tick_clock(self, state: MatchState, before: MatchState, ruling: Ruling, notes: list[str]) -> MatchState:
        if self.config.clock.mode == "off":
            return state
        clock = state.clock
        if not clock.warned and clock.elapsed >= clock.limit - WARNING_MINUTES * 60:
            clock = replace(clock, warned=True)
            notes.append("6: five minutes left")
        if clock.final_innings is None and clock.elapsed >= clock.limit:
            clock = replace(clock, final_innings=(BallId.W1, BallId.W2, BallId.W1, BallId.W2))
            notes.append("6: time is up: two final innings each, the W2 player last")
        if clock.final_innings is not None and ruling.turn_passes:
            ended = ruling.shooter
            remaining = clock.final_innings
            if remaining and remaining[0] is ended:
                remaining = remaining[1:]
            clock = replace(clock, final_innings=remaining)
            if not remaining:
                notes.append("6: the final innings are played: penalty shoot-out")
                return replace(state, clock=clock, phase=Phase.SHOOTOUT_LAG)
        return replace(state, clock=clock)

    # --- shoot-out ---------------------------------------------------------------------------------

    def _start_shootout_inning(self, state: MatchState, shooter: BallId) -> MatchState:
        spots = self.config.spec.spots
        game = GameState(scores=state.game.scores, shooter=shooter, in_hand=frozenset({shooter}), shootout=True)
        return replace(state, position=Position({"K": spots[SpotId.CENTRE]}), game=game, run=0)

    def _after_shootout_stroke(self, state: MatchState, ruling: Ruling) -> MatchState:
        if not ruling.turn_passes:
            return state
        so = state.shootout
        assert so is not None
        ended = ruling.shooter
        innings = {**so.innings, ended: so.innings[ended] + 1}
        so = replace(so, innings=innings)
        state = replace(state, shootout=so)
        second = opponent_of(so.first)
        if ended is second and innings[second] >= SHOOTOUT_INNINGS:
            scores = state.game.scores
            if scores[BallId.W1] != scores[BallId.W2]:
                winner = max(CUE_BALLS, key=lambda b: scores[b])
                return self._finish(state, winner, "penalty shoot-out: higher score after the innings (6)")
        return self._start_shootout_inning(state, opponent_of(ended))

    def _finish(self, state: MatchState, winner: BallId, reason: str, *, forfeit: bool = False) -> MatchState:
        scores = dict(state.game.scores)
        recorded = dict(scores)
        target = self.config.options.winning_score
        if scores[winner] >= target or forfeit:
            recorded[winner] = target  # decision: a win by forfeit is recorded as a win at the winning score
            recorded[opponent_of(winner)] = min(recorded[opponent_of(winner)], target)
        return replace(state, phase=Phase.OVER, result=Result(winner, scores, recorded, reason))

    # --- views -------------------------------------------------------------------------------------

    def actions_json(self) -> list[dict[str, Any]]:
        return [action_to_json(e.action) for e in self.stack]


def replay(config: MatchConfig, actions: list[Action], simulator: Simulator | None = None) -> Match:
    """Play ``actions`` from the start (re-simulating every stroke) and return the match. Strokes that carry
    their executed stroke are played exactly so; others go through the chance step again, which draws the same
    noise for the same seed."""
    match = Match(config, simulate=simulator)
    for action in actions:
        match.push(action)
    return match


__all__ = [
    "ClockConfig",
    "Entry",
    "IllegalActionError",
    "Match",
    "MatchConfig",
    "Outcome",
    "replay",
]
