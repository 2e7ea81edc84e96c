"""The **check** step of MRC-CCG (paper, Algorithm 1) and its selection policy: one full pass of the oracles over a
master's solution, in NumPy, without trusting the solver's value or status.

* CONSTR (:mod:`mrc_pyomo.oracles.primal`) finds, for every sample, its most violated row, with violation
  ``psi(x_i) + 1 - nu^k``, and the exact ``R(mu^k)`` (eq. 3);
* FEAT (:mod:`mrc_pyomo.oracles.dual`) computes ``g = F_I^T alpha^k`` and the dual violations of every feature;
* the certificate (:mod:`mrc_pyomo.oracles.certificate`) turns ``alpha^k`` and ``g`` into a lower bound on ``R*``;
* the policy (:mod:`mrc_pyomo.oracles.selection`) picks the rows and features to add and the rows to remove;
* the incumbent (:mod:`mrc_pyomo.oracles.incumbent`), the best rule found, is the certified upper end; once the lower
  end has settled (it rose by less than the certified gap ``eps_1`` at this master) with every violated sample picked
  (fewer than ``n_max``), the master's rule shrunk onto its level ``nu^k - 1``
  (:func:`~mrc_pyomo.oracles.incumbent.shrunk_to_level`) is a candidate too."""

from dataclasses import dataclass

import numpy as np

from ...oracles.certificate import gap_tolerance, lower_bound
from ...oracles.dual import dual_correlations, feature_violations, relative_feature_violations
from ...oracles.incumbent import Incumbent, shrunk_to_level
from ...oracles.primal import risk, separation
from ...oracles.selection import NUMERICAL_FLOOR, most_violated, over_satisfied


@dataclass
class Check:
    """The oracles' verdict on one master solution: violations, the certified interval, what to change next.

    ``max_primal_violation = max_i psi(x_i) + 1 - nu`` (over each sample's most violated row), ``item_violations`` those
    of the master's own items (in the regime ``"n"``, which removes the over-satisfied ones; else None),
    ``dual_violations[y, j] = |g_yj - (1 - beta) tau_yj| - (1 - beta) lambda_yj``, ``risk = R(mu)``; ``best`` is the
    best rule once ``mu^k`` is counted and ``lower`` the best lower bound on ``R*``."""

    risk: float
    best: Incumbent
    lower: float
    max_primal_violation: float
    dual_violations: np.ndarray
    new_samples: np.ndarray
    new_subsets: np.ndarray
    new_features: np.ndarray
    remove: np.ndarray
    item_violations: np.ndarray = None

    @property
    def max_dual_violation(self):
        return float(self.dual_violations.max())

    @property
    def gap(self):
        """The certified gap ``upper - lower``: ``R(mu_best) - R* <= gap``."""
        return self.best.risk - self.lower


def check_solution(master, solution, problem, config, best, lower):
    """The **check** step: CONSTR, FEAT and the certificate on a master solution, in one pass over the samples of the
    :class:`~mrc_pyomo.problem.MRCProblem` and one over the features.  ``config``: a
    :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`; ``best``: the incumbent; ``lower``: the lower bound so far."""
    data, tau, lam, blocked = problem.data, problem.tau, problem.lam, problem.blocked
    regime, eps_1, eps_2, n_max, m_max = config.regime, config.eps_1, config.eps_2, config.n_max, config.m_max
    mu, nu = solution.mu, solution.nu
    excluded = master.covered()
    constr = separation(data, mu, nu, n_max, excluded, blocked)
    value = risk(mu, constr.varphi, tau, lam)
    picked_rows = constr
    if config.in_out > 0:
        # in-out (Ben-Ameur and Neto): separate between the best rule (feasible: (mu, varphi + 1)) and (mu^k, nu^k)
        a = config.in_out
        mu_s, nu_s = a * best.mu + (1 - a) * mu, a * best.nu + (1 - a) * nu
        inner = separation(data, mu_s, nu_s, n_max, excluded, blocked)
        value_s = risk(mu_s, inner.varphi, tau, lam)
        if inner.max_violation > NUMERICAL_FLOOR:
            picked_rows = inner
        if value_s < min(value, best.risk):
            best = Incumbent(mu_s, value_s, inner.varphi + 1.0)
    if value < best.risk:
        best = Incumbent(mu, value, constr.varphi + 1.0)

    rows = master.certificate_rows(solution)   # the duals as weights on the paper's rows (i, C)
    g = dual_correlations(master.points, *rows)
    lower_before = lower
    lower = max(lower, lower_bound(master.points, *rows, tau, lam, rho=problem.radius(best.risk), g=g,
                                   target=best.risk - gap_tolerance(eps_1)))
    if (config.shrink and lower - lower_before < gap_tolerance(eps_1) < best.risk - lower
            and constr.max_violation > NUMERICAL_FLOOR and len(constr.samples) < n_max):
        # the lower end settled, every violated sample picked: the master's rule shrunk onto its level is a candidate
        shrunk, shrunk_varphi = shrunk_to_level(problem, master.points, mu, nu, constr.samples, constr.subsets,
                                                constr.violations, limit=n_max)
        shrunk_risk = risk(shrunk, shrunk_varphi, tau, lam)
        if shrunk_risk < best.risk:
            best = Incumbent(shrunk, shrunk_risk, shrunk_varphi + 1.0)
            lower = max(lower, lower_bound(master.points, *rows, tau, lam, rho=problem.radius(best.risk), g=g,
                                           target=best.risk - gap_tolerance(eps_1)))
    gap_open = best.risk - lower > gap_tolerance(eps_1)
    picked = slice(None) if gap_open else slice(0)

    feature_violation = feature_violations(g, tau, lam, solution.beta).ravel()
    new_features = np.zeros(0, dtype=np.int64)
    if regime == "nm" and gap_open:
        outside = np.ones(feature_violation.size, dtype=bool)
        outside[master.features] = False
        new_features = most_violated(feature_violation, eps_2, m_max, outside)
        if not len(new_features):
            ratio = relative_feature_violations(g / solution.alpha[solution.alpha > 0].sum(), tau, lam).ravel()
            new_features = most_violated(ratio - 1.0, 0.0, m_max, outside)

    remove, item_violations = np.zeros(master.n_rows, dtype=bool), None
    if regime == "n":
        item_violations = master.item_values(mu) + 1.0 - nu
        remove = over_satisfied(item_violations, solution.alpha)
    return Check(risk=value, best=best, lower=lower, max_primal_violation=constr.max_violation,
                 dual_violations=feature_violation.reshape(tau.shape), new_samples=picked_rows.samples[picked],
                 new_subsets=picked_rows.subsets[picked], new_features=new_features, remove=remove,
                 item_violations=item_violations)
