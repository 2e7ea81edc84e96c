"""The check step of MRC-CCG (:mod:`mrc_pyomo.methods.ccg.check`) on solved masters, against brute force: ``R(mu)``
(eq. 3) and the largest primal violation ``max_i psi(x_i) + 1 - nu`` over every label subset, the dual violations
``|g - (1 - beta) tau| - (1 - beta) lambda`` with ``g = F_I^T alpha`` summed row by row, the incumbent (the better
of the one given and ``mu^k``), a certified interval that holds ``R*`` of an independent LP
(``helpers.reference_R_star``) and closes on the full master, the rows to add (the most violated rows of the
most violated samples, none held), the features to add (regime ``"nm"``) and the rows to remove (over-satisfied
with a zero dual, regime ``"n"``)."""

import numpy as np
import pytest

from helpers import REFERENCE_TOL, reference_R_star, scaled_problem
from mrc_pyomo.methods.ccg.check import Check, check_solution
from mrc_pyomo.methods.ccg.config import CCGConfig
from mrc_pyomo.methods.ccg.start import initial_master
from mrc_pyomo.oracles.incumbent import Incumbent
from mrc_pyomo.oracles.rows import all_subsets
from mrc_pyomo.problem import MRCProblem

N, DIM, K, LAMBDA0 = 30, 3, 3, 0.01
FLOOR = 1e-9   # the round-off floor of the selection (mrc_pyomo.oracles.selection.NUMERICAL_FLOOR)


@pytest.fixture(scope="module")
def case():
    Psi, y_idx, tau, lam = scaled_problem(N, DIM, K, False, seed=4, lambda0=LAMBDA0)
    return MRCProblem.from_arrays(Psi, y_idx, tau, lam), Psi, reference_R_star(Psi, y_idx, K, LAMBDA0)


def row_value(psi, subset, mu):
    """``(sum_{y in C} Psi(x).mu_y - 1) / |C|``: the row ``(x, C)``'s value, to compare with ``nu - 1``."""
    return ((psi @ mu.T)[subset].sum() - 1.0) / subset.sum()


def brute_psi(Psi, mu):
    """``psi(x_i)`` and its subset, over every non-empty label subset."""
    subsets = all_subsets(K)
    values = np.array([[row_value(Psi[i], c, mu) for c in subsets] for i in range(len(Psi))])
    return values.max(axis=1), subsets[values.argmax(axis=1)]


def brute_R(Psi, mu, tau, lam):
    return 1.0 - np.sum(tau * mu) + brute_psi(Psi, mu)[0].max() + np.sum(lam * np.abs(mu))


def points_of(master, Psi):
    """``[Psi; centroids]``: the rows of the master's sample ids."""
    return np.vstack([Psi, master.centroids])


def checked(case, regime, best=None, lower=0.0, full=False, **settings):
    problem = case[0]
    config = CCGConfig(regime=regime, **settings)
    master = initial_master(problem, config)
    if full:
        master.add_features(np.setdiff1d(np.arange(problem.tau.size), master.features))
        master.add_all_rows(np.arange(N))
    solution = master.solve()
    best = Incumbent.evaluate(problem, np.zeros_like(problem.tau)) if best is None else best
    return master, solution, check_solution(master, solution, problem, config, best, lower), best


@pytest.mark.parametrize("regime", ["n", "nm"])
def test_the_check_of_a_first_master_against_brute_force(case, regime):
    problem, Psi, R_star = case
    tau, lam = problem.tau, problem.lam
    master, solution, check, given = checked(case, regime, n_max=5, m_max=2)
    assert isinstance(check, Check)
    mu, nu = solution.mu, solution.nu
    psi, _ = brute_psi(Psi, mu)
    assert check.risk == pytest.approx(brute_R(Psi, mu, tau, lam), rel=1e-12, abs=1e-12)
    assert check.max_primal_violation == pytest.approx(psi.max() + 1.0 - nu, rel=1e-12, abs=1e-12)
    # the incumbent: the better of the one given (mu = 0) and mu^k, with nu = varphi + 1
    assert check.best.risk == min(given.risk, check.risk)
    assert check.best.nu == pytest.approx(brute_psi(Psi, check.best.mu)[0].max() + 1.0, abs=1e-12)
    # the dual violations of every feature, from g = F_I^T alpha row by row
    points = points_of(master, Psi)
    g = np.zeros(K * Psi.shape[1])
    for i, c, a in zip(master.samples, master.subsets, solution.alpha):
        g += a * np.concatenate([points[i] * c[y] / c.sum() for y in range(K)])
    scale = 1.0 - solution.beta
    expected = np.abs(g.reshape(K, -1) - scale * tau) - scale * lam
    np.testing.assert_allclose(check.dual_violations, expected, atol=1e-12)
    assert check.max_dual_violation == pytest.approx(expected.max(), abs=1e-12)
    # the certified interval holds R*
    assert 0.0 <= check.lower <= R_star + REFERENCE_TOL and R_star - REFERENCE_TOL <= check.best.risk
    assert check.gap == check.best.risk - check.lower > 1e-3   # the first master's gap is open


