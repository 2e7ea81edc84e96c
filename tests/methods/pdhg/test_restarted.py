"""MRC-PDHG's restarted iterations (:mod:`mrc_pyomo.methods.pdhg.restarted`): their interval holds the R* of an independent
full LP at every iteration, it stops at its limits, a stop sent and a stall, PDLP's restart rule, and the same iterations
on Dask and on array-api-strict as on NumPy."""

from dataclasses import replace

import numpy as np
import pytest

from helpers import random_problem, reference_R_star
from mrc_pyomo.data import ArraySource
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.pdhg import PDHGConfig
from mrc_pyomo.methods.pdhg.step import Arrays, data_namespace, step_limit
from mrc_pyomo.methods.pdhg.restarted import Restarts, StepScale, Support, first_point, iterations
from mrc_pyomo.methods.result import finish
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem import prepare


def small(seed=0, n=80, d=3, K=4, lambda0=0.01, **options):
    X, y = random_problem(n, d, K, seed=seed)
    problem = prepare(X, y, lambda0=lambda0, **options)
    return problem, reference_R_star(np.asarray(problem.data.array), problem.y, K, lambda0)


@pytest.mark.parametrize("seed", range(3))
def test_every_interval_holds_r_star_and_closes(seed):
    """Every record's [lower, upper] holds R*, upper never rises and is R of the rule returned, lower never
    falls, and the gap closes to eps_1 ("converged")."""
    problem, R_star = small(seed)
    best, history, status = finish(iterations(problem, PDHGConfig(eps_1=1e-3, window=10**6, stall_window=10**6)))
    lowers, uppers = np.array([r["lower"] for r in history]), np.array([r["upper"] for r in history])
    assert (lowers <= R_star + 1e-9).all() and (uppers >= R_star - 1e-9).all()
    assert (np.diff(uppers) <= 0).all() and (np.diff(lowers) >= 0).all()
    assert status == "converged" and best.risk - best.lower <= 1e-3 and best.lower == lowers[-1]
    data = np.asarray(problem.data.array)
    assert best.risk == pytest.approx(worst_case_risk(data, best.mu, problem.tau, problem.lam), abs=1e-12)
    assert best.W.shape == (problem.n_samples, 4) and best.W.sum() == pytest.approx(1.0)


def test_limits_a_stop_sent_and_a_stall():
    problem, _ = small(1)
    _, history, status = finish(iterations(problem, PDHGConfig(max_iter=7, eps_1=0.0)))
    assert status == "max_iter" and [r["iteration"] for r in history] == list(range(1, 8))
    _, history, status = finish(iterations(problem, PDHGConfig(eps_1=0.0)), lambda r: r["iteration"] == 3)
    assert status == "callback" and len(history) == 3
    _, history, status = finish(iterations(problem, PDHGConfig(eps_1=0.0), deadline=Deadline(0.0)))
    assert status == "time_limit" and len(history) == 1
    _, history, status = finish(iterations(problem, PDHGConfig(eps_1=0.0, stall_window=5, tolerance=1e9)))
    assert status is None and len(history) == 6   # nothing moves by 1e9 upper ends: a stall after the window
    best, history, _ = finish(iterations(problem, PDHGConfig(max_iter=0)))
    assert history == [] and best.lower == 0.0 and best.W.sum() == pytest.approx(1.0)


def test_pdlp_s_restart_rule():
    config = PDHGConfig()
    restarts = Restarts(omega=1.0, point="start", since=100)
    assert not restarts.update("a", 10.0, 101, config, None)          # the first residual after a restart
    assert not restarts.update("b", 9.0, 102, config, None)           # above 0.8 of it
    assert not restarts.update("c", 7.0, 103, config, None)           # below 0.8 but falling
    assert restarts.update("d", 7.5, 104, config, None) and restarts.point == "d" and restarts.since == 104
    assert restarts.omega == 1.0                                      # no weight smoothing: omega stays
    assert not restarts.update("e", 5.0, 105, config, None)
    assert restarts.update("f", 0.9, 106, config, None)               # a fifth of the first
    restarts.first = restarts.last = 1.0
    assert restarts.update("g", 1.0, 166, config, None)               # 60 steps of 166: over 0.36 of them


