"""The match notation (kaisa.records.notation): header tags, one line per action, short rulings checked on replay.

A hand-made record pins the format (a golden playthrough: a lag played again, the choice of W2, W2's placement,
a break from hand, a clock break, legal pots, a miss, a foul); a seeded match between two baseline players
checks that writing, reading and playing again reproduce every action, ruling and state exactly. Every kind of
malformed input must raise a :class:`NotationError` naming its line.
"""

from __future__ import annotations

import json
import math

import pytest

from kaisa.call import CallError, parse_call
from kaisa.errors import KaisaError
from kaisa.game import (
    Action,
    Choose,
    ClockConfig,
    Lag,
    Match,
    MatchConfig,
    PlaceW2,
    Shot,
    TakeBreak,
    replay,
)
from kaisa.model import BallId, Stroke
from kaisa.records.notation import (
    TAGS,
    NotationError,
    ReplayError,
    ReplayMismatchError,
    ShortLag,
    ShortRuling,
    format_action,
    parse_record,
    read_match,
    replay_record,
    short_of,
    write_match,
)
from kaisa.referee import RuleOptions
from kaisa.table import BallSize, TableSpec

W1, W2 = BallId.W1, BallId.W2


def _lag(w1_speed: float, w2_speed: float) -> Lag:
    return Lag((Stroke(W1, w1_speed, 90.0, place=(0.355, 0.355)), Stroke(W2, w2_speed, 90.0, place=(1.065, 0.355))))


HAND_CONFIG = MatchConfig(players=("Aino", "Eero"), clock=ClockConfig("sim", 30.0))
HAND_TAGS = {"Event": 'Club "night"', "Date": "2025.03.14"}
HAND_ACTIONS: list[Action] = [
    _lag(1.45, 1.45),  # equal: lag again
    _lag(1.4, 1.6),  # player 1 nearer the head cushion
    Choose(W2),  # player 1 takes W2, so player 2 breaks with W1
    PlaceW2((0.71, 2.6128)),
    Shot(parse_call("R2 FL"), Stroke(W1, 3.0, 83.07888236156501, place=(0.5, 0.4)), 30.0),
    TakeBreak(W2, 120.0),
    Shot(parse_call("R1 HL"), Stroke(W2, 1.8, 266.9), 30.0),
    Shot(parse_call("K ML"), Stroke(W2, 1.8, 202.6), 30.0),
    Shot(None, Stroke(W2, 1.2, 10.0, elevation=5.0, side=0.1, follow=-0.2), 30.0),
    Shot(parse_call("K rf FL"), Stroke(W1, 2.0, 300.0, side=0.1 + 0.2, follow=-0.25), 12.345),
    Shot(parse_call("K FL"), Stroke(W2, 2.0, 155.0), 30.0),
]
OPTIONS_TAG = json.dumps(RuleOptions().to_json(), separators=(",", ":")).replace('"', '\\"')
HAND_RECORD = (
    '[Event "Club \\"night\\""]\n'
    '[Site "?"]\n'
    '[Date "2025.03.14"]\n'
    '[Round "?"]\n'
    '[Player1 "Aino"]\n'
    '[Player2 "Eero"]\n'
    '[Clock "sim"]\n'
    '[SecondsPerStroke "30.0"]\n'
    f'[Options "{OPTIONS_TAG}"]\n'
    '[Result "*"]\n'
    '[Score "0-9"]\n'
    "\n"
    "1. lag W1 1.45 90.0 0.0 0.0 0.0 @0.355,0.355 W2 1.45 90.0 0.0 0.0 0.0 @1.065,0.355 ; again\n"
    "2. lag W1 1.4 90.0 0.0 0.0 0.0 @0.355,0.355 W2 1.6 90.0 0.0 0.0 0.0 @1.065,0.355 ; win 1\n"
    "3. choose W2\n"
    "4. place-w2 @0.71,2.6128\n"
    "5. W1 R2 FL | 3.0 83.07888236156501 0.0 0.0 0.0 @0.5,0.4 30.0s ; 0 void >\n"
    "6. break W2 120.0s\n"
    "7. W2 R1 HL | 1.8 266.9 0.0 0.0 0.0 30.0s ; +3 legal\n"
    "8. W2 K ML | 1.8 202.6 0.0 0.0 0.0 30.0s ; +12 legal\n"
    "9. W2 - | 1.2 10.0 5.0 0.1 -0.2 30.0s ; 0 void >\n"
    "10. W1 K rf FL | 2.0 300.0 0.0 0.30000000000000004 -0.25 12.345s ; 0 void >\n"
    "11. W2 K FL | 2.0 155.0 0.0 0.0 0.0 30.0s ; -6 void !7a >\n"
)
"""The hand-made match as written: a golden record (real physics; a change in the engine shows up here)."""


