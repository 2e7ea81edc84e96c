"""Primal oracle CONSTR: the most violated constraint of every sample (paper, Algorithm 2), vectorised.

For coefficients ``mu`` (shape ``(K, D)``) and a sample ``x`` with class scores ``v_y = Psi(x) . mu_y``::

    psi(x) = max over non-empty C of (sum_{y in C} v_y - 1) / |C|                   (paper, eq. 9)

For a fixed size ``k`` the best ``C`` holds the ``k`` largest scores, so ``psi`` is the largest prefix mean
``(v_(1) + ... + v_(k) - 1) / k`` of the scores sorted in decreasing order: ``O(K log K)`` per sample.
The row ``(i, C)`` of the LP (eq. 5) reads ``(1/|C|) sum_{y in C} Psi(x_i).mu_y - nu <= 1/|C| - 1``; its
violation is ``(sum_{y in C} v_iy - 1) / |C| + 1 - nu``, and the most violated row of sample ``i`` has
violation ``psi(x_i) + 1 - nu``.  ``varphi(mu) = max_i psi(x_i)`` and the worst-case error probability is

    R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|                                  (paper, eq. 3)

Pure NumPy / SciPy: no solver is involved.
"""

import numpy as np


def class_scores(Psi, mu):
    """``V[i, y] = Psi(x_i) . mu_y``, shape ``(n, K)``, for dense or sparse ``Psi``."""
    return np.asarray(Psi @ mu.T)


def most_violated_subsets(scores, blocked=None):
    """``(psi, subsets)``: ``psi[i]`` and the label subset attaining it, a boolean ``(n, K)`` array.

    Among subsets of equal value the smallest is returned.  ``blocked`` (boolean ``(n, K)``, optional) leaves
    the labels ``blocked[i]`` out of the subsets of sample ``i`` (the reduced LP of
    :mod:`mrc_pyomo.reduction`); every sample must keep one label.
    """
    n, K = scores.shape
    if blocked is not None:
        scores = np.where(blocked, -np.inf, scores)
    order = np.argsort(-scores, axis=1, kind="stable")
    prefix_means = (np.cumsum(np.take_along_axis(scores, order, axis=1), axis=1) - 1.0) / np.arange(1, K + 1)
    size = np.argmax(prefix_means, axis=1)
    psi = prefix_means[np.arange(n), size]
    subsets = np.empty((n, K), dtype=bool)
    np.put_along_axis(subsets, order, np.arange(K)[None, :] <= size[:, None], axis=1)
    return psi, subsets


def subset_values(scores, subsets):
    """``(sum_{y in C_r} v_ry - 1) / |C_r|`` for rows of ``scores`` paired with the rows of ``subsets``."""
    return ((scores * subsets).sum(axis=1) - 1.0) / subsets.sum(axis=1)


def psi_values(scores, blocked=None):
    """``psi(x_i)`` for every row of ``scores`` (``blocked``: see :func:`most_violated_subsets`)."""
    return most_violated_subsets(scores, blocked)[0]


def risk(mu, varphi, tau, lam):
    """``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` (paper, eq. 3) given ``varphi(mu) = max_i psi(x_i)``."""
    return 1.0 - float(np.sum(tau * mu)) + float(varphi) + float(np.sum(lam * np.abs(mu)))


def worst_case_risk(Psi, mu, tau, lam, blocked=None):
    """``R(mu)``, evaluated exactly over all rows of ``Psi`` (``blocked``: see :func:`most_violated_subsets`)."""
    return risk(mu, psi_values(class_scores(Psi, mu), blocked).max(), tau, lam)


def risk_on_segment(Psi, mu_a, mu_b, tau, lam, iterations=30, blocked=None):
    """``(mu, R(mu))`` minimising ``R`` on the segment ``mu = (1 - t) mu_a + t mu_b``, ``t in [0, 1]``.

    ``R`` is convex (eq. 3), so it is unimodal along the segment: a golden-section search on ``t``, from the
    two score matrices (the scores are linear in ``t``), with both ends kept as candidates.
    """
    scores_a, scores_b = class_scores(Psi, mu_a), class_scores(Psi, mu_b)

    def value(t):
        mu = (1.0 - t) * mu_a + t * mu_b
        return risk(mu, psi_values((1.0 - t) * scores_a + t * scores_b, blocked).max(), tau, lam), t

    ratio = (np.sqrt(5.0) - 1.0) / 2.0
    lo, hi = 0.0, 1.0
    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    f1, f2 = value(x1), value(x2)
    candidates = [value(0.0), value(1.0), f1, f2]
    for _ in range(iterations):
        if f1[0] <= f2[0]:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - ratio * (hi - lo)
            f1 = value(x1)
            candidates.append(f1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + ratio * (hi - lo)
            f2 = value(x2)
            candidates.append(f2)
    best, t = min(candidates)
    return (1.0 - t) * mu_a + t * mu_b, best


def class_probabilities(scores):
    """``p(y | x) = max(v_y - psi(x), 0)``: the MRC's conditional probabilities; each row sums to 1.

    ``psi`` is shift-equivariant (``psi(v + c) = psi(v) + c``), so the scores are first shifted by their
    maximum: the differences stay exact for scores of any size (``1e17`` and ``1e17 + 16`` gave NaN before).
    """
    scores = scores - scores.max(axis=1, keepdims=True)
    psi = psi_values(scores)
    proba = np.maximum(scores - psi[:, None], 0.0)
    return proba / proba.sum(axis=1, keepdims=True)
