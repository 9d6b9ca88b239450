"""Reversi as a PettingZoo AEC environment (two agents taking turns, action masks).

>>> from reversi_lab.pettingzoo import env
>>> e = env(size=8)
>>> e.reset(seed=0)
>>> for agent in e.agent_iter():
...     observation, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"])
...     e.step(action)

Agents are ``"black"`` and ``"white"``. An action is a square index ``row * size +
column`` (``a1`` is 0), or ``size * size`` to pass, which is legal only when no move
is. The observation is ``{"observation": planes, "action_mask": mask}``: planes of shape
``(size, size, 2)``, the observing agent's discs then the opponent's; the mask has a 1
for each legal action of the agent to move (all 0 for the other). Rewards come at the
end: +1 to the winner and -1 to the loser under the board's rules (``anti``,
``scoring``), 0 each for a draw; ``infos`` then hold the result and black's margin.
Requires pettingzoo and gymnasium (``pip install reversi-lab[pettingzoo]``).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:
    raise ImportError(
        "reversi_lab.pettingzoo needs pettingzoo and gymnasium: pip install 'reversi-lab[pettingzoo]'"
    ) from missing

from . import Board

__all__ = ["env", "raw_env"]


def env(
    size: int = 8,
    anti: bool = False,
    scoring: str = "winner-gets-empties",
    render_mode: Optional[str] = None,
) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for board games: an illegal
    action ends the game with -1 for the agent that made it; an action that is no
    square index or pass is a ``ValueError``, as in :class:`raw_env`."""
    wrapped: AECEnv = raw_env(size=size, anti=anti, scoring=scoring, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    # In place of AssertOutOfBoundsWrapper, whose AssertionError the docs do not promise.
    wrapped = _CheckedActions(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class _CheckedActions(wrappers.BaseWrapper):
    """Refuses an action that is no square index or pass with raw_env's ``ValueError``
    before TerminateIllegalWrapper reads the action mask with it (where -1 would read
    the pass's entry and 2.7 fail inside numpy)."""

    def step(self, action: Optional[int]) -> None:
        inner = self.unwrapped
        agent = inner.agent_selection
        alive = inner.agents and not (inner.terminations.get(agent) or inner.truncations.get(agent))
        if alive:
            inner._action(action)
        super().step(action)


class raw_env(AECEnv):
    """The environment without wrappers (an illegal action raises IllegalMoveError)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "reversi_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        size: int = 8,
        anti: bool = False,
        scoring: str = "winner-gets-empties",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self._rules = {"size": size, "anti": anti, "scoring": scoring}
        # Checks the size and rules before anything else is made.
        self.board = Board(**self._rules)
        self.size = size
        self._pass = size * size
        self._names = [f"{chr(ord('a') + i % size)}{i // size + 1}" for i in range(size * size)]
        self._index = {name: i for i, name in enumerate(self._names)}
        self.possible_agents = ["black", "white"]
        self.agents = self.possible_agents[:]
        planes = spaces.Box(low=0, high=1, shape=(size, size, 2), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(size * size + 1,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": planes, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(size * size + 1) for a in self.possible_agents}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode '{render_mode}': use human or ansi")
        self.render_mode = render_mode
        self._start()

    def _start(self) -> None:
        self.board = Board(**self._rules)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.board.turn

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        planes = self.board.to_numpy()
        if agent != self.board.turn:
            planes = planes[::-1]
        observation = np.ascontiguousarray(planes.transpose(1, 2, 0))
        mask = np.zeros(self._pass + 1, dtype=np.int8)
        if agent == self.agent_selection and not self.board.is_game_over():
            moves = self.board.legal_moves
            if moves:
                mask[[self._index[m] for m in moves]] = 1
            else:
                mask[self._pass] = 1
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        # Reversi from the start has no chance in it, so the seed changes nothing.
        self._start()

    def step(self, action: Optional[int]) -> None:
        if not self.agents:
            # Every agent has stepped out of the finished game (its dead steps).
            raise ValueError("the game is over and both agents have left it: reset() starts a new one")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        square = self._action(action)
        if square == self._pass:
            self.board.push_pass()
        else:
            self.board.push(self._names[square])
        self._cumulative_rewards[agent] = 0
        outcome = self.board.outcome()
        if outcome is not None:
            for a in self.agents:
                self.rewards[a] = 0 if outcome.winner is None else (1 if a == outcome.winner else -1)
                self.terminations[a] = True
                self.infos[a] = {"result": outcome.result, "margin": outcome.margin}
        self.agent_selection = self.board.turn
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _action(self, action: Any) -> int:
        """``action`` as a square index or the pass, refused when it is neither: ``int()``
        would turn ``2.7`` into 2, and a negative index would count from the end."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(
                f"action {action!r} is not an integer: give a square index row * {self.size} + column (0 to {self._pass - 1}) or {self._pass} to pass"
            )
        if not 0 <= action <= self._pass:
            raise ValueError(
                f"action {action} is out of range: give a square index 0 to {self._pass - 1} or {self._pass} to pass"
            )
        return int(action)

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with render_mode='human' or 'ansi'")
            return None
        text = str(self.board)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