def line_of(text: str, prefix: str) -> int:
    """The 1-based number of the first line of ``text`` that starts with ``prefix``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(prefix):
            return number
    raise AssertionError(f"no line starts with {prefix!r}")


def replace_line(text: str, prefix: str, new: str) -> tuple[str, int]:
    number = line_of(text, prefix)
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n", number


def assert_same_play(original: Match, replayed: Match) -> None:
    """Every state, ruling and lag of ``replayed`` is exactly ``original``'s."""
    assert len(replayed.stack) == len(original.stack)
    for a, b in zip(original.stack, replayed.stack, strict=True):
        assert b.action == a.action
        assert b.before.to_json() == a.before.to_json()
        assert (b.outcome.ruling is None) == (a.outcome.ruling is None)
        if a.outcome.ruling is not None and b.outcome.ruling is not None:
            assert b.outcome.ruling.to_json() == a.outcome.ruling.to_json()
        assert b.outcome.lag == a.outcome.lag
    assert replayed.state.to_json() == original.state.to_json()


@pytest.fixture(scope="module")
def hand_match() -> Match:
    return replay(HAND_CONFIG, HAND_ACTIONS)


# --- the hand-made record ---------------------------------------------------------------------------------


def test_hand_record_is_pinned(hand_match: Match) -> None:
    assert write_match(hand_match, HAND_TAGS) == HAND_RECORD


def test_hand_record_reads_back_to_the_actions(hand_match: Match) -> None:
    config, actions, tags, rulings = read_match(HAND_RECORD)
    assert config == HAND_CONFIG
    assert actions == HAND_ACTIONS
    assert tags["Event"] == 'Club "night"'
    assert tags["Result"] == "*"
    assert set(tags) <= set(TAGS)
    assert rulings == [short_of(entry.outcome) for entry in hand_match.stack]
    assert rulings[0] == ShortLag(None)
    assert rulings[1] == ShortLag(0)
    assert rulings[2] is rulings[3] is rulings[5] is None  # choose, place-w2, break
    assert rulings[6] == ShortRuling(3, legal=True)
    assert rulings[10] == ShortRuling(-6, legal=False, fouls=("7a",), turn_passes=True)


def test_hand_record_replays_exactly(hand_match: Match) -> None:
    replayed = replay_record(HAND_RECORD)
    assert_same_play(hand_match, replayed)
    assert replayed.state.clock.breaks == {W2: 120.0}
    assert write_match(replayed, HAND_TAGS) == HAND_RECORD


def test_comments_and_missing_rulings_are_allowed(hand_match: Match) -> None:
    """Lines starting with ';' are notes; an action line without a ruling comment is played unchecked."""
    lines = []
    for line in HAND_RECORD.splitlines():
        if line[:1].isdigit():
            lines.append("; a note before the action")
            line = line.split(" ; ")[0]
        lines.append(line)
    _config, actions, _, rulings = read_match("\n".join(lines))
    assert actions == HAND_ACTIONS
    assert rulings == [None] * len(actions)
    assert replay_record("\n".join(lines)).state.to_json() == hand_match.state.to_json()


