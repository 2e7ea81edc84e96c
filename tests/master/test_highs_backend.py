"""The built-in HiGHS backend (:mod:`mrc_pyomo.master.highs_backend`): after rows are added, the master is re-solved from
the previous basis."""

import numpy as np
import pytest

from helpers import random_problem
from mrc_pyomo import RestrictedMaster
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.oracles.rows import all_subsets
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.initialization import class_centroids


def test_default_path_warm_starts_from_the_previous_basis():
    """After adding violated rows, HiGHS re-solves from the kept basis: far fewer simplex iterations."""
    from mrc_pyomo.oracles.primal import class_scores, most_violated_subsets
    X, y = random_problem(400, 8, 4, seed=3)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y, 4, 0.01)
    subsets = all_subsets(4)
    rng = np.random.default_rng(0)
    first = (rng.integers(0, 400, 600), subsets[rng.integers(0, 15, 600)])

    warm = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y, 4))
    warm.add_features(np.arange(4 * Psi.shape[1]))
    warm.add_rows(np.repeat(400 + np.arange(4), 15), np.tile(subsets, (4, 1)))
    warm.add_rows(*first)
    solution = warm.solve()
    psi, best = most_violated_subsets(class_scores(Psi, solution.mu))
    worst = np.argsort(-(psi + 1 - solution.nu))[:20]
    assert (psi[worst] + 1 - solution.nu > 1e-6).all()
    second = (worst, best[worst])
    warm.add_rows(*second)
    R_warm = warm.solve().objective
    warm_iterations = warm.backend.lp.simplex_iterations()  # iterations of the last run
    warm.backend.highs.clearSolver()                      # forget the basis: the same LP from scratch
    R_cold = warm.solve().objective
    assert R_warm == pytest.approx(R_cold, abs=1e-9)
    assert 0 < warm_iterations < warm.backend.lp.simplex_iterations() / 2
