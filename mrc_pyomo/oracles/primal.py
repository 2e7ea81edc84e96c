"""Primal oracle CONSTR: the most violated constraint of every sample (paper, Algorithm 2), vectorised.

For coefficients ``mu`` (shape ``(K, D)``) and a sample ``x`` with class scores ``v_y = Psi(x) . mu_y``::

    psi(x) = max over non-empty C of (sum_{y in C} v_y - 1) / |C|                   (paper, eq. 9)

For a fixed size ``k`` the best ``C`` holds the ``k`` largest scores, so ``psi`` is the largest prefix mean
``(v_(1) + ... + v_(k) - 1) / k`` of the scores sorted in decreasing order: ``O(K log K)`` per sample.  The row
``(i, C)`` of the LP (eq. 5) reads ``(1/|C|) sum_{y in C} Psi(x_i).mu_y - nu <= 1/|C| - 1``; its violation is
``(sum_{y in C} v_iy - 1) / |C| + 1 - nu``, and the most violated row of sample ``i`` has violation
``psi(x_i) + 1 - nu``.  ``varphi(mu) = max_i psi(x_i)`` and the worst-case error probability is

    R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|                                  (paper, eq. 3)

Block functions (:func:`class_scores`, ...) take arrays of any array API library (:mod:`mrc_pyomo.data.namespace`),
passes (:func:`varphi`, :func:`separation`, ...) a :class:`~mrc_pyomo.data.DataSource`.
"""

from dataclasses import dataclass

import numpy as np

from ..data import array_namespace, as_source, is_numpy
from .rounding import gamma, round_up
from .selection import NUMERICAL_FLOOR, most_violated


def class_scores(Psi, mu):
    """``V[i, y] = Psi(x_i) . mu_y``, shape ``(n, K)``, for dense or sparse ``Psi`` or array API arrays."""
    xp = array_namespace(Psi, mu)
    return np.asarray(Psi @ mu.T) if is_numpy(xp) else Psi @ xp.matrix_transpose(mu)


def prefix_means(scores, offset=1.0):
    """``(ordered, means)`` of NumPy ``scores`` of shape ``(n, K)``: each row sorted in decreasing order (a view), and
    its prefix means ``(v_(1) + ... + v_(k) - offset) / k``, ``k = 1..K`` (``offset``: a number or a column), the
    largest of which is ``psi`` (eq. 9) at ``offset = 1``.  One ascending sort read backwards, the sums and divisions
    in place: on rows of a few labels the arrays made, not the arithmetic, set the time.  The values are bit for bit
    those of ``(cumsum(sorted row) - offset) / k``."""
    ordered = np.sort(scores, axis=1)[:, ::-1]
    means = np.cumsum(ordered, axis=1)
    means -= offset
    means /= np.arange(1, scores.shape[1] + 1, dtype=means.dtype)
    return ordered, means


def best_prefixes(scores, sizes=True):
    """``(ordered, psi, size)`` of NumPy ``scores`` of shape ``(n, K)``: each row sorted in decreasing order (a view),
    its largest prefix mean ``psi = max_k (v_(1) + ... + v_(k) - 1) / k`` (eq. 9) and ``size = k - 1`` of the first
    ``k`` attaining it (None unless ``sizes``).  The prefix sums run a label at a time, over the ``n`` rows at once:
    a reduction along rows of a few labels costs more than its arithmetic.  The bits are those of the largest of
    :func:`prefix_means`, and ``size`` is their first ``argmax``."""
    ascending = np.sort(scores, axis=1)
    K = scores.shape[1]
    total = ascending[:, K - 1].copy()
    psi, mean = total - 1.0, np.empty_like(total)
    size = np.zeros(len(total), dtype=np.intp) if sizes else None
    for k in range(2, K + 1):
        total += ascending[:, K - k]
        np.subtract(total, 1.0, out=mean)
        mean /= k
        if sizes:
            np.copyto(size, k - 1, where=mean > psi)
        np.maximum(psi, mean, out=psi)
    return ascending[:, ::-1], psi, size