def test_a_record_without_tags_uses_the_defaults() -> None:
    body = HAND_RECORD.split("\n\n", 1)[1]
    config, actions, tags, _ = read_match(body)
    assert tags == {}
    assert config == MatchConfig()
    assert actions == HAND_ACTIONS


# --- a seeded match between computer players ------------------------------------------------------------


def test_seeded_match_round_trips(seeded_match: Match) -> None:
    text = write_match(seeded_match, {"Seed": "1", "Event": "baseline v baseline"})
    config, actions, tags, rulings = read_match(text)
    assert config == seeded_match.config
    assert actions == [entry.action for entry in seeded_match.stack]
    assert rulings == [short_of(entry.outcome) for entry in seeded_match.stack]
    assert tags["Seed"] == "1"
    assert tags["Player1"] == "Baseline A"
    assert tags["Result"] == "*"
    assert len(text.splitlines()) == len(tags) + 1 + len(actions)  # the tags, a blank line, one line per action


def test_seeded_match_replays_every_ruling_and_position(seeded_match: Match) -> None:
    text = write_match(seeded_match, {"Seed": "1"})
    replayed = replay_record(text)
    assert_same_play(seeded_match, replayed)
    assert write_match(replayed, {"Seed": "1"}) == text


def test_whole_match_with_shootout_records_its_result(shootout_match: Match) -> None:
    text = write_match(shootout_match)
    result = shootout_match.state.result
    assert result is not None
    _, _, tags, _ = read_match(text)
    w1, w2 = result.recorded[W1], result.recorded[W2]
    assert tags["Result"] == f"{result.winner.value} {w1}-{w2}"
    assert tags["Termination"] == result.reason
    assert tags["Clock"] == "sim"
    assert " 30.0s ; " in text  # every stroke took the simulated 30 s
    assert_same_play(shootout_match, replay_record(text))
    unfinished, number = replace_line(text, "[Result ", '[Result "*"]')
    with pytest.raises(ReplayMismatchError, match=f"^line {number}: the record's Result is '\\*' but the replay gives"):
        replay_record(unfinished)


@pytest.mark.parametrize(("tag", "value"), [("Result", "W2 0-60"), ("Termination", "60 points (3)"), ("Score", "0-0")])
def test_a_wrong_result_is_a_mismatch_on_its_tag_line(tag: str, value: str) -> None:
    text, number = replace_line(HAND_RECORD, f"[{tag} " if tag != "Termination" else "[Score ", f'[{tag} "{value}"]')
    with pytest.raises(ReplayMismatchError) as info:
        replay_record(text)
    assert info.value.line == number
    assert str(info.value).startswith(f"line {number}: the record's {tag} is '{value}' but the replay gives ")


def test_a_tampered_ruling_in_the_seeded_record_names_its_line(seeded_match: Match) -> None:
    text = write_match(seeded_match)
    number = next(n for n, line in enumerate(text.splitlines(), start=1) if line.endswith("; +3 legal"))
    lines = text.splitlines()
    lines[number - 1] = lines[number - 1].replace("; +3 legal", "; +5 legal")
    with pytest.raises(ReplayMismatchError) as info:
        replay_record("\n".join(lines))
    assert info.value.line == number
    assert "the record says '+5 legal' but the replay rules '+3 legal'" in str(info.value)


# --- exactness ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [0.1 + 0.2, 1e-05, 2.0000000000000004, 359.99999999999994, 5e-324, 0.49999999999999994, 123456.78901234567],
)
def test_floats_read_back_to_the_same_bits(value: float) -> None:
    stroke = Stroke(W1, 1.0 + value % 1, value % 360, elevation=value % 60, side=-(value % 0.3), follow=value % 0.3)
    shot = Shot(parse_call("kyyti R1 K rf FR/f FL"), stroke, value)
    lag = Lag((Stroke(W1, 1.5, value % 360, place=(value % 1, value % 0.5)), Stroke(W2, 1.5, 90.0, place=(1.0, 0.3))))
    text = "\n".join(
        [
            format_action(1, lag),
            format_action(2, Choose(W1)),
            format_action(3, PlaceW2((value % 1.4, value % 2.8))),
            format_action(4, shot),
            format_action(5, TakeBreak(W2, value % 300)),
        ]
    )
    actions = read_match(text)[1]
    assert actions == [lag, Choose(W1), PlaceW2((value % 1.4, value % 2.8)), shot, TakeBreak(W2, value % 300)]
    read_shot = actions[3]
    assert isinstance(read_shot, Shot)
    for name in ("speed", "direction", "elevation", "side", "follow"):
        assert math.copysign(1.0, getattr(read_shot.stroke, name)) == math.copysign(1.0, getattr(stroke, name))


