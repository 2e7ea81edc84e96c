"""The examples of ``examples/`` run, as a user runs them, against the installed package."""

import subprocess
import sys

import pytest

from helpers import ROOT


@pytest.mark.parametrize("script", ["quickstart.py", "tutorial.py", "teaching.py", "solver_switching.py", "export.py",
                                    "pipeline_grid_search.py", "feature_maps.py"])
def test_examples_run(script, tmp_path):
    args = [] if script in ("quickstart.py", "teaching.py") else ["--fast"]
    if script == "tutorial.py":
        args += ["--plot", str(tmp_path / "t.png")]
    result = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args], capture_output=True,
                            text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip()
    if script == "tutorial.py":
        assert (tmp_path / "t.png").stat().st_size > 0 and "iteration 1" in result.stdout
        # the same fit with verbose=2: the iteration log's header and a line per master
        log = result.stdout.split("the same fit with verbose=2")[1]
        assert "R^k" in log and "+rows" in log and "converged: R* in [" in log
        assert max(map(len, log.splitlines())) <= 100   # the narrow log fits 100 columns
    if script == "solver_switching.py":   # every solver reaches R*: no warning
        assert "Warning" not in result.stderr and result.stdout.count("converged") >= 2
    if script == "feature_maps.py":   # the table of docs/feature_maps.rst: a row per data set and map
        rows = [line for line in result.stdout.splitlines() if line.startswith(("| iris |", "| wine |"))]
        assert [row.split("|")[3].strip() for row in rows] == ["linear", "fourier"] * 2
