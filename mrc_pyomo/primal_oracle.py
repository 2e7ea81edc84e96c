"""Primal oracle CONSTR: the most violated constraint of every sample (paper, Algorithm 2), vectorised.

For coefficients ``mu`` (shape ``(K, D)``) and a sample ``x`` with class scores ``v_y = Psi(x) . mu_y``::

    psi(x) = max over non-empty C of (sum_{y in C} v_y - 1) / |C|                   (paper, eq. 10)

For a fixed size ``k`` the best ``C`` holds the ``k`` largest scores, so ``psi`` is the largest prefix mean
``(v_(1) + ... + v_(k) - 1) / k`` of the scores sorted in decreasing order: ``O(K log K)`` per sample.
The row ``(i, C)`` of the LP (eq. 3) reads ``(1/|C|) sum_{y in C} Psi(x_i).mu_y - nu <= 1/|C| - 1``; its
violation is ``(sum_{y in C} v_iy - 1) / |C| + 1 - nu``, and the most violated row of sample ``i`` has
violation ``psi(x_i) + 1 - nu``.  ``varphi(mu) = max_i psi(x_i)`` and the worst-case error probability is

    R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|                                  (paper, eq. 4)

Pure NumPy / SciPy: no solver is involved.
"""

import numpy as np


def class_scores(Psi, mu):
    """``V[i, y] = Psi(x_i) . mu_y``, shape ``(n, K)``, for dense or sparse ``Psi``."""
    return np.asarray(Psi @ mu.T)


def most_violated_subsets(scores):
    """``(psi, subsets)``: ``psi[i]`` and the label subset attaining it, a boolean ``(n, K)`` array.

    Among subsets of equal value the smallest is returned.
    """
    n, K = scores.shape
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


def psi_values(scores):
    """``psi(x_i)`` for every row of ``scores``."""
    return most_violated_subsets(scores)[0]


def risk(mu, varphi, tau, lam):
    """``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` (paper, eq. 4) given ``varphi(mu) = max_i psi(x_i)``."""
    return 1.0 - float(np.sum(tau * mu)) + float(varphi) + float(np.sum(lam * np.abs(mu)))


def worst_case_risk(Psi, mu, tau, lam):
    """``R(mu)``, evaluated exactly over all rows of ``Psi``."""
    return risk(mu, psi_values(class_scores(Psi, mu)).max(), tau, lam)


def class_probabilities(scores):
    """``p(y | x) = max(v_y - psi(x), 0)``: the MRC's conditional probabilities; each row sums to 1."""
    psi = psi_values(scores)
    proba = np.maximum(scores - psi[:, None], 0.0)
    return proba / proba.sum(axis=1, keepdims=True)
