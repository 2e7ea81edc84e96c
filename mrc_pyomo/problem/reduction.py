"""An exact reduction of the MRC LP (eq. 4): features no sample of their class ever has, and the labels they rule out.
Without it every master may use their free coefficients, and a certificate must meet ``g_yj = 0`` exactly on each
(:mod:`mrc_pyomo.oracles.certificate`; docs/theory.rst, "The certified interval").

A feature ``(y, j)`` whose column ``[y_i = y] Psi_ij`` is identically zero has ``tau_yj = lambda_yj = 0`` (eq. 2):
``mu_yj`` is free.  It enters only the rows ``(i, C)`` with ``y in C`` and ``Psi_ij != 0``, all of other classes'
samples, with coefficient ``Psi_ij / |C|``.  When those ``Psi_ij`` all have one sign ``s`` (TF-IDF, pixels: ``s = +1``),
moving ``mu_yj`` towards ``-s infinity`` lowers the score ``v_iy`` of every such sample and changes nothing else.  Call
such a feature *fixed* and the label ``y`` *blocked* for ``i`` when a fixed feature of ``y`` has ``Psi_ij != 0``.  Then

    R* = min over mu' (no fixed feature) of R'(mu'),     R'(mu') = 1 - tau.mu' + varphi'(mu') + lambda.|mu'|

where ``varphi'`` is ``varphi`` (eq. 3) with every blocked label left out of the subsets of its sample: the LP without
the rows ``(i, C)`` that hold a label blocked for ``i`` and without the fixed features.  Proof: the reduced LP drops
rows and variables with zero cost, and a feasible point of the full LP with the fixed features set to 0 satisfies every
row that is kept, so ``min R' <= R*``; conversely :func:`complete` turns any ``mu'`` into a ``mu`` of the full problem
with ``R(mu) = R'(mu')``.  Adding label ``y`` to a subset ``C`` raises ``(sum_C v - 1) / |C|`` only if ``v_y`` exceeds
it, so scores ``v_iy <= varphi'(mu')`` on every blocked ``(i, y)`` leave ``varphi`` equal to ``varphi'``.  With
``w_iy = sum_{j fixed for y} |Psi_ij| > 0`` and ``mu_yj = -s_yj M_y`` on the fixed features of ``y``, the score becomes
``v_iy - M_y w_iy``; :func:`complete` computes the smallest such ``M_y`` in closed form, with a margin.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..data import as_source
from .estimates import class_sums
from ..oracles.primal import class_scores, varphi

# the blocked scores are pushed this far below varphi' (relative to 1 + |varphi'|), to stay below after rounding
MARGIN = 1e-6


@dataclass(frozen=True)
class Reduction:
    """The fixed features and blocked labels of a training set (module docstring).

    ``fixed``: boolean ``(K, D)``; ``direction``: ``-s_yj`` on the fixed features (``mu_yj`` goes that way), 0
    elsewhere; ``blocked``: boolean ``(n, K)``; ``centroid_blocked``: boolean ``(K, K)``, the labels blocked for some
    sample of class ``k`` (a centroid row ``(xhat_k, C)`` averages reduced rows only if ``C`` avoids them)."""

    fixed: np.ndarray
    direction: np.ndarray
    blocked: np.ndarray
    centroid_blocked: np.ndarray

    def kept_rows(self, samples, subsets):
        """Mask of the rows ``(samples[r], subsets[r])`` of the reduced LP; ids ``>= n`` are centroids."""
        n = self.blocked.shape[0]
        samples = np.asarray(samples)
        blocked = np.empty((len(samples), self.blocked.shape[1]), dtype=bool)
        train = samples < n
        blocked[train] = self.blocked[samples[train]]
        blocked[~train] = self.centroid_blocked[samples[~train] - n]
        return ~(blocked & subsets).any(axis=1)


def _nonzero(Psi):
    """``[Psi_ij != 0]`` in float32 (half the memory of a copy of ``Psi``; counts up to 2^24 are exact)."""
    return (Psi != 0).astype(np.float32).tocsr() if sp.issparse(Psi) else (Psi != 0).astype(np.float32)


def _pattern_counts(n_classes):
    """The block function of :func:`find_reduction`'s first pass: per class, the samples where each column is nonzero
    ``(K, D)``; per column, the positive and the negative entries ``(D,)``."""
    def counts(block, start, y):
        return (class_sums(_nonzero(block), y, n_classes), np.asarray((block > 0).sum(axis=0)).ravel(),
                np.asarray((block < 0).sum(axis=0)).ravel())
    return counts


def _added(parts):
    return tuple(sum(p[k] for p in parts) for k in range(len(parts[0])))


def find_reduction(Psi, y_idx, n_classes):
    """The :class:`Reduction` of ``Psi`` (an array or a :class:`~mrc_pyomo.data.DataSource`) with classes ``y_idx``, or
    ``None`` when no label is blocked; two passes, the second only if some feature is fixed."""
    data = as_source(Psi)
    y_idx = np.asarray(y_idx)
    in_class, positive, negative = data.map_reduce(_pattern_counts(n_classes), _added, y_idx)
    in_class = in_class > 0                                               # (K, D): column (y, j) not all zero
    sign = np.where(negative == 0, 1.0, np.where(positive == 0, -1.0, 0.0)) * ((positive + negative) > 0)
    fixed = ~in_class & (sign != 0)[None, :]
    if not fixed.any():
        return None
    weights = fixed.T.astype(np.float32)
    blocked = data.map_reduce(lambda block, start: np.asarray(_nonzero(block) @ weights) > 0,
                              np.concatenate)                             # (n, K)
    if not blocked.any():
        return None
    centroid_blocked = class_sums(blocked.astype(float), y_idx, n_classes) > 0
    return Reduction(fixed=fixed, direction=-sign[None, :] * fixed, blocked=blocked,
                     centroid_blocked=centroid_blocked)


def complete(reduction, Psi, mu):
    """``mu`` of the full problem with ``R(mu) = R'(mu')``, from ``mu' = mu`` (its fixed features are ignored); two
    passes over ``Psi`` (an array or a :class:`~mrc_pyomo.data.DataSource`)."""
    data = as_source(Psi)
    mu = np.where(reduction.fixed, 0.0, mu)
    ceiling = varphi(data, mu, reduction.blocked)
    ceiling = ceiling - MARGIN * (1.0 + abs(ceiling))
    fixed = reduction.fixed.T.astype(float)
    classes = np.flatnonzero(reduction.fixed.any(axis=1))

    def largest_ratio(block, start, blocked):
        """Per class ``y``: ``max (v_iy - ceiling) / w_iy`` over the block's samples where ``y`` is blocked."""
        scores = class_scores(block, mu)
        weights = np.asarray(abs(block) @ fixed)                            # w_iy
        out = np.full(mu.shape[0], -np.inf)
        for y in classes:
            rows = blocked[:, y]
            if rows.any():
                out[y] = np.max((scores[rows, y] - ceiling) / weights[rows, y])
        return out

    ratios = data.map_reduce(largest_ratio, lambda parts: np.max(parts, axis=0), reduction.blocked)
    for y in classes:
        if ratios[y] > 0:
            mu[y] = mu[y] + reduction.direction[y] * float(ratios[y]) * (1.0 + 1e-12)
    return mu
