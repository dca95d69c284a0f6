"""Golden rulings: every kind of ruling, lag and placement message, in Finnish and English, pinned in
``tests/rules/golden/rulings.txt``; and the Finnish checked for English words and raw codes.

A change to a wording shows up as a diff of the golden file, to be read as a Finnish referee would. After a
deliberate change, regenerate it with ``.venv/bin/python -m tests.rules.test_golden_rulings`` and review the diff.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from kaisa.call import parse_call
from kaisa.model import BallId, Position
from kaisa.referee import Facts, GameState, LateFall, Ruling, judge
from kaisa.referee import catalogue as cat
from kaisa.referee.opening import IllegalPlacementError, LagFacts, check_hand_placement, check_w2_placement, judge_lag
from kaisa.referee.ruling import Text
from kaisa.table import OFFICIAL, PocketId, RailId, SpotId
from tests.referee_helpers import START, R, facts_of, state

GOLDEN = Path(__file__).parent / "golden" / "rulings.txt"
W1, W2, R1, R2, K = BallId.W1, BallId.W2, BallId.R1, BallId.R2, BallId.K
CENTRE = OFFICIAL.spots[SpotId.CENTRE]
HAND = {**START, "W1": (0.40, 0.30)}
IN_HAND = state(in_hand=frozenset({W1}))
SHOOTOUT_START = {"W1": (0.40, 0.30), "K": CENTRE}


def shootout(first: bool = True, w1: int = 0) -> GameState:
    return GameState(scores={W1: w1, W2: 0}, in_hand=frozenset({W1}) if first else frozenset(), shootout=True)


def called(f: Facts, **changes: Any) -> Facts:
    assert f.called is not None
    return replace(f, called=replace(f.called, **changes))


def ruled(call: str | None, facts: Facts, game: GameState | None = None) -> Ruling:
    return judge(facts, None if call is None else parse_call(call), game or GameState())


POT = ("strike W1", "ball W1 K", "pocket K FL")
POT_R1 = ("strike W1", "ball W1 R1", "pocket R1 HL")
FROZEN_R2 = {**START, "R2": (START["W1"][0] + 2 * R + 0.0001, START["W1"][1])}
PINNED = {**START, "W1": (R + 0.0001, 1.80), "R1": (3 * R + 0.0002, 1.80)}

SCENARIOS: dict[str, Callable[[], Ruling]] = {
    "2 kaisa into a corner with nakki and an extra red": lambda: ruled(
        "K FL", facts_of("K FL", *POT, "ball W1 R1", "ball W1 W2", "pocket R2 HR")
    ),
    "2.1 kaisa into a middle pocket via a cushion": lambda: ruled(
        "K rf ML", facts_of("K rf ML", "strike W1", "ball W1 K", "rail K rf", "pocket K ML")
    ),
    "2.1 the direct middle kaisa twice": lambda: ruled(
        "K ML",
        facts_of("K ML", "strike W1", "ball W1 K", "pocket K ML"),
        state(last_pot_direct_middle_kaisa=True),
    ),
    "2.1 a kyyti earns no nakki": lambda: ruled(
        "kyyti R1 K FL",
        facts_of("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL", "ball W1 R2"),
    ),
    "1.3 jaw rattles": lambda: ruled(
        "R1 HL", facts_of("R1 HL", "strike W1", "ball W1 R1", "jaw R1 HL h", "pocket R1 HL")
    ),
    "1.3 every route problem": lambda: ruled(
        "lf K f FL", facts_of("lf K f FL", "strike W1", "rail W1 rf", "ball W1 K", "rail K lf", "pocket K FL")
    ),
    "1.3 a cushion count and a jaw": lambda: ruled(
        "K 2 FL", facts_of("K 2 FL", "strike W1", "ball W1 K", "jaw K ML lf", "pocket K FL")
    ),
    "1.3 the cue ball hit another ball": lambda: ruled(
        "kara R1 K FL", facts_of("kara R1 K FL", "strike W1", "ball W1 R2", "ball W1 K", "pocket K FL")
    ),
    "1.3 the cue ball dropped before the called ball": lambda: ruled(
        "R1 HL", facts_of("R1 HL", "strike W1", "pocket W1 FR", "ball R2 R1", "pocket R1 HL")
    ),
    "1.3 the cue ball hit nothing": lambda: ruled(
        "R1 HL", facts_of("R1 HL", "strike W1", "ball R2 R1", "pocket R1 HL")
    ),
    "1.3 an uncalled konsti": lambda: ruled(
        "K FL", facts_of("K FL", "strike W1", "ball W1 K", "ball K R1", "pocket K FL")
    ),
    "2 two konsti": lambda: ruled(
        "K kiss R1 FL",
        facts_of("K kiss R1 FL", "strike W1", "ball W1 K", "ball K R1", "ball K R2", "pocket K FL"),
    ),
    "2 a second konsti ball on the way": lambda: ruled(
        "kyyti R1 K FL", facts_of("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 R2", "ball R2 K", "pocket K FL")
    ),
    "1.3 the cue ball touched the moving called ball after a kyyti": lambda: ruled(
        "kyyti R1 K FL",
        facts_of("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "ball K W1", "pocket K FL"),
    ),
    "1.3 the called ball into another pocket": lambda: ruled(
        "K FL", facts_of("K FL", "strike W1", "ball W1 K", "pocket K FR")
    ),
    "1.3 no call": lambda: ruled(None, facts_of(None, *POT)),
    "1.3 käkä and a moving ball": lambda: ruled("K FL", called(facts_of("K FL", *POT), kaka=True, moving=True)),
    "1.3 the kirjuri's judgement": lambda: ruled(
        "K FL", called(facts_of("K FL", *POT), route_ok=False, route_problems=())
    ),
    "7f mankeli": lambda: ruled("K FL", called(facts_of("K FL", *POT), mankeli=True)),
    "7g frozen short of the haaki line": lambda: ruled(
        "K FL", called(facts_of("K FL", *POT), frozen_short_of_haaki=True)
    ),
    "7h off a frozen ball": lambda: ruled(
        "kara R1 K FL",
        called(
            facts_of("kara R1 K FL", "strike W1", "ball W1 R1", "ball W1 K", "pocket K FL"),
            konsti_ball_frozen_to_cushion=True,
        ),
    ),
    "8c object balls frozen together": lambda: ruled(
        "kyyti R1 K FL",
        called(
            facts_of("kyyti R1 K FL", "strike W1", "ball W1 R1", "ball R1 K", "pocket K FL"), konsti_pair_frozen=True
        ),
    ),
    "7e a jump": lambda: ruled("K FL", replace(facts_of("K FL", *POT), jump_over_mask=True)),
    "7a the cue ball down touching nothing": lambda: ruled("K FL", facts_of("K FL", "strike W1", "pocket W1 HL")),
    "7a and 8f the cue ball off the table after the kaisa": lambda: ruled(
        "K FL", facts_of("K FL", "strike W1", "ball W1 K", "off W1")
    ),
    "8f an object ball off the table": lambda: ruled(None, facts_of(None, "strike W1", "ball W1 R1", "off R1")),
    "7b a touched ball": lambda: ruled("K FL", replace(facts_of("K FL", *POT), touched_by_player=True)),
    "8a 7d 7j a talonmies foul, restored": lambda: ruled(
        None, facts_of(None, "strike W1", "ball W1 R2", start=FROZEN_R2, direction=10.0)
    ),
    "8a 7d 7j a talonmies foul at a real table": lambda: ruled(
        None, replace(facts_of(None, "strike W1", "ball W1 R2", start=FROZEN_R2, direction=10.0), from_log=False)
    ),
    "7d a deliberate push away": lambda: ruled("R1 HL", facts_of("R1 HL", *POT_R1, start=FROZEN_R2, direction=60.0)),
    "7d a double hit": lambda: ruled("R1 HL", replace(facts_of("R1 HL", *POT_R1), double_hit=True)),
    "8b a cue ball that cannot be struck away": lambda: ruled(
        "R1 HR", facts_of("R1 HR", "strike W1", "ball W1 R1", "pocket R1 HR", start=PINNED, direction=10.0)
    ),
    "8b 7j the opponent's setup broken": lambda: ruled(
        "R1 HR",
        replace(
            facts_of("R1 HR", "strike W1", "ball W1 R1", "pocket R1 HR", start=PINNED, direction=10.0),
            setup_broken=True,
        ),
    ),
    "5 7c every fault from hand": lambda: ruled(
        "h R1 HL",
        facts_of(
            "h R1 HL", "strike W1", "rail W1 head", "ball W1 R1", "pocket R1 HL", start={**HAND, "R1": (0.9, 0.5)}
        ),
        IN_HAND,
    ),
    "5 a ball behind the line played directly": lambda: ruled(
        "R1 HL", facts_of("R1 HL", *POT_R1, start={**HAND, "R1": (0.9, 0.5)}), IN_HAND
    ),
    "5 a middle pot from hand without a cushion, an extra into a middle": lambda: ruled(
        "K ML", facts_of("K ML", "strike W1", "ball W1 K", "pocket K ML", start=HAND), IN_HAND
    ),
    "5 an extra into a middle pocket from hand": lambda: ruled(
        "K FL", facts_of("K FL", *POT, "ball W1 R1", "pocket R1 ML", start=HAND), IN_HAND
    ),
    "1.2 5 the direct middle kaisa on the break": lambda: ruled(
        "K ML", facts_of("K ML", "strike W1", "ball W1 K", "pocket K ML", start=HAND), state(opening=True)
    ),
    "1.2 a fault on the break": lambda: ruled(
        "R1 HL", facts_of("R1 HL", *POT_R1, start={**HAND, "R1": (0.9, 0.5)}), state(opening=True)
    ),
    "7i the wrong cue ball, the referee swaps": lambda: ruled(
        "R2 HR", replace(facts_of("R2 HR", "strike W2", "ball W2 R2", "pocket R2 HR"), swapped_by_referee=True)
    ),
    "7i an expired swap": lambda: ruled(None, replace(facts_of(None, "strike W1"), swap_expired=True)),
    "7j restored by the referee": lambda: ruled(
        "K FL", replace(facts_of("K FL", *POT), touched_by_player=True, restored_by_referee=True)
    ),
    "8e a ball falls by itself": lambda: ruled(None, replace(facts_of(None, "strike W1"), late_fall=LateFall(R1))),
    "8e 7j a player caused the fall": lambda: ruled(
        None, replace(facts_of(None, "strike W1"), late_fall=LateFall(R1, caused_by=W1))
    ),
    "8g a nakki ball off the table": lambda: ruled("K FL", facts_of("K FL", *POT, "ball W1 R1", "off R1")),
    "3 a white by kyyti at 55 with a red": lambda: ruled(
        "kyyti R1 W2 FL",
        facts_of("kyyti R1 W2 FL", "strike W1", "ball W1 R1", "ball R1 W2", "pocket W2 FL", "pocket R1 HR"),
        state(w1=55),
    ),
    "3 a white by kyyti with the kaisa to 60": lambda: ruled(
        "kyyti R1 W2 FL",
        facts_of("kyyti R1 W2 FL", "strike W1", "ball W1 R1", "ball R1 W2", "pocket W2 FL", "pocket K HR"),
        state(w1=52),
    ),
    "3 a white off a ball cannot finish": lambda: ruled(
        "W2 kiss R1 FL",
        facts_of("W2 kiss R1 FL", "strike W1", "ball W1 W2", "ball W2 R1", "pocket W2 FL"),
        state(w1=58),
    ),
    "3 a white with no nakki at 59": lambda: ruled(
        "W2 FL", facts_of("W2 FL", "strike W1", "ball W1 W2", "pocket W2 FL"), state(w1=59)
    ),
    "3 60 on a white with no nakki": lambda: ruled(
        "W2 FL", facts_of("W2 FL", "strike W1", "ball W1 W2", "pocket W2 FL"), state(w1=58)
    ),
    "3 game over": lambda: ruled("K FL", facts_of("K FL", *POT), state(w1=55)),
    "4 the kaisa back on the centre spot": lambda: ruled(
        None,
        facts_of(
            None, "strike W1", "ball W1 R1", start={**START, "K": OFFICIAL.spots[SpotId.HEAD_STRING], "R1": (0.3, 2.0)}
        ),
        state(kaisa_off_centre=True),
    ),
    "4.1 the kaisa and a red spotted together, the opponent's white in hand": lambda: ruled(
        "K FL", facts_of("K FL", *POT, "ball W1 R1", "pocket R1 HR", "ball W1 W2", "pocket W2 FR")
    ),
    "4 a spot taken": lambda: ruled(
        "R1 HL", facts_of("R1 HL", *POT_R1, start={**START, "K": OFFICIAL.spots[SpotId.HEAD_STRING]})
    ),
    "6 the first shoot-out pot into a corner": lambda: ruled(
        "K FL", facts_of("K FL", *POT, start=SHOOTOUT_START), shootout()
    ),
    "6 the first shoot-out pot into a middle pocket": lambda: ruled(
        "K rf ML",
        facts_of("K rf ML", "strike W1", "ball W1 K", "rail K rf", "pocket K ML", start=SHOOTOUT_START),
        shootout(),
    ),
    "6 the cue ball down in the shoot-out": lambda: ruled(
        "K FL",
        facts_of("K FL", "strike W1", "ball W1 K", "pocket W1 HR", start={**SHOOTOUT_START, "W1": (0.4, 1.0)}),
        shootout(first=False),
    ),
    "6 stopping the balls after a miss": lambda: ruled(
        "K FL",
        replace(
            facts_of("K FL", "strike W1", "ball W1 K", start={**SHOOTOUT_START, "W1": (0.4, 1.0)}), stopped_balls=True
        ),
        shootout(first=False),
    ),
}


def _lag(**faults: object) -> LagFacts:
    base: dict[str, object] = {
        "ball": W1,
        "touched_ball": False,
        "long_cushion": False,
        "dropped": False,
        "head_contacts": 1,
        "foot_contacts": 1,
        "crossed_long_centre_line": False,
        "final_y": 0.2,
    }
    return LagFacts(**{**base, **faults})  # type: ignore[arg-type]


def lag_messages() -> Iterator[tuple[str, Text]]:
    every = _lag(
        touched_ball=True,
        long_cushion=True,
        dropped=True,
        head_contacts=2,
        crossed_long_centre_line=True,
        foot_contacts=0,
    )
    result = judge_lag(every, _lag(ball=W2))
    for text in result.reasons[0]:
        yield "1.1", text


def placement_messages() -> Iterator[tuple[str, Text]]:
    start = Position(START)
    tries: list[Callable[[], None]] = [
        lambda: check_hand_placement(start.without(W1), W1, (0.40, 1.00)),
        lambda: check_hand_placement(start.without(W1), W1, (0.01, 0.30)),
        lambda: check_hand_placement(Position({**START, "R1": (0.40, 0.32)}).without(W1), W1, (0.40, 0.30)),
        lambda: check_w2_placement(Position({"K": CENTRE}), (0.30, 1.00)),
        lambda: check_w2_placement(Position({"K": CENTRE}), (0.50, 1.90)),
    ]
    for attempt in tries:
        try:
            attempt()
        except IllegalPlacementError as exc:
            yield "placement", exc.text
        else:  # pragma: no cover - every attempt is illegal
            raise AssertionError("a placement the golden file expects to be refused was accepted")


SAMPLE: dict[str, object] = {
    "ball": cat.ball(R1).text,
    "other": cat.ball(K).into,
    "got": cat.ball(R2).into,
    "want": cat.ball(R1).text,
    "went": cat.pocket(PocketId.FR).into,
    "called": cat.pocket(PocketId.FL).text,
    "pocket": cat.pocket(PocketId.ML).into,
    "role": Text("lyöntipallo W1", "the cue ball W1"),
    "problem": cat.say("1.3", "kaka"),
    "why": cat.say("1.3", "kirjuri"),
    "played": cat.cushion_list([RailId.LEFT_FOOT, RailId.FOOT]),
    "rattles": cat.count(2, "haakiosuma", "haakiosumaa", "jaw rattle", "jaw rattles"),
    "route": Text("suoraan", "directly"),
    "nakki": Text(" nakin kanssa", " with nakki"),
    "points": "3",
    "cue": "W1",
    "how": cat.say("7a", "pocket"),
    "first": cat.say("7a", "first", target=cat.ball(K).into),
    "target": cat.ball(K).into,
    "blocker": "R1",
    "fault": cat.say("5", "not_crossed"),
    "spot": cat.SPOT_NAMES[SpotId.FOOT_STRING],
    "angle": 30.0,
    "kyyti_at": 55,
    "white_at": 59,
    "winning": 60,
    "player": "1",
    "half": Text("vasemmalta", "left"),
    "side": "<",
    "axis": 0.71,
    "head": 0.71,
    "centre": 1.42,
    "x": 0.5,
    "y": 1.9,
    "r": 34.0,
    "clearance": 85.0,
    "gap": 12.5,
    "reason": cat.say("7f", "mankeli"),
}


def wording_messages() -> Iterator[tuple[str, Text]]:
    """Every wording of the catalogue, rendered with sample parameters."""
    for clause_id, key, wording in cat.all_wordings():
        names = {name for _, name, _, _ in string.Formatter().parse(wording.fi + wording.en) if name}
        params = {name: SAMPLE[name] for name in names}
        yield f"{clause_id or 'void'} {key}", wording.render(**params)


def rulings() -> Iterator[tuple[str, Ruling]]:
    for name, make in SCENARIOS.items():
        yield name, make()


def render() -> str:
    lines = [
        "# Golden rulings: every kind of ruling, lag and placement message, in Finnish and English.",
        "# Regenerate after a deliberate change: .venv/bin/python -m tests.rules.test_golden_rulings",
        "",
    ]
    for name, ruling in rulings():
        lines.append(f"## {name}  [{' '.join(ruling.clauses)}] {ruling.points:+d}")
        for line in (*ruling.items, *ruling.fouls, *ruling.notes):
            lines.append(f"  {line.clause:>4} {line.points:+3d} fi | {line.fi}")
            lines.append(f"  {'':>4} {'':>3} en | {line.en}")
        lines.append("")
    for title, messages in (
        ("lag", lag_messages()),
        ("placements", placement_messages()),
        ("every catalogue wording", wording_messages()),
    ):
        lines.append(f"## {title}")
        for label, text in messages:
            lines.append(f"  {label} fi | {text.fi}")
            lines.append(f"  {label} en | {text.en}")
        lines.append("")
    return "\n".join(lines)


def finnish_texts() -> Iterator[tuple[str, str]]:
    for name, ruling in rulings():
        for line in (*ruling.items, *ruling.fouls, *ruling.notes):
            yield name, line.fi
    for label, text in (*lag_messages(), *placement_messages(), *wording_messages()):
        yield label, text.fi


ENGLISH = {
    "the", "a", "an", "and", "or", "of", "to", "into", "with", "without", "from", "by", "via", "at", "in", "off",
    "not", "no", "is", "was", "be", "ball", "balls", "pocket", "pockets", "cushion", "cushions", "called", "call",
    "hit", "touched", "went", "dropped", "table", "turn", "inning", "points", "point", "foul", "corner", "middle",
    "head", "foot", "left", "right", "spot", "cue", "white", "red", "jaw", "rattles", "played", "none", "pot",
    "marker", "passes", "counts", "direct", "directly", "push", "double", "referee", "player", "game", "over",
}  # fmt: skip
"""English words a Finnish ruling must not contain ("on" is Finnish, so it is not listed)."""
RAW_CODES = {"HL", "HR", "ML", "MR", "FL", "FR", "h", "f", "lh", "lf", "rh", "rf", "K", "-"}
RAIL_IDS = re.compile(r"\b(left|right)-(head|foot)\b")


def test_golden_file_is_current():
    assert GOLDEN.exists(), "the golden file is missing: run .venv/bin/python -m tests.rules.test_golden_rulings"
    assert GOLDEN.read_text(encoding="utf-8") == render(), (
        "the rulings changed: read the diff as a Finnish referee would, then regenerate with "
        ".venv/bin/python -m tests.rules.test_golden_rulings"
    )


def test_every_catalogue_wording_is_in_the_golden_file():
    text = GOLDEN.read_text(encoding="utf-8")
    for clause_id, key, _ in cat.all_wordings():
        assert f"  {clause_id or 'void'} {key} fi | " in text


def test_finnish_texts_contain_no_english_words_or_raw_codes():
    problems = []
    for where, fi in finnish_texts():
        words = re.findall(r"[A-Za-zÅÄÖåäö0-9-]+", fi)
        english = sorted({w for w in words if w.lower() in ENGLISH})
        codes = sorted({w for w in words if w in RAW_CODES} | set(RAIL_IDS.findall(fi) and ["rail id"]))
        if english or codes:
            problems.append(f"{where}: {fi!r} has English {english} or codes {codes}")
    assert problems == []


def test_finnish_numbers_have_a_decimal_comma():
    for where, fi in finnish_texts():
        numbers = re.sub(r"\(\d+(\.\d+)?[a-j]?\)", "", fi)  # clause numbers such as (1.1a) keep their point
        assert not re.search(r"\d\.\d", numbers), f"{where}: {fi!r} writes a decimal point"


def test_finnish_texts_use_one_term_per_concept():
    """Lyöntivuoro for the turn, kirjuri for the marker (the club pages follow the glossary)."""
    for where, fi in finnish_texts():
        low = fi.lower()
        assert "merkitsijä" not in low, where
        assert not re.search(r"(?<!lyönti)vuoro\b", low), f"{where}: say lyöntivuoro, not vuoro: {fi!r}"


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(render(), encoding="utf-8")
    print(f"wrote {GOLDEN}")


def test_the_rulings_read_as_a_referee_says_them_without_chains_of_colons():
    """issue 29 (5): "Pussitusta ei hyväksytä: maalaus ei toteutunut: kohdepallo (punainen R1): maalatut
    vallikosketukset: ..." was four colons deep, the English said "not the called the kaisa", and the break's
    fault spoke of a ball in hand (7c: the break is not ball in hand)."""
    lines = [line.split("|", 1)[1] for line in render().splitlines() if "|" in line]
    assert lines
    for line in lines:
        assert line.count(":") <= 2, line
        assert "the called the " not in line, line
        assert "käsipallon on osuttava" not in line, line
        assert "sitä lyötiin kohti" not in line, line