def most_violated_subsets(scores, blocked=None):
    """``(psi, subsets)``: ``psi[i]`` and the smallest label subset attaining it (boolean ``(n, K)``), in the namespace
    of ``scores``.  ``blocked`` (boolean ``(n, K)``, optional) leaves the labels ``blocked[i]`` out of the subsets of
    sample ``i`` (the reduced LP of :mod:`mrc_pyomo.problem.reduction`); every sample must keep one label."""
    xp = array_namespace(scores)
    if not is_numpy(xp):
        return standard_most_violated_subsets(scores, blocked, xp)
    if blocked is not None:
        scores = np.where(blocked, -np.inf, scores)
    ordered, psi, size = best_prefixes(scores)
    return psi, largest_labels(scores, ordered, size)


def largest_labels(scores, ordered, size):
    """The subsets of the ``k = size + 1`` largest NumPy ``scores`` of each row (boolean, shaped as ``scores``), from
    their ``ordered`` (:func:`best_prefixes`, :func:`prefix_means`): the labels above the ``k``-th largest,
    ``v_(k)``, and of those equal to it the first in label order (a stable sort's), as many as ``k`` leaves room for
    (rounding can split equal scores)."""
    threshold = ordered[np.arange(scores.shape[0]), size][:, None]
    subsets = scores >= threshold
    tied = np.flatnonzero(np.count_nonzero(subsets, axis=1) > size + 1)   # more labels equal to v_(k) than room
    if len(tied):
        row, level = scores[tied], threshold[tied]
        equal, room = row == level, size[tied] + 1 - np.count_nonzero(row > level, axis=1)
        subsets[tied] &= ~equal | (np.cumsum(equal, axis=1) <= room[:, None])
    return subsets


def standard_most_violated_subsets(scores, blocked, xp):
    """:func:`most_violated_subsets` in the array API standard's namespace ``xp``: the same sorted prefixes, each
    label's rank (the inverse of the order) in place of NumPy's scatter, which the standard has not."""
    K = scores.shape[1]
    if blocked is not None:
        scores = xp.where(xp.asarray(blocked), -xp.inf, scores)
    order = xp.argsort(-scores, axis=1, stable=True)
    ordered = xp.take_along_axis(scores, order, axis=1)
    prefix_means = (xp.cumulative_sum(ordered, axis=1) - 1.0) / xp.arange(1, K + 1, dtype=scores.dtype)
    size = xp.argmax(prefix_means, axis=1)
    psi = xp.take_along_axis(prefix_means, size[:, None], axis=1)[:, 0]
    return psi, xp.argsort(order, axis=1) <= size[:, None]


def subset_values(scores, subsets):
    """``(sum_{y in C_r} v_ry - 1) / |C_r|`` for rows of ``scores`` paired with the rows of ``subsets``."""
    xp = array_namespace(scores, subsets)
    weights = xp.astype(subsets, scores.dtype)
    return (xp.sum(scores * weights, axis=1) - 1.0) / xp.sum(weights, axis=1)


def psi_values(scores, blocked=None):
    """``psi(x_i)`` per row of ``scores`` (``blocked``: :func:`most_violated_subsets`): its bits, without subsets."""
    xp = array_namespace(scores)
    K = scores.shape[1]
    if blocked is not None:
        scores = xp.where(xp.asarray(blocked), -xp.inf, scores)
    if is_numpy(xp):
        return best_prefixes(scores, sizes=False)[1]
    ordered = -xp.sort(-scores, axis=1)
    return xp.max((xp.cumulative_sum(ordered, axis=1) - 1.0) / xp.arange(1, K + 1, dtype=scores.dtype), axis=1)


def risk(mu, varphi, tau, lam):
    """``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` (paper, eq. 3) given ``varphi(mu) = max_i psi(x_i)``."""
    return 1.0 - float(np.sum(tau * mu)) + float(varphi) + float(np.sum(lam * np.abs(mu)))


def block_part(blocked):
    """The ``blocked`` argument of a pass's block function: the block's rows of the per-sample array, or None."""
    return blocked[0] if blocked else None


def per_sample(blocked):
    """``blocked`` as the per-sample arrays of a pass: ``()`` for None."""
    return () if blocked is None else (blocked,)


