"""Board: the move generator against the perft counts of the Rust tests, the
python-chess style API, notation, rules and pictures."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import reversi_lab as rl


def playout_perft(board: rl.Board, depth: int) -> int:
    """perft through the Python API alone (push, push_pass, pop): docs/rules.md's
    convention, where a pass is a ply and a finished game a leaf at every depth."""
    if depth == 0 or board.is_game_over():
        return 1
    moves = board.legal_moves
    if not moves:
        board.push_pass()
        count = playout_perft(board, depth - 1)
        board.pop()
        return count
    total = 0
    for move in moves:
        board.push(move)
        total += playout_perft(board, depth - 1)
        board.pop()
    return total


def test_perft_from_the_8x8_start_matches_the_published_counts():
    board = rl.Board()
    expected = [4, 12, 56, 244, 1396, 8200]
    assert [playout_perft(board, d) for d in range(1, 7)] == expected
    assert [rl.perft(board, d) for d in range(1, 7)] == expected
    assert rl.perft(board, 8) == 390216
    assert board.move_stack == []


@pytest.mark.parametrize("size,depth", [(4, 7), (6, 6), (10, 4)])
def test_perft_on_other_sizes_agrees_with_the_engine(size, depth):
    board = rl.Board(size)
    for d in range(1, depth + 1):
        assert playout_perft(board, d) == rl.perft(board, d), (size, d)


def test_a_game_through_the_api():
    board = rl.Board()
    assert board.turn == "black"
    assert board.legal_moves == ("d3", "c4", "f5", "e6")
    board.push("f5")
    assert board.turn == "white"
    assert board.discs() == (4, 1)
    assert board.legal_moves == ("f4", "d6", "f6")
    assert board.is_legal("d6") and not board.is_legal("a1") and not board.is_legal("zz")
    board.push("D6")  # any case, as the CLI's transcripts
    assert board.transcript() == "f5d6"
    assert board.move_stack == ["f5", "d6"]
    assert board.pop() == "d6"
    assert board.pop() == "f5"
    assert board == rl.Board()
    assert board.result() == "*" and board.outcome() is None


def test_bad_moves_raise_value_errors_with_the_cli_messages():
    board = rl.Board()
    with pytest.raises(rl.IllegalMoveError) as error:
        board.push("a1")
    assert isinstance(error.value, ValueError)
    assert str(error.value) == "a1 is not a legal move for black (legal: d3 c4 f5 e6)"
    with pytest.raises(ValueError, match=r"'z9' is not a square of the 8x8 board"):
        board.push("z9")
    with pytest.raises(rl.IllegalMoveError, match="black cannot pass: it has legal moves"):
        board.push_pass()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(TypeError):
        board.push(42)
    with pytest.raises(ValueError, match="unsupported board size 7|size 7"):
        rl.Board(7)
    with pytest.raises(ValueError, match="unknown scoring 'most': use winner-gets-empties or count"):
        rl.Board(scoring="most")
    with pytest.raises(ValueError, match=r"^transcript ply 3: a1 is not a legal move for black"):
        rl.Board.from_transcript("f5d6a1")
    with pytest.raises(ValueError, match="position has 2 squares"):
        rl.Board.from_obf("XO X")


def random_game(size: int, seed: int) -> rl.Board:
    rng = random.Random(seed)
    board = rl.Board(size)
    while not board.is_game_over():
        moves = board.legal_moves
        if moves:
            board.push(rng.choice(moves))
        else:
            board.push_pass()
    return board


def test_passes_are_explicit_and_transcripts_replay_them():
    with_pass = next(b for b in (random_game(4, s) for s in range(200)) if "pass" in b.move_stack)
    replay = rl.Board.from_transcript(with_pass.transcript(), size=4)
    assert replay.move_stack == with_pass.move_stack
    assert replay.obf() == with_pass.obf() and replay.is_game_over()
    with pytest.raises(rl.IllegalMoveError, match="the game is over"):
        replay.push_pass()
    while replay.move_stack:
        replay.pop()
    assert replay == rl.Board(4)
    # A side without moves must pass before anyone moves again.
    board = rl.Board(4)
    for move in with_pass.move_stack:
        if move == "pass":
            assert board.legal_moves == ()
            with pytest.raises(rl.IllegalMoveError, match="has no legal move and must pass"):
                board.push("a1")
            board.push_pass()
        else:
            board.push(move)


def test_obf_round_trip_and_sizes():
    for size in (4, 6, 8, 10):
        board = random_game(size, 3)
        again = rl.Board.from_obf(board.obf())
        assert again.size == size and again.obf() == board.obf()
        assert again.move_stack == []
    line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;"
    board = rl.Board.from_obf(line)
    assert board.turn == "black"
    assert board.obf() == line.split(";")[0]
    assert "g8" in board.legal_moves and "h1" in board.legal_moves


def test_rules_decide_the_result():
    # 4x4: black 5 discs, white none (a wipe-out), 11 squares empty.
    line = "XXXXX----------- O"
    assert rl.Board.from_obf(line).is_game_over()
    normal = rl.Board.from_obf(line).outcome()
    assert (normal.result, normal.winner, normal.margin) == ("black", "black", 16)
    assert (normal.black_discs, normal.white_discs) == (5, 0)
    assert rl.Board.from_obf(line, scoring="count").outcome().margin == 5
    anti = rl.Board.from_obf(line, anti=True)
    assert anti.result() == "white" and anti.outcome().margin == -16
    assert anti.scoring == "winner-gets-empties" and anti.anti


def test_copies_pickles_and_equality():
    board = random_game(8, 11)
    board.pop()
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert other == board and other is not board
        assert other.move_stack == board.move_stack
    bare = board.copy(stack=False)
    assert bare == board and bare.move_stack == []
    moved = board.copy()
    moved.push(moved.legal_moves[0]) if moved.legal_moves else moved.push_pass()
    assert moved != board
    assert board != rl.Board.from_obf(board.obf(), anti=True)
    with pytest.raises(TypeError):
        hash(board)


def test_symmetries():
    start = rl.Board()
    images = start.symmetries()
    assert len(images) == 8 and images[0] == start
    # The start is symmetric under the rotation by 180 and both transposes.
    assert sum(image == start for image in images) == 4
    board = random_game(6, 5)
    board.pop()
    for image in board.symmetries():
        assert image.discs() == board.discs() and image.turn == board.turn
        assert len(image.legal_moves) == len(board.legal_moves)


def test_numpy_planes_are_the_side_to_move_first():
    board = rl.Board()
    board.push("f5")
    planes = board.to_numpy()
    assert planes.shape == (2, 8, 8) and planes.dtype == np.int8
    assert planes[0].sum() == 1 and planes[1].sum() == 4  # white to move, 1 disc
    assert planes[1, 4, 5] == 1  # f5: column f, row 5
    planes[0, 0, 0] = 1  # writable, and a copy
    assert board.to_numpy()[0, 0, 0] == 0


def test_text_and_pictures():
    board = rl.Board(4)
    assert str(board).startswith("    a b c d\n 1  . * . .")
    assert str(board).endswith("black to move; black 2, white 2")
    assert repr(board) == "Board.from_obf('-----OX--XO----- X')"
    assert repr(rl.Board(4, anti=True, scoring="count")).endswith(", anti=True, scoring='count')")
    board.push(board.legal_moves[0])
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('fill="#111"') == 4 and svg.count('fill="#f5f5f5"') == 1
    assert 'fill="#e53935"' in svg  # the last move
    assert "white to move; black 4, white 1" in board._repr_html_()


def test_push_takes_pass_when_passing_is_the_move():
    with_pass = next(b for b in (random_game(4, s) for s in range(200)) if "pass" in b.move_stack)
    # A finished game's move stack replays with push alone, its passes included.
    replay = rl.Board(4)
    for move in with_pass.move_stack:
        assert replay.is_legal(move), move
        replay.push(move)
    assert replay == with_pass and replay.move_stack == with_pass.move_stack
    with pytest.raises(rl.IllegalMoveError, match="^the game is over$"):
        replay.push("pass")
    assert not replay.is_legal("pass")
    start = rl.Board()
    with pytest.raises(rl.IllegalMoveError, match=r"^black cannot pass: it has legal moves \(d3 c4 f5 e6\)$"):
        start.push("pass")
    assert not start.is_legal("pass") and start.move_stack == []
    assert rl.Board.from_obf(with_pass.obf()).obf() == replay.obf()


@pytest.mark.parametrize("size,spec", [(8, "alphabeta:depth=4,eval=mobility"), (4, "random"), (6, "greedy")])
def test_the_readme_loop_plays_to_the_end(size, spec):
    passed = 0
    for seed in range(30 if size < 8 else 1):
        board = rl.Board(size)
        search = rl.Strategy(spec)
        # As docs/python.md has it: choose says "pass" when that is the move, push plays it.
        while not board.is_game_over():
            board.push(search.choose(board, seed=seed))
        passed += board.move_stack.count("pass")
        assert board.result() in ("black", "white", "draw")
    assert passed > 0 or size == 8  # the small boards do pass


def test_a_finished_game_says_its_result():
    # 4x4: black 5 discs, white none, 11 squares empty.
    wiped = "XXXXX----------- O"
    board = rl.Board.from_obf(wiped)
    assert str(board).endswith("\ngame over: black wins 16-0; black 5, white 0")
    assert "game over: black wins 16-0; black 5, white 0" in board._repr_html_()
    assert str(rl.Board.from_obf(wiped, scoring="count")).endswith("game over: black wins 5-0; black 5, white 0")
    anti = rl.Board.from_obf(wiped, anti=True)
    assert str(anti).endswith("game over: white wins by 16; black 5, white 0")
    draw = rl.Board.from_obf("XXXXXXXXOOOOOOOO X")
    assert draw.is_game_over() and str(draw).endswith("game over: draw 8-8; black 8, white 8")
    assert "game over: draw 8-8" in draw._repr_html_()
    game = random_game(8, 11)
    outcome = game.outcome()
    black, white = outcome.black_discs, outcome.white_discs
    if outcome.winner == "black":
        words = f"black wins {white + outcome.margin}-{white}"
    elif outcome.winner == "white":
        words = f"white wins {black - outcome.margin}-{black}"
    else:
        words = f"draw {black}-{white}"
    assert str(game).splitlines()[-1] == f"game over: {words}; black {black}, white {white}"
    assert "to move" not in str(game) and "to move" not in game._repr_html_()
    # Before the end the drawing is still show's.
    assert str(rl.Board(4)).endswith("\nblack to move; black 2, white 2")


def test_counts_must_be_whole_and_not_negative():
    with pytest.raises(ValueError, match=r"^size=-8 is negative: use one of 4, 6, 8, 10$"):
        rl.Board(size=-8)
    with pytest.raises(ValueError, match=r"^size=-8 is negative"):
        rl.Board.from_transcript("f5", size=-8)
    with pytest.raises(TypeError, match=r"^size=8\.0 is not an integer \(float\): give a whole number$"):
        rl.Board(8.0)
    with pytest.raises(TypeError, match=r"^size=True is not an integer \(bool\)"):
        rl.Board(True)
    with pytest.raises(ValueError, match=r"^unsupported board size 0: use one of 4, 6, 8, 10$"):
        rl.Board(0)
    with pytest.raises(ValueError, match=r"^unsupported board size 4294967296: use one of"):
        rl.Board(2**32)
    board = rl.Board()
    with pytest.raises(ValueError, match=r"^depth=-1 is negative: use 0 to 30$"):
        rl.perft(board, -1)
    with pytest.raises(TypeError, match=r"^depth=2\.0 is not an integer"):
        rl.perft(board, 2.0)
    with pytest.raises(TypeError, match=r"^depth=None is not an integer"):
        rl.perft(board, None)
    with pytest.raises(ValueError, match=r"^depth=100000000000000000000 is too large"):
        rl.perft(board, 10**20)
    # numpy's integers are whole numbers.
    assert rl.Board(np.int64(6)).size == 6 and rl.perft(board, np.int32(2)) == 12
