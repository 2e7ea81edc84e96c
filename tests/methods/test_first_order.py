"""The first-order methods as methods (:mod:`mrc_pyomo.methods.first_order`), MRC-PDHG's fit the example: on the
property test's problems its interval holds an independent R* and "converged" means a gap within eps_1; its
certificate starts from its dual's support; it stops at its limits and its callback, logs, and gives on Dask the
in-memory fit; both methods are configured alike and word their iterations alike."""

import warnings
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import assert_certified, fits_in_memory_and_on_dask, problems, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.methods import first_order, get_method, history, pathwise
from mrc_pyomo.methods.ccg.config import CCGConfig
from mrc_pyomo.methods.fista import FOMConfig
from mrc_pyomo.methods.pdhg import FIT_COLUMNS, PDHGConfig, active_rows
from mrc_pyomo.estimator.parameters import Settings
from mrc_pyomo.oracles.primal import class_scores, most_violated_subsets
from mrc_pyomo.methods.pdhg.saddle import nested_rows
from mrc_pyomo.problem import prepare
from mrc_pyomo.methods.result import finish


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_the_certified_interval_holds_r_star(problem):
    """``upper_`` is ``R(mu_)`` (raised by the bound on its rounding), the interval holds the R* of an
    independent full LP, "converged" iff the gap is within eps_1; also with 5 iterations and no certificate."""
    X, y, params = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the fits' warnings on their rules are not what is tested here
        fit = MRCClassifier(method="pdhg", **params).fit(X, y)
        short = MRCClassifier(method="pdhg", max_iter=5, **params).fit(X, y)
    assert_certified((fit, short), X, y, params["lambda0"])
    assert fit.status_ == "converged"


def test_the_certificate_starts_from_the_dual_s_and_the_primal_s_support(monkeypatch):
    """Stopped by a stall before its gap closes, the phase hands MRC-CCG a first master of the centroids' rows,
    the nested rows of its last W and the rows within ``near`` of the largest at its best rule; the loop
    certifies without removing a row, and the history goes on from the phase's records."""
    X, y = random_problem(300, 4, 5, seed=6)
    problem = prepare(X, y)
    pdhg = get_method("pdhg")
    config = pdhg.configure(Settings(eps_1=1e-6), problem)
    config = replace(config, stall_window=20, tolerance=10.0, near=0.3)   # a stall after 21 iterations
    found = {}

    def seen(problem, outcome, phase):
        master = real(problem, outcome, phase)
        found["rows"] = {(int(i), tuple(c)) for i, c in zip(np.asarray(master.samples), np.asarray(master.subsets))}
        found["outcome"] = outcome
        return master
    real = pathwise.certificate_master
    monkeypatch.setattr(pathwise, "certificate_master", seen)
    result = finish(pdhg.steps(problem, config))
    outcome = found["outcome"]
    nested = {(int(i), tuple(c)) for i, c in zip(*nested_rows(outcome.W, config.support_floor))}
    psi, subsets = most_violated_subsets(class_scores(problem.data.rows(np.arange(300)), outcome.mu))
    near = {(int(i), tuple(subsets[i])) for i in np.flatnonzero(psi >= psi.max() - 0.3)}
    assert nested and near - nested and nested | near <= found["rows"]
    assert all(i >= problem.n_samples for i, _ in found["rows"] - nested - near)   # the rest: the centroids' rows
    assert result.status == "converged" and result.upper - result.lower <= 1e-6
    loop = [record for record in result.history if record["phase"] == "generation"]
    assert loop and sum(record["rows_removed"] for record in loop) == 0   # rows are kept (row_age None)
    phases = [record["phase"] for record in result.history]
    assert phases[:21] == ["first-order"] * 21 and set(phases[21:]) == {"generation"}
    assert [record["iteration"] for record in result.history] == list(range(1, len(phases) + 1))


def test_limits_callback_and_log(capsys):
    X, y = random_problem(200, 4, 3, seed=2)
    seen = []
    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(method="pdhg", eps_1=0.0, callback=lambda r: seen.append(r) or len(seen) == 3).fit(X, y)
    assert clf.status_ == "callback" and clf.n_iter_ == 3 and clf.master_ is None and clf.lower_ >= 0.0
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(method="pdhg", time_limit=0.0).fit(X, y)
    assert clf.status_ == "time_limit" and clf.n_iter_ == 1
    assert list(clf.history_.columns) == FIT_COLUMNS
    capsys.readouterr()
    MRCClassifier(method="pdhg", verbose=2, eps_1=1e-2).fit(X, y)
    lines = capsys.readouterr().out.splitlines()
    assert any(line.strip().startswith("10 PDHG") for line in lines) and any("converged" in line for line in lines)


