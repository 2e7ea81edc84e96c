"""The compact formulation (``formulation="compact"``): ``(sample, class)`` pairs instead of label subsets.

For the scores ``v_y = Psi(x_i).mu_y`` of a sample and ``t = nu - 1``, the paper's rows of sample ``i`` (eq. 4),
``(sum_{y in C} v_y - 1) / |C| <= t`` for every ``C``, hold exactly when ``sum_y (v_y - t)_+ <= 1`` (the worst ``C``
takes the classes with ``v_y > t``).  With a column ``u_iy >= 0`` per pair that is::

    Psi(x_i).(mu1 - mu2)_y - u_iy - nu <= -1        (pair row (i, y), for y in P)
    sum_{y in P} u_iy <= 1                           (sample row (i, sum))

An item ``(i, P)`` is these ``|P| + 1`` rows and ``|P|`` columns; it enforces every paper row ``(i, C)`` with ``C`` in
``P`` (take ``u_iy = (v_y - t)_+``), and with ``P = Y`` all of them: ``n (K + 1)`` rows for the full LP, not
``n (2^K - 1)``.  A sample has one item at most: the separation's row ``(i, C*)`` turns ``(i, P)`` into ``(i, P | C*)``
(every class of ``C*`` has ``v_y > t``).

**Certificate.**  Let ``beta_iy >= 0`` be the duals of the pair rows, sorted decreasingly for each sample,
``beta_(1) >= ... >= beta_(K) >= beta_(K+1) = 0``, and ``C_k`` the first ``k`` classes of that order.  The weights
``alpha_(i,C_k) = k (beta_(k) - beta_(k+1))`` on the paper's rows give each class ``y = (k)`` the weight
``sum_{m >= k} alpha_(i,C_m) / m = beta_(k)``: the same ``g = F^T alpha`` as the pair duals, the same total, and
``-b.alpha = sum_i sum_k (k - 1)(beta_(k) - beta_(k+1)) = sum_i (sum_y beta_iy - max_y beta_iy)``, at least the compact
dual's value (``beta_iy <= gamma_i``, the dual of the sample row).  So the Lagrangian bound of
:mod:`mrc_pyomo.oracles.certificate` certifies this formulation unchanged (docs/architecture.rst).
"""

from functools import partial

import numpy as np
import scipy.sparse as sp

from ..oracles.primal import most_violated_subsets
from ..oracles.rows import constraint_block
from .base import Formulation, LPBlock, label_counts, label_nonzeros
from .paper import sample_label


def _label_sets(samples, subsets):
    """The union of the label sets of each distinct sample: ``(ids, sets)``, ids sorted."""
    ids, owner = np.unique(samples, return_inverse=True)
    sets = np.zeros((len(ids), subsets.shape[1]), dtype=bool)
    np.logical_or.at(sets, owner, subsets)
    return ids, sets


def _lookup(samples, subsets, ids):
    """``(found, sets)``: whether each id has an item among ``(samples, subsets)`` (one per sample), and its set."""
    if not len(samples):
        return np.zeros(len(ids), dtype=bool), np.zeros((len(ids), subsets.shape[1]), dtype=bool)
    order = np.argsort(samples)
    position = order[np.minimum(np.searchsorted(samples[order], ids), len(samples) - 1)]
    found = samples[position] == ids
    return found, subsets[position] & found[:, None]


def _covered(samples, subsets, ids, sets):
    found, held = _lookup(samples, subsets, ids)
    return found & ~(sets & ~held).any(axis=1)


