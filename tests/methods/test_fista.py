"""MRC-FOM (:mod:`mrc_pyomo.methods.fista`): its gradient is that of the smoothed objective, its rule's
``upper_`` is the exact ``R(mu_)`` and its ``lower_`` a bound on R* from an independent full LP on the property
test's problems; it stops at its limits and on its callback, logs, and gives on Dask the in-memory run."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import assert_certified, fits_in_memory_and_on_dask, problems, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.display.log import LOG_HEADER
from mrc_pyomo.master import MasterSolveError, MasterTimeLimit
from mrc_pyomo.master.highs_backend import HighsBackend
from mrc_pyomo.methods import deadline, fista, get_method, pathwise
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.oracles.passes import backward
from mrc_pyomo.oracles.primal import class_scores
from mrc_pyomo.problem import prepare
from mrc_pyomo.methods.result import finish


def test_the_gradient_is_that_of_the_smoothed_objective():
    """``Psi^T W - tau`` (one backward pass) against central differences of ``f_beta`` (one forward pass each),
    at a point where every sample's best subset is unique; ``smoothed_value`` gives ``smoothed``'s value."""
    X, y = random_problem(60, 3, 3, seed=4)
    problem = prepare(X, y)
    mu = np.random.default_rng(1).normal(scale=0.3, size=problem.tau.shape)
    beta = 0.05
    value = lambda m: fista.smoothed(class_scores(problem.data.array, m), m, problem.tau, beta)[0]  # noqa
    _, W, _ = fista.smoothed(class_scores(problem.data.array, mu), mu, problem.tau, beta)
    gradient = backward(problem.data, W) - problem.tau
    step = 1e-6
    numeric = np.zeros_like(mu)
    for index in np.ndindex(mu.shape):
        e = np.zeros_like(mu)
        e[index] = step
        numeric[index] = (value(mu + e) - value(mu - e)) / (2 * step)
    assert np.allclose(gradient, numeric, atol=1e-6)
    # the value a step only tries, without the weights: the same numbers, bit for bit
    V = class_scores(problem.data.array, mu)
    f, _, top = fista.smoothed(V, mu, problem.tau, beta)
    assert fista.smoothed_value(V, mu, problem.tau, beta) == (f, top)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_the_certified_interval_holds_R_star(problem):
    """On the property test's problems: ``upper_`` is ``R(mu_)`` (raised by the bound on its rounding), the
    interval holds the R* of an independent full LP, and "converged" means a gap of at most eps_1; with few
    iterations and no certificate the rule is still certified from above."""
    X, y, params = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = MRCClassifier(method="fom", **params).fit(X, y)
        short = MRCClassifier(method="fom", max_iter=5, **params).fit(X, y)
    assert_certified((fit, short), X, y, params["lambda0"])
    assert fit.history_.phase.iloc[-1] == "generation" and fit.master_ is not None


def test_limits_callback_and_log(capsys):
    """``max_iter`` bounds each phase (first-order iterations, then masters), the history numbers and times them
    on, the best ``upper`` never rises; a callback's stop and the time limit end the first-order phase with its
    rule, uncertified; ``verbose=2`` logs both phases."""
    X, y = random_problem(300, 4, 3, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MRCClassifier(method="fom", max_iter=7, eps_1=0.0).fit(X, y)
    phases = list(clf.history_.phase)
    assert phases[:7] == ["first-order"] * 7 and 1 <= len(phases) - 7 <= 7 and set(phases[7:]) == {"generation"}
    assert list(clf.history_.iteration) == list(range(1, len(phases) + 1))
    assert np.all(np.diff(clf.history_.seconds_elapsed) >= 0) and np.all(np.diff(clf.history_.upper) <= 1e-15)
    assert list(clf.history_.columns) == fista.FIT_COLUMNS and (clf.history_.lambda0 == 0.01).all()
    seen = []
    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(method="fom", callback=lambda record: seen.append(record) or len(seen) == 3).fit(X, y)
    assert clf.status_ == "callback" and clf.n_iter_ == 3 and clf.master_ is None and clf.lower_ == 0.0
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(method="fom", time_limit=0.0).fit(X, y)
    assert clf.status_ == "time_limit" and clf.n_iter_ == 1
    capsys.readouterr()
    MRCClassifier(method="fom", verbose=2, eps_1=1e-2).fit(X, y)
    out = capsys.readouterr().out
    assert "FISTA" in out and LOG_HEADER in out and "converged" in out


def test_time_running_out_after_the_phase_returns_its_rule(monkeypatch):
    """The deadline passed while the certificate's first master is built, or the solver stopped at it in that
    master's solve, ends MRC-FOM with the phase's rule, uncertified, status "time_limit"; without a deadline a
    solver's failure there is raised.  The clock jumps (:func:`mrc_pyomo.methods.deadline.now`)."""
    X, y = random_problem(300, 4, 3, seed=2)
    problem = prepare(X, y)
    config, steps = fista.FOMConfig(), get_method("fom").steps
    best, _, _ = finish(fista.iterations(problem, config))
    late = {"seconds": 0.0}
    real_master, real_now = pathwise.certificate_master, deadline.now

    def slow_master(*args):
        late["seconds"] += 1e3   # the clock jumps past the limit while the master is built
        return real_master(*args)

    def stopped(backend, master, time_limit=None, budget=None):   # the solver stops at its time limit
        raise MasterTimeLimit("HiGHS did not solve the restricted master: model status 'Time limit reached'")
    monkeypatch.setattr(deadline, "now", lambda: real_now() + late["seconds"])
    monkeypatch.setattr(pathwise, "certificate_master", slow_master)
    result = finish(steps(problem, config, deadline=Deadline(60.0)))
    assert result.status == "time_limit" and result.lower == 0.0 and result.master is None
    assert result.upper == pytest.approx(best.risk, abs=1e-12)
    monkeypatch.setattr(pathwise, "certificate_master", real_master)
    monkeypatch.setattr(HighsBackend, "solve", stopped)
    result = finish(steps(problem, config, deadline=Deadline(60.0)))
    assert result.status == "time_limit" and result.lower == 0.0 and result.master is None
    monkeypatch.setattr(HighsBackend, "solve", lambda *args, **kwargs: (_ for _ in ()).throw(
        MasterSolveError("HiGHS did not solve the restricted master: model status 'Unbounded'")))
    with pytest.raises(MasterSolveError, match="Unbounded"):   # without a deadline the error is the solver's
        finish(steps(problem, config))