def test_tag_values_escape_quotes_and_backslashes() -> None:
    names = ('Matti "Kaisa" Virtanen', "C:\\kerho\\pelaaja")
    config = MatchConfig(players=names, options=RuleOptions(extra_kaisa_value=9), spec=TableSpec(BallSize.MM67))
    text = write_match(Match(config), {"Event": "SM \\ 2025", "Round": "1/8"})
    read_config, _, tags, _ = read_match(text)
    assert read_config == config
    assert tags["Event"] == "SM \\ 2025"
    assert tags["Round"] == "1/8"
    assert '[Table "{\\"ball_size\\":\\"67mm\\"}"]' in text


def test_write_match_takes_only_the_free_tags() -> None:
    with pytest.raises(NotationError, match="written from the match"):
        write_match(Match(), {"Result": "W1 60-0"})
    with pytest.raises(NotationError, match="unknown tag 'Annotator'"):
        write_match(Match(), {"Annotator": "me"})


# --- malformed records ----------------------------------------------------------------------------------

MALFORMED = [
    ("[Event", '[Event "no closing quote]', "a tag line is"),
    ("[Site", '[Venue "Helsinki"]', "unknown tag 'Venue'"),
    ("[Round", '[Date "2025.01.01"]', "tag Date given twice (first on line 3)"),
    ("[Clock", '[Clock "fast"]', "Clock must be off, sim or wall"),
    ("[SecondsPerStroke", '[SecondsPerStroke "thirty"]', "'thirty' is not a number for SecondsPerStroke"),
    ("[Options", '[Options "{\\"no_such_option\\":1}"]', "unknown rule options ['no_such_option']"),
    ("[Options", '[Options "{not json"]', "bad Options"),
    ("[Result", '[Result "W1 wins"]', "bad Result 'W1 wins'"),
    ("[Score", '[Score "many"]', "bad Score"),
    ("1. ", "1. lag W1 1.45 90.0 0.0 0.0 0.0 @0.355,0.355 ; again", "a lag line has two strokes"),
    ("2. ", "2. lag W1 1.4 90.0 0.0 0.0 0.0 @0.355,0.355 W2 1.6 90.0 0.0 0.0 0.0 @1.065,0.355 ; win 3", "bad lag"),
    ("3. ", "3. choose W2 ; 0 void", "only lag and shot lines carry a ruling comment"),
    ("3. ", "3. pick W2", "unknown action 'pick'"),
    ("3. ", "3. choose K", "'K' is not a cue ball"),
    ("4. ", "4. place-w2 0.71,2.6128", "bad place '0.71,2.6128' for W2"),
    ("4. ", "4. place-w2 @0.71,two", "'two' is not a number for W2 y"),
    ("5. ", "5. W1 R2 FL | 3.0 83.x 0.0 0.0 0.0 @0.5,0.4 30.0s", "'83.x' is not a number for direction"),
    ("5. ", "5. W1 R2 FL | 3.0 nan 0.0 0.0 0.0 @0.5,0.4", "'nan' is not a number for direction"),
    ("5. ", "5. W1 R2 FL | 3.0 1e999 0.0 0.0 0.0 @0.5,0.4", "'1e999' for direction is too large"),
    ("5. ", "5. W1 R2 FL | 3.0 83.0 0.0 0.0 @0.5,0.4", "a stroke has 5 numbers"),
    ("5. ", "5. W1 R2 FL | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4 30.0", "a stroke has 5 numbers"),
    ("5. ", "5. W1 R2 FL | 3.0 83.0 0.0 0.0 0.0 @0.5", "bad place '@0.5' for the cue ball"),
    ("5. ", "5. W1 R2 FL | 9.5 83.0 0.0 0.0 0.0 @0.5,0.4", "impossible stroke: stroke speed 9.5"),
    ("5. ", "5. W1 R2 XX | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4", "bad call 'R2 XX'"),
    ("5. ", "5. W1 kyyti R1 | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4", "bad call 'kyyti R1'"),
    ("5. ", "5. W1 | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4", "a shot names its call, or '-'"),
    ("5. ", "5. W3 R2 FL | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4", "'W3' is not a cue ball"),
    ("5. ", "5. W1 R2 FL | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4 ; +3 maybe", "bad ruling comment '+3 maybe'"),
    ("5. ", "5. W1 R2 FL | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4 ; 0 void > !7a", "unexpected '!7a'"),
    ("5. ", "5. W1 R2 FL | 3.0 83.0 0.0 0.0 0.0 @0.5,0.4 ; 0 void !seven", "bad foul '!seven'"),
    ("6. ", "6. break W2 120", "a break line names the cue ball and the seconds"),
    ("6. ", "7. break W2 120.0s", "action number 7 out of order: expected 6"),
    ("6. ", "break W2 120.0s", "an action line starts with its number and a dot ('6.')"),
    ("11. ", '[Round "1"]', "header tags come before the actions"),
]


