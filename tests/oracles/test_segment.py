"""The search on a segment: the floor a convex function's values give its least value, checked against the least value
of convex functions known in closed form and on a fine grid; the search stopped by it within its tolerance of the
segment's least R, found by brute force on a grid, in fewer passes."""

import math

import numpy as np
import pytest
from sklearn.datasets import load_wine

from mrc_pyomo.oracles.primal import risk, varphi
from mrc_pyomo.oracles import segment
from mrc_pyomo.oracles.segment import convex_floor, risk_on_segment
from mrc_pyomo.problem import prepare


def test_the_floor_needs_three_points_and_is_exact_around_a_kink_it_brackets():
    f = lambda t: abs(t - 0.3)   # noqa: E731
    assert convex_floor([(f(0.0), 0.0), (f(1.0), 1.0)]) == -math.inf
    assert convex_floor([(f(t), t) for t in (0.0, 0.2, 0.4, 1.0)]) == pytest.approx(0.0, abs=1e-15)
    # the same point twice counts once
    assert convex_floor([(f(t), t) for t in (0.0, 0.2, 0.2, 1.0)]) == convex_floor([(f(t), t) for t in (0.0, 0.2, 1.0)])
    assert convex_floor([(f(t), t) for t in (0.0, 1.0, 1.0)]) == -math.inf


@pytest.mark.parametrize("seed", range(20))
def test_the_floor_is_below_the_least_value_of_a_random_convex_function_and_closes_on_it(seed):
    rng = np.random.default_rng(seed)
    slopes, offsets = rng.normal(size=6) * 5, rng.normal(size=6)
    f = lambda t: float(np.max(slopes * t + offsets))   # noqa: E731  a convex piecewise-linear function
    least = min(f(t) for t in np.linspace(0.0, 1.0, 200_001))
    for n in (3, 5, 10, 40):
        ts = np.concatenate([[0.0, 1.0], rng.uniform(size=n - 2)])
        points = [(f(t), t) for t in ts]
        assert convex_floor(points) <= least + 1e-12
    dense = [(f(t), t) for t in np.linspace(0.0, 1.0, 2001)]
    assert least - convex_floor(dense) < 1e-2


def test_a_search_stopped_by_its_tolerance_is_within_it_of_the_segment_s_least_in_fewer_passes(monkeypatch):
    X, y = load_wine(return_X_y=True)
    problem = prepare(X, y, lambda0=0.01)
    rng = np.random.default_rng(1)
    mu_a, mu_b = np.zeros(problem.tau.shape), rng.normal(size=problem.tau.shape)
    grid = min(risk((1 - t) * mu_a + t * mu_b, varphi(problem.data, (1 - t) * mu_a + t * mu_b), problem.tau,
                    problem.lam) for t in np.linspace(0.0, 1.0, 20_001))
    passes = []
    monkeypatch.setattr(segment, "risk", lambda *args: passes.append(1) or risk(*args))

    def search(tolerance):
        passes.clear()
        mu, value = risk_on_segment(problem.data, mu_a, mu_b, problem.tau, problem.lam, tolerance=tolerance)
        assert value == pytest.approx(risk(mu, varphi(problem.data, mu), problem.tau, problem.lam), abs=1e-12)
        return value, len(passes)

    full, all_passes = search(0.0)
    assert full <= grid + 1e-9 and all_passes == 34
    for tolerance in (1e-2, 1e-4):
        value, count = search(tolerance)
        assert value <= grid + tolerance + 1e-12
        assert count < all_passes