def varphi(data, mu, blocked=None):
    """``varphi(mu) = max_i psi(x_i)`` (eq. 3), one pass over ``data`` (``blocked``: :func:`most_violated_subsets`)."""
    return float(as_source(data).map_reduce(
        lambda block, start, *b: psi_values(class_scores(block, mu), block_part(b)).max(initial=-np.inf), max,
        *per_sample(blocked)))


@dataclass(frozen=True)
class RulePass:
    """What one pass of :func:`rule_pass` finds about a rule ``mu``: ``varphi`` as :func:`varphi` computes it, ``bound``
    an upper bound on its exact value, ``predicted[k]`` the samples the rule predicts class ``k`` for (``argmax_y v_y``,
    the first of equal scores), ``correct`` the samples whose label it predicts."""

    varphi: float
    bound: float
    predicted: np.ndarray
    correct: int

    @staticmethod
    def combine(parts):
        """One :class:`RulePass` of the passes over consecutive parts of the samples."""
        return RulePass(max((p.varphi for p in parts), default=-np.inf), max((p.bound for p in parts), default=-np.inf),
                        sum(p.predicted for p in parts), sum(p.correct for p in parts))


def rule_pass(data, mu, labels):
    """The :class:`RulePass` of ``mu`` over the samples of ``data`` with class indices ``labels``, in one pass.  A score
    ``v_iy = Psi(x_i).mu_y``, a sum of ``D`` products, is off by at most ``gamma(D) |Psi(x_i)|.|mu_y|``
    (:mod:`mrc_pyomo.oracles.rounding`; the second product taken in the same pass); a subset's value
    ``(sum_{y in C} v_iy - 1) / |C|`` adds the rounding of at most ``K + 2`` operations on numbers of size at most
    ``max_y |v_iy| + 1``.  ``psi``, the largest prefix mean of the sorted computed scores, is the largest subset value
    of the computed scores whatever their error, so the exact ``psi(x_i)`` is at most the computed one plus
    ``gamma(D + 1) max_y |Psi(x_i)|.|mu_y| + gamma(K + 3) (max_y |v_iy| + 1)``, ``varphi`` at most the largest sum."""
    n_classes, n_features = mu.shape
    magnitude = np.abs(mu)

    def block_pass(block, start, y):
        scores = class_scores(block, mu)
        psi = psi_values(scores, None)
        predicted = np.argmax(scores, axis=1)
        counts = np.bincount(predicted, minlength=n_classes)
        if not len(psi):
            return RulePass(-np.inf, -np.inf, counts, 0)
        error = (gamma(n_features + 1) * class_scores(abs(block), magnitude).max(axis=1)
                 + gamma(n_classes + 3) * (np.abs(scores).max(axis=1) + 1.0))
        return RulePass(float(psi.max()), float((psi + error).max()), counts, int((predicted == y).sum()))

    return as_source(data).map_reduce(block_pass, RulePass.combine, np.asarray(labels))


def risk_upper_bound(mu, varphi_bound, tau, lam):
    """An upper bound on ``R(mu)`` in exact arithmetic (eq. 3) given an upper bound on ``varphi(mu)`` (``bound`` of
    :func:`rule_pass`): :func:`risk` raised by the rounding of ``tau.mu`` and ``lambda.|mu|`` (``K D`` products each)
    and of the three additions, rounded up."""
    tau_mu, penalty = float(np.sum(tau * mu)), float(np.sum(lam * np.abs(mu)))
    error = (gamma(mu.size) * (float(np.sum(np.abs(tau * mu))) + penalty)
             + gamma(3) * (1.0 + abs(tau_mu) + abs(varphi_bound) + penalty))
    return round_up(risk(mu, varphi_bound, tau, lam), error)


def worst_case_risk(data, mu, tau, lam, blocked=None):
    """``R(mu)``, evaluated exactly over all samples of ``data`` (``blocked``: see :func:`most_violated_subsets`)."""
    return risk(mu, varphi(data, mu, blocked), tau, lam)


