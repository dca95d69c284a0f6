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
from kaisa.game import Match, MatchConfig, MatchState, Phase, Shot
from kaisa.layouts import starting_position
from kaisa.model import BallId, Position, Stroke
from kaisa.players import BaselinePlayer, seat_noise
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
    environment.reset(seed=1, options={"state": playing(straight_in())})
    _observation, reward, terminated, _truncated, info = environment.step(k_fl_action())
    assert reward == 6.0
    assert "1.3" in info["clauses"]
    assert info["executed"] == info["stroke"]  # no noise: played exactly as intended
    assert not terminated
    assert environment.match.state.game.shooter is W1


def test_the_net_reward_counts_the_opponents_run_against_the_agent():
    environment = KaisaEnv(opponent="baseline", noise=0.0, reward="net")
    environment.reset(seed=2, options={"state": playing(straight_in())})
    before = environment.match.state.game.scores
    miss = {"call": 0, "stroke": encode_stroke(Stroke(W1, 0.3, 270.0))}  # no call, a soft roll away
    _observation, reward, _terminated, _truncated, _info = environment.step(miss)
    after = environment.match.state.game.scores
    assert reward == (after[W1] - before[W1]) - (after[W2] - before[W2])
    assert environment.match.over or environment.match.state.game.shooter is W1


def test_aec_the_same_agent_keeps_the_turn_after_a_legal_pot_and_rewards_are_zero_sum():
    aec = KaisaAECEnv(noise=0.0)
    aec.reset(seed=3, options={"state": playing(straight_in())})
    assert aec.agent_selection == "W1"
    aec.step(k_fl_action())
    assert aec.rewards == {"W1": 6.0, "W2": -6.0}
    assert aec.agent_selection == "W1"
    aec.step({"call": 0, "stroke": encode_stroke(Stroke(W1, 0.3, 270.0))})
    assert aec.agent_selection == "W2"


# --- the match session and its chance step ----------------------------------------------------------------


def test_an_episode_starts_at_the_break_of_a_match_session():
    environment = KaisaEnv(opponent="baseline", agent="W2")
    environment.reset(seed=7)
    match = environment.match
    w2 = BaselinePlayer("placer").place_w2(starting_position(), OFFICIAL, MatchConfig().options)
    at_break = Match.at_break(w2, match.config).state
    first = match.stack[0].before if match.stack else match.state  # the opponent (W1) has broken already
    assert first == at_break
    assert environment.session.recorded is False
    assert [p.kind for p in environment.session.info.players] == ["baseline", "human"]
    assert match.config.players == ("baseline", "agent")


def test_the_seats_noise_is_in_the_match_config_and_seeded_by_reset():
    environment = KaisaEnv(opponent="beginner", agent="W2", noise=0.5)
    environment.reset(seed=3)
    config = environment.match.config
    assert config.noise == (seat_noise("beginner", 0.5), 0.5) == (1.0, 0.5)
    seed = config.seed
    environment.reset(seed=3)
    assert environment.match.config.seed == seed
    environment.reset(seed=4)
    assert environment.match.config.seed != seed
    aec = KaisaAECEnv(noise=0.25)
    aec.reset(seed=3)
    assert aec.match.config.noise == (0.25, 0.25)


def test_the_agents_stroke_is_executed_by_the_matchs_chance_step():
    """The environment decodes the intended stroke; the match executes it with the agent seat's noise."""
    environment = KaisaEnv(opponent="baseline", noise=1.0, reward="stroke")
    environment.reset(seed=5, options={"state": playing(straight_in())})
    action = k_fl_action()
    _observation, _reward, _terminated, _truncated, info = environment.step(action)
    intended = decode_stroke(action["stroke"], W1, straight_in(), GameState())
    assert info["stroke"] == intended  # no noise in the environment
    assert info["executed"] != intended
    shot = next(e.action for e in environment.match.stack if isinstance(e.action, Shot))
    assert (shot.stroke, shot.executed) == (info["stroke"], info["executed"])
    replayed = Match(environment.match.config, playing(straight_in()))
    replayed.push(Shot(shot.call, shot.stroke))
    assert replayed.stack[-1].action == shot  # the same seeded chance step, the same execution


def test_the_observation_is_computed_once_per_step(monkeypatch: pytest.MonkeyPatch):
    import kaisa.envs.aec_env as aec_module
    import kaisa.envs.gym_env as gym_module

    calls: list[BallId] = []

    def counting(position: Position, game: GameState, me: BallId, spec: Any = OFFICIAL) -> dict[str, Any]:
        calls.append(me)
        return observe_state(position, game, me, spec)

    monkeypatch.setattr(gym_module, "observe_state", counting)
    monkeypatch.setattr(aec_module, "observe_state", counting)
    environment = KaisaEnv(opponent="baseline", noise=0.0)
    environment.reset(seed=1, options={"state": playing(straight_in())})
    calls.clear()
    observation, *_rest, info = environment.step(k_fl_action())
    assert calls == [W1]
    assert info["call_mask"] is observation["call_mask"]
    aec = KaisaAECEnv(noise=0.0)
    aec.reset(seed=1, options={"state": playing(straight_in())})
    calls.clear()
    aec.step(k_fl_action())
    aec.last()
    aec.observe("W2")
    assert sorted(calls) == [W1, W2]  # once per agent


def test_a_stroke_the_engine_cannot_play_is_nudged_in_one_place(monkeypatch: pytest.MonkeyPatch):
    from kaisa.errors import SimulationError
    from kaisa.session.match import MatchSession

    tried: list[float] = []
    push = MatchSession.push

    def flaky(self: MatchSession, action: Any) -> Any:
        tried.append(action.stroke.direction)
        if len(tried) < 3:
            raise SimulationError("a ball through a cushion")
        return push(self, action)

    environment = KaisaEnv(opponent="baseline", noise=0.0, reward="stroke")
    environment.reset(seed=1, options={"state": playing(straight_in())})
    monkeypatch.setattr(MatchSession, "push", flaky)
    _observation, reward, *_rest, info = environment.step(k_fl_action())
    from kaisa.players.base import NUDGES

    assert tried[1] - tried[0] == pytest.approx(NUDGES[0])
    assert tried[2] - tried[0] == pytest.approx(NUDGES[1])
    assert info["stroke"].direction == tried[2]
    assert reward == 6.0


def test_a_start_state_must_be_in_play():
    environment = KaisaEnv()
    with pytest.raises(ValueError, match="MatchState in play"):
        environment.reset(seed=0, options={"state": Match().state})  # the lag
    with pytest.raises(ValueError, match="noise is a finite number >= 0"):
        KaisaEnv(noise=-1.0)
    with pytest.raises(ValueError, match="the opponent is a computer player"):
        KaisaEnv(opponent="human")


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
    assert "1 environment, sync" in result.output
    assert "2 processes, async" in result.output
    assert "2 processes v 1 = " in result.output


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
