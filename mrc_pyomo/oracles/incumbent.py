"""The incumbent: the best certified rule a method has found, which every method returns.

``R(mu) >= R*`` for every ``mu`` (eq. 3): the smallest exact ``R`` found is the certified upper end; :class:`Incumbent`
holds its rule with ``nu = varphi(mu) + 1``, the smallest ``nu`` for which ``(mu, nu)`` satisfies every row (eq. 4).
"""

from dataclasses import dataclass

import numpy as np

from .primal import most_violated_subsets, primal_violations, risk, varphi
from .segment import risk_on_segment
from .selection import NUMERICAL_FLOOR

#: a fit's searches on segments stop once their best ``R`` is certified within this share of its ``eps_1`` of the
#: segment's least (:func:`~mrc_pyomo.oracles.segment.risk_on_segment`): a closer rule changes the gap by less
SEGMENT_SHARE = 0.1


def segment_tolerance(eps_1):
    """The tolerance of a fit's searches on segments at the gap ``eps_1`` (None or 0: searched to the end)."""
    return 0.0 if eps_1 is None else SEGMENT_SHARE * eps_1


@dataclass(frozen=True)
class Incumbent:
    """The best rule so far: ``mu`` with the smallest ``R(mu)`` (``risk``) and ``nu = varphi(mu) + 1``."""

    mu: np.ndarray
    risk: float
    nu: float

    @classmethod
    def evaluate(cls, problem, mu):
        """``mu`` with ``R(mu)`` evaluated over all samples of ``problem`` (a :class:`~mrc_pyomo.problem.MRCProblem`),
        one pass (``R'`` of :mod:`mrc_pyomo.problem.reduction` if ``blocked``)."""
        value = varphi(problem.data, mu, problem.blocked)
        return cls(mu, risk(mu, value, problem.tau, problem.lam), value + 1.0)

    @classmethod
    def best_of(cls, problem, mus):
        """The best of ``mu = 0`` and the rules ``mus``, each evaluated by :meth:`evaluate` (the first of equals)."""
        best = cls.evaluate(problem, np.zeros_like(problem.tau))
        for mu in mus:
            candidate = cls.evaluate(problem, mu)
            best = candidate if candidate.risk < best.risk else best
        return best


def improve_on_segments(problem, best, mu, eps_1=0.0):
    """The best rule of ``problem`` on the segments from ``best.mu`` to ``mu`` and ``c(mu)``, and from 0 to ``c(mu)``,
    each search stopped within :func:`segment_tolerance` of its segment's least ``R``.

    ``c(mu) = mu - mean_y mu_y`` has the scores of ``mu`` shifted alike for all classes, hence its predictions.  At
    ``mu = 0`` every row ``(i, Y)`` is active, so the slope of ``R`` towards ``mu`` holds
    ``max_i mean_y Psi(x_i).mu_y``, which can make every ``t mu`` worse than 0; towards ``c(mu)`` that term is 0 and the
    slope ``-tau.c(mu) + lambda.|c(mu)|`` is negative for a rule that scores the true class above the mean: an early
    stop keeps the masters' predictions more often than not."""
    centred = mu - mu.mean(axis=0)
    for start, end in ((best.mu, mu), (best.mu, centred), (np.zeros_like(mu), centred)):
        candidate, value = risk_on_segment(problem.data, start, end, problem.tau, problem.lam,
                                           blocked=problem.blocked, tolerance=segment_tolerance(eps_1))
        if value < best.risk:
            best = Incumbent.evaluate(problem, candidate)
    return best


def _shrink_sample(mu, row, subset, excess, tau, lam):
    """Shrink, in place, the entries ``mu_yj`` (``y`` in ``subset``) that raise the score of one sample (``row``, a
    dense vector or a 1-row CSR matrix) until its ``subset``'s value is ``excess`` lower, cheapest first
    (:func:`shrunk_to_level`)."""
    if hasattr(row, "indices"):
        columns, values = row.indices, row.data
    else:
        columns = np.flatnonzero(row)
        values = row[columns]
    classes = np.flatnonzero(subset)
    y = np.repeat(classes, len(columns))
    j = np.tile(columns, len(classes))
    x = np.tile(values, len(classes))
    entry = mu[y, j]
    raising = entry * x > 0
    y, j, x, entry = y[raising], j[raising], np.abs(x[raising]), entry[raising]
    price = (tau[y, j] * np.sign(entry) - lam[y, j]) / x   # change of -tau.mu + lambda.|mu| per unit of score removed
    need = excess * len(classes)                            # the subset's value is its scores' sum over |C|
    for k in np.argsort(price, kind="stable"):
        if need <= 0:
            break
        cut = min(abs(entry[k]), need / x[k])
        mu[y[k], j[k]] -= np.sign(entry[k]) * cut
        need -= cut * x[k]


def shrunk_to_level(problem, points, mu, nu, samples, subsets, excess, limit, rounds=3):
    """``mu`` shrunk onto the level ``nu - 1``: a candidate rule (its ``(mu, varphi)``) from a master's point whose
    rows hold while a few samples outside them are violated, or None when more than ``limit`` samples are.

    A master's ``(mu^k, nu^k)`` satisfies its rows, so ``R`` restricted to them is at most ``nu^k`` plus the linear
    terms ``-tau.mu + lambda.|mu|``; the samples outside can stand far above ``nu^k - 1`` (on sparse text a master's
    ``mu`` leans on words of samples it does not hold, with ``R(mu^k)`` in the hundreds while its value is ``R*``).
    For each violated sample ``i`` (``samples``, with its most violated subset ``C`` in ``subsets`` and ``excess`` its
    ``psi(x_i) + 1 - nu``), the entries ``mu_yj``, ``y`` in ``C``, with ``mu_yj Psi_ij > 0`` are shrunk towards 0
    (never past it), cheapest first (the change of ``-tau.mu + lambda.|mu|`` per unit of score removed), until the
    value of ``(i, C)`` is ``nu - 1``.  That lowers every score of sample ``i`` in ``C`` but can raise a score of
    another sample where ``Psi`` has the other sign, or make another subset the worst: each round is one pass
    (:func:`~mrc_pyomo.oracles.primal.primal_violations`) over the samples, the next round on those still violated,
    at most ``rounds`` (fewer once none or more than ``limit`` are left).  Shrinking only moves the rule: its ``R`` is
    exact (one pass), a candidate for the upper end like every other; no bound depends on it.  ``points``: the rows of
    ``Psi`` by sample id (:class:`~mrc_pyomo.master.points.Points`)."""
    if len(samples) > limit:
        return None
    mu = np.array(mu, dtype=float)
    tau, lam, blocked = problem.tau, problem.lam, problem.blocked
    for round_ in range(rounds):
        rows = points(samples)
        if round_:   # the samples still violated: their worst subsets at the rule shrunk so far
            psi, subsets = most_violated_subsets(np.asarray(rows @ mu.T), None if blocked is None else blocked[samples])
            excess = psi + 1.0 - nu
        for k in range(len(samples)):
            _shrink_sample(mu, rows[k], subsets[k], excess[k], tau, lam)
        violations = primal_violations(problem.data, mu, nu, blocked)
        samples = np.flatnonzero(violations > NUMERICAL_FLOOR)
        if not len(samples) or len(samples) > limit:
            break
    return mu, float(violations.max(initial=-np.inf)) + nu - 1.0
