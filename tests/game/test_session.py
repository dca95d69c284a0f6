"""The match session: every interface's way to drive a match, and chance as a step of the game."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kaisa.game import Match, MatchConfig, Shot, replay
from kaisa.game.chance import StrokeNoise, chance_rng
from kaisa.model import BallId, Position, Stroke
from kaisa.players import BaselinePlayer, MatchStalledError, play_match
from kaisa.records.notation import read_match, write_match
from kaisa.records.storage import PlayerInfo, Store, open_store
from kaisa.referee import GameState
from kaisa.session.registry import Sessions, match_config
from kaisa.session.study import study_shot
from kaisa.web.app import create_app


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'session.sqlite3'}") as opened:
        yield opened


class CountingStore:
    """Counts the calls of the store's public methods (each one a round trip to the database)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.store, name)
        if callable(attr) and not name.startswith("_"):

            def counted(*args: Any, **kwargs: Any) -> Any:
                self.calls.append(name)
                return attr(*args, **kwargs)

            return counted
        return attr


def test_a_browser_stroke_makes_at_most_two_store_round_trips(store: Store) -> None:
    counting = CountingStore(store)
    client = TestClient(create_app(counting))  # type: ignore[arg-type]  # a Store in all but name
    created = client.post("/api/matches", json={"players": [{"name": "Aino"}, {"name": "Eero"}], "seed": 3}).json()
    match_id = created["id"]
    lag = {"ball": "W1", "speed": 1.45, "direction": 90.0, "place": [0.355, 0.355]}
    for _ in range(5):  # until somebody wins the lag
        answer = client.post(
            f"/api/matches/{match_id}/lag",
            json={"strokes": [lag, lag | {"ball": "W2", "speed": 1.6, "place": [1.065, 0.355]}]},
        ).json()
        if answer["match"]["phase"] != "lag":
            break
    client.post(f"/api/matches/{match_id}/choose", json={"cue_ball": "W1"})
    view = client.post(f"/api/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}).json()["match"]
    assert view["phase"] == "play"
    counting.calls.clear()
    stroke = {"ball": "W1", "speed": 3.0, "direction": 80.0, "place": [0.5, 0.4]}
    answer = client.post(f"/api/matches/{match_id}/shot", json={"call": "K FL", "stroke": stroke})
    assert answer.status_code == 200, answer.text
    assert counting.calls == ["open_match", "record"]
    counting.calls.clear()
    assert client.get(f"/api/matches/{match_id}").status_code == 200
    assert counting.calls == ["open_match"]


def test_the_view_reads_running_counters_not_the_stored_rulings(store: Store) -> None:
    sessions = Sessions(store)
    match_id = sessions.create([PlayerInfo("a", "baseline"), PlayerInfo("b", "baseline")], seed=4)
    with sessions.open(match_id) as session:
        for _ in range(60):
            session.play_computer()
        fouls = {b.value: n for b, n in session.state.fouls.items()}
        longest = session.state.longest_run
    counted = {"W1": 0, "W2": 0}
    for action in store.actions(match_id):
        ruling = action.outcome.get("ruling")
        if ruling and ruling["fouls"]:
            counted[ruling["shooter"]] += 1
    assert fouls == counted
    assert sessions.view(match_id).fouls == counted
    assert max(longest.values()) >= 0


def test_chance_the_record_holds_intended_and_executed_strokes_and_replays_them_bit_for_bit() -> None:
    config = MatchConfig(players=("a", "b"), noise=(1.0, 2.0), seed=2014)
    match = Match(config)
    with contextlib.suppress(MatchStalledError):
        play_match(match, (BaselinePlayer("a", 1), BaselinePlayer("b", 2)), max_actions=40)
    shots = [e for e in match.stack if isinstance(e.action, Shot)]
    assert shots
    for entry in shots:
        shot = entry.action
        assert isinstance(shot, Shot)
        assert shot.executed is not None
        assert shot.executed != shot.stroke
        assert abs(shot.executed.direction - shot.stroke.direction) < 2.0  # by a few sigma at most
        # the executed stroke is the seat's noise drawn for this action, and nothing else
        seat = entry.before.to_move
        assert seat is not None
        rng = chance_rng(config.seed, entry.before.actions)
        assert shot.executed == StrokeNoise(config.noise[seat]).apply(shot.stroke, rng, config.spec)
        assert entry.outcome.records[0].stroke == shot.executed
    # the notation keeps both strokes and the chance tag; a replay plays the executed strokes exactly
    text = write_match(match)
    read_config, actions, _tags, _rulings = read_match(text)
    assert read_config == config
    assert actions == [e.action for e in match.stack]
    again = replay(read_config, actions)
    assert again.state.to_json() == match.state.to_json()
    # without the executed strokes, the chance step draws the very same noise again
    bare = [Shot(a.call, a.stroke, a.seconds) if isinstance(a, Shot) else a for a in actions]
    redrawn = replay(config, bare)
    assert [e.action for e in redrawn.stack] == [e.action for e in match.stack]
    assert redrawn.state.to_json() == match.state.to_json()


def test_chance_a_person_seat_plays_exactly_as_aimed() -> None:
    config = match_config([PlayerInfo("Aino", "human"), PlayerInfo("master", "master")], seed=5)
    assert config.noise == (0.0, 1.0)
    stroke = Stroke(BallId.W1, 2.0, 90.0)
    match = Match.at(Position({"W1": (0.7, 0.5), "K": (0.71, 1.42)}), GameState(), config)
    match.push(Shot(None, stroke))
    shot = match.stack[-1].action
    assert isinstance(shot, Shot)
    assert shot.executed is None
    assert shot.played == stroke


def test_unrecorded_sessions_play_a_whole_match_between_computer_players() -> None:
    players = [PlayerInfo("a", "baseline"), PlayerInfo("b", "baseline")]
    session = Sessions().unrecorded(players, match_config(players, seed=9))
    session.play_out()
    assert session.over
    assert session.view().result is not None


def test_study_goes_through_a_match_and_puts_a_placed_cue_ball_where_asked() -> None:
    position = Position({"K": (0.71, 1.42), "R1": (0.3, 2.0)})
    shot = study_shot(position, Stroke(BallId.W1, 2.0, 90.0, place=(0.71, 0.8)), None, trajectory_rate=None)
    assert shot.record.position["W1"] == (0.71, 0.8)
    assert shot.ruling.shooter is BallId.W1
