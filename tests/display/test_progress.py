"""What a fit shows (:mod:`mrc_pyomo.display.progress`): nothing by default, the iteration log on stdout at
verbose=2, a live line on stderr at verbose=1, and nothing else, on every path (the built-in HiGHS backend, the
full LP, Pyomo's solvers, MRC-SUB).  highspy 1.16 prints a banner on stdout whenever a ``Highs`` is made; these
tests capture the file descriptors, so C code's output is caught too.  HiGHS made quiet:
``tests/master/test_highs_setup.py``; the command line's output: ``tests/cli/test_main.py``."""

import shutil
import sys
import warnings

import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import SOLVER_BANNERS, random_problem
from mrc_pyomo import MRCClassifier, MRCClassifierCV, mrc_path
from mrc_pyomo.display.log import LOG_HEADER
from mrc_pyomo.display.progress import outcome


PATHS = {
    "highs, regime n": dict(),
    "highs, regime nm": dict(regime="nm", m_max=3),
    "full LP": dict(method="lp"),
    "MRC-SUB": dict(method="subgradient", max_iter=150),
    "appsi_highs": dict(solver="appsi_highs"),
    "glpk": dict(solver="glpk"),
}


def _fit(params, verbose, sparse=False):
    if params.get("solver") == "glpk" and shutil.which("glpsol") is None:
        pytest.skip("glpk not installed")
    X, y = random_problem(150, 4, 3, sparse=sparse, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # MRC-SUB stops at max_iter
        clf = MRCClassifier(verbose=verbose, **params).fit(X, y)
    clf.predict(X), clf.predict_proba(X), clf.decision_function(X), clf.score(X, y)
    return clf


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("sparse", [False, True])
def test_a_fit_and_predict_print_nothing_by_default(capfd, path, sparse):
    _fit(PATHS[path], verbose=0, sparse=sparse)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


@pytest.mark.parametrize("path", list(PATHS))
def test_verbose_2_prints_the_iteration_log_and_nothing_else(capfd, path):
    clf = _fit(PATHS[path], verbose=2)
    out, err = capfd.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[-1] == outcome(clf.status_, clf.lower_, clf.upper_, clf.n_iter_)
    h = clf.history_
    if path == "full LP":
        assert lines == [lines[-1]]
    elif path == "MRC-SUB":   # a line per hundred steps
        assert len(lines) == len(h) // 100 + 1 and lines[0].split()[0] == "100"
    else:
        assert lines[0] == LOG_HEADER and len(lines) == len(h) + 2
        assert [int(line.split()[0]) for line in lines[1:-1]] == list(h.iteration)


@pytest.mark.parametrize("path", ["highs, regime n", "MRC-SUB", "appsi_highs"])
@pytest.mark.parametrize("verbose", [1, True])
def test_verbose_1_is_a_live_line_on_stderr(capfd, path, verbose):
    clf = _fit(PATHS[path], verbose=verbose)
    out, err = capfd.readouterr()
    assert out == ""
    assert not any(banner in err for banner in SOLVER_BANNERS)
    states = [s.strip() for s in err.replace("\n", "\r").split("\r") if s.strip()]
    # tqdm rewrites one line: every state starts with the method's name and the iteration count
    name = "MRC-SUB" if path == "MRC-SUB" else "MRC-CCG"
    assert all(s.startswith(f"{name}: ") for s in states)
    assert err.count("\n") == 1 and err.endswith("\n")
    last = clf.history_.iloc[-1]
    assert states[-1].startswith(f"{name}: {clf.n_iter_} it [")
    final = f"{clf.status_}, R* in [{clf.lower_:.6f}, {clf.upper_:.6f}], gap {clf.upper_ - clf.lower_:.2e}"
    if name == "MRC-CCG":   # and the size of the last master
        final += f", {last.n_rows} rows, {last.n_features} features"
    assert states[-1].endswith(final)


def test_a_fit_that_fails_closes_its_display(capfd):
    """A solver failure on the first master raises; the live line is ended, not left open."""
    X, y = random_problem(60, 3, 3, seed=1)
    with pytest.raises(Exception):
        MRCClassifier(verbose=1, solver_options={"time_limit": 0.0}).fit(X, y)
    out, err = capfd.readouterr()
    assert out == "" and err.endswith("\n") and "Running HiGHS" not in err


def test_the_live_line_keeps_its_clock_moving_while_a_master_solves(capfd, monkeypatch):
    """Between two iterations the line is redrawn every TICK seconds (the elapsed time moves), so a slow
    fit is told from a hung one; closing stops the redraws."""
    import time
    from mrc_pyomo.display.progress import LiveLine
    monkeypatch.setattr(LiveLine, "TICK", 0.02)
    line = LiveLine("MRC-CCG")
    line({"iteration": 1, "lower": 0.1, "upper": 0.5, "n_rows": 10, "n_features": 4})
    time.sleep(0.5)   # a master solving
    line.close("converged", 0.2, 0.2, 1)
    _, err = capfd.readouterr()
    states = [s for s in err.replace("\n", "\r").split("\r") if s.strip()]
    assert len([s for s in states if "10 rows" in s]) >= 5 and not line._ticker.is_alive()
    assert states[-1].startswith("MRC-CCG: 1 it [") and "converged, R* in [0.200000, 0.200000]" in states[-1]


@pytest.mark.parametrize("verbose,stream", [(1, "stderr"), (2, "stdout")])
def test_a_display_without_its_stream_shows_nothing_and_the_fit_runs(monkeypatch, verbose, stream):
    """Where Python has no stderr (or stdout), as under pythonw or some services, a fit at verbose=1 (2) runs
    and shows nothing, instead of failing inside tqdm (or print)."""
    monkeypatch.setattr(sys, stream, None)
    X, y = random_problem(60, 3, 3, seed=0)
    clf = MRCClassifier(verbose=verbose).fit(X, y)
    assert clf.status_ == "converged"


def test_the_log_s_lines_have_the_header_s_width_and_the_live_line_fits_the_terminal(monkeypatch):
    """The log's header and lines have the same width, at most 100 characters; the live line leaves out the
    master's size where the terminal is too narrow for it, and keeps it where there is room."""
    from mrc_pyomo.display import progress
    from mrc_pyomo.display.log import format_record
    clf = _fit(PATHS["highs, regime nm"], verbose=0)
    lines = [format_record(r) for r in clf.history_.to_dict("records")]
    assert len(LOG_HEADER) <= 100 and {len(line) for line in lines} == {len(LOG_HEADER)}
    record = clf.history_.iloc[-1].to_dict()
    for width, shown in [(80, False), (200, True)]:
        monkeypatch.setattr(progress, "terminal_width", lambda stream: width)
        line = progress.LiveLine("MRC-CCG")
        line(record)
        postfix = line.bar.postfix
        line.close(clf.status_, clf.lower_, clf.upper_, clf.n_iter_)
        assert ("rows" in postfix) is shown
        assert len(f"MRC-CCG: {record['iteration']} it [00:00], {postfix}") < width


@pytest.mark.parametrize("method", ["ccg", "lp", "subgradient", "fom", "pdhg"])
def test_verbose_1_shows_every_built_in_method(capfd, method):
    """The live line of each built-in method's records: MRC-PDHG's first-order records have no ``beta`` (the
    live line read it from every first-order record and raised KeyError)."""
    X, y = random_problem(120, 3, 3, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        MRCClassifier(method=method, verbose=1, max_iter=30).fit(X, y)
    err = capfd.readouterr().err
    assert "R* in [" in err


#: real small fits of every kind the iteration log shows: MRC-CCG's masters (regimes "n" and "nm"), a first-order
#: phase before them (MRC-FOM, MRC-PDHG, the default fit's), MRC-SUB's steps, the stages of a path and of a
#: continuation, the folds of MRCClassifierCV
LOGGED = {
    "default": lambda X, y, verbose: MRCClassifier(verbose=verbose).fit(X, y),
    "regime nm": lambda X, y, verbose: MRCClassifier(verbose=verbose, regime="nm", m_max=3).fit(X, y),
    "first-order phase": lambda X, y, verbose: MRCClassifier(verbose=verbose, first_order=True).fit(X, y),
    "fom": lambda X, y, verbose: MRCClassifier(verbose=verbose, method="fom").fit(X, y),
    "pdhg": lambda X, y, verbose: MRCClassifier(verbose=verbose, method="pdhg").fit(X, y),
    "subgradient": lambda X, y, verbose: MRCClassifier(verbose=verbose, method="subgradient", max_iter=200).fit(X, y),
    "continuation": lambda X, y, verbose: MRCClassifier(verbose=verbose, continuation=True).fit(X, y),
    "path": lambda X, y, verbose: mrc_path(X, y, lambda0s=[0.1, 0.01], verbose=verbose),
    "cv": lambda X, y, verbose: MRCClassifierCV(verbose=verbose, cv=2, lambda0s=[0.1, 0.01]).fit(X, y),
}


def _logged(capfd, fit, verbose):
    X, y = random_problem(200, 8, 4, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        LOGGED[fit](X, y, verbose)
    out, err = capfd.readouterr()
    assert err == ""
    return out.splitlines()


@pytest.mark.parametrize("fit", list(LOGGED))
def test_every_line_of_the_default_log_fits_100_columns(capfd, fit):
    """verbose=2 prints no line wider than 100 characters (an 80-column terminal wrapped lines of 122 to 138):
    the header, the masters, a first-order phase's lines, the stages' and folds' lines, the outcome."""
    from mrc_pyomo.display.log import LOG_WIDTH
    lines = _logged(capfd, fit, 2)
    assert len(lines) > 2 and LOG_WIDTH == 100
    assert [line for line in lines if len(line) > 100] == []
    if fit not in ("subgradient", "cv"):
        assert LOG_HEADER in lines
    if fit in ("first-order phase", "fom", "pdhg"):   # the phase's lines are shown, within the width too
        assert any(line.split()[1:2] in (["FISTA"], ["PDHG"]) for line in lines)


@pytest.mark.parametrize("fit", ["default", "fom", "path"])
def test_verbose_3_is_the_wide_log_with_every_column(capfd, fit):
    """verbose=3 prints the log with every column of LOG_COLUMNS (the violations and the solver's seconds too):
    its header, and each master's line as wide."""
    from mrc_pyomo.display.log import LOG_COLUMNS, WIDE_HEADER, format_record
    lines = _logged(capfd, fit, 3)
    assert LOG_HEADER not in lines and WIDE_HEADER in lines
    assert WIDE_HEADER.split() == [title for title, _, _ in LOG_COLUMNS]
    start = lines.index(WIDE_HEADER) + 1
    masters = [line for line in lines[start:] if line[:5].strip().isdigit() and len(line) == len(WIDE_HEADER)]
    assert len(masters) >= 2 and all(len(line.split()) == len(LOG_COLUMNS) for line in masters)
    X, y = random_problem(200, 8, 4, seed=3)
    record = MRCClassifier().fit(X, y).history_.iloc[0].to_dict()
    assert len(format_record(record, wide=True)) == len(WIDE_HEADER) > 100
    assert MRCClassifier(verbose=3).get_params()["verbose"] == 3
    with pytest.raises(ValueError, match="verbose"):
        MRCClassifier(verbose=4).fit(X, y)


def test_a_master_stopped_by_the_time_limit_is_logged_as_a_time_limit(capfd, monkeypatch):
    """HiGHS stopped by the time limit inside a master's solve (its third): the log's line for that master
    says "time limit", as the fit's status "time_limit" does, not "solver failed: ... Time limit reached";
    the record keeps HiGHS's words after "time limit: "."""
    from mrc_pyomo.master import RestrictedMaster
    from mrc_pyomo.methods import deadline
    offset, solves = [0.0], []
    real_now, real_solve = deadline.now, RestrictedMaster.solve
    monkeypatch.setattr(deadline, "now", lambda: real_now() + offset[0])

    def solve(master, time_limit=None, **kwargs):
        solves.append(time_limit)
        if len(solves) == 3:   # the time runs out in this solve: HiGHS is given none left
            offset[0], time_limit = 86400.0, 0.0
        return real_solve(master, time_limit=time_limit, **kwargs)
    monkeypatch.setattr(RestrictedMaster, "solve", solve)
    X, y = random_problem(150, 4, 3, seed=5)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(verbose=2, time_limit=600, n_max=5).fit(X, y)
    lines = capfd.readouterr().out.splitlines()
    assert clf.status_ == "time_limit" and len(solves) == 3
    status = clf.history_.solver_status.iloc[-1]
    assert status.startswith("time limit: HiGHS did not solve") and "Time limit reached" in status
    last = lines[-2]
    assert last.startswith("    3  time limit: stopped in the solve of this master (") and len(last) <= 100
    assert not any("solver failed" in line or "Time limit reached" in line for line in lines)