def test_on_dask_the_in_memory_run():
    """The same code on a Dask array (chunks of 70 rows): the same iterations, the same rule to 1e-9."""
    X, y = random_problem(300, 4, 3, seed=5)
    memory, on_dask = fits_in_memory_and_on_dask(X, y, method="fom", max_iter=60)
    assert np.allclose(on_dask.mu_, memory.mu_, atol=1e-9, rtol=0)
    assert on_dask.upper_ == pytest.approx(memory.upper_, abs=1e-9)
    assert on_dask.lower_ == pytest.approx(memory.lower_, abs=1e-9)
    assert np.allclose(on_dask.history_.R_mu, memory.history_.R_mu, atol=1e-9, rtol=0)


def test_the_certificate_starts_from_the_chain_on_multi_class_text_only():
    """``FOMConfig.chain`` None: the first master's rows are each near sample's chain (``near_active_rows(...,
    chain=True)``) on sparse text of more than two classes, its most violated row alone elsewhere (images, dense
    features), as the measurements chose; True / False force either."""
    from helpers import zipf_words
    from mrc_pyomo.methods.ccg.config import multi_class_text
    from mrc_pyomo.methods.result import Outcome

    def rows(problem, **config):
        mu = np.random.default_rng(0).normal(scale=1e-3, size=problem.tau.shape)   # prefixes close together
        found = Outcome(mu, 1.0, 1.0)
        samples, subsets = fista.active_rows(problem, found, fista.FOMConfig(near=0.5, **config))[0]
        return {(i, tuple(np.flatnonzero(C))) for i, C in zip(samples, subsets)}

    text, dense = prepare(*zipf_words(n=300, n_classes=3)), prepare(*random_problem(300, 4, 3, seed=1))
    assert multi_class_text(text) and not multi_class_text(dense)
    for problem, chained in ((text, True), (dense, False)):
        alone, chain = rows(problem, chain=False), rows(problem, chain=True)
        assert alone < chain   # the chain holds each sample's most violated row, and more
        assert rows(problem) == (chain if chained else alone)


def test_only_the_free_coefficients_move():
    """On sparse text, whose reduction fixes features (``tau = lambda = 0`` there, and a zero gradient: their labels
    are blocked wherever they are nonzero): FISTA's iterations over the free coefficients alone are those over all
    of them, to rounding, from 0 and from a start whose fixed ones are pushed the reduction's way, which they keep;
    the rule's R is the exact one."""
    from dataclasses import replace
    from helpers import zipf_words
    from mrc_pyomo.methods.result import Outcome
    from mrc_pyomo.oracles.primal import risk, varphi
    problem = prepare(*zipf_words(n=300, n_classes=3))
    fixed = problem.reduction.fixed
    assert fixed.any() and not problem.tau[fixed].any() and not problem.lam[fixed].any()
    every = replace(problem, reduction=replace(problem.reduction, fixed=np.zeros_like(fixed)))   # nothing fixed
    config, pushed = fista.FOMConfig(max_iter=40), 5.0 * problem.reduction.direction
    for start in (None, Outcome(pushed, np.inf, np.inf)):
        found, history, _ = finish(fista.iterations(problem, config, start=start))
        reference, reference_history, _ = finish(fista.iterations(every, config, start=start))
        assert np.allclose(found.mu, reference.mu, rtol=0, atol=1e-9) and found.mu[~fixed].any()
        assert np.array_equal(found.mu[fixed], pushed[fixed] if start else np.zeros(fixed.sum()))
        assert np.allclose([r["R_mu"] for r in history], [r["R_mu"] for r in reference_history], rtol=0, atol=1e-9)
        exact = risk(found.mu, varphi(problem.data, found.mu, problem.blocked), problem.tau, problem.lam)
        assert found.risk == pytest.approx(exact, abs=1e-12) and found.risk < history[0]["R_mu"]
