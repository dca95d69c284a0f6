"""A property over random marker entries: whatever a marker enters, every entry the match session accepts leaves
a state a real table can be in (every ball on the table or in its owner's hand, none both, none overlapping),
checked here independently of the session's own check; and the referee itself produces such states, so the
session's check refuses nothing the marker could really have seen (it is a guard, not a filter)."""

from __future__ import annotations

import math
import random

import pytest

from kaisa.call import Call, parse_call
from kaisa.errors import KaisaError
from kaisa.game import Choose, ClockConfig, MarkedLag, Phase, PlaceW2
from kaisa.game.marking import MarkingError, Marks
from kaisa.model import BallId
from kaisa.players import HUMAN
from kaisa.records.storage import PlayerInfo
from kaisa.referee import LateFall
from kaisa.referee.marker import HandFault
from kaisa.session.match import MatchSession
from kaisa.session.registry import Sessions, match_config
from kaisa.table import OFFICIAL, PocketId

ENTRIES = 10_000
"""Entries accepted or refused in all, at least."""
ENTRIES_PER_MATCH = 100
MAX_MATCHES = 200
"""Matches at most to reach ENTRIES (about 102 are needed: some end at 60 points before 100 entries)."""
BALLS = list(BallId)
POCKETS = list(PocketId)


def valid(session: MatchSession) -> str | None:
    """What is wrong with the balls after the last entry, or None."""
    state = session.state
    position, in_hand = state.position, state.game.in_hand
    both = [b for b in in_hand if b in position]
    if both:
        return f"{both} both in hand and on the table"
    if state.phase is Phase.PLAY:
        missing = [b for b in BALLS if b not in position and b not in in_hand]
        if missing:
            return f"{missing} neither on the table nor in hand"
    items = list(position.items())
    for i, (a, p) in enumerate(items):
        if not OFFICIAL.ball_fits(p, tolerance=0.002):
            return f"{a} off the bed at {p}"
        for b, q in items[i + 1 :]:
            if math.dist(p, q) < OFFICIAL.ball_diameter - 0.0021:
                return f"{a} and {b} overlap"
    return None


def random_marks(rng: random.Random, session: MatchSession) -> tuple[Call | None, Marks]:
    """A marker's entry, plausible or not: balls on the table dropped, off, hit, moved; any flags."""
    state = session.state
    shooter, from_hand = state.game.shooter, state.game.from_hand
    on_table = [b for b in state.position if b is not shooter or not from_hand]
    if from_hand:
        on_table.append(shooter)
    pool = list(on_table)
    rng.shuffle(pool)
    pots = [(b, rng.choice(POCKETS)) for b in pool[: rng.choice([0, 0, 1, 1, 2])]]
    rest = pool[len(pots) :]
    off = rest[:1] if rng.random() < 0.05 else []
    others = [b for b in on_table if b is not shooter]
    place = None
    if from_hand:
        place = (rng.uniform(0.05, 1.37), rng.uniform(0.05, OFFICIAL.head_string - 0.01))
    moves = {}
    gone = {b for b, _ in pots} | set(off)
    for b in on_table:
        if b not in gone and rng.random() < 0.15:
            moves[b] = (rng.uniform(0.04, 1.38), rng.uniform(0.04, 2.8))
    call = None
    if rng.random() < 0.7 and others:
        if pots and rng.random() < 0.6:
            ball, pocket = pots[0]
        else:
            ball, pocket = rng.choice(others), rng.choice(POCKETS)
        if ball is not shooter:
            call = parse_call(f"{ball.value} {pocket.value}")
    marks = Marks(
        struck=(BallId.W2 if shooter is BallId.W1 else BallId.W1) if rng.random() < 0.03 else None,
        pots=tuple(pots),
        off_table=tuple(off),
        first_contact=rng.choice([None, *others]) if others else None,
        nakki=frozenset(b for b in others if rng.random() < 0.1),
        called_as_called=rng.random() < 0.9,
        place=place,
        moves=moves,
        mankeli=rng.random() < 0.03,
        cushion_pots=frozenset(b for b, _ in pots if rng.random() < 0.2),
        hand_fault=rng.choice(list(HandFault)) if from_hand and rng.random() < 0.1 else None,
        talonmies_angle=rng.uniform(0, 90) if rng.random() < 0.03 else None,
        touched_by_player=rng.random() < 0.03,
        jump_over_mask=rng.random() < 0.02,
        restored_by_referee=rng.random() < 0.05,
        late_fall=LateFall(rng.choice(others)) if others and rng.random() < 0.02 else None,
        double_hit=rng.random() < 0.03,
        stopped_balls=rng.random() < 0.02,
    )
    if marks.late_fall is not None:
        marks = Marks(late_fall=marks.late_fall, place=place)
        call = None
    return call, marks


def play_random_entries(seed: int) -> int:
    """A match of up to ENTRIES_PER_MATCH random entries from ``seed``, each checked; returns how many entries the
    session accepted or refused."""
    rng = random.Random(seed)
    players = [PlayerInfo("A", HUMAN), PlayerInfo("B", HUMAN)]
    session = Sessions().unrecorded(players, match_config(players, clock=ClockConfig("off")))
    session.push(MarkedLag(rng.choice([0, 1])))
    session.push(Choose(rng.choice([BallId.W1, BallId.W2])))
    session.push(PlaceW2((0.71, 2.6)))
    guarded = entries = 0
    for _ in range(ENTRIES_PER_MATCH):
        if session.state.phase not in (Phase.PLAY, Phase.SHOOTOUT):
            break
        call, marks = random_marks(rng, session)
        before = session.state
        entries += 1
        try:
            session.mark(call, marks)
        except MarkingError as refused:
            assert session.state == before  # nothing changed
            if refused.code in ("ball-twice", "ball-missing", "balls-overlap"):
                guarded += 1
            continue
        except KaisaError:
            assert session.state == before
            continue
        problem = valid(session)
        assert problem is None, f"seed {seed}: accepted {call} {marks} and left {problem}"
    assert guarded == 0, f"seed {seed}: the referee produced {guarded} impossible states the session had to refuse"
    return entries


@pytest.mark.slow
def test_every_accepted_marker_entry_leaves_the_balls_where_a_table_can_have_them() -> None:
    """Fresh matches (seeded, the same every run) until ENTRIES entries were accepted or refused: a match ends
    before ENTRIES_PER_MATCH entries when a player reaches 60, so the matches are counted, not the entries."""
    seeds = random.Random(2026)
    entries = matches = 0
    while entries < ENTRIES and matches < MAX_MATCHES:
        entries += play_random_entries(seeds.randrange(2**32))
        matches += 1
    assert entries >= ENTRIES, f"{matches} matches gave only {entries} entries"
