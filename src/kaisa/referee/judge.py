"""Judge: facts + the game state -> a :class:`Ruling`, clause by clause.

Order of business: the stroke's fouls (7a, 7b, 7d/8a, 5/7c, 7i), then whether the called pot is legal (1.3,
2.1, 5, 7e, 7f, 7g, 7h, 8c), its points (2, 2.1), the end of the game (3), and what happens to the balls
(4, 4.1, 4a, 8g) and the turn.
"""

from __future__ import annotations

from kaisa.call import Call, Konsti
from kaisa.model import BallId, Position
from kaisa.referee.observe import Facts, ImpossibleStateError
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.points import BALL_VALUE, NAKKI_VALUE, called_ball_value, is_middle_direct_kaisa, kind
from kaisa.referee.respot import respot
from kaisa.referee.ruling import Ruling, RulingItem, Text, item
from kaisa.referee.state import GameState, opponent_of
from kaisa.table import OFFICIAL, Point, SpotId, TableSpec

WINNING_SCORE = 60
SPOT_NAMES = {
    SpotId.CENTRE: Text("keskipilkulle", "on the centre spot"),
    SpotId.HEAD_STRING: Text("aloituslinjan pilkulle", "on the head-string spot"),
    SpotId.FOOT_STRING: Text("alalinjan pilkulle", "on the foot-string spot"),
    SpotId.HEAD_END: Text("aloituspään pilkulle", "on the head-end spot"),
    SpotId.FOOT_END: Text("alapään pilkulle", "on the foot-end spot"),
}


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


FI_KIND = {"white": "valkoinen", "red": "punainen", "kaisa": "kaisa"}


