"""The master written to a file (:mod:`mrc_pyomo.master.export`): ``master.write(path, format=None, io_options=None)``
as Pyomo's ``write``: a format named whatever the extension, the writer's options over readable names, and an
error that names ``format=`` and the formats where the extension tells none."""

import re
import shutil
import subprocess

import pytest

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master.highs_backend import quiet_highs


@pytest.fixture(scope="module")
def fitted():
    X, y = random_problem(60, 3, 3, seed=5)
    return MRCClassifier(eps_1=0.0).fit(X, y)


def _objective(path):
    h = quiet_highs()
    h.readModel(str(path))
    h.run()
    return h.getInfo().objective_function_value


def test_a_format_named_whatever_the_extension(fitted, tmp_path):
    # before: TypeError (write took no format), and "m.txt" asked for a 'format' argument write did not have
    master = fitted.master_
    for format, name, usual in [("lp", "m.txt", "m.lp"), ("mps", "m.dat", "m.mps")]:
        path = master.write(tmp_path / name, format=format)
        assert path == tmp_path / name
        assert path.read_text() == master.write(tmp_path / usual, format=format).read_text()
        assert _objective(tmp_path / usual) == pytest.approx(fitted.objective_, abs=1e-7)
    for format, name in [("nl", "m.nl"), ("gams", "m.gms"), (None, "m.gms"), ("bar", "m.bar")]:
        assert master.write(tmp_path / name, format=format).stat().st_size > 0


def test_io_options_over_readable_names(fitted, tmp_path):
    master = fitted.master_
    assert "mu_pos(" in master.write(tmp_path / "named.lp").read_text()
    options = {"symbolic_solver_labels": False}
    text = master.write(tmp_path / "numbered.lp", io_options=options).read_text()
    assert "mu_pos(" not in text and options == {"symbolic_solver_labels": False}   # the dict is not modified
    assert _objective(tmp_path / "numbered.lp") == pytest.approx(fitted.objective_, abs=1e-7)


def test_a_file_whose_extension_tells_no_format_names_format(fitted, tmp_path):
    with pytest.raises(ValueError, match=r"'.*m\.txt' from its extension: .*\.lp, \.mps.* or pass format= \(one of "
                                         r"'lp', 'mps', 'nl', 'gams', 'bar'\)"):
        fitted.master_.write(tmp_path / "m.txt")
    with pytest.raises(ValueError, match="format='xlsx' has no Pyomo writer: pass one of 'lp', 'mps'"):
        fitted.master_.write(tmp_path / "m.lp", format="xlsx")
    assert not list(tmp_path.iterdir())


def _glpsol(path):
    option = {".mps": "--freemps", ".lp": "--lp"}[path.suffix]
    out = subprocess.run(["glpsol", option, str(path), "-o", "/dev/stdout"], capture_output=True, text=True).stdout
    return float(re.search(r"Objective:\s+\S+ = (\S+)", out).group(1))


def _cbc(path):
    out = subprocess.run(["cbc", str(path), "solve"], capture_output=True, text=True).stdout
    return float(re.search(r"Optimal - objective value (\S+)", out).group(1))


#: the free LP solvers that read files, and how each is asked for the optimum of one
READERS = {"highs": _objective, "glpsol": _glpsol, "cbc": _cbc}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_every_free_solver_reads_the_exported_file_and_finds_r_k(fitted, tmp_path, reader, suffix):
    """docs/export.rst: any LP solver reading the file finds the master's R^k.  GLPK refused the MPS file ("invalid
    indicator record" on its OBJSENSE section, an extension of the format: a minimisation is written without it,
    minimising being MPS's default)."""
    if reader != "highs" and shutil.which(reader) is None:
        pytest.skip(f"{reader} is not installed (Debian: glpk-utils, coinor-cbc)")
    path = fitted.master_.write(tmp_path / f"master{suffix}")
    assert READERS[reader](path) == pytest.approx(fitted.objective_, abs=1e-6)
    if suffix == ".mps":
        assert "OBJSENSE" not in path.read_text()


def test_an_upper_case_extension_tells_the_format(fitted, tmp_path):
    """``--export-master MASTER.MPS`` (the command line takes the extension in any case): Pyomo's guess of the
    format is case-sensitive, and the write failed after the fit (the saved model written, the master not)."""
    for name in ("MASTER.MPS", "Master.Lp"):
        path = fitted.master_.write(tmp_path / name)
        assert _objective(path) == pytest.approx(fitted.objective_, abs=1e-7)

