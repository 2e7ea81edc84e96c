"""Session setup for the whole suite, and the fixtures the test folders share.

The tests mirror the package: ``tests/<room>/test_<module>.py`` for ``mrc_pyomo/<room>/<module>.py`` (and
``tests/test_feature_maps.py`` for ``mrc_pyomo/feature_maps.py``); ``tests/project/`` holds the repository's own
checks (docs, packaging, examples).  The folders have no ``__init__.py``, so test module names are unique
across them, and no conftest of their own (every ``conftest.py`` outside a package is imported as the module
``conftest``: a second one would hide this one from ``from conftest import ...``).  What tests import by name
is in ``tests/helpers.py``: this folder is put on ``sys.path`` here, so ``from helpers import ...`` works from
every folder and in every pytest import mode.
"""

import importlib.metadata
import importlib.util
import json
import os
import sys
from pathlib import Path

import pandas as pd
import pytest
from sklearn.datasets import dump_svmlight_file, load_breast_cancer

import mrc_pyomo

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def installed_copies(distributions, root=ROOT):
    """The distributions of ``mrc_pyomo`` that are installed copies: all but the metadata a build leaves in the
    source tree itself (``mrc_pyomo.egg-info`` at ``root``).  A virtual environment inside the repository (the
    README's ``.venv``) holds an installed copy like any other."""
    return [d for d in distributions if Path(str(d.locate_file(""))).resolve() != Path(root).resolve()]


def imported_from_source(module_file, editable, root=ROOT):
    """Whether the package was imported from the source tree (``root/mrc_pyomo``) rather than from an installed
    copy (in a virtual environment, inside the repository or not), an editable install being the source tree by
    the developer's choice."""
    return Path(module_file).resolve().is_relative_to(Path(root).resolve() / "mrc_pyomo") and not editable


def _check_the_installed_package():
    """The tests exercise the installed package, not the source tree beside them: a package that installs
    incompletely (a subpackage or a data file left out of the wheel) must fail them.  An editable install
    (``pip install -e .``) is the source tree by the developer's choice."""
    installed = installed_copies(importlib.metadata.distributions(name="mrc_pyomo"))
    if not installed:
        pytest.exit('mrc_pyomo is not installed: pip install -c constraints.txt ".[test]"', returncode=4)
    direct_url = json.loads(installed[0].read_text("direct_url.json") or "{}")
    editable = direct_url.get("dir_info", {}).get("editable", False)
    if imported_from_source(mrc_pyomo.__file__, editable):
        pytest.exit(f"the tests imported mrc_pyomo from the source tree ({mrc_pyomo.__file__}), not the installed "
                    "package: run 'pytest' from the project's root, not 'python -m pytest', which puts the "
                    "current directory first on sys.path", returncode=4)


def _import_the_benchmarks():
    """The benchmark harness (``benchmarks/``, not part of the installed package), imported from the repository
    without putting the repository on ``sys.path``, where it would hide the installed ``mrc_pyomo``."""
    if "benchmarks" in sys.modules:
        return
    spec = importlib.util.spec_from_file_location("benchmarks", ROOT / "benchmarks" / "__init__.py",
                                                  submodule_search_locations=[str(ROOT / "benchmarks")])
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks"] = module
    spec.loader.exec_module(module)


def _put_the_helpers_on_the_path():
    """``tests/`` on ``sys.path`` (not the repository's root, which would hide the installed package), for
    ``from helpers import ...`` in every folder of ``tests/``; pytest's default import mode puts it there too."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))


def harness_process(tmp_path):
    """``(cwd, env)`` for a subprocess that runs ``python -m benchmarks...`` against the installed package: the
    current directory of a ``python -m`` is first on its ``sys.path``, so it is a folder that holds only a link
    to ``benchmarks/``, not the repository."""
    folder = tmp_path / "harness"
    folder.mkdir(exist_ok=True)
    if not (folder / "benchmarks").exists():
        (folder / "benchmarks").symlink_to(ROOT / "benchmarks", target_is_directory=True)
    return folder, dict(os.environ, PYTHONPATH=str(folder))


_check_the_installed_package()
_import_the_benchmarks()
_put_the_helpers_on_the_path()


@pytest.fixture
def data_files(tmp_path):
    """The breast cancer data as the command line reads them (``tests/cli/``): ``bc.csv`` with its label column
    ``diagnosis``, ``features.csv`` with ``labels.txt``, and ``bc.svm``."""
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    df = X.copy()
    df["diagnosis"] = y
    df.to_csv(tmp_path / "bc.csv", index=False)
    X.to_csv(tmp_path / "features.csv", index=False)
    pd.Series(y).to_csv(tmp_path / "labels.txt", index=False, header=False)
    dump_svmlight_file(X.to_numpy(), y.to_numpy(), str(tmp_path / "bc.svm"))
    return tmp_path