def test_the_rows_to_add_are_the_most_violated_rows_not_held(case):
    _, Psi, _ = case
    master, solution, check, _ = checked(case, "n", n_max=5)
    psi, argmax = brute_psi(Psi, solution.mu)
    violation = psi + 1.0 - solution.nu
    held = {(int(i), tuple(c)) for i, c in zip(master.samples, master.subsets)}
    eligible = [i for i in range(N) if violation[i] > FLOOR and (i, tuple(argmax[i])) not in held]
    top = sorted(eligible, key=lambda i: -violation[i])[:5]
    assert check.new_samples.tolist() == top and len(top) == 5
    for i, c in zip(check.new_samples, check.new_subsets):
        assert row_value(Psi[i], c, solution.mu) == pytest.approx(psi[i], abs=1e-12)   # a most violated subset
    assert len(check.new_features) == 0   # every feature is in the master of the regime "n"


def test_the_rows_to_remove_are_over_satisfied_with_a_zero_dual(case):
    """Regime ``"n"``: an item leaves when its row's violation is below ``-FLOOR`` and its dual at most ``FLOOR``;
    regime ``"nm"`` removes none."""
    _, Psi, _ = case
    master, solution, check, _ = checked(case, "n")
    points = points_of(master, Psi)
    values = np.array([row_value(points[i], c, solution.mu) for i, c in zip(master.samples, master.subsets)])
    expected = (values + 1.0 - solution.nu < -FLOOR) & (solution.alpha <= FLOOR)
    assert check.remove.dtype == bool and np.array_equal(check.remove, expected)
    assert check.remove.any() and not check.remove[solution.alpha > FLOOR].any()
    _, _, nm_check, _ = checked(case, "nm")
    assert not nm_check.remove.any()


def test_the_features_to_add_are_the_most_violated_outside_the_master(case):
    master, _, check, _ = checked(case, "nm", m_max=2, eps_2=1e-5)
    violations = check.dual_violations.ravel()
    outside = np.setdiff1d(np.arange(violations.size), master.features)
    assert len(master.features) == K   # the intercepts of the regime "nm"
    candidates = outside[violations[outside] > 1e-5]
    assert len(candidates) >= 2
    assert check.new_features.tolist() == candidates[np.argsort(-violations[candidates], kind="stable")][:2].tolist()


def test_the_full_master_s_check_closes_the_gap_on_R_star(case):
    """Every row and feature: the check certifies ``R*`` to the solver's precision and asks for nothing more."""
    _, _, R_star = case
    _, _, check, _ = checked(case, "n", full=True, eps_1=1e-6)
    assert check.lower <= R_star + REFERENCE_TOL and check.best.risk >= R_star - REFERENCE_TOL
    assert check.gap <= 1e-6 and check.best.risk == pytest.approx(R_star, abs=1e-6)
    assert check.max_primal_violation <= 1e-7 and check.max_dual_violation <= 1e-7
    assert len(check.new_samples) == len(check.new_subsets) == 0 and len(check.new_features) == 0


def test_a_better_incumbent_and_a_better_lower_bound_are_kept(case):
    """The best rule and lower bound so far (here the full master's) survive the check of a worse master."""
    _, _, tight, _ = checked(case, "n", full=True, eps_1=1e-6)
    _, _, check, _ = checked(case, "n", best=tight.best, lower=tight.lower)
    assert check.risk > tight.best.risk and check.best is tight.best
    assert check.lower == tight.lower and check.gap == tight.gap
    # with the gap closed, no row or feature is asked for, whatever the master's violations
    assert check.gap <= 1e-3 and len(check.new_samples) == 0 and check.max_primal_violation > 1e-3


def test_in_out_separation_keeps_the_incumbent_certified(case):
    """With ``in_out``: the rows come from a point between the incumbent and ``mu^k``, the incumbent is never worse
    than either and its ``R`` is exact."""
    problem, Psi, R_star = case
    _, solution, check, given = checked(case, "n", in_out=0.5, n_max=5)
    mu_s, nu_s = 0.5 * given.mu + 0.5 * solution.mu, 0.5 * given.nu + 0.5 * solution.nu
    psi_s, _ = brute_psi(Psi, mu_s)
    assert psi_s.max() + 1.0 - nu_s > FLOOR   # the point between is violated: its rows are the ones added
    for i, c in zip(check.new_samples, check.new_subsets):
        assert row_value(Psi[i], c, mu_s) == pytest.approx(psi_s[i], abs=1e-12) and psi_s[i] + 1.0 - nu_s > FLOOR
    assert check.best.risk <= min(given.risk, check.risk)
    assert check.best.risk == pytest.approx(brute_R(Psi, check.best.mu, problem.tau, problem.lam), abs=1e-12)
    assert check.best.risk >= R_star - REFERENCE_TOL and check.lower <= R_star + REFERENCE_TOL
    assert 0 < len(check.new_samples) <= 5
