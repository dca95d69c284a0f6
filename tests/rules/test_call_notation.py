"""Conformance, 1.3 / 2 / 8h: the call notation (maalaus), its round trips, its typed errors and leg matching.

A call names the ball, the pocket and the route (1.3); at most one konsti (2); a jaw may stand for a cushion
(8h). ``parse_call`` and ``format_call`` must be inverse to each other, and a bad call must say whether the text
is not a call at all (:class:`CallSyntaxError`) or is a call the rules forbid (:class:`IllegalCallError`).
"""

from __future__ import annotations

import itertools
import random

import pytest

from kaisa.call import (
    LEG_ROLES,
    RAIL_CODES,
    Call,
    CallError,
    CallSyntaxError,
    Cushion,
    IllegalCallError,
    JawCushion,
    Konsti,
    Leg,
    format_call,
    parse_call,
)
from kaisa.errors import KaisaError
from kaisa.model import BallId
from kaisa.table import OFFICIAL, PocketId, RailId

H, F, LH, LF, RH, RF = (
    RailId.HEAD,
    RailId.FOOT,
    RailId.LEFT_HEAD,
    RailId.LEFT_FOOT,
    RailId.RIGHT_HEAD,
    RailId.RIGHT_FOOT,
)
K, W1, W2, R1, R2 = BallId.K, BallId.W1, BallId.W2, BallId.R1, BallId.R2


def legs(*cushions: tuple[Cushion, ...] | int) -> tuple[Leg, ...]:
    """``legs((), (RF,), 2)``: a leg per argument, a tuple of cushions or a count."""
    return tuple(Leg(count=c) if isinstance(c, int) else Leg(cushions=c) for c in cushions)


# --- the docstring's examples ------------------------------------------------------------------------------

DOCSTRING_EXAMPLES = [
    ("K FL", Call(K, PocketId.FL)),
    ("K rf FL", Call(K, PocketId.FL, legs=legs((), (RF,)))),
    ("R1 2 HR", Call(R1, PocketId.HR, legs=legs((), 2))),
    ("h K ML", Call(K, PocketId.ML, legs=legs((H,), ()))),
    ("kyyti R1 K FL", Call(K, PocketId.FL, Konsti.KYYTI, R1)),
    ("kara R2 lh K FR", Call(K, PocketId.FR, Konsti.KARA, R2, legs((), (LH,), ()))),
    ("K kiss R1 HL", Call(K, PocketId.HL, Konsti.KISS, R1)),
    ("W2 HL/lh HR", Call(W2, PocketId.HR, legs=legs((), (JawCushion(PocketId.HL, LH),)))),
]


@pytest.mark.parametrize(("text", "call"), DOCSTRING_EXAMPLES, ids=[t for t, _ in DOCSTRING_EXAMPLES])
def test_1_3_docstring_example_parses_to_its_meaning(text, call):
    assert parse_call(text) == call


@pytest.mark.parametrize(("text", "call"), DOCSTRING_EXAMPLES, ids=[t for t, _ in DOCSTRING_EXAMPLES])
def test_1_3_docstring_example_is_already_canonical(text, call):
    assert format_call(call) == text
    assert str(call) == text
    assert parse_call(format_call(parse_call(text))) == parse_call(text)


def test_1_3_docstring_examples_cover_every_kind_of_route():
    konsti = {call.konsti for _, call in DOCSTRING_EXAMPLES}
    assert konsti == {None, *Konsti}


# --- more canonical texts: counts, jaws, every rail, every pocket ------------------------------------------

