"""The package as a user meets it: its namespace, the signatures `help` and IDEs show,
the stubs, and the progress bar in a notebook without ipywidgets."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import reversi_lab as rl

STUB = Path(rl.__file__).with_name("_core.pyi")


def test_the_namespace_is_the_api():
    # A fresh interpreter: another test may have imported reversi_lab.pettingzoo, a
    # submodule that then sits in the namespace as submodules do.
    script = (
        "import reversi_lab as rl\n"
        "print(sorted(n for n in dir(rl) if not n.startswith('_')))\n"
        "print(sorted(rl.__all__))\n"
        "print(all(hasattr(rl, n) for n in rl.__all__))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    public, listed, present = out.splitlines()
    assert set(ast.literal_eval(public)) <= set(ast.literal_eval(listed)), public
    assert "__version__" in rl.__all__ and present == "True"
    assert rl.__version__ and isinstance(rl.__version__, str)
    for name in ("Any", "Optional", "Path", "json", "os", "io", "annotations"):
        assert not hasattr(rl, name), name


def test_signatures_show_the_real_defaults():
    assert str(inspect.signature(rl.Board)) == "(size=8, anti=False, scoring='winner-gets-empties')"
    assert str(inspect.signature(rl.Board.from_obf)) == "(line, anti=False, scoring='winner-gets-empties')"
    assert (
        str(inspect.signature(rl.Board.from_transcript))
        == "(text, size=8, anti=False, scoring='winner-gets-empties')"
    )
    assert str(inspect.signature(rl.Strategy.choose)) == "(self, /, board, seed=None)"
    # Nothing public shows a default pyo3 could not spell.
    for name in rl.__all__:
        item = getattr(rl, name)
        members = [item] + [m for n, m in vars(item).items() if not n.startswith("_")] if inspect.isclass(item) else [item]
        for member in members:
            if not callable(member):
                continue
            try:
                signature = str(inspect.signature(member))
            except (TypeError, ValueError):
                continue
            assert "Ellipsis" not in signature and "..." not in signature, (name, member, signature)


def test_the_stub_marks_the_classes_final():
    tree = ast.parse(STUB.read_text())
    final = {
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef) and any(getattr(d, "id", None) == "final" for d in node.decorator_list)
    }
    assert {"Board", "Strategy", "Outcome", "MatchResult"} <= final
    for cls in (rl.Board, rl.Strategy, rl.Outcome):
        try:
            type("Sub", (cls,), {})
        except TypeError:
            continue
        raise AssertionError(f"{cls.__name__} can be subclassed, so the stub must not call it final")


def test_no_ipywidgets_warning_in_a_notebook():
    # tqdm.auto takes a loaded ipykernel.zmqshell for Jupyter, then warns "IProgress not
    # found" without ipywidgets: stand-ins for the kernel's modules say so, and ipywidgets
    # is made unimportable whether or not this machine has it.
    script = (
        "import sys, types, warnings\n"
        "class ZMQInteractiveShell: config = {'IPKernelApp': {}}\n"
        "sys.modules['ipykernel.zmqshell'] = types.ModuleType('ipykernel.zmqshell')\n"
        "sys.modules['IPython'] = types.SimpleNamespace(get_ipython=ZMQInteractiveShell)\n"
        "sys.modules['ipywidgets'] = None\n"
        # tqdm turns an error raised by its own warning into a silent fallback.
        "warnings.simplefilter('always')\n"
        "import reversi_lab as rl\n"
        "m = rl.match('greedy', 'random', games=200, threads=1, keep_games=False)\n"
        "print(m.wins + m.draws + m.losses)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "200", done.stderr
    assert "IProgress" not in done.stderr and "TqdmWarning" not in done.stderr
