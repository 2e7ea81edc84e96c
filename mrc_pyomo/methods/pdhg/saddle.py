"""The saddle form of the MRC LP and the exact prox of its dual part.

A distribution ``alpha`` over the rows ``(i, C)`` of the LP (paper, eq. 4) acts on ``mu`` only through
``W_iy = sum_{C ni y} alpha_iC / |C|``, a distribution over the pairs ``(i, y)``.  The least ``sum_C alpha_iC /
|C|`` of a ``W`` is ``h(W) = sum_i max_y W_iy``, reached by the nested prefix sets of each sample's sorted row:
the rows ``(i, C_k)``, ``C_k`` the ``k`` largest entries of ``W_i``, with weight ``k (w_(k) - w_(k+1))``
(:func:`nested_rows`).  So::

    R* = min_mu max_{W in simplex, W = 0 on blocked (i, y)} 1 - tau.mu + lambda.|mu| + <W, Psi mu^T> - h(W),

and the inner maximum at a ``mu`` is ``R(mu)`` (:mod:`mrc_pyomo.oracles.primal`).  The dual step is the exact
prox of ``h`` on the simplex (:func:`dual_prox`): per sample the threshold ``t_i`` of the prox of ``S_i max_y``
(:func:`row_thresholds`), then the simplex's shift ``nu`` (:func:`simplex_shift`).  Every function works in its
arrays' namespace (:mod:`mrc_pyomo.data.namespace`).
"""

import numpy as np

from ...data import array_namespace, is_numpy, to_numpy
from ...oracles.primal import prefix_means


def row_thresholds(Z, steps):
    """``t_i`` with ``sum_y (Z_iy - t_i)_+ = steps_i`` for every row of ``Z`` (``-inf`` entries, blocked labels,
    left out): the prox of ``steps_i max_y`` subtracts the row's excess over ``t_i``.  One sort per row."""
    xp = array_namespace(Z)
    n, K = Z.shape
    if is_numpy(xp):   # the same values, with fewer arrays made
        ordered, candidates = prefix_means(Z, steps[:, None])
        kept = np.count_nonzero(ordered > candidates, axis=1)
        return candidates[np.arange(n), np.maximum(kept, 1) - 1]
    ordered = -xp.sort(-Z, axis=1)
    candidates = (xp.cumulative_sum(ordered, axis=1) - steps[:, None]) / xp.arange(1, K + 1, dtype=Z.dtype)
    # the entries above their candidate threshold are a prefix of the sorted row: its length picks the threshold
    kept = xp.sum(xp.astype(ordered > candidates, xp.int64), axis=1)
    return xp.take_along_axis(candidates, (xp.maximum(kept, 1) - 1)[:, None], axis=1)[:, 0]


def simplex_shift(M, steps, iterations=50, guess=None):
    """``nu`` with ``f(nu) = sum_iy (M_iy - steps_i nu)_+ - 1 = 0``.  On NumPy: Newton's steps from a point left
    of the root over the breakpoints ``M_iy / steps_i`` right of it: ``f`` is convex, decreasing and piecewise
    linear, so each step stays left of the root and reaches it on the root's piece (one sort of the breakpoints
    if ``iterations`` did not).  The start is ``guess`` (the last step's shift) where ``f(guess) >= 0``, else the
    tangent's zero there; without a guess ``max_iy (M_iy - 1) / steps_i``, where ``f >= 0``.  In another
    namespace: the sort of all breakpoints at once, nothing read back to the host (a 0-d array)."""
    xp = array_namespace(M)
    breakpoints = M / steps[:, None]
    if not is_numpy(xp):
        return sorted_shift(xp.reshape(breakpoints, (-1,)), xp.reshape(xp.broadcast_to(steps[:, None], M.shape),
                                                                        (-1,)))
    weights_of = np.broadcast_to(steps[:, None], M.shape)
    nu = float(np.max((M.max(axis=1) - 1.0) / steps))
    if guess is not None and np.isfinite(guess) and guess > nu:
        candidates = breakpoints > guess
        values, weights = breakpoints[candidates], weights_of[candidates]
        slope, excess = float(np.sum(weights)), float(weights @ (values - guess)) - 1.0
        if excess >= 0.0:
            nu = guess
        elif slope > 0.0:
            nu = max(nu, guess + excess / slope)
    candidates = breakpoints > nu
    values, weights = breakpoints[candidates], weights_of[candidates]
    for _ in range(iterations):
        # the breakpoints left of nu stay left of the root: each step keeps only those to its right
        positive = values > nu
        values, weights = values[positive], weights[positive]
        slope = float(np.sum(weights))
        excess = float(weights @ (values - nu)) - 1.0
        if slope == 0.0 or excess <= 1e-15 * max(1.0, slope * abs(nu)):
            return nu
        nu += excess / slope
    return float(sorted_shift(values, weights))