CANONICAL = [
    "K ML",
    "K MR",
    "R2 HL",
    "W1 FR",
    "W2 3 FL",
    "1 K FR",
    "3 R1 1 HL",
    "h f K ML",
    "lh lf rh rf K FL",
    "K h f lh lf rh rf HR",
    "K FR/f FL",
    "K FR/ FL",
    "K FR/rf FL",
    "K ML/lh MR",
    "K ML/lf FR",
    "K MR/rh HL",
    "K MR/rf FL",
    "K HL/h HR",
    "K HR/rh HL",
    "K FL/lf MR",
    "HL/ FR/f K FR/ MR",
    "kyyti R1 2 K FL",
    "2 kyyti W2 h K 1 MR",
    "rf kyyti R1 h K lh FR",
    "kara W2 K ML",
    "lf kara R1 rh f K FL/lf HL",
    "2 kara K 3 R1 1 FR",
    "W2 kiss K HL",
    "f R2 lh kiss W1 rf HR",
    "3 R1 2 kiss R2 1 ML",
    "K HR/h kiss R1 FL/ HL",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_1_3_canonical_text_round_trips_exactly(text):
    call = parse_call(text)
    assert format_call(call) == text
    assert parse_call(format_call(call)) == call


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("k fl", "K FL"),
        ("k Fl", "K FL"),
        ("r1 2 hr", "R1 2 HR"),
        ("W2 hl/LH hr", "W2 HL/lh HR"),
        ("K fr/F fl", "K FR/f FL"),
        ("K fR/ Fl", "K FR/ FL"),
        ("KYYTI r1 k fl", "kyyti R1 K FL"),
        ("Kara R2 LH k FR", "kara R2 lh K FR"),
        ("k KISS r1 hl", "K kiss R1 HL"),
        ("H K ml", "h K ML"),
        ("K RF LF hr", "K rf lf HR"),
        ("  K \t rf\nFL  ", "K rf FL"),
    ],
)
def test_1_3_balls_pockets_rails_and_konsti_are_case_insensitive(text, canonical):
    assert parse_call(text) == parse_call(canonical)
    assert format_call(parse_call(text)) == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("K right-foot FL", "K rf FL"),
        ("K RIGHT-FOOT left-foot HR", "K rf lf HR"),
        ("head foot K ML", "h f K ML"),
        ("left-head K left-foot right-head right-foot FL", "lh K lf rh rf FL"),
        ("K FR/foot FL", "K FR/f FL"),
        ("K FR/Right-Foot FL", "K FR/rf FL"),
        ("W2 HL/left-head HR", "W2 HL/lh HR"),
        ("kara R2 left-head K FR", "kara R2 lh K FR"),
    ],
)
def test_1_3_full_rail_names_are_accepted_and_written_as_codes(text, canonical):
    assert parse_call(text) == parse_call(canonical)
    assert format_call(parse_call(text)) == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("K 0 FL", "K FL"),
        ("0 K 0 FL", "K FL"),
        ("K 00 FL", "K FL"),
        ("K 007 FL", "K 7 FL"),
        ("kyyti R1 0 K FL", "kyyti R1 K FL"),
    ],
)
def test_1_3_a_zero_count_is_no_cushions_and_has_one_form(text, canonical):
    assert parse_call(text) == parse_call(canonical)
    assert format_call(parse_call(text)) == canonical


def test_1_3_a_count_and_an_exact_sequence_are_different_calls():
    assert parse_call("K 2 FL") != parse_call("K rf h FL")
    assert parse_call("K 2 FL").legs[1] == Leg(count=2)
    assert parse_call("K rf h FL").legs[1] == Leg(cushions=(RF, H))
    assert parse_call("K rf h FL") != parse_call("K h rf FL")  # the order of cushions matters


def test_8h_jaw_without_a_side_is_a_jaw_of_either_side():
    call = parse_call("K FR/ FL")
    assert call.legs[1].cushions == (JawCushion(PocketId.FR, None),)
    assert parse_call("K FR/f FL").legs[1].cushions == (JawCushion(PocketId.FR, F),)


@pytest.mark.parametrize("pocket", list(PocketId))
def test_8h_every_jaw_of_every_pocket_round_trips(pocket):
    target = PocketId.HL if pocket is not PocketId.HL else PocketId.FR
    for side in (*OFFICIAL.rails_adjacent_to(pocket), None):
        call = Call(K, target, legs=legs((), (JawCushion(pocket, side),)))
        text = format_call(call)
        expected = f"{pocket.value}/{RAIL_CODES[side]}" if side else f"{pocket.value}/"
        assert text == f"K {expected} {target.value}"
        assert parse_call(text) == call


# --- properties of a call ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "direct", "cushions"),
    [
        ("K ML", True, 0),
        ("K 0 ML", True, 0),
        ("h K ML", False, 1),
        ("K rh ML", False, 1),
        ("K 2 ML", False, 2),
        ("K FR/ ML", False, 1),
        ("kyyti R1 K ML", False, 0),
        ("kara R1 K ML", False, 0),
        ("K kiss R1 ML", False, 0),
        ("2 kara R1 lh K 3 FL", False, 6),
    ],
)
def test_2_1_direct_means_no_cushion_on_any_leg_and_no_konsti(text, direct, cushions):
    call = parse_call(text)
    assert call.is_direct is direct
    assert call.cushion_count == cushions