def _name(ball: BallId) -> Text:
    k = kind(ball)
    return Text(f"{FI_KIND[k]} {ball.value}", f"{'the ' if k == 'kaisa' else ''}{k} {ball.value}")


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

    def note(self, clause: str, fi: str, en: str) -> None:
        self.notes.append(RulingItem(clause, 0, fi, en))

    def foul(self, clause: str, points: int, fi: str, en: str) -> None:
        self.fouls.append(RulingItem(clause, points, fi, en))

    def void(self, clause: str, fi: str, en: str) -> None:
        self.voided = True
        self.note(clause, "Pussitusta ei hyväksytä: " + fi, "The pot does not count: " + en)

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
        for ball in (self.facts.cue_ball,):
            if ball not in self.facts.start:
                raise ImpossibleStateError(f"the struck cue ball {ball.value} is not in the starting position")

    # --- fouls -------------------------------------------------------------------------------------

    def check_fouls(self) -> None:
        f, shooter = self.facts, self.shooter
        down = {p.ball for p in f.pots} | set(f.off_table)
        if f.cue_ball != shooter:
            self.foul(
                "7i",
                0,
                f"Väärä lyöntipallo ({f.cue_ball.value}): pussitusta ei hyväksytä, pallot jäävät paikoilleen",
                f"Wrong cue ball ({f.cue_ball.value}): no pot counts, the balls stay where they are",
            )
        elif shooter in down:
            first = f.first_contact
            if first is None:
                penalty, fi_first, en_first = -2, "ei osunut palloihin", "touched no ball"
            else:
                penalty = -{"white": 2, "red": 3, "kaisa": 6}[kind(first)]
                name = _name(first)
                fi_first, en_first = f"osui ensin: {name.fi}", f"first hit {name.en}"
            how_fi = "yli laidan" if shooter in f.off_table else "pussiin"
            how_en = "off the table" if shooter in f.off_table else "into a pocket"
            self.foul(
                "7a",
                penalty,
                f"Lyöntipallo {shooter.value} meni {how_fi} ({fi_first}): {penalty} pistettä, käsipallo",
                f"Cue ball {shooter.value} went {how_en} ({en_first}): {penalty} points, ball in hand",
            )
            if shooter in f.off_table:
                self.note(
                    "8f",
                    "Pallo ei pysähtynyt pelialueelle: ylimennyt",
                    "The ball did not stop on the bed: off the table",
                )
        if f.touched_by_player:
            self.foul(
                "7b",
                0,
                "Pelaaja kosketti palloa (ruumis, vaate tai keppi)",
                "The player touched a ball (body, clothing or cue)",
            )
        if f.talonmies_angle is not None and f.cue_ball == shooter:
            angle = f.talonmies_angle
            if angle < self.options.talonmies_foul_below:
                self.foul(
                    "8a",
                    0,
                    f"Lyöntipallo kiinni pallossa ja lyöty sitä kohti ({angle:.0f}°): talonmies, virhe (7d, 7j)",
                    f"Cue ball frozen to a ball and struck towards it ({angle:.0f}°): talonmies, a foul (7d, 7j)",
                )
                self.note("7d", "Talonmies on virhe; katso 7j", "A talonmies is a foul; see 7j")
                self.note("7j", "Virheestä ei pisteitä, vuoro vaihtuu", "A foul: no points, the turn passes")
            elif angle < self.options.talonmies_no_points_below:
                self.void(
                    "7d",
                    f"tahallinen talonmies vähintään puolen pallon leikkuulla ({angle:.0f}°) ei ole virhe, mutta "
                    "ei tuo pisteitä ja vuoro vaihtuu",
                    f"a deliberate push struck at least half-ball away ({angle:.0f}°) is no foul, but scores "
                    "nothing and the turn passes",
                )
        if self.state.from_hand and f.hand is not None and f.cue_ball == shooter:
            self.check_hand()
        if f.restored_by_referee:
            self.foul(
                "7j",
                0,
                "Virhe: tuomari palautti pallot entisille paikoilleen, vuoro vaihtuu",
                "A foul: the referee put the balls back where they were, and the turn passes",
            )
        if self.fouls and self.state.from_hand and not self.state.opening:
            self.foul(
                "7c",
                0,
                "Virhe käsipallotilanteessa: vuoro vaihtuu ja virheen tekijä saa uuden käsipallon",
                "A fault from hand: the turn passes and the fouler plays from hand again next turn",
            )
            self.new_in_hand.add(self.shooter)
        for ball in f.off_table:
            if ball != shooter:
                self.note(
                    "8f",
                    f"{ball.value} ei pysähtynyt pelialueelle: ylimennyt",
                    f"{ball.value} did not stop on the bed: off the table",
                )

    def check_hand(self) -> None:
        hand, opening = self.facts.hand, self.state.opening
        assert hand is not None
        faults: list[Text] = []
        if not hand.first_ball_in_front and not hand.cushion_before_first_ball:
            faults.append(
                Text(
                    "aloituslinjalla tai sen takana olevaa palloa saa pelata vain vallin tai linjan etupuolella olevan "
                    "pallon kautta",
                    "a ball on or behind the head string may be played only via a cushion or a ball in front of it",
                )
            )
        if not hand.crossed_head_string:
            faults.append(
                Text(
                    "lyöntipallon on ylitettävä aloituslinja tai osuttava sen etupuolella olevaan palloon",
                    "the cue ball must cross the head string or hit a ball in front of it",
                )
            )
        if hand.cushion_before_first_ball and not hand.first_cushion_in_front:
            faults.append(
                Text(
                    "vallin kautta lyötäessä käsipallon on osuttava valliin aloituslinjan etupuolella",
                    "played via a cushion, the cue ball must hit the cushion in front of the head string",
                )
            )
        for fault in faults:
            if opening:
                self.foul("1.2", 0, "Aloituslyönnissä virhe: " + fault.fi, "Fault on the break: " + fault.en)
            else:
                self.foul("5", 0, "Käsipallovirhe: " + fault.fi, "Ball-in-hand fault: " + fault.en)

    # --- the called pot ----------------------------------------------------------------------------

    def check_pot(self) -> bool:
        """Whether the called pot is legal; records why not."""
        f, call = self.facts, self.call
        if call is None:
            if f.pots:
                self.void("1.3", "lyöntiä ei maalattu", "the stroke was not called")
            return False
        dropped_elsewhere = [p for p in f.pots if p.ball == call.ball and p.pocket is not call.pocket]
        if f.called is None:
            if dropped_elsewhere:
                pocket = dropped_elsewhere[0].pocket.value
                self.void(
                    "1.3",
                    f"maalattu pallo {call.ball.value} meni pussiin {pocket}, ei maalattuun pussiin {call.pocket.value}",
                    f"the called ball {call.ball.value} went into {pocket}, not the called {call.pocket.value}",
                )
            return False
        c = f.called
        if self.fouls:
            return False
        ok = True
        if not c.route_ok and c.route_problem is not None:
            self.void(
                c.route_clause,
                "maalaus ei toteutunut: " + c.route_problem.fi,
                "the call was not played: " + c.route_problem.en,
            )
            ok = False
        elif not c.route_ok:
            self.void("1.3", "maalaus ei toteutunut", "the call was not played as called")
            ok = False
        if c.kaka:
            self.void(
                "1.3",
                "käkä: lyöntipallo kosketti kohdepalloa kahdesti",
                "käkä: the cue ball touched the called ball twice",
            )
            ok = False
        if c.moving:
            self.void(
                "1.3",
                "kohdepallo oli jo liikkeessä, kun se ohjattiin pussiin",
                "the called ball was already moving when it was driven in",
            )
            ok = False
        if c.mankeli:
            self.void(
                "7f",
                "mankeli: pallo vieri pussiin vallia pitkin",
                "mankeli: the ball ran along the cushion into the pocket",
            )
            ok = False
        if c.frozen_short_of_haaki:
            self.void(
                "7g",
                "kohdepallo oli kiinni vallissa eikä ylittänyt pussin haakilinjaa",
                "the called ball was frozen to a cushion and not past the pocket's haaki line",
            )
            ok = False
        if c.konsti_ball_frozen_to_cushion:
            self.void("7h", "pussitus vallissa kiinni olevan pallon kautta", "potted off a ball frozen to a cushion")
            ok = False
        if call.konsti is not None and (
            c.konsti_pair_frozen or (self.options.frozen_any_object_balls and c.object_balls_frozen)
        ):
            self.void(
                "8c",
                "kohdepallot kiinni toisissaan: kyyti tai pallon kautta ei anna pisteitä",
                "object balls frozen together: a kyyti or a pot off a ball scores nothing",
            )
            ok = False
        if f.jump_over_mask:
            self.void("7e", "hyppylyönti maskipallon yli", "a jump over a masking ball")
            ok = False
        middle_direct_kaisa = is_middle_direct_kaisa(call)
        if middle_direct_kaisa and self.state.last_pot_direct_middle_kaisa:
            self.void(
                "2.1",
                "kaisaa ei saa saman lyöntivuoron aikana pussittaa suoraan keskelle kahta kertaa peräkkäin",
                "the kaisa may not go directly into a middle pocket twice in a row in one inning",
            )
            ok = False
        if self.state.from_hand and call.pocket.is_middle and call.cushion_count == 0:
            if self.state.opening and call.ball.is_kaisa:
                self.void(
                    "1.2",
                    "aloittaja ei saa pussittaa kaisaa suoraan keskelle",
                    "the breaker may not pot the kaisa directly into a middle pocket",
                )
            self.void(
                "5",
                "käsipallosta vain pussitus kulmiin tai vallin/vallien kautta keskelle tuo pisteitä",
                "from hand only corner pots, or middle pots via cushions, score",
            )
            ok = False
        if ok and c.rattles:
            self.note(
                "1.3",
                f"Röpötys ({c.rattles} haakiosumaa) ei vaadi maalausta",
                f"Jaw rattles ({c.rattles}) need no call",
            )
        return ok and not self.voided

    def score(self) -> None:
        f, call = self.facts, self.call
        assert call is not None
        counts_nakki = call.konsti is None
        nakki = sorted(f.nakki, key=lambda b: b.value) if counts_nakki else []
        middle_direct = is_middle_direct_kaisa(call)
        value = called_ball_value(call.ball, middle_direct=middle_direct, with_nakki=bool(nakki))
        name = _name(call.ball)
        route_fi = "suoraan" if call.is_direct else ("konstilla" if call.konsti else "vallin kautta")
        route_en = "directly" if call.is_direct else ("with a konsti" if call.konsti else "via cushions")
        nakki_fi = " nakin kanssa" if nakki else ""
        nakki_en = " with nakki" if nakki else ""
        clause = "2"
        if call.ball.is_kaisa and call.pocket.is_middle and not middle_direct:
            clause = "2.1"
            self.note(
                "2.1",
                "Kaisa keskelle muuten kuin suoraan: vain kulmapussin arvo",
                "A kaisa into a middle pocket other than directly scores as in a corner",
            )
        self.items.append(
            RulingItem(
                clause,
                value,
                f"Maalattu {name.fi} pussiin {call.pocket.value} {route_fi}{nakki_fi}: {value}",
                f"Called {name.en} into {call.pocket.value} {route_en}{nakki_en}: {value}",
            )
        )
        for ball in nakki:
            v = NAKKI_VALUE[kind(ball)]
            n = _name(ball)
            self.items.append(RulingItem("2", v, f"Nakki: {n.fi}: {v}", f"Nakki on {n.en}: {v}"))
        if not counts_nakki and f.nakki:
            self.note(
                "2.1",
                "Kyydillä tai pallon kautta pussitetusta pallosta ei lasketa nakkeja",
                "No nakki counts for a pot by kyyti or off a ball",
            )
        for pot in f.pots:
            if pot.ball in (call.ball, self.shooter):
                continue
            n = _name(pot.ball)
            if self.state.from_hand and pot.pocket.is_middle and not pot.cushion_first:
                self.note(
                    "5",
                    f"Lisäpallo {n.fi} keskelle ilman vallia käsipallosta ei tuo pisteitä",
                    f"Extra ball {n.en} into a middle pocket without a cushion scores nothing from hand",
                )
                continue
            v = self.options.extra_kaisa_value if pot.ball.is_kaisa else BALL_VALUE[kind(pot.ball)]
            self.items.append(
                RulingItem(
                    "2.1",
                    v,
                    f"Lisäpallo {n.fi} pussiin {pot.pocket.value}: {v}",
                    f"Extra ball: {n.en} into {pot.pocket.value}: {v}",
                )
            )

    def end_of_game(self) -> None:
        """Section 3: who reaches 60 wins, with the special cases of a white."""
        call, f = self.call, self.facts
        assert call is not None
        before = self.state.score(self.shooter)
        after = before + sum(i.points for i in self.items)
        if not call.ball.is_white:
            self.game_over = after >= WINNING_SCORE
            return
        other_object = any(not p.ball.is_white and p.ball != call.ball for p in f.pots)
        has_nakki = call.konsti is None and bool(f.nakki)
        if call.konsti is Konsti.KYYTI and other_object:
            if before >= 55:
                self.game_over = True
                self.note(
                    "3",
                    "55 pistettä tai enemmän: valkoinen kyydillä ja punainen tai kaisa pussiin lopettaa pelin",
                    "At 55 or more, a white by kyyti with a red or the kaisa dropping ends the game",
                )
                return
            self.game_over = after >= WINNING_SCORE
            if self.game_over:
                self.note(
                    "3",
                    "Kyydillä pussitettu valkoinen: toinen kohdepallo pussissa korvaa nakin",
                    "A white by kyyti: another object ball dropping takes the nakki's place",
                )
            return
        if call.konsti in (Konsti.KARA, Konsti.KISS) and after >= WINNING_SCORE:
            self.note(
                "3",
                "Pallon kautta pussitetulla valkoisella ei voi lopettaa",
                "A white potted off a ball cannot finish the game",
            )
        elif has_nakki:
            self.game_over = after >= WINNING_SCORE
            return
        if before >= 59:
            self.turn_passes = True
            if self.options.white_at_59_scores_two_only:
                self.items = self.items[:1]  # the white's own 2; no extras (option)
            self.note(
                "3",
                "59 pistettä tai enemmän ja valkoinen ilman nakkia: +2 pistettä, peli ei pääty ja vuoro vaihtuu",
                "At 59 or more, a white with no nakki: +2, the game goes on and the turn passes",
            )
        elif after >= WINNING_SCORE:
            self.note(
                "3",
                "60 pistettä valkoisella ilman nakkia: peli ei pääty, lyöntivuoro jatkuu",
                "60 reached on a white with no nakki: the game goes on and so does the inning",
            )

    # --- the balls afterwards ----------------------------------------------------------------------

    def place_balls(self, legal: bool) -> tuple[Position, dict[BallId, Point], bool]:
        f, spec = self.facts, self.spec
        if f.restored_by_referee:
            return f.start, {}, self.state.kaisa_off_centre
        down = [p.ball for p in f.pots] + list(f.off_table)
        for ball in down:
            if ball.is_white:
                self.new_in_hand.add(ball)
                if ball != self.shooter:
                    self.note(
                        "4",
                        f"Valkoinen {ball.value}: omistajalle käsipallo",
                        f"White {ball.value}: its owner plays from hand",
                    )
        on_table = Position({b: p for b, p in f.final.items() if b not in down})
        respots: dict[BallId, Point] = {}
        kaisa_flag = self.state.kaisa_off_centre and not f.kaisa_touched
        # 4: a waiting kaisa goes back first, so that a red to be spotted (4.1) finds the spot it left
        if kaisa_flag and BallId.K in on_table:
            others = [p for b, p in on_table.items() if b != BallId.K]
            if spec.spot_is_free(SpotId.CENTRE, others):
                centre = spec.spots[SpotId.CENTRE]
                respots[BallId.K] = centre
                on_table = on_table.with_ball(BallId.K, centre)
                kaisa_flag = False
                self.note(
                    "4",
                    "Keskipilkku vapautui: kaisa palautetaan keskipilkulle",
                    "The centre spot is free again: the kaisa goes back there",
                )
        placed = respot([b for b in down if not b.is_white], on_table, spec)
        for ball, (spot, point) in placed.items():
            respots[ball] = point
            n = _name(ball)
            clause = "4.1" if len(placed) > 1 and any(b.is_kaisa for b in placed) else "4"
            where = SPOT_NAMES[spot] if spot else Text("pitkälle keskiakselille", "on the long axis")
            self.note(
                clause, f"{_upper_first(n.fi)} asetetaan {where.fi}", f"{_upper_first(n.en)} is spotted {where.en}"
            )
            if ball.is_kaisa:
                kaisa_flag = spot is not SpotId.CENTRE
        position = Position({**on_table, **respots})
        for ball in self.new_in_hand:
            if ball in position:
                position = position.without(ball)
        return position, respots, kaisa_flag

    def rule(self) -> Ruling:
        self.validate()
        f, call, state = self.facts, self.call, self.state
        self.check_fouls()
        legal = self.check_pot() and not self.fouls
        if legal:
            assert call is not None
            self.score()
            self.end_of_game()
            off = set(f.off_table)
            konsti_or_nakki = (set(f.nakki) if call.konsti is None else set()) | (
                {call.via} if call.via and call.konsti is not Konsti.KISS else set()
            )
            for ball in sorted(off & konsti_or_nakki, key=lambda b: b.value):
                self.turn_passes = True
                self.note(
                    "8g",
                    f"{ball.value} meni yli laidan: pussitus hyväksytään, mutta vuoro vaihtuu",
                    f"{ball.value} left the table: the pot counts, but the turn passes",
                )
        else:
            self.turn_passes = True
        position, respots, kaisa_flag = self.place_balls(legal)
        if self.game_over:
            self.note("3", "Peli päättyi: 60 pistettä", "Game over: 60 points reached")
        elif self.turn_passes:
            self.note("1.3", "Lyöntivuoro vaihtuu", "The turn passes")
        else:
            self.note("1.3", "Sääntöjenmukainen pussitus: lyöntivuoro jatkuu", "A legal pot: the inning continues")
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


