"""The installed package: complete, with tested dependency ranges, and the tested versions pinned."""

import importlib.metadata
import importlib.util
import re

import pytest
from packaging.requirements import Requirement

import mrc_pyomo
from helpers import ROOT


RUNTIME = {"numpy", "scipy", "pandas", "pyomo", "highspy", "scikit-learn", "tqdm"}


def _requirements(extra=None):
    """The installed distribution's requirements (its metadata, not pyproject.toml), for ``extra`` or the
    runtime ones."""
    out = {}
    for text in importlib.metadata.requires("mrc_pyomo") or []:
        requirement = Requirement(text)
        marker = str(requirement.marker or "")
        if (extra is None and not marker) or (extra is not None and f'extra == "{extra}"' in marker):
            out[requirement.name.lower()] = requirement
    return out


def _pins():
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    return pins


def test_the_installed_package_has_every_module_of_the_source_tree():
    """A subpackage left out of the wheel fails here (and in every test that uses it)."""
    modules = []
    for path in sorted((ROOT / "mrc_pyomo").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert "mrc_pyomo.master.highs_backend" in modules
    for name in modules:
        assert importlib.util.find_spec(name) is not None, f"{name} is not in the installed package"
    assert mrc_pyomo.__version__ == importlib.metadata.version("mrc_pyomo")


def test_every_runtime_dependency_is_a_range_with_a_tested_upper_bound():
    requirements = _requirements()
    assert set(requirements) == RUNTIME
    pins = _pins()
    for name, requirement in requirements.items():
        operators = {spec.operator for spec in requirement.specifier}
        assert {">=", "<"} <= operators, f"{requirement}: a lower bound and an upper bound"
        # the tested version of constraints.txt is inside the range
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} is outside {requirement}"


def test_the_extras_install_what_they_are_for():
    """The commercial solvers only with 'commercial'; the docs build with 'docs' alone."""
    test, docs, commercial = _requirements("test"), _requirements("docs"), _requirements("commercial")
    assert not {"gurobipy", "cplex"} & set(test) and {"gurobipy", "cplex"} == set(commercial)
    assert {"sphinx", "matplotlib"} <= set(docs)
    pins = _pins()
    assert all(name in pins for name in set(test) | set(docs) | set(commercial))


def test_dask_is_an_optional_extra():
    """Data beyond memory needs 'dask': not the default install, but the suite's (its tests run in CI)."""
    dask = set(_requirements("dask"))
    assert dask == {"dask", "distributed"} and dask <= set(_requirements("test"))
    assert not dask & set(RUNTIME)
    assert all(name in _pins() for name in dask)


def test_the_readme_commands_install_with_the_constraints():
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```bash\n(pip install .*)\n```", readme)
    assert commands[:2] == ['pip install -c constraints.txt . && python -m mrc_pyomo',
                            'pip install -c constraints.txt ".[test]" && pytest -q']
    assert "pip install -c constraints.txt \".[test]\" && pytest -q" in (ROOT / ".ci" / "run").read_text()


def test_ci_installs_in_the_virtual_environment_the_readme_makes():
    """The README's set-up makes ``.venv`` in the repository's root; CI makes its environment there too, so that it
    proves the README's commands as written (a ``.venv`` inside the repository once stopped the tests)."""
    readme = (ROOT / "README.md").read_text()
    assert "python3 -m venv .venv && . .venv/bin/activate" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'venv=".venv"' in ci and "mktemp" not in ci


def test_a_virtual_environment_inside_the_repository_holds_an_installed_copy(tmp_path):
    """The suite's check of the installed package (tests/conftest.py): a copy installed in ``ROOT/.venv`` counts
    as installed and is not the source tree; the metadata a build leaves at the root does not count; the
    package imported from ``ROOT/mrc_pyomo`` is the source tree unless the install is editable."""
    from conftest import imported_from_source, installed_copies

    class Distribution:
        def __init__(self, where):
            self.where = where

        def locate_file(self, name):
            return self.where / name

    root = tmp_path / "repository"
    in_venv = Distribution(root / ".venv" / "lib" / "python3.11" / "site-packages")
    built_here, elsewhere = Distribution(root), Distribution(tmp_path / "venv" / "site-packages")
    assert installed_copies([built_here, in_venv, elsewhere], root) == [in_venv, elsewhere]
    installed = root / ".venv" / "lib" / "python3.11" / "site-packages" / "mrc_pyomo" / "__init__.py"
    assert not imported_from_source(installed, editable=False, root=root)
    assert imported_from_source(root / "mrc_pyomo" / "__init__.py", editable=False, root=root)
    assert not imported_from_source(root / "mrc_pyomo" / "__init__.py", editable=True, root=root)


@pytest.mark.parametrize("name", sorted(RUNTIME))
def test_the_readme_states_the_tested_versions(name):
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Tested versions"):]
    assert _pins()[name] in section


def test_the_readme_says_what_its_first_job_prints():
    """The first job's log has an R(mu^k) column that reaches 132 under a title about error probabilities: the
    README says, in one sentence, what that column and R^k are."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    quick = readme[readme.index("## Quick start"):readme.index("## Tested versions")]
    assert "`R(mu^k)` the exact worst-case error of that master's rule over all training samples" in quick
    assert "`R^k` is the value of each restricted master" in quick and "starts far above 1" in quick