class CompactFormulation(Formulation):
    """Items ``(i, P)``: a pair row and a column ``u_iy`` per class of ``P`` and one sample row (module docstring)."""

    name = "compact"
    has_columns = True

    def shape(self, subsets):
        size = subsets.sum(axis=1).astype(np.int64)
        return size + 1, size

    def upper(self, subsets):
        rows = self.shape(subsets)[0]
        upper = np.full(int(rows.sum()), -1.0)
        upper[np.cumsum(rows) - 1] = 1.0        # the sample row closes each item
        return upper

    def block(self, points, samples, subsets, features, n_features):
        rows, _ = self.shape(subsets)
        n_rows = int(rows.sum())
        item, pair_class = np.nonzero(subsets)                     # the pairs, item-major, classes increasing
        n_pairs = len(item)
        first_row = np.concatenate([[0], np.cumsum(rows)[:-1]])
        pair_row = first_row[item] + (np.arange(n_pairs) - np.concatenate([[0], np.cumsum(rows - 1)[:-1]])[item])
        sample_row = first_row + rows - 1
        singletons = np.zeros((n_pairs, subsets.shape[1]), dtype=bool)
        singletons[np.arange(n_pairs), pair_class] = True
        pairs = constraint_block(points, samples[item], singletons, features, n_features).tocoo()
        mu = sp.csr_matrix((pairs.data, (pair_row[pairs.row], pairs.col)), shape=(n_rows, len(features)))
        nu = np.full(n_rows, -1.0)
        nu[sample_row] = 0.0
        columns = sp.csc_matrix((np.concatenate([np.full(n_pairs, -1.0), np.ones(n_pairs)]),
                                 (np.concatenate([pair_row, sample_row[item]]), np.tile(np.arange(n_pairs), 2))),
                                shape=(n_rows, n_pairs))
        return LPBlock(mu=mu, nu=nu, columns=columns)

    def names(self, samples, subsets, n_samples):
        rows, columns = [], []
        for i, subset in zip(samples, subsets):
            label = sample_label(int(i), n_samples)
            pairs = [(label, f"y{y}") for y in np.flatnonzero(subset)]
            rows += pairs + [(label, "sum")]
            columns += pairs
        return rows, columns

    def merge(self, samples, subsets, new_samples, new_subsets):
        ids, sets = _label_sets(np.asarray(new_samples, dtype=np.int64), np.asarray(new_subsets, dtype=bool))
        found, held = _lookup(samples, subsets, ids)
        grown = sets | held
        new = (grown != held).any(axis=1)
        replaced = np.isin(samples, ids[new & found])
        return replaced, (ids[new], grown[new])

    def covers(self, samples, subsets):
        return partial(_covered, np.asarray(samples), np.asarray(subsets, dtype=bool))

    def item_values(self, scores, subsets):
        return most_violated_subsets(scores, ~subsets)[0]

    def _pair_duals(self, subsets, row_duals):
        """The duals of the pair rows as a ``(items, K)`` array (0 outside each item's set)."""
        rows, _ = self.shape(subsets)
        pair = np.ones(len(row_duals), dtype=bool)
        pair[np.cumsum(rows) - 1] = False
        beta = np.zeros(subsets.shape)
        beta[subsets] = row_duals[pair]      # the pair rows in item-major order, classes increasing
        return beta

    def item_duals(self, subsets, row_duals):
        return self._pair_duals(subsets, row_duals).sum(axis=1)

    def certificate_rows(self, samples, subsets, row_duals):
        beta = np.maximum(self._pair_duals(subsets, row_duals), 0.0)
        order = np.argsort(-beta, axis=1, kind="stable")
        ranked = np.take_along_axis(beta, order, axis=1)
        sizes = np.arange(1, beta.shape[1] + 1)
        weights = sizes * (ranked - np.concatenate([ranked[:, 1:], np.zeros((len(beta), 1))], axis=1))
        item, k = np.nonzero(weights > 0)
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(beta.shape[1])[None, :], axis=1)
        return samples[item], rank[item] <= k[:, None], weights[item, k]

    def full_items(self, samples, n_classes, reduction=None):
        sets = np.ones((len(samples), n_classes), dtype=bool)
        if reduction is not None:   # every label but the blocked ones (training samples only are asked for)
            sets &= ~reduction.blocked[samples]
        kept = sets.any(axis=1)
        return samples[kept], sets[kept]

    def full_lp_size(self, labels, n_classes, row_nonzeros):
        """``sum_i (k_i + 1)`` rows (``n (K + 1)`` without a reduction), ``sum_i 2 nnz(Psi_i) k_i`` entries of
        ``mu``, and at most ``3 n K`` of ``nu`` and the columns."""
        n_samples = len(labels)
        rows = sum(count * (k + 1) for k, count in label_counts(labels).items())
        entries = sum(2 * total * k for k, total in label_nonzeros(labels, row_nonzeros).items())
        return rows, entries + 3 * n_samples * n_classes