def _judge_late_fall(facts: Facts, state: GameState) -> Ruling:
    """8e: a ball fell by itself or was moved from outside: put back, the turn stays; caused by a player,
    it is a foul (7j) and the turn passes if that player was at the table."""
    fall = facts.late_fall
    assert fall is not None
    notes = [
        item(
            "8e",
            0,
            Text(
                f"Pallo {fall.ball.value} putosi tai liikkui itsestään: liikahtaneet pallot palautetaan paikoilleen",
                f"{fall.ball.value} fell or moved by itself: the moved balls go back where they were",
            ),
        )
    ]
    fouls: list[RulingItem] = []
    turn_passes = False
    if fall.caused_by is not None:
        fouls.append(
            item(
                "7j",
                0,
                Text(
                    f"Pelaaja ({fall.caused_by.value}) aiheutti pallon liikahtamisen: virhe",
                    f"A player ({fall.caused_by.value}) caused it: a foul",
                ),
            )
        )
        turn_passes = fall.caused_by == state.shooter
    next_state = state.evolve(
        shooter=opponent_of(state.shooter) if turn_passes else state.shooter,
        last_pot_direct_middle_kaisa=state.last_pot_direct_middle_kaisa and not turn_passes,
    )
    return Ruling(
        shooter=state.shooter,
        legal_pot=False,
        items=(),
        fouls=tuple(fouls),
        notes=tuple(notes),
        turn_passes=turn_passes,
        in_hand=state.in_hand,
        respots={},
        game_over=False,
        winner=None,
        events=facts.events,
        position=facts.start,
        state=next_state,
    )
