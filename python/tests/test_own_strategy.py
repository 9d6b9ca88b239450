"""Your own strategy in Python, in this process: callables and objects as players in
match and run, evaluations inside the searches, parameters, faults, determinism."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from pathlib import Path

import pandas as pd
import pytest

import reversi_lab as rl


def random_mover(board, rng):
    return rng.choice(board.legal_moves)


def corner_lover(board, rng, corner=1.0):
    corners = [m for m in board.legal_moves if m in ("a1", "a8", "h1", "h8")]
    if corner > 0 and corners:
        return corners[0]
    return rng.choice(board.legal_moves)


def disc_count(board):
    black, white = board.discs()
    return black - white if board.turn == "black" else white - black


def test_a_function_plays_a_match_in_parallel():
    m = rl.match(random_mover, "greedy", games=200, seed=3, threads=2, progress=False)
    assert m.wins + m.draws + m.losses == 200
    assert m.a == "python:name=random_mover"
    games = m.games
    assert set(games["black"][:2]) == {"python:name=random_mover", "greedy"}
    assert set(games["termination"]) == {"normal"}
    # Every game replays to its recorded end: the moves were legal.
    for row in games.head(20).itertuples():
        board = rl.Board.from_transcript(row.moves)
        if not board.is_game_over():
            board.push_pass()
        assert board.outcome().margin == row.margin


def test_it_sees_the_game_and_a_seeded_generator():
    seen = []

    def watcher(board, rng):
        seen.append((len(board.move_stack), board.turn, rng.random()))
        return board.legal_moves[0]

    rl.match(watcher, "random", games=2, seed=5, threads=1, progress=False)
    # The board holds the game so far (A is black in game 0: its first move is ply 0).
    assert seen[0][0] == 0 and seen[0][1] == "black"
    again = []

    def watcher_again(board, rng):
        again.append((len(board.move_stack), board.turn, rng.random()))
        return board.legal_moves[0]

    rl.match(watcher_again, "random", games=2, seed=5, threads=2, progress=False)
    # The two games interleave on two threads, each one's draws its own.
    assert sorted(again) == sorted(seen)


class Streaky:
    """Plays a move that depends on how many it has played this game: state that
    ``new_game`` starts afresh."""

    def __init__(self):
        self.games = 0
        self.moves = 0

    def new_game(self):
        self.games += 1
        self.moves = 0

    def choose(self, board, rng):
        self.moves += 1
        moves = board.legal_moves
        return moves[(self.moves * 7) % len(moves)]


def test_an_object_with_new_game_plays_a_copy_on_each_thread():
    player = Streaky()
    one = rl.match(player, "random", games=40, seed=3, threads=1, progress=False)
    two = rl.match(player, "random", games=40, seed=3, threads=2, progress=False)
    assert one.a == "python:name=Streaky"
    # Two games at once never share the object's state: the same games on any thread count.
    pd.testing.assert_frame_equal(one.games, two.games)
    assert set(one.games["termination"]) == {"normal"}
    # Each thread played its own copy; the object handed over is the template, untouched.
    assert player.games == 0 and player.moves == 0


def test_an_object_that_cannot_be_copied_is_refused_before_a_game():
    class Locked:
        def __init__(self):
            self.lock = threading.Lock()

        def choose(self, board, rng):
            return board.legal_moves[0]

    with pytest.raises(
        ValueError,
        match=r"^'Locked' \(.*Locked\) cannot be copied for each playing thread \(copy.deepcopy raised TypeError: .*\): give its class a __deepcopy__, returning self if one object may play on every thread at once$",
    ):
        rl.match(Locked(), "random", games=2, progress=False)

    class Shared(Locked):
        def __deepcopy__(self, memo):
            return self

    assert rl.match(Shared(), "random", games=2, progress=False).games.shape[0] == 2


def test_params_are_keyword_arguments_and_bad_ones_refused_before_a_game():
    strategy = rl.Strategy(corner_lover, params={"corner": 1.0})
    assert strategy.spec == '{ kind = "python", name = "corner_lover", params = { corner = 1.0 } }'
    rl.match(strategy, "random", games=4, progress=False)
    calls = []

    def counted(board, rng, corner=1.0):
        calls.append(1)
        return board.legal_moves[0]

    with pytest.raises(ValueError, match=r"'counted' .* cannot be called as choose\(board, rng, \*\*params\) with params \['edge'\]"):
        rl.match(rl.Strategy(counted, params={"edge": 2.0}), "random", games=4, progress=False)
    with pytest.raises(ValueError, match="cannot be called as choose"):
        rl.match(lambda board: "d3", "random", games=4, progress=False)
    assert calls == []
    with pytest.raises(TypeError, match="params= and name= are for a Python callable"):
        rl.Strategy("greedy", params={"corner": 1.0})


def test_an_exception_or_an_illegal_move_is_a_forfeit_and_a_warning():
    def sometimes(board, rng):
        if len(board.move_stack) == 11:
            raise ValueError("no idea")
        if len(board.move_stack) == 21:
            return "a1" if "a1" not in board.legal_moves else "pass"
        return rng.choice(board.legal_moves)

    with pytest.warns(rl.FaultWarning) as caught:
        m = rl.match(sometimes, "greedy", games=6, threads=2, progress=False)
    terminations = set(m.games["termination"])
    assert terminations <= {"normal", "error", "illegal"} and "error" in terminations
    lines = [str(w.message) for w in caught]
    assert any("ValueError: no idea" in line for line in lines), lines
    assert all(line.startswith("sometimes: ") for line in lines), lines
    # The faults lose the games for the player at fault.
    for row in m.games.itertuples():
        if row.termination != "normal":
            loser = "black" if row.black.startswith("python") else "white"
            assert row.result == ("white" if loser == "black" else "black")


def test_three_faults_in_a_row_stop_the_match():
    def broken(board, rng):
        raise RuntimeError("always")

    # In this process a fault is a warning: no log folder is made, and none is named.
    scratch = Path(tempfile.gettempdir()) / f"reversi-lab-match-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rl.FaultWarning)
        with pytest.raises(ValueError, match=r"^player 'A' lost 3 games in a row by a fault \(the last: error\): fix it, then play the match again$"):
            rl.match(broken, "greedy", games=50, threads=1, progress=False)
    assert not scratch.exists()
    m = rl.match(random_mover, "greedy", games=4, threads=2, progress=False)
    assert m.logs is None and not scratch.exists()


def test_two_matches_at_once_each_say_only_their_own_faults():
    b_done = threading.Event()

    def faulty(board, rng):
        if len(board.move_stack) < 2:
            # Game 0's first move raises; the next game waits until the other match is over.
            if b_done.is_set() or not faulty.raised:
                faulty.raised = True
                raise ValueError("mine, not B's")
            b_done.wait(30)
        return rng.choice(board.legal_moves)

    faulty.raised = False

    def match_a():
        rl.match(faulty, "greedy", games=4, threads=1, progress=False)

    def match_b():
        try:
            rl.match("greedy", "random", games=2, threads=1, progress=False)
        finally:
            b_done.set()

    said = []

    def record(message, category, filename, lineno, file=None, line=None):
        # Which thread's match said it: each says its warnings in its own thread.
        said.append((threading.current_thread().name, category, str(message)))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = record
        a = threading.Thread(target=match_a, name="A")
        a.start()
        while not faulty.raised:
            b_done.wait(0.01)
        b = threading.Thread(target=match_b, name="B")
        b.start()
        b.join()
        a.join()
    faults = [(thread, message) for thread, category, message in said if issubclass(category, rl.FaultWarning)]
    # Match B had no fault, so it said none, although A's first came before B ended.
    assert faults and all(thread == "A" and "mine, not B's" in message for thread, message in faults), faults


def test_same_games_on_any_thread_count(tmp_path: Path):
    experiment = {
        "name": "own",
        "games_per_pair": 40,
        "seed": 11,
        "openings": {"random_plies": 2},
        "players": [
            {"name": "mine", "strategy": {"kind": "python", "name": "mine"}},
            {"name": "greedy", "strategy": "greedy"},
            {"name": "random", "strategy": "random"},
        ],
    }
    folders = []
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        rl.run(experiment, out=out, threads=threads, players={"mine": random_mover}, report=False, progress=False)
        folders.append(out)
    one, two = ((f / "games.csv").read_bytes() for f in folders)
    assert one == two and one.count(b"\n") == 1 + 3 * 40
    one = rl.match(random_mover, "mobility", games=40, seed=2, threads=1, openings=2, progress=False)
    two = rl.match(random_mover, "mobility", games=40, seed=2, threads=2, openings=2, progress=False)
    pd.testing.assert_frame_equal(one.games, two.games)


def test_run_refuses_a_name_it_was_not_given(tmp_path: Path):
    experiment = {
        "name": "own",
        "players": [
            {"name": "mine", "strategy": {"kind": "python", "name": "mine"}},
            {"name": "greedy", "strategy": "greedy"},
        ],
    }
    with pytest.raises(ValueError, match=r"no callable is named 'mine': pass it as players=\{'mine': my_function\}"):
        rl.run(experiment, out=tmp_path / "x", report=False, progress=False)
    assert not (tmp_path / "x" / "games.csv").exists()


def test_an_evaluation_inside_alphabeta():
    board = rl.Board()
    for move in ("f5", "d6", "c3", "d3", "c4"):
        board.push(move)
    python = rl.Strategy("alphabeta:depth=3", eval=disc_count)
    builtin = rl.Strategy("alphabeta:depth=3,eval=greedy")
    # The same disc count in thousandths: the same search, the same values.
    assert python.scores(board) == {m: v * 1000 for m, v in builtin.scores(board).items()}
    assert python.choose(board, seed=4) == builtin.choose(board, seed=4)
    m = rl.match(python, "greedy", games=4, threads=2, progress=False)
    assert m.wins + m.draws + m.losses == 4
    with pytest.raises(ValueError, match="strategy 'greedy' takes no eval"):
        rl.Strategy("greedy", eval=disc_count)
    # Two evaluations for one search: refused, not one silently replaced.
    with pytest.raises(ValueError, match=r"^strategy 'alphabeta' already has eval = mobility: give one evaluation, in the spec or as eval=$"):
        rl.Strategy("alphabeta:depth=2,eval=mobility", eval=disc_count)


MOVER = """
def choose(board, rng):
    moves = board.legal_moves
    # gauss keeps every other draw for its next call: a new game must forget it too.
    if len(board.move_stack) < 2:
        rng.gauss(0.0, 1.0)
    return moves[int(rng.random() * len(moves))]
