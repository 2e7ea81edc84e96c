"""For optimisation practitioners and teachers: callback, solver failures, plots, CLI, examples, docs."""

import io
import subprocess
import warnings
import sys
from pathlib import Path

import highspy
import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest
from sklearn.datasets import dump_svmlight_file, load_breast_cancer
from sklearn.exceptions import ConvergenceWarning

import mrc_pyomo
from conftest import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]


def test_callback_sees_each_iteration_and_can_stop():
    X, y = random_problem(80, 4, 3, seed=1)
    seen = []

    def callback(state):
        m = state.model
        assert isinstance(m, pyo.ConcreteModel)
        assert pyo.value(m.objective) == pytest.approx(state.record["R_master"], abs=1e-9)
        assert state.mu.shape == (3, 5) and state.alpha.shape == (state.master.n_rows,)
        assert state.primal_violations.shape == (80,) and state.dual_violations.shape == (3, 5)
        samples, subsets = state.next_rows
        assert len(samples) == len(subsets) == state.check.new_samples.size
        added_samples, _ = state.rows_added
        assert len(added_samples) == state.record["rows_added"]
        seen.append(state.iteration)
        return state.iteration == 3

    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(eps_1=0.0, n_max=3, callback=callback).fit(X, y)
    assert seen == [1, 2, 3] and clf.status_ == "callback" and clf.n_iter_ == 3


def test_solver_failure_on_a_later_master_returns_the_last_valid_solution():
    X, y = random_problem(150, 4, 3, seed=2)

    def limit_after_first(state):
        state.master.set_solver_option("simplex_iteration_limit", 0)

    with pytest.warns(ConvergenceWarning, match="solver_error"):
        clf = MRCClassifier(eps_1=0.0, n_max=5, callback=limit_after_first).fit(X, y)
    assert clf.status_ == "solver_error"
    h = clf.history_
    assert len(h) == 2 and np.isnan(h.R_master.iloc[-1]) and "limit" in h.solver_status.iloc[-1].lower()
    assert h.solver_status.iloc[0] == "Optimal"
    assert clf.objective_ == h.R_master.iloc[0]
    assert np.isfinite(clf.upper_)


PROBLEMS = {"random": random_problem(70, 3, 3, seed=9), "breast_cancer": load_breast_cancer(return_X_y=True)}


@pytest.mark.parametrize("problem", list(PROBLEMS))
@pytest.mark.parametrize("solver", ["highs", "glpk", "cbc"])
def test_three_solvers_reach_the_same_R_star(problem, solver):
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        pytest.skip(f"{solver} not installed")
    X, y = PROBLEMS[problem]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    ref = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(X, y)
    # the file-based solvers' duals are accurate to their tolerances (about 1e-7): certify to 1e-6
    clf = MRCClassifier(eps_1=1e-6, eps_2=0.0, solver=solver).fit(X, y)
    assert clf.status_ == "converged" and clf.lower_ - 1e-9 <= ref.upper_ <= clf.upper_ + 1e-9
    assert clf.upper_ == pytest.approx(ref.upper_, abs=1e-6)


def test_solver_options_reach_pyomo_solvers():
    if not pyo.SolverFactory("glpk").available(exception_flag=False):
        pytest.skip("glpk not installed")
    X, y = random_problem(40, 3, 2)
    from mrc_pyomo import MasterSolveError
    with pytest.raises(MasterSolveError, match="glpk"):  # glpsol rejects an unknown option: not ignored
        MRCClassifier(solver="glpk", solver_options={"no-such-option": 1}).fit(X, y)


