"""What a marker enters for a stroke at a real table, and corrections of strokes already entered.

A marker does not measure positions: :class:`~kaisa.referee.Marks` (the marker's one vocabulary, stated in the
referee layer) says what happened (the balls that dropped and where, the first ball hit, the nakki balls, the
rare events) and, optionally, where balls came to rest near a spot, which is all the referee needs to know
about positions (which spots are free, 4). :func:`entry_for` places the marks against the match's current
position as a :class:`~kaisa.referee.MarkerEntry`, :func:`marks_of` reads them back from an entry, so that
:func:`correct` can replay a match with one stroke changed and every later stroke re-entered against the
positions the correction led to. :func:`check_state` refuses an entry whose ruling would leave the balls in a
state no table can be in (a ball both in hand and on the table, two balls in one place, a ball missing).

Refusals carry a Finnish and an English text (:class:`MarkingError`) and count strokes as the marker sees
them (1, 2, 3, ... from the break), never action indexes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from kaisa.call import Call
from kaisa.errors import KaisaError, error_text
from kaisa.game.match import IllegalActionError, Match
from kaisa.game.state import Action, MarkedShot, MatchState, Phase
from kaisa.model import BallId, Position
from kaisa.referee import MarkerEntry, MarkerEntryError
from kaisa.referee.marker import Marks
from kaisa.referee.opening import IllegalPlacementError
from kaisa.referee.ruling import Text
from kaisa.table import OFFICIAL, TableSpec

OVERLAP_TOLERANCE = 0.002
"""Metres two balls may seem to overlap in a marker's rough placing (1 mm each way) and still be accepted."""


