"""Small named predicates, one decision each (pooltool's ruleset style): the judge asks them, and so do the
computer players' shot generator and search, so a rule is decided in one place.

Each takes the facts, the call, the game state and the rule options it needs, and nothing else.
"""

from __future__ import annotations

from kaisa.call import Call, Konsti
from kaisa.model import BallId
from kaisa.referee.catalogue import CATALOGUE
from kaisa.referee.observe import Facts, HandFacts
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.points import kind
from kaisa.referee.state import GameState
from kaisa.table import OFFICIAL, PocketId, Point, TableSpec

# --- fouls (7, 8a, 6) ----------------------------------------------------------------------------------------


def wrong_cue_ball(facts: Facts, state: GameState) -> bool:
    """7i: the player struck the other cue ball."""
    return facts.cue_ball != state.shooter


def cue_ball_down(facts: Facts, state: GameState) -> bool:
    """7a (6 in the shoot-out): the shooter's own cue ball dropped or left the table."""
    return state.shooter in {p.ball for p in facts.pots} or state.shooter in facts.off_table


def cue_ball_down_penalty(first_contact: BallId | None, *, shootout: bool = False) -> int:
    """7a: -2 touching no ball or a white first, -3 a red, -6 the kaisa; 6 in the shoot-out: -6 if it touched
    the kaisa first, -2 otherwise."""
    if shootout:
        points = CATALOGUE["6"].points
        return points["cue_ball_down_kaisa_first"] if first_contact is BallId.K else points["cue_ball_down"]
    points = CATALOGUE["7a"].points
    return points["no_ball"] if first_contact is None else points[kind(first_contact)]


def talonmies_foul(facts: Facts, options: RuleOptions = DEFAULT_OPTIONS) -> bool:
    """7d/8a: the cue ball frozen to a ball and struck less than ``talonmies_foul_below`` degrees towards it,
    when it could have been struck away (8b)."""
    angle = facts.talonmies_angle
    return angle is not None and angle < options.talonmies_foul_below and not facts.cannot_strike_away


def talonmies_away(facts: Facts, options: RuleOptions = DEFAULT_OPTIONS) -> bool:
    """7d: a deliberate push struck at least half-ball away: no foul, but no points and the turn passes."""
    angle = facts.talonmies_angle
    return (
        angle is not None
        and options.talonmies_foul_below <= angle < options.talonmies_no_points_below
        and not facts.cannot_strike_away
    )


def trapped_push(facts: Facts, options: RuleOptions = DEFAULT_OPTIONS) -> bool:
    """8b: struck towards a frozen ball because the cue ball could not be struck away: allowed."""
    angle = facts.talonmies_angle
    return facts.cannot_strike_away and angle is not None and angle < options.talonmies_no_points_below


def pushes(angle: float, options: RuleOptions = DEFAULT_OPTIONS) -> bool:
    """For the shot generator: a stroke ``angle`` degrees from a ball the cue ball is frozen to is a talonmies
    that cannot score (a foul or no points, 7d/8a)."""
    return angle < options.talonmies_no_points_below


def restore_after_foul(facts: Facts, options: RuleOptions = DEFAULT_OPTIONS) -> bool:
    """7j in simulated play (REFERENCE 10): a talonmies foul always gains an unearned advantage, so the balls
    go back; at a real table the kirjuri enters whether the referee restored them."""
    return facts.from_log and talonmies_foul(facts, options)


def hand_faults(hand: HandFacts) -> list[str]:
    """5: the section 5 faults of a stroke from behind the head string (wording keys of clause 5)."""
    faults = []
    if not hand.first_ball_in_front and not hand.cushion_before_first_ball:
        faults.append("behind_ball")
    if not hand.crossed_head_string:
        faults.append("not_crossed")
    if hand.cushion_before_first_ball and hand.first_cushion_in_front is False:
        faults.append("cushion_behind")
    return faults


# --- the called pot ------------------------------------------------------------------------------------------


def middle_without_cushion_from_hand(pocket: PocketId, cushions: int, state: GameState) -> bool:
    """5 (and 1.2 on the break): from hand only corner pots, or middle pots via cushions, score."""
    return state.from_hand and pocket.is_middle and cushions == 0


def break_direct_middle_kaisa(call: Call, state: GameState, *, direct: bool | None = None) -> bool:
    """1.2: the breaker may not pot the kaisa directly (no cushion, no konsti) into a middle pocket. ``direct``:
    how it went in, when known; else as called."""
    went_direct = call.is_direct if direct is None else direct
    return state.opening and call.ball.is_kaisa and call.pocket.is_middle and went_direct


def direct_middle_kaisa_twice(call: Call, state: GameState, *, direct: bool | None = None) -> bool:
    """2.1: the kaisa directly into a middle pocket twice in a row in one inning (not off a ball, by kyyti or
    via cushions). ``direct``: how it went in, when known; else as called."""
    went_direct = call.is_direct if direct is None else direct
    return call.ball.is_kaisa and call.pocket.is_middle and went_direct and state.last_pot_direct_middle_kaisa


def shootout_first_pot_wrong(ball: BallId, pocket: PocketId, state: GameState) -> bool:
    """6: the first pot of a shoot-out inning is the kaisa from the centre spot into a corner."""
    return state.shootout_inning_start and not (ball.is_kaisa and pocket.is_corner)


def call_can_score(ball: BallId, pocket: PocketId, *, cushions: int, konsti: bool, state: GameState) -> bool:
    """Whether a pot of ``ball`` into ``pocket`` with this many cushions (and a konsti or not) can score in
    this state at all: 5, 1.2, 2.1 and 6. The shot generator asks this instead of restating the rules."""
    if middle_without_cushion_from_hand(pocket, cushions, state):
        return False
    direct = cushions == 0 and not konsti
    if direct and ball.is_kaisa and pocket.is_middle and state.last_pot_direct_middle_kaisa:
        return False
    return not shootout_first_pot_wrong(ball, pocket, state)


def konsti_ball_usable(via: Point, options: RuleOptions = DEFAULT_OPTIONS, spec: TableSpec = OFFICIAL) -> bool:
    """7h: a kara or kiss off a ball frozen to a cushion does not count, so such a ball is no konsti ball."""
    return spec.cushion_gap(via) >= options.frozen_gap


def eight_g_balls(facts: Facts, call: Call) -> set[BallId]:
    """8g: the balls whose leaving the table passes the turn after a legal pot: the cue ball's nakki balls
    (touched after the pot began, whether or not nakki score, REFERENCE 10) and the kara or kyyti ball."""
    balls = set(facts.nakki)
    if call.via is not None and call.konsti in (Konsti.KARA, Konsti.KYYTI):
        balls.add(call.via)
    return balls