@pytest.mark.parametrize(("prefix", "bad", "message"), MALFORMED, ids=[m[2][:40] for m in MALFORMED])
def test_malformed_lines_raise_with_their_line_number(prefix: str, bad: str, message: str) -> None:
    text, number = replace_line(HAND_RECORD, prefix, bad)
    with pytest.raises(NotationError) as info:
        read_match(text)
    assert info.value.line == number
    assert str(info.value).startswith(f"line {number}: ")
    assert message in str(info.value)
    assert isinstance(info.value, KaisaError)
    assert not isinstance(info.value, ReplayMismatchError)


def test_a_call_that_does_not_parse_wraps_the_call_error() -> None:
    text, number = replace_line(HAND_RECORD, "7. ", "7. W2 R1 kyyti K kara R2 HL | 1.8 266.9 0.0 0.0 0.0 30.0s")
    with pytest.raises(NotationError) as info:
        parse_record(text)
    assert info.value.line == number
    assert isinstance(info.value.__cause__, CallError)
    assert "one konsti" in str(info.value)


def test_an_action_the_match_refuses_names_its_line() -> None:
    text, number = replace_line(HAND_RECORD, "3. ", "3. place-w2 @0.71,2.6128")
    with pytest.raises(ReplayError) as info:
        replay_record(text)
    assert info.value.line == number
    assert "action 3 cannot be played: the match expects a Choose action" in str(info.value)


@pytest.mark.parametrize(
    ("prefix", "old", "new"),
    [
        ("7. ", "; +3 legal", "; +2 legal"),
        ("8. ", "; +12 legal", "; +12 legal >"),
        ("9. ", "; 0 void >", "; 0 legal >"),
        ("11. ", "; -6 void !7a >", "; -6 void !7b >"),
        ("1. ", "; again", "; win 2"),
    ],
)
def test_a_tampered_ruling_raises_a_mismatch_naming_the_line(prefix: str, old: str, new: str) -> None:
    number = line_of(HAND_RECORD, prefix)
    lines = HAND_RECORD.splitlines()
    assert lines[number - 1].endswith(old)
    lines[number - 1] = lines[number - 1].replace(old, new)
    with pytest.raises(ReplayMismatchError) as info:
        replay_record("\n".join(lines))
    assert info.value.line == number
    assert str(info.value).startswith(f"line {number}: action {prefix.strip('. ')}: the record says '{new[2:]}'")