@pytest.mark.parametrize(("konsti", "n"), [(None, 2), (Konsti.KYYTI, 3), (Konsti.KARA, 3), (Konsti.KISS, 3)])
def test_1_3_a_call_has_one_leg_per_role(konsti, n):
    via = None if konsti is None else R1
    call = Call(K, PocketId.FL, konsti, via)
    assert len(call.legs) == n == len(LEG_ROLES[konsti])
    assert all(leg == Leg() for leg in call.legs)


# --- typed errors: not a call at all ------------------------------------------------------------------------

SYNTAX_ERRORS = [
    "",
    "   ",
    "FL",  # no ball
    "K",  # no pocket
    "K FL extra",  # does not end with a pocket
    "K h",  # ends with a rail (one letter), no pocket
    "K 2",  # ends with a count
    "K R1",  # ends with a ball
    "K W2",
    "K FL K",
    "K FL FL",  # a pocket in the middle of the route
    "K K FL",  # two balls to pot
    "K R1 FL",  # a second ball without its konsti word
    "kyyti FL",  # konsti without its ball
    "kyyti K",
    "kyyti h K FL",  # konsti word not followed by a ball
    "kyyti kara R1 K FL",
    "K kyyti FL",
    "kiss R1 K FL",  # kiss comes after the called ball
    "K kyyti R1 FL",  # kyyti comes before the called ball
    "K kara R1 FL",
    "K 2 lf FL",  # a count stands alone in its leg
    "K lf 2 FL",
    "K 2 3 FL",
    "K -1 FL",
    "K 1.5 FL",
    "K x FL",
    "K rail FL",
    "K FR/zz FL",  # jaw side is not a rail
    "K FR/x FL",
    "K F1/f FL",  # not a jaw (digit in the pocket) and not a word
    "K FR-f FL",
    "K FR//f FL",
    "K banana FL",
]


@pytest.mark.parametrize("text", SYNTAX_ERRORS)
def test_1_3_text_that_is_not_a_call_is_a_syntax_error(text):
    with pytest.raises(CallSyntaxError) as info:
        parse_call(text)
    assert not isinstance(info.value, IllegalCallError)
    assert str(info.value)  # the message says what was wrong


@pytest.mark.parametrize("text", ["K ² FL", "² K FL", "K ١ FL", "K ２ FL"])
def test_1_3_unicode_digit_count_is_a_syntax_error_not_a_crash(text):
    with pytest.raises(CallSyntaxError):
        parse_call(text)


# --- typed errors: a call the rules forbid -------------------------------------------------------------------

ILLEGAL_CALLS = [
    "K XY",  # a pocket that does not exist
    "K MM",
    "R1 HM",
    "K FM",
    "K XY/f FL",  # a jaw of a pocket that does not exist
    "K ZZ/ FL",
    "kyyti R1 kara R2 K FL",  # two konsti (2)
    "kyyti R1 K kiss R2 FL",
    "kara W2 K kiss R1 HL",
    "kyyti R1 kyyti R2 K FL",
    "kyyti K K FL",  # the konsti ball is the called ball
    "kara K K FL",
    "K kiss K HL",
    "K FR/h FL",  # the head rail does not end at FR
    "K FR/lf FL",
    "K FR/right-head FL",
    "K FL/rf HR",
    "K ML/rh FL",
    "K ML/h FL",
    "K MR/lf FL",
    "K HL/f FR",
    "K HR/lh FR",
]


@pytest.mark.parametrize("text", ILLEGAL_CALLS)
def test_1_3_a_call_the_rules_forbid_is_an_illegal_call(text):
    with pytest.raises(IllegalCallError) as info:
        parse_call(text)
    assert not isinstance(info.value, CallSyntaxError)
    assert str(info.value)


def test_2_two_konsti_is_illegal_and_names_both():
    with pytest.raises(IllegalCallError, match=r"kyyti R1.*kara R2"):
        parse_call("kyyti R1 kara R2 K FL")


def test_1_3_pocket_that_does_not_exist_lists_the_pockets():
    with pytest.raises(IllegalCallError, match="HL HR ML MR FL FR"):
        parse_call("K XY")


def test_1_3_both_error_kinds_are_call_errors_and_kaisa_errors():
    assert issubclass(CallSyntaxError, CallError)
    assert issubclass(IllegalCallError, CallError)
    assert issubclass(CallError, KaisaError)
    assert not issubclass(CallSyntaxError, IllegalCallError)
    assert not issubclass(IllegalCallError, CallSyntaxError)
    for text in ("K", "K XY"):
        with pytest.raises(CallError):
            parse_call(text)


