"""The digits job (:mod:`mrc_pyomo.cli.demo`): ``python -m mrc_pyomo`` with no command runs it, the README's first
command; ``mrc-pyomo demo`` too."""

import subprocess
import sys


def test_python_m_mrc_pyomo_runs_the_demo_and_says_what_r_mu_is():
    result = subprocess.run([sys.executable, "-m", "mrc_pyomo", "--eps-1", "0.05"], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert out.startswith("digits: 1437 training samples, 64 features, 10 classes")
    assert "R(mu^k) the exact worst-case error of its rule" in out and "(certified in NumPy)" in out
    assert "test error = " in out and "iterations;" in out