@pytest.mark.parametrize("method", ["ccg", "lp", "subgradient"])
def test_plot_history(method):
    """Every method: the certified gap on a log scale (nothing clipped), the interval with R^k and R(mu^k),
    integer iteration ticks."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.ticker import MaxNLocator
    from mrc_pyomo.plotting import plot_history
    X, y = random_problem(80, 3, 3)
    clf = MRCClassifier(method=method, n_max=10, max_iter=200, eps_1=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # MRC-SUB may stop at max_iter
        clf.fit(X, y)
    fig = plot_history(clf)
    gap_ax, interval_ax, sets_ax, time_ax = fig.axes
    assert gap_ax.get_yscale() == "log"
    assert all(isinstance(ax.xaxis.get_major_locator(), MaxNLocator) for ax in fig.axes)
    assert all(ax.xaxis.get_major_locator()._integer for ax in fig.axes)
    h = clf.history_
    if method == "lp":
        assert len(h) == 0 and np.allclose(interval_ax.lines[0].get_ydata(), [clf.upper_])
        with pytest.raises(ValueError, match="empty"):
            plot_history(h)
        return
    gap = (h.upper - h.lower).to_numpy()
    plotted = [line for line in gap_ax.lines if line.get_label().startswith("certified gap")][0]
    zeros = [line for line in gap_ax.lines if line.get_label().startswith("gap 0")]
    # every iteration is shown: positive gaps on the log axis, zero gaps as markers
    assert len(plotted.get_ydata()) + sum(len(z.get_ydata()) for z in zeros) == len(h)
    assert np.allclose(plotted.get_ydata(), gap[gap > 0])
    r_mu = [line for line in interval_ax.lines if "R(\\mu^k)" in line.get_label()]
    assert sum(len(line.get_ydata()) for line in r_mu) == len(h)   # above the panel: markers, not dropped
    if method == "ccg":
        r_master = [line for line in interval_ax.lines if "master" in line.get_label()][0]
        assert np.allclose(r_master.get_ydata(), h.R_master)
        assert np.allclose(sets_ax.lines[0].get_ydata(), h.n_rows)
        assert "eps_1 = 1e-06" in [line.get_label() for line in gap_ax.lines]


# -- command line ------------------------------------------------------------------------------------------

@pytest.fixture
def data_files(tmp_path):
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    df = X.copy()
    df["diagnosis"] = y
    df.to_csv(tmp_path / "bc.csv", index=False)
    X.to_csv(tmp_path / "features.csv", index=False)
    pd.Series(y).to_csv(tmp_path / "labels.txt", index=False, header=False)
    dump_svmlight_file(X.to_numpy(), y.to_numpy(), str(tmp_path / "bc.svm"))
    return tmp_path


def test_cli_fit_save_predict_export(data_files, capsys):
    d = data_files
    code = cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--eps-1", "0", "--save", str(d / "m.pkl"),
                     "--history", str(d / "h.csv"), "--export-master", str(d / "master.lp")])
    assert code == 0
    out = capsys.readouterr().out
    assert "R_master" in out and "converged: R* in [" in out and "certified gap" in out
    history = pd.read_csv(d / "h.csv")
    assert list(history.iteration) == list(range(1, len(history) + 1))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(d / "master.lp"))
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(history.R_master.iloc[-1], abs=1e-7)
    assert cli_main(["predict", str(d / "m.pkl"), str(d / "bc.csv"), "--label", "diagnosis", "--proba",
                     "--output", str(d / "p.csv")]) == 0
    pred = pd.read_csv(d / "p.csv")
    assert len(pred) == 569 and {"prediction", "p_0", "p_1"} <= set(pred.columns)
    assert np.allclose(pred[["p_0", "p_1"]].sum(axis=1), 1.0)


def test_cli_svmlight_and_labels_file(data_files, capsys):
    d = data_files
    assert cli_main(["fit", str(d / "bc.svm"), "--quiet", "--save", str(d / "s.pkl")]) == 0
    assert cli_main(["fit", str(d / "features.csv"), "--labels", str(d / "labels.txt"), "--quiet"]) == 0
    assert cli_main(["predict", str(d / "s.pkl"), str(d / "bc.svm")]) == 0
    out = capsys.readouterr().out
    assert out.count("converged") == 2 and "prediction" in out


@pytest.mark.parametrize("args,message", [
    (["fit", "missing.csv"], "no such file"),
    (["fit", "{d}/header_only.csv"], "has a header but no samples"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--save", "{d}/no/such/dir/m.pkl"], "no such directory"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--history", "{d}"], "is a directory"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--export-master", "{d}/m.txt"], "must end in .lp or .mps"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--method", "subgradient", "--export-master", "{d}/m.lp"],
     "solves no LP"),
    (["predict", "{d}/m.pkl", "{d}/reordered.csv"], "another order than the model's"),
    (["predict", "{d}/m.pkl", "{d}/dropped.csv"], "missing ['mean radius']"),
    (["predict", "{d}/m.pkl", "{d}/bc.csv", "--label", "diagnosis", "--output", "{d}/no/p.csv"], "no such directory"),
    (["fit", "{d}/bc.csv"], "no column 'label'"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--solver", "nope"], "unknown solver"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--lambda0", "-1"], "lambda0"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--solver-option", "x"], "KEY=VALUE"),
    (["predict", "{d}/bc.csv", "{d}/bc.csv"], "not a model"),
])
def test_cli_errors_are_one_line(data_files, args, message):
    """Each error is one line on stderr, before any fit starts (nothing on stdout: no Pyomo warning either)."""
    d = data_files
    pd.read_csv(d / "bc.csv").iloc[:0].to_csv(d / "header_only.csv", index=False)
    features = pd.read_csv(d / "features.csv")
    features[features.columns[::-1]].to_csv(d / "reordered.csv", index=False)
    features.drop(columns="mean radius").to_csv(d / "dropped.csv", index=False)
    if args[0] == "predict" and "m.pkl" in args[1]:
        assert cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--quiet", "--save", str(d / "m.pkl")]) == 0
    args = [a.format(d=d) for a in args]
    result = subprocess.run([sys.executable, "-m", "mrc_pyomo.cli", *args], capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mrc-pyomo: error:") and message in lines[0]


def test_cli_separator_version_and_subgradient(data_files, capsys):
    d = data_files
    pd.read_csv(d / "bc.csv").to_csv(d / "bc_semicolon.csv", index=False, sep=";")
    assert cli_main(["fit", str(d / "bc_semicolon.csv"), "--sep", ";", "--label", "diagnosis", "--quiet",
                     "--save", str(d / "m.pkl")]) == 0
    assert cli_main(["predict", str(d / "m.pkl"), str(d / "bc_semicolon.csv"), "--sep", ";",
                     "--label", "diagnosis"]) == 0
    assert cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--method", "subgradient",
                     "--max-iter", "50"]) == 0
    out = capsys.readouterr().out
    assert out.count("R* in [") == 2 and "solver none (MRC-SUB)" in out and "50 iterations" in out
    with pytest.raises(SystemExit) as exit_:
        cli_main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"mrc-pyomo {mrc_pyomo.__version__}"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_cli_progress_display(terminal):
    """On a terminal one line rewritten per master (iteration, certified interval, active sets, time);
    elsewhere the iteration log, a plain line per master."""
    from mrc_pyomo.ccg import LOG_HEADER
    from mrc_pyomo.cli import Progress
    stream = _Terminal() if terminal else io.StringIO()
    progress = Progress(stream)
    X, y = random_problem(200, 5, 3, seed=3)
    progress.begin()
    clf = MRCClassifier(callback=progress).fit(X, y)
    progress.end()
    text = stream.getvalue()
    if terminal:
        updates = text.split("\r\033[K")[1:]
        assert len(updates) == clf.n_iter_ and text.endswith("\n") and "\n" not in text[:-1]
        last = clf.history_.iloc[-1]
        assert updates[-1].startswith(f"iteration {clf.n_iter_}: R* in [{last.lower:.6f}, {last.upper:.6f}]")
        assert f"{last.n_rows} rows, {last.n_features} features" in updates[-1] and updates[-1].endswith(" s\n")
    else:
        lines = text.splitlines()
        assert lines[0] == LOG_HEADER and len(lines) == clf.n_iter_ + 1 and "\r" not in text


def test_cli_help():
    result = subprocess.run([sys.executable, "-m", "mrc_pyomo.cli", "fit", "--help"], capture_output=True,
                            text=True)
    assert result.returncode == 0 and "--export-master" in result.stdout and "--solver" in result.stdout


# -- examples and docs --------------------------------------------------------------------------------------

@pytest.mark.parametrize("script", ["quickstart.py", "tutorial.py", "solver_switching.py", "export.py",
                                    "pipeline_grid_search.py"])
def test_examples_run(script, tmp_path):
    args = [] if script == "quickstart.py" else ["--fast"]
    if script == "tutorial.py":
        args += ["--plot", str(tmp_path / "t.png")]
    result = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args], capture_output=True,
                            text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip()
    if script == "tutorial.py":
        assert (tmp_path / "t.png").stat().st_size > 0 and "iteration 1" in result.stdout


def test_docs_build_without_warnings(tmp_path):
    pytest.importorskip("sphinx")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             str(ROOT / "docs"), str(tmp_path / "html")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    # the tutorial shows the output and the figure of examples/tutorial.py, made by this build
    tutorial = (tmp_path / "html" / "tutorial.html").read_text()
    assert "iteration 1: master with" in tutorial and "tutorial.png" in tutorial and "primal_v" in tutorial
    # the benchmark reports are pages of the site, their tables and figures included
    full = (tmp_path / "html" / "_generated" / "benchmarks_full.html").read_text()
    assert "Targets" in full and "<table" in full and "convergence_full.png" in full