def test_on_dask_and_array_api_strict_the_numpy_iterations():
    """The same 40 iterations (Dask chunks of 30 rows; an ArraySource of array-api-strict) to 1e-9."""
    X, y = random_problem(120, 3, 3, seed=4)
    config = PDHGConfig(max_iter=40, eps_1=0.0)
    base = prepare(X, y)
    best, history, _ = finish(iterations(base, config))
    others = []
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    with dask.config.set(scheduler="sync"):
        others.append(finish(iterations(prepare(da.from_array(X, chunks=(30, 3)), y), config)))
    xps = pytest.importorskip("array_api_strict")
    xps.set_array_api_strict_flags(api_version="2024.12")
    try:
        on_standard = replace(base, data=ArraySource(xps.asarray(np.asarray(base.data.array))))
        others.append(finish(iterations(on_standard, config)))
    finally:
        xps.reset_array_api_strict_flags()
    for other_best, other_history, _ in others:
        assert np.allclose(np.asarray(other_best.mu), best.mu, atol=1e-9, rtol=0)
        assert np.allclose([r["R_mu"] for r in other_history], [r["R_mu"] for r in history], atol=1e-9, rtol=0)
        assert np.allclose([r["lower"] for r in other_history], [r["lower"] for r in history], atol=1e-9, rtol=0)


def test_the_generator_yields_each_record():
    problem, _ = small(2)
    steps = iterations(problem, PDHGConfig(max_iter=3, eps_1=0.0))
    first = next(steps)
    assert first["iteration"] == 1 and first["phase"] == "first-order" and set(first) >= {"omega", "residual"}


def test_the_support_settles_and_the_adaptive_steps_hold_their_limit():
    """Support: compared every ``every`` iterations, settled at a Jaccard share of ``settled``, or handed over once
    the steps' work is ``handover`` times the master's.  StepScale: every step
    taken by the adaptive rule is within its limit; a fixed rule takes its first step."""
    xp = np
    support = Support(floor=0.0, every=2, settled=0.75)
    W = xp.array([[1.0, 0.0], [1.0, 1.0]])
    assert not support.hands_over(W, 1, 1) and not support.hands_over(W, 2, 2)   # the first comparison point
    assert support.hands_over(W, 4, 4)
    assert not support.hands_over(xp.array([[1.0, 1.0], [0.0, 1.0]]), 6, 6)   # 2 shared of 4
    # the work rule: the rows (0, {0}) and (1, {0, 1}), 3 labels of rows with 2 nonzeros each, make a master of
    # 2 * 2 * 3 + 1 = 13 nonzeros; 10 steps of 13 multiply-adds are 10 times its work
    working = Support(floor=0.0, every=2, settled=2.0, handover=10.0, pass_work=13.0, row_nonzeros=2.0)
    assert not working.hands_over(W, 8, 8) and working.ratio == pytest.approx(8.0)
    assert working.hands_over(W, 10, 10) and working.ratio == pytest.approx(10.0)
    problem, _ = small(3)
    arrays = Arrays.of(problem, data_namespace(problem))
    z, restarts, scales, norm = first_point(problem, PDHGConfig(), data_namespace(problem))
    steps = StepScale(100.0 / norm, adaptive=True)   # far too large a start: it is cut down
    for _ in range(20):
        eta = steps.eta
        new, used, moved = steps.take(z, problem, arrays, scales, restarts.omega)
        assert used <= step_limit(moved, restarts.omega) and used <= eta
        z = new
    assert steps.tried > 20
    fixed = StepScale(0.5, adaptive=False)
    fixed.take(z, problem, arrays, scales, restarts.omega)
    assert fixed.tried == 1 and fixed.eta == 0.5
