"""The **check** step of MRC-CCG (paper, Algorithm 1) and its selection policy: one full pass of the oracles over
a master's solution, in NumPy, without trusting the solver's value or status.

* CONSTR (:mod:`mrc_pyomo.primal_oracle`) finds, for every sample, its most violated row, with violation
  ``psi(x_i) + 1 - nu^k``, and the exact ``R(mu^k)`` (eq. 3);
* FEAT (:mod:`mrc_pyomo.dual_oracle`) computes ``g = F_I^T alpha^k`` and the dual violations of every feature;
* the certificate (:mod:`mrc_pyomo.certificate`) turns ``alpha^k`` and ``g`` into a lower bound on ``R*``;
* the policy (:mod:`mrc_pyomo.selection`) picks the rows and features to add and the rows to remove.

:class:`Best` is the best rule found, the certified upper end; :func:`improve_on_segments` searches a few
segments for a better one when a fit stops with an open gap.
"""

from dataclasses import dataclass

import numpy as np

from ..certificate import lower_bound
from ..dual_oracle import dual_correlations, feature_violations, relative_feature_violations
from ..primal_oracle import class_scores, risk, risk_on_segment, separation, varphi
from ..selection import NUMERICAL_FLOOR, most_violated, over_satisfied
from .config import gap_tolerance


@dataclass
class Best:
    """The best rule so far: ``mu`` with the smallest ``R(mu)`` and ``nu = varphi(mu) + 1`` (the point
    ``(mu, nu)`` satisfies every row)."""

    mu: np.ndarray
    risk: float
    nu: float

    @classmethod
    def evaluate(cls, data, mu, tau, lam, blocked=None):
        """``mu`` with ``R(mu)`` evaluated over all samples of ``data``, one pass (``R'`` of
        :mod:`mrc_pyomo.reduction` if ``blocked``)."""
        value = varphi(data, mu, blocked)
        return cls(mu, risk(mu, value, tau, lam), value + 1.0)

    @classmethod
    def best_of(cls, data, mus, tau, lam, blocked=None):
        """The best of ``mu = 0`` and the rules ``mus``, each evaluated by :meth:`evaluate` (the first of equals)."""
        best = cls.evaluate(data, np.zeros_like(tau), tau, lam, blocked)
        for mu in mus:
            candidate = cls.evaluate(data, mu, tau, lam, blocked)
            best = candidate if candidate.risk < best.risk else best
        return best


@dataclass
class Check:
    """The oracles' verdict on one master solution: violations, the certified interval, what to change next.

    ``max_primal_violation = max_i psi(x_i) + 1 - nu`` (over the most violated row of each sample),
    ``dual_violations[y, j] = |g_yj - (1 - beta) tau_yj| - (1 - beta) lambda_yj``, ``risk = R(mu)``;
    ``best`` is the best rule once ``mu^k`` is counted and ``lower`` the best lower bound on ``R*``.
    """

    risk: float
    best: Best
    lower: float
    max_primal_violation: float
    dual_violations: np.ndarray
    new_samples: np.ndarray
    new_subsets: np.ndarray
    new_features: np.ndarray
    remove: np.ndarray

    @property
    def max_dual_violation(self):
        return float(self.dual_violations.max())

    @property
    def gap(self):
        """The certified gap ``upper - lower``: ``R(mu_best) - R* <= gap``."""
        return self.best.risk - self.lower


def check_solution(master, solution, data, tau, lam, config, best, lower, blocked=None):
    """Run CONSTR, FEAT and the certificate on a master solution (one full pass over the samples of ``data``,
    a :class:`~mrc_pyomo.data.DataSource`, and one over the features): the **check** step of the loop.

    ``config``: a :class:`~mrc_pyomo.generation.config.CCGConfig` (regime, ``eps_1``, ``eps_2``, ``n_max``,
    ``m_max``, ``in_out``); ``blocked``: the labels left out of each sample's subsets
    (:mod:`mrc_pyomo.reduction`), or None."""
    regime, eps_1, eps_2, n_max, m_max = config.regime, config.eps_1, config.eps_2, config.n_max, config.m_max
    mu, nu = solution.mu, solution.nu
    excluded = master.formulation.covers(master.samples, master.subsets) if master.n_rows else None
    constr = separation(data, mu, nu, n_max, excluded, blocked)
    value = risk(mu, constr.varphi, tau, lam)
    picked_rows = constr
    if config.in_out > 0:
        # in-out (Ben-Ameur and Neto): separate at a point between the best rule, whose (mu, varphi + 1)
        # satisfies every row, and (mu^k, nu^k)
        a = config.in_out
        mu_s, nu_s = a * best.mu + (1 - a) * mu, a * best.nu + (1 - a) * nu
        inner = separation(data, mu_s, nu_s, n_max, excluded, blocked)
        value_s = risk(mu_s, inner.varphi, tau, lam)
        if inner.max_violation > NUMERICAL_FLOOR:
            picked_rows = inner
        if value_s < min(value, best.risk):
            best = Best(mu_s, value_s, inner.varphi + 1.0)
    if value < best.risk:
        best = Best(mu, value, constr.varphi + 1.0)

    rows = master.certificate_rows(solution)   # the duals as weights on the paper's rows (i, C)
    g = dual_correlations(master.points, *rows)
    lower = max(lower, lower_bound(master.points, *rows, tau, lam, rho=best.risk, g=g,
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

    remove = np.zeros(master.n_rows, dtype=bool)
    if regime == "n":
        row_scores = class_scores(master.points(master.samples), mu)
        values = master.formulation.item_values(row_scores, master.subsets)
        remove = over_satisfied(values + 1.0 - nu, solution.alpha)
    return Check(risk=value, best=best, lower=lower, max_primal_violation=constr.max_violation,
                 dual_violations=feature_violation.reshape(tau.shape), new_samples=picked_rows.samples[picked],
                 new_subsets=picked_rows.subsets[picked], new_features=new_features, remove=remove)


def improve_on_segments(data, best, mu, tau, lam, blocked=None):
    """The best rule on the segments from ``best.mu`` to ``mu`` and to ``c(mu)``, and from 0 to ``c(mu)``.

    ``c(mu) = mu - mean_y mu_y`` has the same scores up to a shift common to all classes, hence the same
    predictions as ``mu``.  At ``mu = 0`` every row ``(i, Y)`` is active, so the slope of ``R`` from 0 towards
    ``mu`` holds ``max_i mean_y Psi(x_i).mu_y``, which can make every ``t mu`` worse than 0; towards ``c(mu)``
    that term is 0 and the slope is ``-tau.c(mu) + lambda.|c(mu)|``, negative for a rule that scores the
    true class above the mean.  So an early stop keeps the masters' predictions more often than not.
    """
    centred = mu - mu.mean(axis=0)
    for start, end in ((best.mu, mu), (best.mu, centred), (np.zeros_like(mu), centred)):
        candidate, value = risk_on_segment(data, start, end, tau, lam, blocked=blocked)
        if value < best.risk:
            best = Best.evaluate(data, candidate, tau, lam, blocked)
    return best
