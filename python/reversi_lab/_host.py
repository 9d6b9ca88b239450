"""Python strategies and evaluations in this process: what the Rust half needs of a
callable handed over by name (``rl.match(my_choose, ...)``, ``rl.run(...,
players={"mine": my_choose})``, ``Strategy(..., eval=my_value)``), and the names they
are handed over by."""

from __future__ import annotations

import copy
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


def _is_object(target: Any) -> bool:
    """Whether ``target`` is an object that may keep state (not a function or a class):
    each playing thread then plays its own copy."""
    return not inspect.isroutine(target) and not inspect.isclass(target)


def _methods(target: Any, role: str) -> tuple[Any, Optional[Callable]]:
    """The function to call in ``role`` (``target`` itself, or its method), and its
    ``new_game`` hook if any."""
    method = _METHODS[role]
    if not inspect.isroutine(target) and hasattr(target, method):
        hook = getattr(target, "new_game", None)
        return getattr(target, method), hook if callable(hook) else None
    return target, None


def for_thread(target: Any, role: str) -> tuple[Callable, Optional[Callable]]:
    """One playing thread's own copy of an object (``copy.deepcopy``): its function and
    ``new_game``. Games on two threads at once never share the object's state, so that
    a strategy that starts afresh in ``new_game`` plays the same games on any thread
    count."""
    return _methods(copy.deepcopy(target), role)


def prepare(name: str, target: Any, role: str, params: dict) -> tuple[Callable, Optional[Callable], str, bool]:
    """The function to call in ``role``, the ``new_game`` hook if any, what it is, and
    whether each playing thread plays a copy (see :func:`for_thread`); a ValueError in
    one line when it cannot be called so with ``params``, or cannot be copied."""
    method = _METHODS[role]
    function, new_game = _methods(target, role)
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
    copied = _is_object(target)
    if copied:
        try:
            copy.deepcopy(target)
        except Exception as e:
            raise ValueError(
                f"'{name}' ({describe(target)}) cannot be copied for each playing thread "
                f"(copy.deepcopy raised {type(e).__name__}: {e}): give its class a __deepcopy__, "
                "returning self if one object may play on every thread at once"
            ) from None
    return function, new_game, describe(target), copied
