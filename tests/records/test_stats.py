"""Match statistics (kaisa.records.stats): points, innings, runs (sarja), called-pot success and fouls.

The hand-checked match is played by the real match state machine and the real referee, with a scripted
simulator that returns a chosen event log for each shot (the lag is real physics), so every figure below can
be worked out from the rulebook by hand. A seeded match between baseline players and a whole match with a
penalty shoot-out check the invariants that tie the figures to the match state.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from kaisa.call import parse_call
from kaisa.errors import FormatError
from kaisa.game import Action, Choose, Lag, Match, MatchConfig, PlaceW2, Shot, replay
from kaisa.model import BallId, Position, ShotRecord, Stroke
from kaisa.physics import simulate
from kaisa.records.notation import write_match
from kaisa.records.stats import (
    MATCH_COLUMNS,
    TOTALS_COLUMNS,
    MatchStats,
    PlayerStats,
    PlayerTotals,
    aggregate,
    from_json,
    match_stats,
    record_stats,
    stored_stats,
    to_csv,
    to_json,
)
from kaisa.records.storage import Store, open_store
from kaisa.referee import StrokeLog
from kaisa.table import OFFICIAL, TableSpec
from tests.referee_helpers import event

W1, W2 = BallId.W1, BallId.W2


def scripted(shots: Sequence[tuple[str, ...]]) -> Callable[..., ShotRecord]:
    """A simulator that plays lags on the real engine and answers each shot with the next scripted event log
    (steps as in ``referee_helpers``); a ball in hand starts on its ``place`` and stays there."""
    queue = list(shots)

    def simulator(
        position: Position, stroke: Stroke, *, trajectories: float | None = None, spec: TableSpec = OFFICIAL
    ) -> ShotRecord:
        if trajectories is not None:
            return simulate(position, stroke, trajectories=trajectories, spec=spec)
        start = position if stroke.place is None else position.with_ball(stroke.ball, stroke.place)
        events = tuple(event(step, round(0.1 * i, 3)) for i, step in enumerate(queue.pop(0)))
        log = StrokeLog.from_events(start, events)
        return ShotRecord(start, stroke, log.events, log.final, 0.1 * len(events))

    return simulator


def shot(call: str | None, ball: BallId, place: tuple[float, float] | None = None) -> Shot:
    return Shot(None if call is None else parse_call(call), Stroke(ball, 2.0, 90.0, place=place))


# Player 1 (Aino) wins the lag and takes W1; player 2 (Eero) has W2. Object balls on their spots, W2 placed.
HAND: list[tuple[Action, tuple[str, ...] | None]] = [
    (Lag((Stroke(W1, 1.4, 90.0, place=(0.355, 0.355)), Stroke(W2, 1.6, 90.0, place=(1.065, 0.355)))), None),
    (Choose(W1), None),
    (PlaceW2((0.71, 2.6128)), None),
    # Aino's inning 1: red 3 (the break), corner kaisa 6, direct middle kaisa 12, a miss: run 21
    (shot("R2 FL", W1, (0.5, 0.4)), ("strike W1", "ball W1 R2", "pocket R2 FL")),
    (shot("K FL", W1), ("strike W1", "ball W1 K", "pocket K FL")),
    (shot("K ML", W1), ("strike W1", "ball W1 K", "pocket K ML")),
    (shot(None, W1), ("strike W1", "ball W1 R1")),
    # Eero's inning 1: red with the kaisa as nakki 3 + 6, then his cue ball down off the kaisa (7a: -6): run 9
    (shot("R1 HL", W2), ("strike W2", "ball W2 R1", "pocket R1 HL", "ball W2 K")),
    (shot("K FR", W2), ("strike W2", "ball W2 K", "pocket W2 FR")),
    # Aino's inning 2: red 3, a stroke touching nothing: run 3
    (shot("R2 FR", W1), ("strike W1", "ball W1 R2", "pocket R2 FR")),
    (shot(None, W1), ("strike W1",)),
    # Eero's inning 2, from hand: straight at the red on the head string, not crossing it: 5, 5 and 7c, run 0
    (shot("R1 HR", W2, (0.3, 0.3)), ("strike W2", "ball W2 R1")),
    # Aino's inning 3: kaisa in a corner with both reds as nakki 9 + 3 + 3, direct middle 12, kaisa + red 9 + 3
    (shot("K FL", W1), ("strike W1", "ball W1 K", "ball W1 R1", "ball W1 R2", "pocket K FL")),
    (shot("K ML", W1), ("strike W1", "ball W1 K", "pocket K ML")),
    (shot("K FR", W1), ("strike W1", "ball W1 K", "ball W1 R2", "pocket K FR")),  # 63: game over (3)
]
HAND_CONFIG = MatchConfig(players=("Aino", "Eero"))


@pytest.fixture(scope="module")
def hand_match() -> Match:
    script = [steps for _, steps in HAND if steps is not None]
    return replay(HAND_CONFIG, [action for action, _ in HAND], simulator=scripted(script))


def assert_invariants(match: Match, stats: MatchStats) -> None:
    state = match.state
    assert state.owners is not None
    strokes = [e for e in match.stack if isinstance(e.action, Shot)]
    for index, p in enumerate(stats.players):
        ball = state.owners[index]
        assert p.player == index + 1
        assert p.name == match.config.players[index]
        assert p.cue_ball == ball.value
        assert p.points == state.game.scores[ball]  # every point, fouls and shoot-out included
        assert p.innings == state.innings[ball] == len(p.runs)
        assert sum(p.runs) + sum(p.shootout_runs) == p.scored  # runs are points earned, before penalties
        assert p.points == p.scored - p.penalty_points
        assert p.play_points == p.points - p.shootout_points
        assert p.longest_run >= p.second_longest_run >= 0
        top = [*sorted(p.runs, reverse=True), 0, 0]
        assert (p.longest_run, p.second_longest_run) == (top[0], top[1])
        assert p.legal_pots <= p.called_shots <= p.strokes
        assert p.fouls <= sum(p.fouls_by_clause.values())
        own = [e.outcome.ruling for e in strokes if e.outcome.ruling is not None and e.outcome.ruling.shooter is ball]
        assert p.strokes == len(own)
        assert p.penalty_points == -sum(f.points for ruling in own for f in ruling.fouls)
        if state.shootout is None:
            assert p.shootout_runs == ()
            assert p.shootout_points == 0
        else:
            assert p.shootout_innings == state.shootout.innings[ball]
    assert sum(p.strokes for p in stats.players) == len(strokes) == state.strokes
    assert stats.actions == len(match.stack)


# --- the hand-checked match -----------------------------------------------------------------------------


def test_the_scripted_match_is_ruled_as_planned(hand_match: Match) -> None:
    rulings = [e.outcome.ruling for e in hand_match.stack if e.outcome.ruling is not None]
    assert [r.points for r in rulings] == [3, 6, 12, 0, 9, -6, 3, 0, 0, 15, 12, 12]
    assert [f.clause for f in rulings[8].fouls] == ["5", "5", "7c"]
    result = hand_match.state.result
    assert result is not None
    assert result.winner is W1
    assert result.scores == {W1: 63, W2: 3}
    assert result.recorded == {W1: 60, W2: 3}


def test_hand_checked_figures(hand_match: Match) -> None:
    stats = match_stats(hand_match, event="Club night", date="2025.03.14")
    aino, eero = stats.players
    assert aino == PlayerStats(
        player=1,
        name="Aino",
        cue_ball="W1",
        points=63,
        recorded=60,
        won=True,
        innings=3,
        runs=(21, 3, 39),
        strokes=9,
        scored=63,
        called_shots=7,
        legal_pots=7,
    )
    assert (aino.longest_run, aino.second_longest_run, aino.points_per_inning, aino.called_pot_success) == (
        39,
        21,
        21.0,
        1.0,
    )
    assert eero == PlayerStats(
        player=2,
        name="Eero",
        cue_ball="W2",
        points=3,
        recorded=3,
        won=False,
        innings=2,
        runs=(9, 0),
        strokes=3,
        scored=9,
        penalty_points=6,
        fouls=2,
        fouls_by_clause={"5": 2, "7a": 1, "7c": 1},
        called_shots=3,
        legal_pots=1,
    )
    assert (eero.longest_run, eero.second_longest_run, eero.points_per_inning) == (9, 0, 1.5)
    assert eero.called_pot_success == pytest.approx(1 / 3)
    assert (stats.finished, stats.winner, stats.reason, stats.actions, stats.lags) == (
        True,
        1,
        "60 points (3)",
        15,
        1,
    )
    assert_invariants(hand_match, stats)


def test_hand_checked_csv(hand_match: Match) -> None:
    text = to_csv(match_stats(hand_match, event="Club night", date="2025.03.14"))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0] == ",".join(MATCH_COLUMNS)
    assert len(rows) == 2
    assert rows[0] | {} == {
        "event": "Club night",
        "date": "2025.03.14",
        "player": "1",
        "name": "Aino",
        "cue_ball": "W1",
        "result": "W",
        "points": "63",
        "recorded": "60",
        "innings": "3",
        "points_per_inning": "21.0000",
        "longest_run": "39",
        "second_longest_run": "21",
        "strokes": "9",
        "called_shots": "7",
        "legal_pots": "7",
        "called_pot_success": "1.0000",
        "fouls": "0",
        "penalty_points": "0",
        "shootout_innings": "0",
        "shootout_points": "0",
    }
    assert (rows[1]["name"], rows[1]["result"], rows[1]["fouls"], rows[1]["penalty_points"]) == ("Eero", "L", "2", "6")
    assert rows[1]["called_pot_success"] == "0.3333"


def test_unfinished_and_empty_matches() -> None:
    stats = match_stats(Match(MatchConfig(players=("A", "B"))))
    assert [p.cue_ball for p in stats.players] == [None, None]
    assert all(p.won is None and p.recorded is None and p.points_per_inning is None for p in stats.players)
    assert all(p.called_pot_success is None for p in stats.players)
    rows = list(csv.DictReader(io.StringIO(to_csv(stats))))
    assert [r["result"] for r in rows] == ["", ""]
    assert rows[0]["points_per_inning"] == ""
    assert from_json(to_json(stats)) == stats


# --- invariants on real play ----------------------------------------------------------------------------


def test_seeded_match_invariants(seeded_match: Match) -> None:
    stats = match_stats(seeded_match)
    assert not stats.finished
    assert stats.winner is None
    assert all(p.won is None and p.recorded is None for p in stats.players)
    assert_invariants(seeded_match, stats)


def test_shootout_innings_are_kept_apart(shootout_match: Match) -> None:
    stats = match_stats(shootout_match)
    assert_invariants(shootout_match, stats)
    result = shootout_match.state.result
    assert result is not None
    assert stats.finished
    assert stats.reason == result.reason
    assert all(p.shootout_innings == 10 for p in stats.players)  # no equal score: ten innings each (6)
    winner = stats.players[stats.winner - 1] if stats.winner else None
    assert winner is not None
    assert winner.won
    assert winner.cue_ball == result.winner.value


def test_record_stats_reads_a_record(seeded_match: Match) -> None:
    text = write_match(seeded_match, {"Event": "Test cup", "Date": "2025.01.02"})
    assert record_stats(text) == match_stats(seeded_match, event="Test cup", date="2025.01.02")


# --- export and aggregation -----------------------------------------------------------------------------


def test_json_round_trips(hand_match: Match, seeded_match: Match, shootout_match: Match) -> None:
    matches = [match_stats(m) for m in (hand_match, seeded_match, shootout_match)]
    for stats in matches:
        text = to_json(stats)
        assert json.loads(text)["kind"] == "match"
        assert from_json(text) == stats
        assert MatchStats.from_json(stats.to_json()) == stats
    assert from_json(to_json(matches)) == matches
    totals = aggregate(matches)
    assert from_json(to_json(totals)) == totals
    data: dict[str, Any] = json.loads(to_json(matches[0]))
    assert data["players"][0]["longest_run"] == 39  # derived figures are written for readers


def test_aggregate_per_player_name(hand_match: Match, seeded_match: Match, shootout_match: Match) -> None:
    seeded, shootout = match_stats(seeded_match), match_stats(shootout_match)
    totals = aggregate([match_stats(hand_match), seeded, shootout])
    assert [t.name for t in totals] == ["Aino", "Eero", "Baseline A", "Baseline B"]
    a = totals[2]
    parts = [seeded.players[0], shootout.players[0]]
    assert (a.matches, a.wins + a.losses + a.unfinished) == (2, 2)
    assert a.unfinished == 1
    assert a.wins == int(bool(shootout.players[0].won))
    for name in ("points", "innings", "strokes", "scored", "penalty_points", "fouls", "called_shots", "legal_pots"):
        assert getattr(a, name) == sum(getattr(p, name) for p in parts)
    assert a.shootout_innings == 10
    assert a.shootout_points == shootout.players[0].shootout_points
    all_runs = sorted([*parts[0].runs, *parts[1].runs], reverse=True)
    assert (a.longest_run, a.second_longest_run) == (all_runs[0], all_runs[1])
    assert a.points_per_inning == pytest.approx(a.play_points / a.innings)
    assert a.called_pot_success == pytest.approx(a.legal_pots / a.called_shots)
    assert totals[0] == PlayerTotals(
        "Aino", 1, 1, 0, 0, 63, 3, 39, 21, 0, 0, 9, 63, 0, 0, 7, 7
    )  # the hand-checked match alone


def test_totals_csv_has_a_header_and_a_row_per_player(hand_match: Match, seeded_match: Match) -> None:
    totals = aggregate([match_stats(hand_match), match_stats(seeded_match), match_stats(hand_match)])
    text = to_csv(totals)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(TOTALS_COLUMNS)
    assert [r[0] for r in rows[1:]] == ["Aino", "Eero", "Baseline A", "Baseline B"]
    aino = dict(zip(rows[0], rows[1], strict=True))
    assert (aino["matches"], aino["wins"], aino["points"], aino["innings"], aino["longest_run"]) == (
        "2",
        "2",
        "126",
        "6",
        "39",
    )
    assert aino["second_longest_run"] == "39"  # the same run in both matches
    per_game = to_csv([match_stats(hand_match), match_stats(seeded_match)])
    assert len(per_game.splitlines()) == 1 + 4  # a header, one row per player per match


def test_bad_statistics_json_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="kind"):
        from_json('{"kind": "league"}')
    with pytest.raises(FormatError, match="does not parse"):
        from_json("{")
    with pytest.raises(FormatError, match="two players"):
        MatchStats.from_json({"players": []})
    with pytest.raises(FormatError, match="malformed player statistics"):
        PlayerStats.from_json({"player": 1})


# --- the fast path: statistics read from the stored rulings --------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'stats.sqlite3'}") as opened:
        yield opened


def _replayed(store: Store, match_id: int) -> MatchStats:
    """The slow path: the stored actions played again through the physics and the referee."""
    config, _, actions = store.load(match_id)
    return match_stats(replay(config, actions), event=f"match {match_id}")


def test_stored_statistics_equal_the_replayed_ones_on_seeded_matches(
    store: Store, hand_match: Match, seeded_match: Match, shootout_match: Match
) -> None:
    """The figures `kaisa stats` reads from the database (one bulk read, no physics) equal those of the matches
    played again: an unfinished match with fouls, a whole match with a shoot-out, and the hand-checked one."""
    ids = [store.import_match(m) for m in (seeded_match, shootout_match)]
    fast = list(stored_stats(store, ids))
    assert [s.to_json() for s in fast] == [_replayed(store, i).to_json() for i in ids]
    assert fast[0] == match_stats(seeded_match, event=f"match {ids[0]}")
    assert fast[1] == match_stats(shootout_match, event=f"match {ids[1]}")
    hand_id = store.import_match(hand_match)  # scripted shots: compared with the match as played
    assert next(stored_stats(store, [hand_id])) == match_stats(hand_match, event=f"match {hand_id}")


def test_stored_statistics_of_a_match_with_no_action_yet(store: Store) -> None:
    match_id = store.create_match(MatchConfig(players=("Aino", "Eero")))
    [stats] = stored_stats(store, [match_id])
    assert stats == match_stats(Match(MatchConfig(players=("Aino", "Eero"))), event=f"match {match_id}")


def test_a_stored_ruling_without_its_net_points_is_read_in_full(store: Store, seeded_match: Match) -> None:
    """A ruling stored without ``points`` (an older writer) cannot give the points earned from the bulk read:
    the match is read in full instead, with the same figures."""
    from sqlalchemy import select, update
    from sqlalchemy.orm import Session

    from kaisa.records.storage.models import ActionRow

    match_id = store.import_match(seeded_match)
    with Session(store.engine) as session, session.begin():
        for row_id, outcome in session.execute(
            select(ActionRow.id, ActionRow.outcome).where(ActionRow.match_id == match_id)
        ).all():
            if isinstance(outcome.get("ruling"), dict):
                outcome = {**outcome, "ruling": {k: v for k, v in outcome["ruling"].items() if k != "points"}}
                session.execute(update(ActionRow).where(ActionRow.id == row_id).values(outcome=outcome))
    [stats] = stored_stats(store, [match_id])
    assert stats == match_stats(seeded_match, event=f"match {match_id}")


def test_a_malformed_stored_state_is_a_format_error_naming_the_match(store: Store, seeded_match: Match) -> None:
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from kaisa.records.storage.models import ActionRow

    match_id = store.import_match(seeded_match)
    with Session(store.engine) as session, session.begin():
        state = seeded_match.stack[10].before.to_json()
        session.execute(
            update(ActionRow)
            .where(ActionRow.match_id == match_id, ActionRow.action_index == 9)
            .values(state_after={**state, "innings": ["W1", 3]})
        )
    with pytest.raises(FormatError, match=f"match {match_id}"):
        list(stored_stats(store, [match_id]))
