"""Judge: facts + the game state -> a :class:`Ruling`, clause by clause.

Order of business: the stroke's fouls (7a/6, 7b, 7d/8a/8b, 5/7c, 7i, 7j), then whether the called pot is legal
(1.2, 1.3, 2, 2.1, 5, 6, 7d, 7e, 7f, 7g, 7h, 8c), its points (2, 2.1, 6), the end of the game (3), and what
happens to the balls (4, 4.1, 4a, 7i, 7j, 8g) and the turn. Every decision is a named predicate
(:mod:`kaisa.referee.predicates`) and every sentence a catalogue entry (:mod:`kaisa.referee.catalogue`).
"""

from __future__ import annotations

from kaisa.call import Call, Konsti
from kaisa.model import BallId, Position
from kaisa.referee import predicates as rules
from kaisa.referee.catalogue import CATALOGUE, SPOT_NAMES, VOID, ball, count, pocket, upper_first
from kaisa.referee.observe import CalledPotFacts, Facts, ImpossibleStateError
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.points import BALL_VALUE, NAKKI_VALUE, called_ball_value, is_middle_direct_kaisa, kind
from kaisa.referee.prospects import state_voids
from kaisa.referee.respot import respot
from kaisa.referee.ruling import Ruling, RulingItem, Text
from kaisa.referee.state import GameState, opponent_of
from kaisa.table import OFFICIAL, Point, SpotId, TableSpec

WINNING_SCORE = CATALOGUE["3"].points["winning_score"]
"""The rulebook's winning score (3); a match plays to its rule option ``winning_score`` (this by default)."""
C = CATALOGUE


def judge(
    facts: Facts,
    call: Call | None,
    state: GameState,
    *,
    options: RuleOptions = DEFAULT_OPTIONS,
    spec: TableSpec = OFFICIAL,
) -> Ruling:
    """Rule one stroke. Raises :class:`~kaisa.call.IllegalCallError` for a call the shooter cannot make and
    :class:`ImpossibleStateError` for facts that contradict the state."""
    if facts.late_fall is not None:
        return _judge_late_fall(facts, state)
    if facts.swap_expired:
        return _judge_expired_swap(facts, state)
    return _Judgement(facts, call, state, options, spec).rule()


