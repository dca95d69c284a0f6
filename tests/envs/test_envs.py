"""The research environments: Gymnasium's and PettingZoo's own API checks, seeding, the encodings, rewards."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from kaisa.call import format_call, parse_call
from kaisa.envs import (
    ENV_ID,
    N_CALLS,
    KaisaAECEnv,
    KaisaEnv,
    call_at,
    call_index,
    call_mask,
    decode_stroke,
    encode_stroke,
    env,
    observe_state,
)
from kaisa.envs.encoding import TEMPLATES, legal_place
from kaisa.game import Match, MatchConfig, MatchState, Phase
from kaisa.model import BallId, Position, Stroke
from kaisa.referee import GameState
from kaisa.referee.opening import check_hand_placement
from kaisa.table import OFFICIAL, PocketId

W1, W2 = BallId.W1, BallId.W2


def straight_in() -> Position:
    fl = OFFICIAL.pockets[PocketId.FL]
    (cx, cy), (ax, ay) = fl.mouth_centre, fl.axis
    return Position(
        {"W1": (cx - ax * 0.9, cy - ay * 0.9), "K": (cx - ax * 0.4, cy - ay * 0.4), "R1": (1.1, 0.5), "W2": (1.2, 2.0)}
    )


def playing(position: Position, shooter: BallId = W1) -> MatchState:
    return MatchState(
        phase=Phase.PLAY, position=position, game=GameState(shooter=shooter), owners=(W1, W2), innings={W1: 1, W2: 1}
    )


def k_fl_action() -> dict[str, Any]:
    position = straight_in()
    (kx, ky), (wx, wy) = position[BallId.K], position[W1]
    direction = float(np.degrees(np.arctan2(ky - wy, kx - wx)))
    stroke = Stroke(W1, 1.5, direction)
    return {"call": call_index(parse_call("K FL"), W1), "stroke": encode_stroke(stroke)}


# --- the API checks -------------------------------------------------------------------------------------


def test_gymnasium_check_env_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict spaces draw recommendations, not failures
        check_env(KaisaEnv(), skip_render_check=True)


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # recommendations for Box/Discrete spaces and agent names
        api_test(env(), num_cycles=30, verbose_progress=False)


def test_the_environment_is_registered_with_a_version():
    assert ENV_ID == "kaisa/Kaisa-v0"
    made = gym.make(ENV_ID, opponent="baseline")
    assert isinstance(made.unwrapped, KaisaEnv)
    made.close()
    from importlib.metadata import entry_points

    assert "kaisa" in {e.name for e in entry_points(group="gymnasium.envs")}


# --- seeding --------------------------------------------------------------------------------------------


def run_episode(seed: int, steps: int = 12) -> list[tuple[Any, ...]]:
    environment = KaisaEnv(opponent="baseline")
    observation, _info = environment.reset(seed=seed)
    environment.action_space.seed(seed)
    trace: list[tuple[Any, ...]] = [tuple(observation["balls"].ravel())]
    for _ in range(steps):
        observation, reward, terminated, truncated, info = environment.step(environment.action_space.sample())
        trace.append(
            (tuple(observation["balls"].ravel()), reward, terminated, truncated, tuple(info["scores"].items()))
        )
        if terminated or truncated:
            break
    return trace


def test_a_seeded_episode_is_reproducible():
    assert run_episode(11) == run_episode(11)
    assert run_episode(11) != run_episode(12)


def test_a_seeded_aec_episode_is_reproducible():
    def trace(seed: int) -> list[Any]:
        aec = KaisaAECEnv()
        aec.reset(seed=seed)
        out = []
        for _ in range(10):
            agent = aec.agent_selection
            aec.step(aec.action_space(agent).sample())
            out.append((agent, dict(aec.rewards), tuple(aec.observe("W1")["balls"].ravel())))
        return out

    assert trace(4) == trace(4)


# --- encodings ------------------------------------------------------------------------------------------


def test_every_enumerated_call_is_a_legal_call_in_the_notation():
    assert N_CALLS == len(TEMPLATES) == 1 + 24 + 144 + 216
    assert call_at(0, W1) is None
    for me in (W1, W2):
        for index in range(1, N_CALLS):
            call = call_at(index, me)
            assert call is not None
            call.check_shooter(me)  # never the player's own cue ball
            assert parse_call(format_call(call)) == call
            assert call_index(call, me) == index


def test_the_call_mask_follows_the_balls_on_the_table():
    full = Position({"W1": (0.3, 0.3), "W2": (1.0, 2.0), "R1": (0.71, 0.71), "R2": (0.71, 2.13), "K": (0.71, 1.42)})
    assert call_mask(full, W1).all()
    no_kaisa = call_mask(full.without(BallId.K), W1)
    for index in range(1, N_CALLS):
        call = call_at(index, W1)
        assert call is not None
        uses_kaisa = BallId.K in (call.ball, call.via)
        assert bool(no_kaisa[index]) is not uses_kaisa
    w2_view = observe_state(full.without(W1), GameState(shooter=W2, in_hand=frozenset({W1})), W2)
    assert w2_view["flags"].tolist() == [0, 0, 0, 0, 1]  # the opponent (W1) is in hand
    assert w2_view["balls"][0, 2] == 1.0  # own cue ball first
    assert w2_view["balls"][1, 2] == 0.0  # W1 is off the table


def test_strokes_decode_within_the_legal_ranges_and_round_trip():
    rng = np.random.default_rng(5)
    position = straight_in()
    for _ in range(200):
        stroke = decode_stroke(rng.uniform(-1.5, 1.5, 7), W1, position, GameState())
        assert 0.01 <= stroke.speed <= 8.0
        assert 0.0 <= stroke.elevation <= 60.0
        assert np.hypot(stroke.side, stroke.follow) <= 0.5 + 1e-12
        assert stroke.place is None  # W1 is on the table
    stroke = Stroke(W1, 2.5, 300.0, 10.0, 0.2, -0.3)
    back = decode_stroke(encode_stroke(stroke), W1, position, GameState())
    assert back.speed == pytest.approx(2.5, rel=1e-5)
    assert back.direction == pytest.approx(300.0, abs=1e-4)
    assert (back.elevation, back.side, back.follow) == pytest.approx((10.0, 0.2, -0.3), abs=1e-5)
    with pytest.raises(ValueError, match="7 finite numbers"):
        decode_stroke([0.0, np.nan, 0, 0, 0, 0, 0], W1, position, GameState())


def test_5_a_place_from_hand_is_always_legal():
    rng = np.random.default_rng(9)
    others = Position({"R1": OFFICIAL.spots[next(iter(OFFICIAL.spots))], "R2": (0.71, 0.2), "K": (0.3, 0.25)})
    game = GameState(shooter=W1, in_hand=frozenset({W1}))
    for _ in range(200):
        stroke = decode_stroke(rng.uniform(-1, 1, 7), W1, others, game)
        assert stroke.place is not None
        check_hand_placement(others, W1, stroke.place, OFFICIAL)
    assert legal_place(others, W1, (0.3, 0.25)) != (0.3, 0.25)  # on the kaisa: moved next to it


# --- rewards and turns ----------------------------------------------------------------------------------


def test_the_agent_scores_a_straight_pot_and_keeps_the_table_with_the_stroke_reward():
    environment = KaisaEnv(opponent="baseline", noise=0.0, reward="stroke")
    environment.reset(seed=1)
    environment.match = Match(MatchConfig(), playing(straight_in()))
    environment.me = W1
    _observation, reward, terminated, _truncated, info = environment.step(k_fl_action())
    assert reward == 6.0
    assert "1.3" in info["clauses"]
    assert not terminated
    assert environment.match.state.game.shooter is W1


def test_the_net_reward_counts_the_opponents_run_against_the_agent():
    environment = KaisaEnv(opponent="baseline", noise=0.0, reward="net")
    environment.reset(seed=2)
    environment.match = Match(MatchConfig(), playing(straight_in()))
    environment.me = W1
    before = environment.match.state.game.scores
    miss = {"call": 0, "stroke": encode_stroke(Stroke(W1, 0.3, 270.0))}  # no call, a soft roll away
    _observation, reward, _terminated, _truncated, _info = environment.step(miss)
    after = environment.match.state.game.scores
    assert reward == (after[W1] - before[W1]) - (after[W2] - before[W2])
    assert environment.match.over or environment.match.state.game.shooter is W1


def test_aec_the_same_agent_keeps_the_turn_after_a_legal_pot_and_rewards_are_zero_sum():
    aec = KaisaAECEnv(noise=0.0)
    aec.reset(seed=3)
    aec.match = Match(MatchConfig(), playing(straight_in()))
    aec.agent_selection = "W1"
    aec.step(k_fl_action())
    assert aec.rewards == {"W1": 6.0, "W2": -6.0}
    assert aec.agent_selection == "W1"
    aec.step({"call": 0, "stroke": encode_stroke(Stroke(W1, 0.3, 270.0))})
    assert aec.agent_selection == "W2"


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="agent is W1, W2 or random"):
        KaisaEnv(agent="W3")
    with pytest.raises(ValueError, match="reward is one of"):
        KaisaEnv(reward="score")
    with pytest.raises(ValueError, match="unknown player kind"):
        KaisaEnv(opponent="grandmaster")
    environment = KaisaEnv()
    environment.reset(seed=0)
    with pytest.raises(ValueError, match="a call is an index"):
        environment.step({"call": N_CALLS, "stroke": np.zeros(7, dtype=np.float32)})


@pytest.mark.slow
def test_bench_env_prints_steps_per_second_and_the_overhead():
    from typer.testing import CliRunner

    from kaisa.cli import app

    result = CliRunner().invoke(app, ["bench", "env", "--strokes", "20"], env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert "environment step (AEC)" in result.output
    assert "simulate + rule" in result.output
    assert "environment overhead" in result.output


def test_the_readme_environment_example_runs():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Environments for AI research")
    block = re.search(r"```python\n(.*?)```", readme[start:], re.S)
    assert block is not None
    namespace: dict[str, Any] = {}
    exec(block.group(1), namespace)
    assert namespace["observation"]["balls"].shape == (5, 3)
    assert isinstance(namespace["reward"], float)


def test_both_environments_render_the_scores_and_the_balls_as_text():
    gym_env = KaisaEnv(render_mode="ansi")
    gym_env.reset(seed=1)
    aec = KaisaAECEnv(render_mode="ansi")
    aec.reset(seed=1)
    for text in (gym_env.render(), aec.render()):
        assert text is not None
        assert text.startswith("W1 0 - W2 0, W1 to play: ")
        assert "K(0.71,1.42)" in text
    assert KaisaEnv().render() is None
