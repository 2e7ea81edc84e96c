"""The arguments of the command line (:mod:`mrc_pyomo.cli.arguments`): the parser has the arguments of the command
asked for only, so that ``--version`` and ``--help`` answer without importing Pyomo, scikit-learn or pandas (an
error or a version took 3-5 s of imports)."""

import subprocess
import sys

import pytest

from mrc_pyomo.cli.arguments import build_parser
from mrc_pyomo.cli.help import COMMANDS

HEAVY = ("pyomo", "sklearn", "pandas", "scipy.sparse")


@pytest.mark.parametrize("entry, argv", [
    ("mrc_pyomo.cli.main:main", ["--version"]), ("mrc_pyomo.cli.main:main", ["--help"]),
    ("mrc_pyomo.cli.main:main", []), ("mrc_pyomo.__main__:run", ["--version"]),
    ("mrc_pyomo.__main__:run", ["--help"])])
def test_the_version_and_the_help_import_none_of_the_library_s_dependencies(entry, argv):
    """In a fresh interpreter, as ``mrc-pyomo`` and ``python -m mrc_pyomo`` call them: the answer, then no module
    of Pyomo, scikit-learn or pandas loaded (``python -m mrc_pyomo`` with no argument runs the demo)."""
    module, function = entry.split(":")
    code = (f"import sys\nfrom {module} import {function}\ntry:\n    {function}({argv!r})\nexcept SystemExit:\n"
            f"    pass\nprint('LOADED', sorted({{m.split('.')[0] for m in sys.modules if m.startswith({HEAVY!r})}}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    loaded = result.stdout.splitlines()[-1]
    assert loaded == "LOADED []", (loaded, result.stderr[-500:])
    if argv == ["--version"]:
        assert "0.2" in result.stdout
    else:
        assert "demo" in result.stdout + result.stderr and "predict" in result.stdout + result.stderr


def test_each_command_has_its_arguments_only_where_asked():
    parser = build_parser(commands=("predict",))
    assert parser.parse_args(["predict", "m.npz", "d.csv", "--proba"]).proba
    with pytest.raises(SystemExit):   # fit's arguments were not built
        parser.parse_args(["fit", "d.csv", "--label", "y"])
    full = build_parser()
    assert set(COMMANDS) == {"demo", "fit", "predict"}
    assert full.parse_args(["fit", "d.csv", "--label", "y"]).label == "y"
    assert full.parse_args(["demo", "--eps-1", "0.01"]).eps_1 == 0.01