class _Judgement:
    def __init__(self, facts: Facts, call: Call | None, state: GameState, options: RuleOptions, spec: TableSpec):
        self.facts, self.call, self.state, self.options, self.spec = facts, call, state, options, spec
        self.shooter = state.shooter
        self.items: list[RulingItem] = []
        self.fouls: list[RulingItem] = []
        self.notes: list[RulingItem] = []
        self.new_in_hand: set[BallId] = set()
        self.turn_passes = False
        self.game_over = False
        self.voided = False
        self.restore = False

    def void(self, clause: str, key: str, **params: object) -> None:
        self.voided = True
        self.notes.append(C[clause].void(key, **params))

    # --- checks before anything happens ------------------------------------------------------------

    def validate(self) -> None:
        if self.call is not None:
            self.call.check_shooter(self.shooter)
        if self.state.from_hand and self.facts.cue_ball == self.shooter and not self.facts.restored_by_referee:
            p = self.facts.start.get(self.shooter)
            if p is None or not self.spec.is_behind_head_string(p):
                where = "off the table" if p is None else f"at y = {p[1]:.3f} m"
                raise ImpossibleStateError(
                    f"{self.shooter.value} plays from hand and must start behind the head string "
                    f"(y < {self.spec.head_string:.3f} m), but it is {where}"
                )
        if self.facts.cue_ball not in self.facts.start:
            raise ImpossibleStateError(
                f"the struck cue ball {self.facts.cue_ball.value} is not in the starting position"
            )
        hand = self.facts.hand
        if (
            self.state.from_hand
            and hand is not None
            and hand.cushion_before_first_ball
            and hand.first_cushion_in_front is None
        ):
            raise ImpossibleStateError(
                "the cue ball's first cushion contact is on a rail that crosses the head string (left-head or "
                "right-head) and the log gives no point: add the cue ball's position to that rail event (@x,y) "
                "so the referee can tell whether it was in front of the line (5)"
            )

    # --- fouls -------------------------------------------------------------------------------------

    def check_fouls(self) -> None:
        f, shooter, state = self.facts, self.shooter, self.state
        if rules.wrong_cue_ball(f, state):
            self.fouls.append(C["7i"].item("wrong", ball=f.cue_ball.value))
            if f.swapped_by_referee:
                self.notes.append(C["7i"].item("swapped"))
        elif rules.cue_ball_down(f, state):
            self.cue_ball_down()
        if f.stopped_balls and state.shootout:
            points = C["6"].points["stopped_balls"]
            self.fouls.append(C["6"].item("stopped", points, points=str(points)))
        elif f.touched_by_player or f.stopped_balls:
            self.fouls.append(C["7b"].item("touched"))
        if f.cue_ball == shooter:
            self.check_push()
        if state.from_hand and f.hand is not None and f.cue_ball == shooter:
            self.check_hand()
        if f.restored_by_referee:
            self.fouls.append(C["7j"].item("restored"))
        if f.setup_broken:
            self.fouls.append(C["7j"].item("setup"))
        if self.fouls and state.from_hand and not state.opening:
            self.fouls.append(C["7c"].item("fault"))
            self.new_in_hand.add(shooter)
        for b in f.off_table:
            if b != shooter:
                self.notes.append(C["8f"].item("off", ball=ball(b).text))

    def cue_ball_down(self) -> None:
        f, shooter = self.facts, self.shooter
        shootout = self.state.shootout
        penalty = rules.cue_ball_down_penalty(f.first_contact, shootout=shootout)
        off = shooter in f.off_table
        how = C["7a"].say("off" if off else "pocket")
        first = (
            C["7a"].say("no_ball")
            if f.first_contact is None
            else C["7a"].say("first", target=ball(f.first_contact).into)
        )
        clause = "6" if shootout else "7a"
        self.fouls.append(C[clause].item("down", penalty, cue=shooter.value, how=how, first=first, points=str(penalty)))
        if off:
            self.notes.append(C["8f"].item("off", ball=ball(shooter).text))

    def check_push(self) -> None:
        """7d/8a/8b: a cue ball frozen to a ball; 7d: a double hit; 7j: the balls go back in simulated play."""
        f, options = self.facts, self.options
        if rules.talonmies_foul(f, options):
            assert f.talonmies_angle is not None
            self.fouls.append(C["8a"].item("towards", angle=f.talonmies_angle))
            self.notes.append(C["7d"].item("foul"))
            if rules.restore_after_foul(f, options):
                self.restore = True
                self.notes.append(C["7j"].item("restore_talonmies"))
            else:
                self.notes.append(C["7j"].item("foul"))
        elif rules.talonmies_away(f, options):
            assert f.talonmies_angle is not None
            self.void("7d", "away", angle=f.talonmies_angle)
        elif rules.trapped_push(f, options):
            self.notes.append(C["8b"].item("trapped"))
        if f.double_hit:
            self.void("7d", "double_hit")

    def check_hand(self) -> None:
        hand = self.facts.hand
        assert hand is not None
        faults = rules.hand_faults(hand)
        for key in faults:
            fault = C["5"].say(key)
            if self.state.opening:
                # decision (docs/CLAUSES.md): the fault is the break's (1.2), the rule broken is 5's: both cited
                self.fouls.append(C["1.2"].item("break_fault", fault=fault))
            else:
                self.fouls.append(C["5"].item("fault", fault=fault))
        if faults and self.state.opening:
            self.notes.append(C["5"].item("on_break"))

    # --- the called pot ----------------------------------------------------------------------------

    def check_pot(self) -> bool:
        """Whether the called pot is legal; records every reason why not."""
        f, call, state = self.facts, self.call, self.state
        if call is None:
            if f.pots:
                self.void("1.3", "not_called")
            return False
        if f.called is None:
            elsewhere = [p for p in f.pots if p.ball == call.ball and p.pocket is not call.pocket]
            if elsewhere:
                self.void(
                    "1.3",
                    "wrong_pocket",
                    ball=ball(call.ball).text,
                    went=pocket(elsewhere[0].pocket).into,
                    called=pocket(call.pocket).text,
                )
            return False
        # a foul does not end the reasons: every clause that voids the pot is cited, the route's too (issue 29)
        c = f.called
        before = len(self.notes)
        self.route(c)
        if c.kaka:
            self.void("1.3", "kaka")
        if c.moving:
            self.void("1.3", "moving")
        if c.mankeli:
            self.void("7f", "mankeli")
        if c.frozen_short_of_haaki:
            self.void("7g", "frozen")
        if c.konsti_ball_frozen_to_cushion:
            assert call.via is not None
            self.void("7h", "frozen", ball=ball(call.via).text)
        if call.konsti is not None and (
            c.konsti_pair_frozen or (self.options.frozen_any_object_balls and c.object_balls_frozen)
        ):
            self.void("8c", "frozen")
        if f.jump_over_mask:
            self.void("7e", "jump")
        voids = state_voids(call, state)  # 2.1, 6, 5 and 1.2: what the state decides (the call builder's too)
        if voids:
            self.voided = True
            self.notes.extend(voids)
        ok = len(self.notes) == before and not self.voided and not self.fouls
        if ok and c.rattles:
            rattles = count(c.rattles, "haakiosuma", "haakiosumaa", "jaw rattle", "jaw rattles")
            self.notes.append(C["1.3"].item("rattles", rattles=rattles))
        return ok

    def route(self, c: CalledPotFacts) -> None:
        """1.3 and 2: every way the route differed from the call, each cited under the clause it broke."""
        problems = c.route_problems
        if not problems and not c.route_ok:
            why = c.route_problem if c.route_problem is not None else C["1.3"].say("kirjuri")
            problems = ((c.route_clause, why),)
        for clause, problem in problems:
            reason = C["1.3"].say("route", problem=problem)
            text = VOID.render(reason=reason)
            self.voided = True
            self.notes.append(RulingItem(clause, 0, upper_first(text.fi), upper_first(text.en)))

    def score(self) -> None:
        call, state = self.call, self.state
        assert call is not None
        if state.shootout_inning_start:
            value = C["6"].points["first_pot"]
            self.items.append(C["6"].item("corner", value, pocket=pocket(call.pocket).into, points=value))
        else:
            self.score_called(call)
        self.score_extras(call)

    def score_called(self, call: Call) -> None:
        f = self.facts
        counts_nakki = call.konsti is None
        nakki = sorted(f.nakki, key=lambda b: b.value) if counts_nakki else []
        middle_direct = is_middle_direct_kaisa(call)
        value = called_ball_value(call.ball, middle_direct=middle_direct, with_nakki=bool(nakki))
        if call.is_direct:
            route = Text("suoraan", "directly")
        elif call.konsti is Konsti.KYYTI:
            route = Text("kyydillä", "by kyyti")
        elif call.konsti is not None:
            route = Text("pallon kautta", "off a ball")
        else:
            route = Text("vallin kautta", "via cushions")
        with_nakki = Text(
            (" nakin kanssa" if len(nakki) == 1 else " nakkien kanssa") if nakki else "", " with nakki" if nakki else ""
        )
        clause = "2"
        if call.ball.is_kaisa and call.pocket.is_middle and not middle_direct:
            clause = "2.1"
            self.notes.append(C["2.1"].item("only_corner"))
        self.items.append(
            RulingItem(
                clause,
                value,
                *_pair(
                    C["2"].say(
                        "pot",
                        ball=ball(call.ball).text,
                        pocket=pocket(call.pocket).into,
                        route=route,
                        nakki=with_nakki,
                        points=value,
                    )
                ),
            )
        )
        for b in nakki:
            v = NAKKI_VALUE[kind(b)]
            self.items.append(C["2"].item("nakki", v, ball=ball(b).text, points=v))
        if not counts_nakki and f.nakki:
            self.notes.append(C["2.1"].item("no_nakki"))

    def score_extras(self, call: Call) -> None:
        for pot in self.facts.pots:
            if pot.ball in (call.ball, self.shooter):
                continue
            if self.state.from_hand and pot.pocket.is_middle and not pot.cushion_first:
                self.notes.append(C["5"].item("extra_middle", ball=ball(pot.ball).text))
                continue
            v = self.options.extra_kaisa_value if pot.ball.is_kaisa else BALL_VALUE[kind(pot.ball)]
            self.items.append(
                C["2.1"].item("extra", v, ball=ball(pot.ball).text, pocket=pocket(pot.pocket).into, points=v)
            )

    def end_of_game(self) -> None:
        """Section 3: who reaches the winning score (60, or the option's target) wins, with the special cases of a
        white at the rulebook's distances from it (55 = target - 5, 59 = target - 1)."""
        call, f = self.call, self.facts
        assert call is not None
        target = self.options.winning_score
        before = self.state.score(self.shooter)
        after = before + sum(i.points for i in self.items)
        if not call.ball.is_white:
            self.game_over = after >= target
            return
        other_object = any(not p.ball.is_white and p.ball != call.ball for p in f.pots)
        has_nakki = call.konsti is None and bool(f.nakki)
        if call.konsti is Konsti.KYYTI and other_object:
            if before >= target - 5:
                # REFERENCE 7 (3): the kyyti finish ends the game only when the stroke's points reach the target
                # (a straight middle kaisa from hand, 5, scores nothing and can leave it short: play goes on)
                self.game_over = after >= target
                if self.game_over:
                    self.notes.append(C["3"].item("kyyti_55", kyyti_at=target - 5))
                return
            self.game_over = after >= target
            if self.game_over:
                self.notes.append(C["3"].item("kyyti_other"))
            return
        if call.konsti in (Konsti.KARA, Konsti.KISS) and after >= target:
            self.notes.append(C["3"].item("white_off_ball"))
        elif has_nakki:
            self.game_over = after >= target
            return
        if before >= target - 1:
            self.turn_passes = True
            if self.options.white_at_59_scores_two_only:
                self.items = self.items[:1]  # the white's own 2; no extras (option)
            self.notes.append(C["3"].item("white_59", white_at=target - 1))
        elif after >= target:
            self.notes.append(C["3"].item("white_60", winning=target))

    # --- the balls afterwards ----------------------------------------------------------------------

    def place_balls(self) -> tuple[Position, dict[BallId, Point], bool]:
        f, spec = self.facts, self.spec
        down = [p.ball for p in f.pots] + list(f.off_table)
        if f.restored_by_referee or self.restore:
            # 7j puts the balls back, but a white that dropped is its owner's in hand all the same (7a, 5:
            # REFERENCE 5, the owner of a pocketed cue ball always gets it in hand)
            self.new_in_hand.update(b for b in down if b.is_white)
            position = f.start
            for b in self.new_in_hand:
                if b in position:
                    position = position.without(b)
            return position, {}, self.state.kaisa_off_centre
        for b in down:
            if b.is_white:
                self.new_in_hand.add(b)
                if b != self.shooter:
                    self.notes.append(C["4"].item("white_in_hand", ball=ball(b).text))
        # plain dicts until the end: a Position checks its points, once is enough
        final = dict(f.final.items())
        if f.swapped_by_referee and BallId.W1 in final and BallId.W2 in final:
            final[BallId.W1], final[BallId.W2] = final[BallId.W2], final[BallId.W1]
        on_table = {b: p for b, p in final.items() if b not in down}
        respots: dict[BallId, Point] = {}
        kaisa_flag = self.state.kaisa_off_centre and not f.kaisa_touched
        # 4: a waiting kaisa goes back first, so that a red to be spotted (4.1) finds the spot it left
        if kaisa_flag and BallId.K in on_table:
            others = [p for b, p in on_table.items() if b != BallId.K]
            if spec.spot_is_free(SpotId.CENTRE, others):
                centre = spec.spots[SpotId.CENTRE]
                respots[BallId.K] = centre
                on_table[BallId.K] = centre
                kaisa_flag = False
                self.notes.append(C["4"].item("kaisa_back"))
        placed = respot([b for b in down if not b.is_white], on_table, spec)
        for b, (spot, point) in placed.items():
            respots[b] = point
            clause = "4.1" if len(placed) > 1 and any(x.is_kaisa for x in placed) else "4"
            self.notes.append(C[clause].item("spotted", ball=ball(b).text, spot=SPOT_NAMES[spot]))
            if b.is_kaisa:
                kaisa_flag = spot is not SpotId.CENTRE
        balls = {**on_table, **respots}
        position = Position({b: p for b, p in balls.items() if b not in self.new_in_hand})
        return position, respots, kaisa_flag

    def rule(self) -> Ruling:
        self.validate()
        f, call, state = self.facts, self.call, self.state
        self.check_fouls()
        legal = self.check_pot() and not self.fouls and not self.voided
        if legal:
            assert call is not None
            self.score()
            self.end_of_game()
            for b in sorted(set(f.off_table) & rules.eight_g_balls(f, call), key=lambda x: x.value):
                self.turn_passes = True
                self.notes.append(C["8g"].item("off", ball=ball(b).text))
        else:
            self.turn_passes = True
        position, respots, kaisa_flag = self.place_balls()
        if self.game_over:
            self.notes.append(C["3"].item("over", winning=self.options.winning_score))
        elif self.turn_passes:
            self.notes.append(C["1.3"].item("turn_passes"))
        else:
            self.notes.append(C["1.3"].item("continues"))
        in_hand = frozenset((state.in_hand - {self.shooter}) | self.new_in_hand)
        points = sum(i.points for i in self.items) + sum(x.points for x in self.fouls)
        scores = dict(state.scores)
        scores[self.shooter] += points
        continues = not self.turn_passes
        middle_direct = bool(legal and call and is_middle_direct_kaisa(call))
        next_state = GameState(
            scores=scores,
            shooter=self.shooter if continues else opponent_of(self.shooter),
            opening=False,
            in_hand=in_hand,
            last_pot_direct_middle_kaisa=middle_direct and continues,
            kaisa_off_centre=kaisa_flag,
            shootout=state.shootout,
        )
        return Ruling(
            shooter=self.shooter,
            legal_pot=legal,
            items=tuple(self.items),
            fouls=tuple(self.fouls),
            notes=tuple(self.notes),
            turn_passes=self.turn_passes,
            in_hand=in_hand,
            respots=respots,
            game_over=self.game_over,
            winner=self.shooter if self.game_over else None,
            events=f.events,
            position=position,
            state=next_state,
        )