@pytest.mark.parametrize("shooter", [W1, W2])
def test_1_3_calling_ones_own_cue_ball_is_illegal(shooter):
    with pytest.raises(IllegalCallError, match="own cue ball"):
        parse_call(f"{shooter.value} FL").check_shooter(shooter)


@pytest.mark.parametrize("konsti", ["kyyti", "kara"])
@pytest.mark.parametrize("shooter", [W1, W2])
def test_2_ones_own_cue_ball_cannot_be_the_konsti_ball(shooter, konsti):
    call = parse_call(f"{konsti} {shooter.value} K FL")
    with pytest.raises(IllegalCallError, match="own cue ball"):
        call.check_shooter(shooter)


@pytest.mark.parametrize("shooter", [W1, W2])
def test_2_ones_own_cue_ball_cannot_be_the_kiss_ball(shooter):
    with pytest.raises(IllegalCallError):
        parse_call(f"K kiss {shooter.value} HL").check_shooter(shooter)


@pytest.mark.parametrize(
    ("text", "shooter"),
    [
        ("W2 FL", W1),
        ("W1 FL", W2),
        ("kyyti W2 K FL", W1),
        ("kara W1 R1 HL", W2),
        ("K kiss W2 HL", W1),
        ("K FL", W1),
        ("R1 HL", W2),
    ],
)
def test_1_3_the_opponents_white_and_object_balls_may_be_called(text, shooter):
    parse_call(text).check_shooter(shooter)  # does not raise


def test_2_call_built_in_code_is_checked_too():
    with pytest.raises(IllegalCallError):
        Call(K, PocketId.FL, Konsti.KYYTI, None)  # konsti without its ball
    with pytest.raises(IllegalCallError):
        Call(K, PocketId.FL, None, R1)  # a ball to play via without its konsti
    with pytest.raises(IllegalCallError):
        Call(K, PocketId.FL, Konsti.KISS, K)
    with pytest.raises(IllegalCallError):
        Call(K, PocketId.FL, legs=legs((), (), ()))  # three legs without a konsti
    with pytest.raises(IllegalCallError):
        Call(K, PocketId.FL, Konsti.KARA, R1, legs=legs((), ()))
    with pytest.raises(IllegalCallError):
        Leg(count=-1)
    with pytest.raises(IllegalCallError):
        Leg(cushions=(H,), count=1)


# --- Leg.matches ---------------------------------------------------------------------------------------------

JAW_FR_F = JawCushion(PocketId.FR, F)
JAW_FR_RF = JawCushion(PocketId.FR, RF)
JAW_FR_ANY = JawCushion(PocketId.FR, None)
JAW_FL_F = JawCushion(PocketId.FL, F)

MATCHES = [
    # (called leg, cushions really touched, matches?)
    (Leg(), (), True),
    (Leg(), (H,), False),
    (Leg(), (JAW_FR_F,), False),
    (Leg(count=0), (), True),
    (Leg(count=1), (), False),
    (Leg(count=1), (RF,), True),
    (Leg(count=1), (JAW_FR_F,), True),  # a jaw is a cushion (8h)
    (Leg(count=2), (H, H), True),
    (Leg(count=2), (H, JAW_FR_ANY), True),
    (Leg(count=2), (H,), False),
    (Leg(count=2), (H, F, LF), False),
    (Leg((H,)), (H,), True),
    (Leg((H,)), (F,), False),
    (Leg((H,)), (H, H), False),
    (Leg((H,)), (), False),
    (Leg((H, F)), (H, F), True),
    (Leg((H, F)), (F, H), False),  # order matters
    (Leg((H, F)), (H, F, H), False),  # an extra cushion
    (Leg((H, F)), (H,), False),  # a missing cushion
    (Leg((RF, LF, RF)), (RF, LF, RF), True),
    (Leg((JAW_FR_F,)), (JAW_FR_F,), True),
    (Leg((JAW_FR_F,)), (JAW_FR_RF,), False),  # the other jaw of the same pocket
    (Leg((JAW_FR_F,)), (JAW_FR_ANY,), True),  # a marker that did not say which jaw
    (Leg((JAW_FR_F,)), (JAW_FL_F,), False),  # the same rail's jaw at the other pocket
    (Leg((JAW_FR_F,)), (F,), False),  # the rail is not its jaw
    (Leg((F,)), (JAW_FR_F,), False),
    (Leg((JAW_FR_ANY,)), (JAW_FR_F,), True),
    (Leg((JAW_FR_ANY,)), (JAW_FR_RF,), True),
    (Leg((JAW_FR_ANY,)), (JawCushion(PocketId.FL, None),), False),
    (Leg((H, JAW_FR_ANY, LF)), (H, JAW_FR_RF, LF), True),
    (Leg((H, JAW_FR_ANY, LF)), (H, LF, JAW_FR_RF), False),
]