@dataclass
class Separation:
    """CONSTR over all samples for one point ``(mu, nu)``: ``varphi = max_i psi(x_i)``, the largest violation
    ``psi(x_i) + 1 - nu``, and the rows to add: at most ``n_max`` samples of violation above round-off, most violated
    first, with their most violated subsets and violations (rows already in the master excluded)."""

    varphi: float
    max_violation: float
    samples: np.ndarray
    subsets: np.ndarray
    violations: np.ndarray


def _separate_block(block, start, mu, nu, n_max, excluded, blocked):
    psi, subsets = most_violated_subsets(class_scores(block, mu), blocked)
    violations = psi + 1.0 - nu
    candidates = np.flatnonzero(violations > NUMERICAL_FLOOR)
    eligible = np.ones(len(candidates), dtype=bool)
    if excluded is not None and len(candidates):
        eligible = ~excluded(candidates + start, subsets[candidates])
    picked = candidates[most_violated(violations[candidates], 0.0, n_max, eligible)]
    return (psi.max(initial=-np.inf), violations.max(initial=-np.inf), picked + start, subsets[picked],
            violations[picked])


def separation(data, mu, nu, n_max, excluded=None, blocked=None):
    """CONSTR (paper, Algorithm 2) at ``(mu, nu)`` in one pass over the samples: a :class:`Separation`.

    ``excluded``: ``f(samples, subsets) -> mask``, the rows that may not be picked (those the master enforces:
    :meth:`mrc_pyomo.formulations.Formulation.covers`); ``blocked``: see :func:`most_violated_subsets`.  Each block
    keeps its ``n_max`` most violated eligible rows, the pass the ``n_max`` most violated of those."""
    def combine(parts):
        samples = np.concatenate([p[2] for p in parts])
        subsets = np.concatenate([p[3] for p in parts])
        violations = np.concatenate([p[4] for p in parts])
        top = most_violated(violations, 0.0, n_max) if len(parts) > 1 else np.arange(len(samples))
        return Separation(float(max(p[0] for p in parts)), float(max(p[1] for p in parts)), samples[top],
                          subsets[top], violations[top])

    return as_source(data).map_reduce(
        lambda block, start, *b: _separate_block(block, start, mu, nu, n_max, excluded, block_part(b)), combine,
        *per_sample(blocked))


def near_active_rows(data, mu, delta, blocked=None, chain=False):
    """``(samples, subsets)``: the most violated row ``(i, C_i)`` of every sample whose ``psi(x_i)`` is within ``delta``
    of ``varphi(mu)`` (eq. 9), in one pass: the rows (nearly) active at ``mu``, which a master must hold for its optimum
    to stay near ``mu`` (``blocked``: :func:`most_violated_subsets`).  ``chain``: each row ``(i, C)`` within
    ``delta`` of ``varphi(mu)`` whose ``C`` is the ``k`` largest scores of sample ``i`` (eq. 9's candidates), for every
    ``k``."""
    def block_rows(block, start, *b):
        scores = class_scores(block, mu)
        if not chain:
            values, subsets = most_violated_subsets(scores, block_part(b))
            near = np.flatnonzero(values >= values.max(initial=-np.inf) - delta)   # a superset of the pass's
            return near + start, subsets[near], values[near]
        scores = np.where(block_part(b), -np.inf, scores) if b else scores
        ordered, means = prefix_means(scores)
        samples, sizes = np.nonzero((means >= means.max(initial=-np.inf) - delta) & np.isfinite(means))
        return samples + start, largest_labels(scores[samples], ordered[samples], sizes), means[samples, sizes]

    def combine(parts):
        samples, subsets, psi = (np.concatenate([part[k] for part in parts]) for k in range(3))
        near = psi >= psi.max(initial=-np.inf) - delta
        return samples[near], subsets[near]

    return as_source(data).map_reduce(block_rows, combine, *per_sample(blocked))


def primal_violations(data, mu, nu, blocked=None):
    """``psi(x_i) + 1 - nu`` for every sample, in one pass: the whole ``(n,)`` array, for inspection only."""
    return as_source(data).map_reduce(
        lambda block, start, *b: psi_values(class_scores(block, mu), block_part(b)) + 1.0 - nu, np.concatenate,
        *per_sample(blocked))