"""


def test_in_process_games_are_the_clis_worker_games(cli, tmp_path):
    # The generator of each game is seeded alike in process and in the workers, which
    # call random.Random(seed): the same games either way, on any thread count.
    (tmp_path / "mover.py").write_text(MOVER)
    csv = tmp_path / "games.csv"
    spec = f"python:callable=mover:choose,python={sys.executable},dir={tmp_path}"
    subprocess.run(
        [cli, "match", spec, "greedy", "--games", "40", "--seed", "7", "--threads", "2", "--csv", str(csv)],
        check=True, capture_output=True, text=True,
    )
    expected = pd.read_csv(csv, keep_default_na=False, dtype={"opening": str, "moves": str})
    namespace: dict = {}
    exec(MOVER, namespace)
    for threads in (1, 2):
        m = rl.match(namespace["choose"], "greedy", games=40, seed=7, threads=threads, progress=False)
        assert list(m.games["moves"]) == list(expected["moves"]), threads


def test_a_strategys_own_faults_are_raised_and_kept_for_reading():
    def fragile(board):
        black, white = board.discs()
        if black + white > 12:
            raise ZeroDivisionError("too deep")
        return 0.0

    searcher = rl.Strategy("alphabeta:depth=2", eval=fragile)
    board = rl.Board()
    for move in ("f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"):
        board.push(move)
    assert searcher.faults == []
    with pytest.raises(RuntimeError, match=r"^the strategy lost by a fault \(error: ZeroDivisionError: too deep\)$"):
        searcher.choose(board, seed=1)
    # scores said nothing before: its values were lost and it returned None, the answer
    # of a strategy that chooses by a rule.
    line = "fragile: error in a search: ZeroDivisionError: too deep"
    with pytest.raises(RuntimeError, match=rf"^the strategy's values are lost to a fault \({line}\)$"):
        searcher.scores(board)
    assert searcher.faults == [line, line]
    # Fine before the search reaches 13 discs: no fault, and the record stays as it was.
    assert searcher.scores(rl.Board()) is not None
    assert searcher.faults == [line, line]

    def corner(board, rng):
        return "a1"

    player = rl.Strategy(corner)
    with pytest.raises(RuntimeError, match=r"^the strategy lost by a fault \(illegal: it returned 'a1'"):
        player.choose(rl.Board(), seed=1)
    assert player.faults == [
        "corner: illegal after 0 moves: it returned 'a1', not a legal move for black (legal: d3 c4 f5 e6)"
    ]
    # A match keeps its own record, said as warnings: the strategy's stays as it was.
    with pytest.warns(rl.FaultWarning):
        with pytest.raises(ValueError, match="lost 3 games in a row"):
            rl.match(player, "random", games=4, threads=1, progress=False)
    assert len(player.faults) == 1


def test_an_evaluation_that_fails_loses_the_game_for_its_search():
    def fragile(board):
        black, white = board.discs()
        if black + white > 12:
            raise ZeroDivisionError("too deep")
        return 0.0

    searcher = rl.Strategy("alphabeta:depth=2", eval=fragile)
    with pytest.warns(rl.FaultWarning) as caught:
        m = rl.match(searcher, "random", games=2, threads=2, progress=False)
    games = m.games
    assert set(games["termination"]) == {"error"}
    # The search's side lost each game, by the exception's last line.
    for row in games.itertuples():
        loser = "black" if row.black.startswith("{") else "white"
        assert row.result == ("white" if loser == "black" else "black")
    lines = [str(w.message) for w in caught]
    assert lines and all(line == "fragile: error in a search: ZeroDivisionError: too deep" for line in lines), lines
    with pytest.raises(RuntimeError, match=r"^the strategy lost by a fault \(error: ZeroDivisionError: too deep\)$"):
        board = rl.Board()
        for move in ("f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"):
            board.push(move)
        searcher.choose(board, seed=1)

    def not_a_number(board):
        return float("nan")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rl.FaultWarning)
        with pytest.raises(ValueError, match=r"^player 'A' lost 3 games in a row by a fault \(the last: error\)"):
            rl.match(rl.Strategy("alphabeta:depth=1", eval=not_a_number), "random", games=10, threads=1, progress=False)




def test_a_python_strategy_chooses_and_pickles():
    strategy = rl.Strategy(corner_lover, params={"corner": 1.0})
    board = rl.Board()
    assert strategy.choose(board, seed=1) in board.legal_moves
    again = pickle.loads(pickle.dumps(strategy))
    assert again == strategy and again.hosted == {"corner_lover": corner_lover}
    assert rl.Strategy(corner_lover) != rl.Strategy(random_mover, name="corner_lover")
