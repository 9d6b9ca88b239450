"""A Python callable as a reversi-lab player in a worker process: started by the library
(``python -m reversi_lab._worker ROLE CALLABLE PARAMS``) for a spec
``{ kind = "python", callable = "module:function" }``, one per playing thread.

The line protocol, one request a line on stdin and one answer a line on stdout
(docs/strategies.md, "python"):

- on start the worker answers ``ok SHA256 VERSION`` (the callable's module file's hash,
  the interpreter's version) or ``no REASON`` and exits;
- ``m PLY...`` plays the plies since the last request (square names, ``pass``), then
  asks for a move: the answer is ``r MOVE`` (what the callable returned) or
  ``e LINE`` (its exception's last line; the traceback goes to stderr, the log);
- ``n SEED SIZE ANTI SCORING START PLY...`` is ``m`` in a new game: a fresh ``Board``
  (``START``: an OBF position, its space written ``_``, or ``-`` for the standard start) and
  ``rng = random.Random(SEED)``; ``new_game()`` is called on an object that has one;
- ``v OBF`` (``_`` for its space) asks an evaluation for a position: ``r VALUE`` or ``e LINE``.

Only the package's ``Board`` (the ``_core`` extension) is used, so that a worker starts
fast and needs none of the package's optional dependencies.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import platform
import random
import sys
import traceback
from typing import Any, Callable, Optional


def _last_line(error: BaseException) -> str:
    lines = traceback.format_exception_only(type(error), error)
    text = lines[-1].strip() if lines else type(error).__name__
    return " ".join(text.split()) or type(error).__name__


def _resolve(spec: str) -> tuple[Any, Any]:
    """The object ``module:attr.attr`` names, and its module."""
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise LookupError(f"module '{module_name}' has no '{attr}'")
        target = getattr(target, part)
    return target, module


def _module_hash(module: Any) -> str:
    path = getattr(module, "__file__", None)
    if not path:
        return "-"
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "-"


def _start(role: str, spec: str, params: dict) -> tuple[Callable, Optional[Callable], str]:
    """The function to call, the ``new_game`` hook if any, and the ``ok`` line; or raises
    with the one line that refuses the callable."""
    try:
        target, module = _resolve(spec)
    except ImportError as e:
        raise RuntimeError(f"cannot import '{spec.partition(':')[0]}': {_last_line(e)}") from None
    except LookupError as e:
        raise RuntimeError(str(e)) from None
    except Exception as e:  # the module raised while it was imported
        raise RuntimeError(f"importing '{spec.partition(':')[0]}' raised {_last_line(e)}") from None
    new_game = None
    method = "value" if role == "evaluation" else "choose"
    function = target
    if not inspect.isroutine(target) and hasattr(target, method):
        function = getattr(target, method)
        new_game = getattr(target, "new_game", None)
    if not callable(function):
        raise RuntimeError(f"'{spec}' is not callable: give a function, or an object with {method}()")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        args = (None,) if role == "evaluation" else (None, None)
        try:
            signature.bind(*args, **params)
        except TypeError as e:
            wanted = "(board, **params)" if role == "evaluation" else "(board, rng, **params)"
            raise RuntimeError(f"'{spec}' cannot be called as {spec.partition(':')[2]}{wanted} with params {sorted(params)}: {e}") from None
    version = f"{platform.python_implementation()}-{platform.python_version()}"
    return function, new_game, f"ok {_module_hash(module)} {version}"


def main(argv: list[str]) -> int:
    out = sys.stdout.buffer
    # Standard output is the protocol's channel: what the user's code prints (at import
    # or in a call) goes to standard error instead, which is the player's log.
    sys.stdout = sys.stderr
    if len(argv) != 3:
        out.write(b"no usage: python -m reversi_lab._worker ROLE MODULE:CALLABLE PARAMS_JSON\n")
        return 2
    role, spec, params_text = argv
    try:
        from ._core import Board
    except ImportError as e:
        out.write(f"no the package's extension cannot be loaded: {_last_line(e)}\n".encode())
        out.flush()
        return 1
    try:
        params = json.loads(params_text)
        function, new_game, hello = _start(role, spec, params)
    except Exception as e:
        out.write(f"no {' '.join(str(e).split())}\n".encode())
        out.flush()
        return 1
    out.write(hello.encode() + b"\n")
    out.flush()

    read = sys.stdin.buffer.readline
    write = out.write
    flush = out.flush
    board = Board()
    rng = random.Random(0)
    rules: dict[str, Any] = {}
    while True:
        line = read()
        if not line:
            return 0
        words = line.decode().split()
        if not words:
            continue
        command = words[0]
        try:
            if command == "m" or command == "n":
                plies = words[1:]
                if command == "n":
                    seed, size, anti, scoring, start = plies[:5]
                    plies = plies[5:]
                    rules = {"anti": anti == "1", "scoring": scoring}
                    rng = random.Random(int(seed))
                    if start == "-":
                        board = Board(int(size), **rules)
                    else:
                        board = Board.from_obf(start.replace("_", " "), **rules)
                    if new_game is not None:
                        new_game()
                push = board.push
                for ply in plies:
                    push(ply)
                answer = function(board, rng, **params)
                write(b"r " + str(answer).encode() + b"\n")
            elif command == "v":
                answer = function(Board.from_obf(words[1].replace("_", " "), **rules), **params)
                write(b"r " + repr(float(answer)).encode() + b"\n")
            else:
                write(f"e unknown request '{command}'\n".encode())
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            write(b"e " + _last_line(e).encode() + b"\n")
        flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
