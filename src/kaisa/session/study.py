"""Study: one stroke from any position and game state, checked and ruled exactly like a stroke in a match
(:func:`study_shot` plays it through a :meth:`kaisa.game.Match.at` match), and the commands' single strokes
(``kaisa simulate``, ``kaisa rule``) with the physics engine's warm-up.

The aids a study page and a match both offer (the advisor, the aim helper) are in :mod:`kaisa.session.aids`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kaisa.call import Call
from kaisa.errors import ErrorText, FormatError, InvalidPositionError, InvalidStrokeError, KaisaError
from kaisa.game import IllegalActionError, Match, Shot
from kaisa.game.match import Simulator
from kaisa.model import BallId, Event, Position, ShotRecord, Stroke
from kaisa.referee import GameState, RuleOptions, Ruling
from kaisa.referee.ruling import Text
from kaisa.session.view import ANIMATION_RATE


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