def sorted_shift(values, weights):
    """The root of ``sum_k weights_k (values_k - nu)_+ = 1`` by one sort of the breakpoints ``values`` (``-inf``
    ones never count): the largest prefix of the sorted values above its own candidate root."""
    xp = array_namespace(values)
    order = xp.argsort(-values, stable=True)
    values, weights = xp.take(values, order), xp.take(weights, order)
    finite = xp.where(xp.isfinite(values), values, 0.0)
    shifts = (xp.cumulative_sum(weights * finite) - 1.0) / xp.cumulative_sum(weights)
    kept = xp.sum(xp.astype(values > shifts, xp.int64))
    return xp.take(shifts, xp.reshape(xp.maximum(kept, 1) - 1, (1,)))[0]


def dual_prox(Z, steps, blocked=None, guess=None):
    """``(W, nu)``: ``W = argmin_{W in simplex, W = 0 on blocked} sum_i ||W_i - Z_i||^2 / (2 steps_i) + h(W)``,
    which is ``(M - steps nu)_+`` with ``M = min(Z, t)`` (:func:`row_thresholds`) and ``nu`` the simplex's shift
    (:func:`simplex_shift`, from ``guess``): on each row ``W_i = (Z_i - S_i (g_i + nu))_+``, ``g_i`` in the
    subdifferential of ``max``, a distribution on the row's largest entries, which is the clip at ``t_i``."""
    xp = array_namespace(Z)
    if blocked is not None:
        Z = xp.where(blocked, -xp.inf, Z)
    M = xp.minimum(Z, row_thresholds(Z, steps)[:, None])
    nu = simplex_shift(M, steps, guess=guess)
    return xp.maximum(M - steps[:, None] * nu, 0.0), nu


def h(W):
    """``h(W) = sum_i max_y W_iy``: the least ``sum_C alpha_iC / |C|`` of the distributions over rows whose
    ``W`` is ``W`` (module docstring)."""
    xp = array_namespace(W)
    return float(xp.sum(xp.max(W, axis=1)))


def empirical_weights(problem, xp=None):
    """``W_0``: the empirical distribution ``w_i e_{y_i} / sum w`` (the problem's sample weights, or equal), in
    the namespace ``xp`` (NumPy's if None): ``Psi^T W_0 = tau`` and ``h(W_0) = 1`` (its Lagrangian bound is 0),
    a start in the simplex."""
    n, K = problem.n_samples, problem.n_classes
    weights = np.ones(n) if problem.weights is None else np.asarray(problem.weights, dtype=float)
    W = np.zeros((n, K))
    W[np.arange(n), problem.y] = weights / weights.sum()
    return W if xp is None or is_numpy(xp) else xp.asarray(W)


def nested_rows(W, floor=0.0):
    """``(samples, subsets)``, on the host: the rows ``(i, C_k)`` of the nested decomposition of ``W`` (module
    docstring) whose weight ``k (w_(k) - w_(k+1))`` is above ``floor``: spread over their labels, the weights sum
    to ``W``; they sum to ``sum W``, and divided by ``|C_k|`` to ``h(W)``."""
    W = to_numpy(W)
    n, K = W.shape
    order = np.argsort(-W, axis=1, kind="stable")
    ordered = np.take_along_axis(W, order, axis=1)
    weights = (ordered - np.concatenate([ordered[:, 1:], np.zeros((n, 1))], axis=1)) * np.arange(1, K + 1)
    samples, sizes = np.nonzero(weights > floor)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(K)[None, :], axis=1)
    return samples, ranks[samples] <= sizes[:, None]


def nested_size(W, floor=0.0):
    """``sum |C_k|`` over the rows of :func:`nested_rows` (weight above ``floor``), in ``W``'s namespace: with
    the nonzeros of a row of ``Psi``, the size of the master those rows make."""
    xp = array_namespace(W)
    n, K = W.shape
    ordered = -xp.sort(-W, axis=1)
    below = xp.concat([ordered[:, 1:], xp.zeros((n, 1), dtype=W.dtype)], axis=1)
    sizes = xp.arange(1, K + 1, dtype=W.dtype)
    return float(xp.sum(xp.where((ordered - below) * sizes > floor, sizes, 0.0)))