def test_on_dask_the_in_memory_fit():
    X, y = random_problem(300, 4, 3, seed=5)
    memory, on_dask = fits_in_memory_and_on_dask(X, y, method="pdhg", max_iter=60, eps_1=0.0)
    assert np.allclose(on_dask.mu_, memory.mu_, atol=1e-9, rtol=0)
    assert on_dask.upper_ == pytest.approx(memory.upper_, abs=1e-9)
    assert on_dask.lower_ == pytest.approx(memory.lower_, abs=1e-9)


def test_the_segments_from_the_rule_to_each_master_s_point(monkeypatch):
    """After each master the rule on the segments to the master's point is searched (while that is cheaper than
    the master): the result's rule is the best found, its upper end its exact R, and a stop sent during the
    certificate stays the caller's stop."""
    from mrc_pyomo.oracles.incumbent import Incumbent
    X, y = random_problem(300, 4, 5, seed=6)
    problem = prepare(X, y)
    config = PDHGConfig(stall_window=20, tolerance=10.0, eps_1=1e-6)
    searched = []
    real, steps = pathwise.improve_on_segments, get_method("pdhg").steps
    monkeypatch.setattr(pathwise, "improve_on_segments", lambda *a: searched.append(a[2]) or real(*a))
    result = finish(steps(problem, config))
    assert searched and result.status == "converged"
    assert result.upper == Incumbent.evaluate(problem, result.mu).risk
    masters = []
    stopped = finish(steps(problem, config), lambda item: not isinstance(item, dict) and (
        masters.append(item) or True))
    assert stopped.status == "callback" and len(masters) == 1


def test_both_methods_are_configured_and_worded_alike():
    """One configuration for both: the estimator's ``eps_1`` and ``max_iter`` (None: the method's default), the
    certificate's loop in the regime ``"n"``, keeping its rows after MRC-PDHG (``keep_rows``); one log line: every :data:`LOG_EVERY` iterations
    after the method's label, a master's line as MRC-CCG words it."""
    X, y = random_problem(40, 3, 3, seed=0)
    problem = prepare(X, y)
    for name, config_class in (("fom", FOMConfig), ("pdhg", PDHGConfig)):
        method = get_method(name)
        config = method.configure(Settings(eps_1=1e-4, regime="nm"), problem)
        assert isinstance(config, config_class) and config.eps_1 == 1e-4 and config.max_iter == config_class.max_iter
        assert config.certificate.regime == "n" and config.certificate.row_age == CCGConfig().row_age
        assert config.keep_rows == (name == "pdhg")   # PDHG's support names nearly the final rows, FISTA's point not
        assert method.configure(Settings(max_iter=17), problem).max_iter == 17
    record = {"iteration": 20, "phase": history.FIRST_ORDER, "R_mu": 0.5, "lower": 0.25, "upper": 0.5,
              "seconds_elapsed": 1.0}
    assert get_method("pdhg").log_line(record).split()[:2] == ["20", "PDHG"]
    assert get_method("fom").log_line(record).split()[:2] == ["20", "FISTA"]
    assert get_method("pdhg").log_line({**record, "iteration": 21}) is None


def test_without_certify_the_fit_is_the_iterations():
    """``certify=False``: the iterations' rule and bound, no master; "converged" only when their own interval is
    within eps_1 (PDHG's bound can close it, FISTA has none)."""
    X, y = random_problem(200, 4, 3, seed=2)
    problem = prepare(X, y)
    result = finish(get_method("pdhg").steps(problem, PDHGConfig(certify=False, max_iter=40, eps_1=0.0)))
    assert result.master is None and 0.0 < result.lower <= result.upper and result.status == "max_iter"
    assert [record["iteration"] for record in result.history] == list(range(1, 41))
    result = finish(get_method("fom").steps(problem, FOMConfig(certify=False, max_iter=40)))
    assert result.master is None and result.lower == 0.0 and result.status in ("max_iter", "converged")
    blocks = active_rows(problem, finish(get_method("pdhg").iterations(problem, PDHGConfig(max_iter=40)))[0],
                         PDHGConfig())
    assert len(blocks) == 2 and all(len(samples) for samples, _ in blocks)   # the dual's and the primal's supports
