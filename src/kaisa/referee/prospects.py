"""Why a call cannot score in a game state, before the stroke: one list the judge voids a pot by and the call
builder warns with, so the page marks a call exactly as the ruling would void it.

:func:`state_voids` is what the state alone decides (1.2, 2.1, 5, 6): the judge rules a called pot void for
each of its lines. :func:`call_prospects` adds what the position foretells from hand: a called ball on or
behind the head string played directly is a section 5 fault (the judge finds it in the stroke's facts).
"""

from __future__ import annotations

from kaisa.call import Call, Konsti
from kaisa.model import Position
from kaisa.referee import predicates
from kaisa.referee.catalogue import CATALOGUE, ball, count, pocket
from kaisa.referee.ruling import RulingItem, Text
from kaisa.referee.state import GameState
from kaisa.table import OFFICIAL, TableSpec


def state_voids(
    call: Call, state: GameState, *, direct: bool | None = None, cushions: int | None = None
) -> list[RulingItem]:
    """The lines voiding a pot of ``call`` in ``state`` whatever the balls do, in the judge's order: a direct
    middle kaisa again in the inning (2.1), the shoot-out's first pot not the kaisa into a corner (6), a middle
    pot without a cushion from hand (5, with 1.2 when it is the break's direct middle kaisa). ``direct`` and
    ``cushions``: how the ball actually went in, when the judge knows it (these clauses are about the pot, not
    the call); by default as called, which is all a call's prospects can know."""
    out: list[RulingItem] = []
    if predicates.direct_middle_kaisa_twice(call, state, direct=direct):
        out.append(CATALOGUE["2.1"].void("twice"))
    if predicates.shootout_first_pot_wrong(call.ball, call.pocket, state):
        out.append(CATALOGUE["6"].void("first_pot"))
    route_cushions = call.cushion_count if cushions is None else cushions
    if predicates.middle_without_cushion_from_hand(call.pocket, route_cushions, state):
        if predicates.break_direct_middle_kaisa(call, state, direct=direct):
            out.append(CATALOGUE["1.2"].void("break_middle_kaisa"))
        out.append(CATALOGUE["5"].void("middle"))
    return out


def call_prospects(position: Position, call: Call, state: GameState, spec: TableSpec = OFFICIAL) -> list[RulingItem]:
    """Why ``call`` cannot score in ``state`` with the balls at ``position`` (empty: it can): the state's voids
    (:func:`state_voids`) and, from hand, a called ball on or behind the head string played without a cushion
    or a ball in front of it (5). Raises :class:`~kaisa.call.IllegalCallError` for a call the shooter cannot
    make."""
    call.check_shooter(state.shooter)
    out = state_voids(call, state)
    target = position.get(call.ball, None)
    if state.from_hand and target is not None and target[1] <= spec.head_string and call.is_direct:
        out.append(CATALOGUE["5"].void("behind_ball"))
    return out


def call_words(call: Call) -> Text:
    """A call said in words, as a referee reads it out: "kaisa alapään vasempaan kulmapussiin suoraan" / "the
    kaisa into the left foot corner directly", with the called ball's route and the cue ball's cushions."""
    own = call.legs[-1].cushion_count  # the called ball's leg into the pocket
    if call.konsti is Konsti.KYYTI:
        route = Text("kyydillä", "by kyyti")
    elif call.konsti is not None:
        route = Text("pallon kautta", "off a ball")
    elif own:
        via = count(own, "vallin", "vallin", "cushion", "cushions")
        route = Text(f"{via.fi} kautta", f"via {via.en}")
    else:
        route = Text("suoraan", "directly")
    first = call.cushion_count - own if call.konsti is None else 0
    if first:
        cue = count(first, "vallin", "vallin", "cushion", "cushions")
        route = Text(f"{route.fi}, lyöntipallo ensin {cue.fi} kautta", f"{route.en}, the cue ball via {cue.en} first")
    b, p = ball(call.ball), pocket(call.pocket)
    return Text(f"{b.fi} {p.fi_into} {route.fi}", f"{b.en} into {p.en} {route.en}")


__all__ = ["call_prospects", "call_words", "state_voids"]
