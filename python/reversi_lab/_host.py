"""Python strategies and evaluations in this process: what the Rust half needs of a
callable handed over by name (``rl.match(my_choose, ...)``, ``rl.run(...,
players={"mine": my_choose})``, ``Strategy(..., eval=my_value)``), and the names they
are handed over by."""

from __future__ import annotations

import inspect
import re
from typing import Any, Callable, Optional

_METHODS = {"strategy": "choose", "evaluation": "value"}
_WANTED = {"strategy": "(board, rng, **params)", "evaluation": "(board, **params)"}


def describe(target: Any) -> str:
    """What a callable is, for ``run.toml`` and messages: ``module.qualname``."""
    if not inspect.isroutine(target) and not inspect.isclass(target):
        target = type(target)
    module = getattr(target, "__module__", None) or "?"
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None) or repr(target)
    return f"{module}.{name}"


def name_of(target: Any) -> str:
    """The name a callable plays under when none is given: its own (``my_choose``), or
    its class's for an object, as a name a spec can hold."""
    if not inspect.isroutine(target) and not inspect.isclass(target):
        target = type(target)
    name = getattr(target, "__name__", "") or "python"
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return "python" if name in ("", "<lambda>", "_lambda_") else name


def is_callable_strategy(target: Any) -> bool:
    """Whether ``target`` is a Python strategy (a callable, or an object with ``choose``)
    rather than a spec."""
    if isinstance(target, (str, dict)):
        return False
    return callable(target) or hasattr(target, "choose")


def prepare(name: str, target: Any, role: str, params: dict) -> tuple[Callable, Optional[Callable], str]:
    """The function to call in ``role``, the ``new_game`` hook if any, and what it is;
    a ValueError in one line when it cannot be called so with ``params``."""
    method = _METHODS[role]
    function, new_game = target, None
    if not inspect.isroutine(target) and hasattr(target, method):
        function = getattr(target, method)
        hook = getattr(target, "new_game", None)
        new_game = hook if callable(hook) else None
    if not callable(function):
        raise ValueError(f"'{name}' is not callable: give a function, or an object with {method}()")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        args = (None,) if role == "evaluation" else (None, None)
        try:
            signature.bind(*args, **params)
        except TypeError as e:
            given = f" with params {sorted(params)}" if params else ""
            raise ValueError(
                f"'{name}' ({describe(target)}) cannot be called as {method}{_WANTED[role]}{given}: {e}"
            ) from None
    return function, new_game, describe(target)
