"""Strategy: the CLI's spec syntax, choices, move values and errors."""

from __future__ import annotations

import pytest

import reversi_lab as rl


def middlegame() -> rl.Board:
    return rl.Board.from_transcript("f5d6c3d3c4f4f6f3e6e7d7c6")


def test_specs_strings_and_dicts():
    strategy = rl.Strategy("alphabeta:depth=4,eval=mobility")
    assert strategy.kind == "alphabeta" and strategy.spec == "alphabeta:depth=4,eval=mobility"
    assert repr(strategy) == "Strategy('alphabeta:depth=4,eval=mobility')"
    nested = rl.Strategy({"kind": "alphabeta", "depth": 2, "eval": {"kind": "weighted", "preset": "paip"}})
    assert nested.kind == "alphabeta"
    assert rl.Strategy(nested.spec).kind == "alphabeta"  # the dict as a one-line spec
    kinds = [k["kind"] for k in rl.strategies()]
    assert "alphabeta" in kinds and "greedy" in kinds and "solver" in kinds


def test_bad_specs_are_value_errors_with_the_cli_messages():
    with pytest.raises(ValueError, match=r"unknown strategy 'alphabet' \(did you mean 'alphabeta'\?"):
        rl.Strategy("alphabet")
    with pytest.raises(ValueError, match=r"strategy 'alphabeta': depth = 0 is out of range: use 1 to"):
        rl.Strategy("alphabeta:depth=0")
    with pytest.raises(TypeError):
        rl.Strategy(3)
    with pytest.raises(ValueError, match="strategy 'solver' solves every move exactly"):
        rl.Strategy("solver").choose(rl.Board(), seed=1)
    with pytest.raises(ValueError, match="'paip'|paip"):
        rl.Strategy("weighted:preset=paip").choose(rl.Board(6), seed=1)


def test_choose_plays_legal_moves_and_is_seeded():
    board = middlegame()
    for spec in ("random", "greedy", "corner-edge", "mobility", "eval", "alphabeta:depth=3", "parity"):
        strategy = rl.Strategy(spec)
        choice = strategy.choose(board, seed=7)
        assert choice in board.legal_moves, spec
        assert strategy.choose(board, seed=7) == choice, spec
    picks = {rl.Strategy("random").choose(board, seed=s) for s in range(60)}
    assert picks == set(board.legal_moves)
    for size in (4, 6, 10):
        assert rl.Strategy("alphabeta:depth=2").choose(rl.Board(size)) in rl.Board(size).legal_moves


def test_choose_passes_and_refuses_a_finished_game():
    must_pass = next(
        b for b in (_play_until_pass(s) for s in range(300)) if b is not None
    )
    assert rl.Strategy("greedy").choose(must_pass) == "pass"
    over = rl.Board.from_obf("XXXXX----------- O")
    with pytest.raises(rl.IllegalMoveError, match="the game is over"):
        rl.Strategy("greedy").choose(over)


def _play_until_pass(seed: int):
    import random

    rng = random.Random(seed)
    board = rl.Board(4)
    while not board.is_game_over():
        if not board.legal_moves:
            return board
        board.push(rng.choice(board.legal_moves))
    return None


def test_scores_are_the_values_strategies_choose_by():
    board = middlegame()
    greedy = rl.Strategy("greedy").scores(board)
    assert list(greedy) == list(board.legal_moves)
    for move, flips in greedy.items():
        after = board.copy()
        after.push(move)
        mover = 0 if board.turn == "black" else 1
        assert after.discs()[mover] - board.discs()[mover] == flips + 1
    assert rl.Strategy("random").scores(board) is None
    assert rl.Strategy("corner-first").scores(board) is None
    search = rl.Strategy("alphabeta:depth=3")
    values = search.scores(board)
    best = max(values.values())
    assert search.choose(board, seed=1) in {m for m, v in values.items() if v == best}
    # Near the end the solver's values are exact margins: the best is the game's value.
    late = rl.Board.from_obf("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    exact = rl.Strategy("solver").scores(late)
    assert max(exact.values()) == 18 and exact["g8"] == 18


def test_strategies_pickle_compare_and_hash_by_spec():
    import copy
    import pickle

    strategy = rl.Strategy("alphabeta:depth=3,eval=mobility")
    board = middlegame()
    strategy.scores(board)  # tables built: they stay behind
    again = pickle.loads(pickle.dumps(strategy))
    assert again is not strategy and again == strategy and again.spec == strategy.spec
    assert again.choose(board, seed=3) == strategy.choose(board, seed=3)
    assert copy.deepcopy(strategy) == strategy
    # Equal specs are equal whichever way they are written, defaults included or not.
    assert rl.Strategy("greedy") == rl.Strategy("greedy")
    written = rl.Strategy({"kind": "alphabeta", "depth": 3, "eval": {"kind": "mobility"}})
    assert written == strategy and hash(written) == hash(strategy)
    assert rl.Strategy("alphabeta:depth=3") != strategy and rl.Strategy("greedy") != "greedy"
    assert len({rl.Strategy("greedy"), rl.Strategy("greedy"), rl.Strategy("random")}) == 2


def test_a_strategy_goes_to_a_multiprocessing_pool():
    import multiprocessing

    board = middlegame()
    strategy = rl.Strategy("alphabeta:depth=3")
    tasks = [(strategy, board, seed) for seed in range(4)]
    # spawn: the workers start afresh and get the strategy and the board by pickle alone.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        chosen = pool.starmap(rl.Strategy.choose, tasks)
    assert chosen == [strategy.choose(board, seed=seed) for seed in range(4)]


def test_the_solver_says_what_is_wrong_with_this_board():
    with pytest.raises(ValueError) as error:
        rl.Strategy("solver").scores(rl.Board())
    message = str(error.value)
    assert "these games" not in message
    assert message.startswith(
        "strategy 'solver' solves every move exactly, and this board has 60 empty squares: the limit is 22; "
    ), message
    assert "alphabeta:endgame=22" in message
    # Another strategy's limit is no board's: its message stays the library's.
    with pytest.raises(ValueError, match="depth = 13 with no node budget"):
        rl.Strategy("alphabeta:depth=13").choose(rl.Board())


def test_seeds_must_be_whole_and_not_negative():
    board = rl.Board()
    with pytest.raises(ValueError, match=r"^seed=-1 is negative: use a seed from 0 to 18446744073709551615, or None"):
        rl.Strategy("random").choose(board, seed=-1)
    with pytest.raises(TypeError, match=r"^seed=1\.5 is not an integer \(float\)"):
        rl.Strategy("random").choose(board, seed=1.5)
    assert rl.Strategy("random").choose(board, seed=2**64 - 1) in board.legal_moves