class MarkingError(IllegalActionError):
    """A marker's entry or correction that does not fit the match, said in Finnish and English with a stable
    ``code`` (the English text is the exception's message)."""

    def __init__(self, code: str, fi: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.text = Text(_sentence(fi), _sentence(en))
        """The refusal for people: each language as a sentence (capital first, a full stop at the end)."""


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def _clause(text: str) -> str:
    """A sentence of another refusal as a part of a sentence (lower case first, no full stop)."""
    return (text[:1].lower() + text[1:]).rstrip(".")


def stroke_number(match: Match, index: int) -> int:
    """The number the marker sees for the stroke at action ``index``: strokes count from 1 at the break."""
    return 1 + sum(isinstance(e.action, MarkedShot) for e in match.stack[:index])


def entry_for(state: MatchState, marks: Marks, spec: TableSpec = OFFICIAL) -> MarkerEntry:
    """The referee's entry for ``marks`` played from ``state``: the start is the match's position (with the cue
    ball in hand at ``place``), the final position is the start without the balls that left the table, moved
    where ``moves`` says."""
    game = state.game
    start = state.position
    if marks.late_fall is not None:
        # 8e happens between strokes: nothing was struck, so a cue ball in hand stays in hand (a place is ignored)
        pass
    elif game.from_hand:
        if marks.place is None:
            raise MarkingError(
                "place-missing",
                f"{game.shooter.value} pelataan käsipallona: kerro, mihin se asetettiin aloituslinjan taakse",
                f"{game.shooter.value} plays from hand: say where it was placed behind the head string",
            )
        start = start.with_ball(game.shooter, marks.place)
    elif marks.place is not None:
        raise MarkingError(
            "place-not-in-hand",
            f"{game.shooter.value} on pöydällä ja pelataan paikaltaan (ei asettamista)",
            f"{game.shooter.value} is on the table and is played from where it lies (no place)",
        )
    gone = {b for b, _ in marks.pots} | set(marks.off_table)
    for ball in marks.moves:
        if ball in gone:
            raise MarkingError(
                "moved-gone",
                f"{ball.value} lähti pöydältä, joten sillä ei ole pysähtymispaikkaa",
                f"{ball.value} left the table, so it has no place to come to rest",
            )
        if ball not in start:
            raise MarkingError("moved-absent", f"{ball.value} ei ole pöydällä", f"{ball.value} is not on the table")
    final = Position({b: marks.moves.get(b, p) for b, p in start.items() if b not in gone})
    for ball, point in marks.moves.items():
        if not spec.ball_fits(point):
            raise IllegalPlacementError(
                f"{ball.value} cannot come to rest at ({point[0]:.3f}, {point[1]:.3f}): that is not on the bed"
            )
        for other, q in final.items():
            if other != ball and math.dist(point, q) < spec.ball_diameter - OVERLAP_TOLERANCE:
                raise IllegalPlacementError(
                    f"{ball.value} cannot come to rest at ({point[0]:.3f}, {point[1]:.3f}): it would overlap "
                    f"{other.value}; balls at rest are at least a ball's width apart"
                )
    return MarkerEntry(cue_ball=marks.struck or game.shooter, start=start, final=final, **marks.facts())


def marks_of(entry: MarkerEntry, before: MatchState) -> Marks:
    """The marks an entry was made from (``before`` is the state it was played from)."""
    shooter = before.game.shooter
    place = entry.start.get(shooter) if before.game.from_hand else None
    moves = {b: p for b, p in entry.final.items() if entry.start.get(b) != p}
    return Marks(
        struck=None if entry.cue_ball is shooter else entry.cue_ball, place=place, moves=moves, **entry.facts()
    )


def marked_shot(state: MatchState, call: Call | None, marks: Marks, seconds: float = 0.0) -> MarkedShot:
    """The action for ``marks``. A ball falling later by itself (8e) happens between strokes, so it is an entry
    of its own: with a call or anything else of a stroke it is refused rather than half-ruled."""
    if marks.late_fall is not None and (
        call is not None or marks.pots or marks.off_table or marks.first_contact is not None or marks.nakki
    ):
        raise MarkerEntryError(
            "a ball falling later (8e) is entered on its own, with no call, pots or contacts: enter the stroke "
            "first, then the late fall as the next entry"
        )
    return MarkedShot(call, entry_for(state, marks), seconds)


def check_state(state: MatchState, spec: TableSpec = OFFICIAL) -> None:
    """Refuse a state no real table can be in: in play every ball is on the table or (a cue ball) in its owner's
    hand; never both; and no two balls on the table overlap. Every state a marker's entry produces is checked, so an
    entry the rules cannot place is refused instead of recorded."""
    position, game = state.position, state.game
    both = sorted(b.value for b in game.in_hand if b in position)
    if both:
        raise MarkingError(
            "ball-twice",
            f"merkintä jättäisi pallon {', '.join(both)} sekä käteen että pöydälle: tarkista merkintä "
            "(esimerkiksi tuomarin palautus käsipallolyönnin jälkeen)",
            f"the entry would leave {', '.join(both)} both in hand and on the table: check the entry (for "
            "example the referee restoring the balls after a stroke from hand)",
        )
    if state.phase in (Phase.PLAY, Phase.PLACE_W2):  # the shoot-out plays with the kaisa and one cue ball (6)
        missing = sorted(b.value for b in BallId if b not in position and b not in game.in_hand)
        if missing:
            raise MarkingError(
                "ball-missing",
                f"merkinnän jälkeen pallo {', '.join(missing)} ei olisi pöydällä eikä kädessä",
                f"after the entry {', '.join(missing)} would be neither on the table nor in hand",
            )
    items = list(position.items())
    for i, (a, p) in enumerate(items):
        for b, q in items[i + 1 :]:
            if math.dist(p, q) < spec.ball_diameter - OVERLAP_TOLERANCE:
                raise MarkingError(
                    "balls-overlap",
                    f"merkinnän jälkeen pallot {a.value} ja {b.value} olisivat päällekkäin",
                    f"after the entry {a.value} and {b.value} would overlap",
                )


def correct(
    match: Match, index: int, replacement: Action | Marks | None, names: Mapping[BallId, str] | None = None
) -> Match:
    """``match`` (with its stack) replayed with action ``index`` replaced (or removed, with ``None``); a
    :class:`Marks` replacement is entered against the state at ``index`` with the old stroke's call and
    seconds. Every later marked stroke is re-entered from its marks against the new positions, so a changed
    respot moves with the correction. Raises :class:`IllegalActionError` naming the first action that no longer
    fits (for example a later stroke from hand after the correction leaves its cue ball on the table); ``names``
    (the players by their cue balls) name the players in it."""

    def who(ball: BallId) -> str:
        name = (names or {}).get(ball)
        return f"{name} ({ball.value})" if name else f"{ball.value}-pelaaja"

    def who_en(ball: BallId) -> str:
        name = (names or {}).get(ball)
        return f"{name} ({ball.value})" if name else f"the {ball.value} player"

    if not 0 <= index < len(match.stack):
        raise MarkingError(
            "no-such-entry",
            "korjattavaa merkintää ei ole",
            f"the match has {len(match.stack)} actions: there is no action {index} to correct",
        )
    fixed = Match(match.config, match.stack[0].before, trajectory_rate=match.trajectory_rate)
    for entry in match.stack[:index]:
        fixed.push(entry.action)
    old = match.stack[index]
    if isinstance(replacement, Marks):
        if not isinstance(old.action, MarkedShot):
            raise MarkingError("not-a-stroke", "vain lyöntejä voi korjata", f"action {index} is not a marked stroke")
        replacement = marked_shot(fixed.state, old.action.call, replacement, old.action.seconds)
    if replacement is not None:
        _push(fixed, replacement, index, match)
    for later, entry in enumerate(match.stack[index + 1 :], start=index + 1):
        action = entry.action
        if isinstance(action, MarkedShot):
            now, then = fixed.state.game.shooter, entry.before.game.shooter
            if not fixed.over and now is not then:
                number = stroke_number(match, later)
                raise MarkingError(
                    "correction-turn",
                    f"Korjauksen jälkeen lyönnin {number} lyöisi {who(now)}, mutta se kirjattiin lyöjälle "
                    f"{who(then)}. Peru kirjaukset siihen asti tai korjaa sekin.",
                    f"After the correction, stroke {number} would be played by {who_en(now)}, but it was entered "
                    f"for {who_en(then)}. Undo the entries back to it, or correct it too.",
                )
            marks = marks_of(action.entry, entry.before)
            try:
                action = marked_shot(fixed.state, action.call, marks, action.seconds)
            except (IllegalActionError, ValueError) as exc:
                raise _no_longer_fits(match, later, exc) from None
        if fixed.over:
            number = stroke_number(match, len(fixed.stack))
            raise MarkingError(
                "correction-ends-match",
                f"korjauksen jälkeen ottelu päättyy ennen lyöntiä {number}: peru myöhemmät merkinnät ensin",
                f"after the correction the match is over before stroke {number}: undo the later entries first",
            )
        _push(fixed, action, later, match)
    return fixed


def _no_longer_fits(match: Match, index: int, exc: Exception) -> MarkingError:
    number = stroke_number(match, index)
    text = error_text(exc) if isinstance(exc, KaisaError) else Text(str(exc), str(exc))
    return MarkingError(
        "correction-conflict",
        f"korjauksen jälkeen lyönti {number} ei enää sovi: {_clause(text.fi)}",
        f"after the correction, stroke {number} no longer fits: {_clause(text.en)}",
    )


def _push(fixed: Match, action: Action, index: int, original: Match | None = None) -> None:
    try:
        fixed.push(action)
        check_state(fixed.state)
    except (IllegalActionError, ValueError) as exc:  # placement and call errors are KaisaErrors
        raise _no_longer_fits(original or fixed, index, exc) from None


__all__ = [
    "MarkingError",
    "Marks",
    "check_state",
    "correct",
    "entry_for",
    "marked_shot",
    "marks_of",
    "stroke_number",
]