def _pair(text: Text) -> tuple[str, str]:
    return upper_first(text.fi), upper_first(text.en)


def _judge_late_fall(facts: Facts, state: GameState) -> Ruling:
    """8e: a ball fell by itself or was moved from outside: put back, the turn stays; caused by a player,
    it is a foul (7j) and the turn passes if that player was at the table."""
    fall = facts.late_fall
    assert fall is not None
    notes = [C["8e"].item("fell", ball=ball(fall.ball).text)]
    fouls: list[RulingItem] = []
    turn_passes = False
    if fall.caused_by is not None:
        fouls.append(C["7j"].item("caused", ball=fall.caused_by.value))
        turn_passes = fall.caused_by == state.shooter
    next_state = state.evolve(
        shooter=opponent_of(state.shooter) if turn_passes else state.shooter,
        last_pot_direct_middle_kaisa=state.last_pot_direct_middle_kaisa and not turn_passes,
    )
    return _standing(facts, state, next_state, tuple(fouls), tuple(notes), turn_passes, facts.start)


def _judge_expired_swap(facts: Facts, state: GameState) -> Ruling:
    """7i: the cue balls were found swapped from earlier than the previous stroke: the error has expired; their
    places are swapped back and the game goes on as if they had never been swapped (no points, same turn)."""
    start = facts.start
    position = start
    if BallId.W1 in start and BallId.W2 in start:
        position = start.with_ball(BallId.W1, start[BallId.W2]).with_ball(BallId.W2, start[BallId.W1])
    notes = (C["7i"].item("expired"),)
    return _standing(facts, state, state, (), notes, False, position)


def _standing(
    facts: Facts,
    state: GameState,
    next_state: GameState,
    fouls: tuple[RulingItem, ...],
    notes: tuple[RulingItem, ...],
    turn_passes: bool,
    position: Position,
) -> Ruling:
    """A ruling outside a stroke: no pot, no points."""
    return Ruling(
        shooter=state.shooter,
        legal_pot=False,
        items=(),
        fouls=fouls,
        notes=notes,
        turn_passes=turn_passes,
        in_hand=state.in_hand,
        respots={},
        game_over=False,
        winner=None,
        events=facts.events,
        position=position,
        state=next_state,
    )