@pytest.mark.parametrize(("leg", "actual", "expected"), MATCHES)
def test_1_3_leg_matches(leg, actual, expected):
    assert leg.matches(actual) is expected
    assert leg.matches(list(actual)) is expected  # any sequence


@pytest.mark.parametrize(("leg", "count"), [(Leg(), 0), (Leg(count=0), 0), (Leg(count=3), 3), (Leg((H, JAW_FR_F)), 2)])
def test_1_3_leg_cushion_count(leg, count):
    assert leg.cushion_count == count


def test_1_3_a_count_matches_every_sequence_of_that_length():
    cushions: list[Cushion] = [*RailId, JAW_FR_F, JAW_FR_ANY]
    for n in range(4):
        leg = Leg(count=n)
        for actual in itertools.product(cushions, repeat=n):
            assert leg.matches(actual)
            assert not leg.matches((*actual, H))


def test_1_3_an_exact_leg_matches_only_itself():
    rng = random.Random(13)
    for _ in range(300):
        want = tuple(rng.choice(list(RailId)) for _ in range(rng.randint(0, 4)))
        got = tuple(rng.choice(list(RailId)) for _ in range(rng.randint(0, 4)))
        assert Leg(want).matches(got) is (want == got)


# --- generated round trips ---------------------------------------------------------------------------------

JAWS: list[JawCushion] = [JawCushion(p, side) for p in PocketId for side in (*OFFICIAL.rails_adjacent_to(p), None)]
ROUTES: list[tuple[Konsti | None, BallId | None]] = [(None, None), *((k, b) for k in Konsti for b in BallId)]


def random_leg(rng: random.Random) -> Leg:
    roll = rng.random()
    if roll < 0.3:
        return Leg()
    if roll < 0.5:
        return Leg(count=rng.randint(0, 5))
    pool: list[Cushion] = [*RailId, *JAWS]
    return Leg(cushions=tuple(rng.choice(pool) for _ in range(rng.randint(1, 4))))


def generated_calls(seed: int, per_combination: int) -> list[Call]:
    rng = random.Random(seed)
    calls = []
    for ball, pocket, (konsti, via) in itertools.product(BallId, PocketId, ROUTES):
        if via == ball:
            continue
        for _ in range(per_combination):
            route = tuple(random_leg(rng) for _ in LEG_ROLES[konsti])
            calls.append(Call(ball, pocket, konsti, via, route))
    return calls


def test_1_3_generated_calls_cover_every_ball_pocket_and_konsti():
    calls = generated_calls(2014, 1)
    assert {c.ball for c in calls} == set(BallId)
    assert {c.pocket for c in calls} == set(PocketId)
    assert {(c.konsti, c.via) for c in calls} == set(ROUTES)
    assert len(calls) == 5 * 6 * (1 + 3 * 4)


@pytest.mark.parametrize("seed", [1, 2, 3, 2014, 60])
def test_1_3_generated_calls_round_trip(seed):
    for call in generated_calls(seed, 3):
        text = format_call(call)
        assert parse_call(text) == call, text
        assert format_call(parse_call(text)) == text
        assert str(call) == text


def _mangle(token: str, rng: random.Random) -> str:
    """The same word as a player might type it: any case, full rail names instead of codes."""
    full = {code: rail.value for rail, code in RAIL_CODES.items()}
    if token in full and rng.random() < 0.5:
        token = full[token]
    elif "/" in token:
        pocket, side = token.split("/")
        if side and rng.random() < 0.5:
            side = full[side]
        token = f"{pocket}/{side}"
    return "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in token)


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_1_3_generated_calls_read_back_whatever_the_case_and_rail_names(seed):
    rng = random.Random(seed)
    for call in generated_calls(seed, 2):
        text = " ".join(_mangle(t, rng) for t in format_call(call).split())
        assert parse_call(text) == call, text


@pytest.mark.parametrize("seed", [11, 12])
def test_2_generated_calls_with_a_second_konsti_are_illegal(seed):
    rng = random.Random(seed)
    for call in generated_calls(seed, 1):
        if call.konsti in (None, Konsti.KISS):
            continue
        others = [b for b in BallId if b not in (call.ball, call.via)]
        text = format_call(call)
        words = text.split()
        words[-1:-1] = ["kiss", rng.choice(others).value]
        with pytest.raises(IllegalCallError):
            parse_call(" ".join(words))
