"""The formulation seam: what a formulation of the restricted master tells the master, and nothing else.

The master ``P_{I,J}`` (paper, eq. 7) keeps one record of what it holds: **items**, pairs ``(sample i, label set C)``
and the features ``J``.  A formulation says what LP an item stands for, which paper rows it enforces, and how its duals
become weights on the paper's rows, so that the one Lagrangian bound of :mod:`mrc_pyomo.oracles.certificate` certifies
every formulation; the master's Pyomo model, the backends and the loop deal only in what :class:`Formulation` returns.
Every LP the master builds has the columns ``mu1, mu2 >= 0`` (one pair per feature of ``J``, costs ``-(tau - lambda)``
and ``tau + lambda``) and ``nu`` (free, cost 1); an item adds rows ``a.(mu1 - mu2) + c nu + e.u <= upper`` and its own
columns ``u >= 0`` of cost 0, whose entries lie in its own rows only.  A new formulation is one new file: a subclass of
:class:`Formulation`, registered in :data:`mrc_pyomo.formulations.FORMULATIONS`.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp


def label_counts(labels):
    """``{k: number of samples that keep k labels}`` as Python integers."""
    values, counts = np.unique(np.asarray(labels, dtype=np.int64), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def label_nonzeros(labels, row_nonzeros):
    """``{k: nonzeros of the rows of Psi of the samples that keep k labels}`` as Python integers."""
    labels = np.asarray(labels, dtype=np.int64)
    values, inverse = np.unique(labels, return_inverse=True)
    sums = np.bincount(inverse, weights=np.asarray(row_nonzeros, dtype=float), minlength=len(values))
    return dict(zip(values.tolist(), (int(round(total)) for total in sums)))


def item_keys(samples, subsets):
    """One fixed-width key per (sample, label set) pair for ``np.isin``: the sample id's bytes, then the packed set."""
    packed = np.concatenate([np.ascontiguousarray(samples, dtype="<i8").view(np.uint8).reshape(-1, 8),
                             np.packbits(np.asarray(subsets, dtype=bool), axis=1)], axis=1)
    return np.ascontiguousarray(packed).view(f"V{packed.shape[1]}").ravel()


@dataclass
class LPBlock:
    """The LP rows and columns of a batch of items, in item order (the rows of item 0, then of item 1, ...).

    ``mu``: CSR, LP rows by features (in the order asked for), the coefficients of ``mu = mu1 - mu2``; ``nu``: each
    row's coefficient of ``nu``; ``columns``: CSC, LP rows by the items' own columns ``u >= 0``.  Right-hand sides:
    :meth:`Formulation.upper`; names: :meth:`Formulation.names`."""

    mu: sp.csr_matrix
    nu: np.ndarray
    columns: sp.csc_matrix


class Formulation(ABC):
    """A formulation of the MRC LP over items ``(i, C)`` (see the module docstring); stateless."""

    #: the name ``MRCClassifier(formulation=...)`` takes
    name = None
    #: whether items have columns of their own (a backend must then declare ``Capabilities.item_columns``)
    has_columns = False

    @abstractmethod
    def shape(self, subsets):
        """``(rows, columns)``: the number of LP rows and of own columns of each item, two integer arrays."""

    @abstractmethod
    def upper(self, subsets):
        """The right-hand sides of the items' LP rows, in block order."""

    @abstractmethod
    def block(self, points, samples, subsets, features, n_features):
        """The items' :class:`LPBlock` for the features ``features`` (flat ids ``y * D + j``; ``n_features`` is ``D``).
        ``points(ids, columns)`` gives ``Psi[ids][:, columns]``."""

    @abstractmethod
    def names(self, samples, subsets, n_samples):
        """``(row_names, column_names)``: a pair of strings for each LP row and own column of the items, in block order
        (only for the Pyomo model and the written LP; sample ids ``>= n_samples`` are centroids)."""

    @abstractmethod
    def merge(self, samples, subsets, new_samples, new_subsets):
        """``(replaced, (samples, subsets))``: the items to add for the rows ``(new_samples[r], new_subsets[r])`` not
        yet enforced, and the mask of the held items they replace (removed before they are added)."""

    @abstractmethod
    def covers(self, samples, subsets):
        """A picklable function ``f(ids, sets) -> mask``: which rows ``(ids[r], sets[r])`` of the paper's LP the items
        ``(samples, subsets)`` enforce (sent with a Dask pass, so it holds arrays, not the master)."""

    @abstractmethod
    def item_values(self, scores, subsets):
        """``max_{C'} (sum_{y in C'} v_y - 1) / |C'|`` over the paper rows each item enforces, for rows of ``scores``
        (``v``, shape ``(items, K)``) paired with the items' label sets: with it the loop removes over-satisfied items.
        """

    @abstractmethod
    def item_duals(self, subsets, row_duals):
        """The dual mass of each item: the sum of the duals of its rows that carry ``nu`` (in all ``1 - beta``)."""

    @abstractmethod
    def certificate_rows(self, samples, subsets, row_duals):
        """``(samples, subsets, alpha)``: weights ``alpha >= 0`` on paper rows ``(i, C)`` (eq. 4) with ``F^T alpha`` the
        same as the items' duals give, ``sum(alpha) = sum(item_duals)`` and ``-b.alpha`` at least the LP's dual value:
        what :func:`mrc_pyomo.oracles.certificate.lower_bound` certifies."""

    @abstractmethod
    def full_items(self, samples, n_classes, reduction=None):
        """``(samples, subsets)``: the items of the full LP for these samples (with a
        :class:`~mrc_pyomo.problem.reduction.Reduction`: of the reduced LP)."""

    @abstractmethod
    def full_lp_size(self, labels, n_classes, row_nonzeros):
        """``(rows, nonzeros)`` of the full LP (Python integers): ``labels[i]`` is the number of labels sample ``i``
        keeps (``K``, less those a :class:`~mrc_pyomo.problem.reduction.Reduction` blocks), ``row_nonzeros[i]`` the
        nonzeros of its row of ``Psi``.  A label sample ``i`` keeps has no nonzero on a fixed feature (else it would
        be blocked), so its entries in the reduced LP are all of ``Psi_i``'s."""

    def __repr__(self):
        return f"{type(self).__name__}()"

    def __eq__(self, other):
        return type(self) is type(other)

    def __hash__(self):
        return hash(type(self))
