"""The PettingZoo environment: PettingZoo's own API test, passes and rewards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import reversi_lab as rl  # noqa: E402
from reversi_lab.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.parametrize("size", [8, 4])
def test_api_test(size):
    with warnings.catch_warnings():
        # Advice, not failures: the agents are named after the colours rather than
        # "player_0", and PettingZoo exempts only its own board games from its advice
        # against dict observations (the action-mask convention they all use).
        warnings.filterwarnings("ignore", message="We recommend agents to be named")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env(size=size), num_cycles=1000)


def test_passes_and_rewards_under_the_rules():
    e = raw_env(size=4, anti=True)
    for seed in range(40):
        e.reset()
        rewards = {"black": 0, "white": 0}
        rng = np.random.default_rng(seed)
        board = rl.Board(4, anti=True)
        for agent in e.agent_iter():
            observation, reward, terminated, truncated, info = e.last()
            rewards[agent] += reward
            if terminated:
                e.step(None)
                continue
            assert agent == board.turn
            mask = observation["action_mask"]
            planes = observation["observation"]
            assert planes.shape == (4, 4, 2)
            assert np.array_equal(planes.transpose(2, 0, 1), board.to_numpy())
            if not board.legal_moves:
                assert list(np.flatnonzero(mask)) == [16]
            action = int(rng.choice(np.flatnonzero(mask)))
            if action == 16:
                board.push_pass()
            else:
                board.push(f"{'abcd'[action % 4]}{action // 4 + 1}")
            e.step(action)
        winner = board.outcome().winner
        expected = {a: 0 if winner is None else (1 if a == winner else -1) for a in ("black", "white")}
        assert rewards == expected


def test_the_other_agent_sees_its_own_discs_first_and_no_moves():
    e = raw_env()
    e.reset()
    black = e.observe("black")
    white = e.observe("white")
    assert np.array_equal(black["observation"][..., 0], white["observation"][..., 1])
    assert black["action_mask"].sum() == 4 and white["action_mask"].sum() == 0


def test_illegal_actions_end_the_game_in_the_wrapped_env():
    e = env()
    e.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(0)  # a1 is not legal at the start
    assert all(e.terminations.values())
    assert e.rewards["black"] == -1
    with pytest.raises(rl.IllegalMoveError):
        r = raw_env()
        r.reset()
        r.step(0)
    assert raw_env(render_mode="ansi").render().endswith("black to move; black 2, white 2")


@pytest.mark.parametrize(
    "action,message",
    [
        (-1, r"^action -1 is out of range: give a square index 0 to 63 or 64 to pass$"),
        (65, r"^action 65 is out of range"),
        (2.7, r"^action 2\.7 is not an integer: give a square index row \* 8 \+ column \(0 to 63\) or 64 to pass$"),
        (np.float64(19.0), r"^action np\.float64\(19\.0\) is not an integer|^action 19\.0 is not an integer"),
        (True, r"^action True is not an integer"),
        ("f5", r"^action 'f5' is not an integer"),
    ],
)
def test_actions_that_are_no_square_are_refused(action, message):
    e = raw_env()
    e.reset()
    with pytest.raises(ValueError, match=message):
        e.step(action)
    assert e.board == rl.Board() and e.agent_selection == "black"


def test_numpy_integer_actions_are_squares():
    e = raw_env()
    e.reset()
    e.step(np.int64(37))  # f5: row 4, column 5
    e.step(np.uint8(43))  # d6
    assert e.board.move_stack == ["f5", "d6"]


@pytest.mark.parametrize("action", [-1, 65, 2.7, "f5", None])
def test_the_wrapped_env_refuses_actions_that_are_no_square_with_value_error(action):
    """Issue 52, item 34: the wrapper's AssertionError where the docs promise ValueError."""
    e = env()
    e.reset()
    with pytest.raises(ValueError, match=r"^action .* (is out of range|is not an integer)"):
        e.step(action)
    assert not any(e.terminations.values())


def test_a_step_after_the_end_is_a_value_error():
    """Issue 52, item 34: raw_env.step(0) after the end raised KeyError: 'black'."""
    e = raw_env(size=4)
    e.reset()
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert not e.agents
    with pytest.raises(ValueError, match=r"^the game is over .*: reset\(\) starts a new one$"):
        e.step(0)
