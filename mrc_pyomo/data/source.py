"""The data seam: how a fit reaches the training data ``Psi`` (the feature map of the samples, ``(n, D)``).

MRC-CCG needs the data in two ways only (paper, Algorithm 1): **full passes** over the samples whose results do
not grow with ``n`` (class sums and second moments for ``tau`` and ``lambda``, eq. 2; the most violated rows of
CONSTR, eq. 9, reduced to ``varphi`` and the ``n_max`` most violated; column statistics), and **rows fetched by
sample id** for the master ``P_{I,J}``, which holds a few thousand of them.  A :class:`DataSource` offers these:

* :class:`InMemorySource`: a NumPy array or a SciPy CSR matrix;
* :class:`~mrc_pyomo.data.dask_source.DaskSource`: a ``dask.array.Array``, each pass a graph of Dask tasks;
* :class:`ArraySource`: an array of another array API library, passed over where it is (CuPy, PyTorch on a GPU).

The passes are pure NumPy functions of a block, kept with their mathematics (:mod:`mrc_pyomo.problem`,
:mod:`mrc_pyomo.oracles`), that a source runs and combines (:meth:`DataSource.map_reduce`).  This package imports
nothing from the rest of the library.

**The same arithmetic wherever the data live.**  Every source passes over the same *canonical blocks*, the samples
``[k B, (k + 1) B)`` with ``B =`` :data:`BLOCK_ROWS`, and hands their results to ``combine`` in that order, so that a
sum over the samples (``tau``, the column scales, the dual oracle's ``Psi^T W``) is the same floating-point number
in memory and on Dask, whatever the chunks.  The row-wise functions of :meth:`DataSource.map_blocks` must give each
row the same bits whatever rows they are applied with (the maps of :mod:`mrc_pyomo.feature_maps` do), so that a row
fetched for the master equals that row in a pass: a fit is the same sequence of masters on either source.  A source
of one's own that passes over other blocks still gives a certified fit, whose sums may differ in their last bits
(and so, short of the optimum, its interval within ``eps_1``).
"""

from abc import ABC, abstractmethod

import numpy as np
import scipy.sparse as sp

from .namespace import array_namespace, to_numpy

#: the number of samples of a canonical block of every pass (see the module docstring)
BLOCK_ROWS = 1000


def block_starts(n_samples):
    """The first sample of each canonical block of ``n_samples`` samples; one (empty) block when there are none."""
    return range(0, max(n_samples, 1), BLOCK_ROWS)


def map_canonical_blocks(fn, array, per_sample=(), start=0, block_rows=None):
    """``[fn(block, first, *parts)]`` for the canonical blocks of ``array``, the samples ``start, ...`` (``start`` a
    block's first sample), ``parts`` those rows of each of ``per_sample``; ``block_rows`` None: :data:`BLOCK_ROWS`."""
    size = BLOCK_ROWS if block_rows is None else block_rows
    return [fn(slice_rows(array, a, a + size), start + a, *(slice_rows(part, a, a + size) for part in per_sample))
            for a in range(0, max(array.shape[0], 1), size)]


def slice_rows(array, first, end):
    """The rows ``first, ..., end - 1`` of a NumPy array, a SciPy sparse matrix or an array API standard array."""
    if sp.issparse(array) or isinstance(array, np.ndarray):
        return array[first:end]
    return array[first:min(end, array.shape[0]), ...]


class DataSource(ABC):
    """The training data ``Psi`` of a fit, reached by passes and by rows (module docstring); ``n_samples`` and
    ``n_features`` give its shape, ``sparse`` whether its blocks are CSR matrices."""

    n_samples: int
    n_features: int
    sparse: bool

    @property
    def shape(self):
        return self.n_samples, self.n_features

    @abstractmethod
    def rows(self, ids, columns=None):
        """``Psi[ids][:, columns]`` in memory (NumPy array, or CSR for sparse data), in the order of ``ids``."""

    @abstractmethod
    def map_reduce(self, fn, combine, *per_sample):
        """``combine([fn(block, start, *parts) for each canonical block])`` in the samples' order: ``block`` holds
        the samples ``start, ..., start + len(block) - 1`` (dense or CSR), ``parts`` those rows of each of
        ``per_sample`` (NumPy arrays whose first axis is the samples)."""

    @abstractmethod
    def map_blocks(self, fn):
        """A new source whose block is ``fn(block)``, a row-wise function (the feature map, the column scaling)
        that gives each row the same bits whatever rows it is applied with; this source is not changed."""

    def scores(self, mu):
        """The class scores ``Psi mu^T``, shape ``(n, K)``, of NumPy coefficients ``mu`` ``(K, D)``: one pass."""
        return self.map_reduce(lambda block, start: np.asarray(block @ mu.T), np.concatenate)

    def weighted_sums(self, W):
        """``Psi^T W`` as a ``(K, D)`` array for NumPy class weights ``W`` ``(n, K)``: one pass, the blocks'
        products summed in the samples' order."""
        return self.map_reduce(lambda block, start, part: np.asarray(block.T @ part).T, sum, W)

    def row_nonzeros(self):
        """The number of nonzero entries of each row of ``Psi``, ``(n,)`` (one pass)."""
        return self.map_reduce(lambda block, start: block.getnnz(axis=1) if sp.issparse(block)
                               else np.count_nonzero(block, axis=1), np.concatenate)

    def persist(self):
        """A source of the same blocks computed once, for repeated passes (the class scores of a line search): by
        default one :class:`InMemorySource`."""
        return InMemorySource(self.map_reduce(
            lambda block, start: block, lambda parts: sp.vstack(parts, format="csr") if sp.issparse(parts[0])
            else np.concatenate(parts)))


def block_sums(Psi):
    """``(B, S)``, CSR matrices with ``S B = Psi^T``, for ``Psi^T W = S (B W)`` in two products with the bits of the
    canonical blocks' sum ``sum_b Psi_b^T W_b``.  ``B`` stacks the blocks' ``Psi_b^T`` on the columns each touches
    (a row of ``B W`` is one block's sum for one column, its samples in order, as ``Psi_b^T W_b``'s), and ``S``
    adds those rows of each column, blocks in order, from 0, as ``sum`` does (the blocks a column misses add 0)."""
    parts, columns = [], []
    for first in block_starts(Psi.shape[0]):
        block = Psi[first:first + BLOCK_ROWS]
        touched = np.flatnonzero(np.diff(block.tocsc().indptr))
        narrow = sp.csr_matrix(block[:, touched].T)
        parts.append(sp.csr_matrix((narrow.data, narrow.indices + first, narrow.indptr),
                                   shape=(len(touched), Psi.shape[0])))
        columns.append(touched)
    columns = np.concatenate(columns)
    adding = sp.csr_matrix((np.ones(len(columns)), (columns, np.arange(len(columns)))),
                           shape=(Psi.shape[1], len(columns)))
    return sp.vstack(parts, format="csr"), adding


class InMemorySource(DataSource):
    """``Psi`` in memory, a dense NumPy array or a CSR matrix, passed over by the canonical blocks (of a CSR
    matrix, copies made at the first pass and kept: ``blocks``).

    The two products of the first-order methods over a CSR matrix cost its nonzeros, not a dense ``(D, K)`` operand
    or result a block: :meth:`scores` is one product (a row's score is the same sum whatever the blocks), and
    :meth:`weighted_sums` two, by :func:`block_sums`'s matrices (made once), each entry the same sum in the same
    order as the blocks' sum: the bits of :meth:`DataSource.scores` and :meth:`DataSource.weighted_sums`."""

    def __init__(self, Psi):
        # C order, as a Dask chunk is: a block's sums then run in the same order as on Dask
        Psi = sp.csr_matrix(Psi) if sp.issparse(Psi) else np.ascontiguousarray(Psi)
        self.array = Psi
        self.n_samples, self.n_features = Psi.shape
        self.sparse = sp.issparse(Psi)

    def rows(self, ids, columns=None):
        ids = np.asarray(ids, dtype=np.int64)
        if columns is None:
            return self.array[ids]
        columns = np.asarray(columns, dtype=np.int64)
        return self.array[ids][:, columns] if self.sparse else self.array[np.ix_(ids, columns)]

    def map_reduce(self, fn, combine, *per_sample):
        if not self.sparse:   # a dense block is a view of the array: nothing to keep
            return combine(map_canonical_blocks(fn, self.array, per_sample))
        if getattr(self, "blocks", None) is None:   # a CSR block is a copy: made once, for every pass
            self.blocks = map_canonical_blocks(lambda block, start: block, self.array)
        return combine([fn(block, start, *(slice_rows(part, start, start + block.shape[0]) for part in per_sample))
                        for block, start in zip(self.blocks, block_starts(self.n_samples))])

    def map_blocks(self, fn):
        return InMemorySource(fn(self.array))

    def persist(self):
        return self

    def scores(self, mu):
        if not self.sparse:
            return super().scores(mu)
        return np.asarray(self.array @ np.ascontiguousarray(mu.T))   # C order: SciPy copies any other a product

    def weighted_sums(self, W):
        if not self.sparse:
            return super().weighted_sums(W)
        if getattr(self, "sums", None) is None:
            self.sums = block_sums(self.array)
        per_block, adding = self.sums
        return np.asarray(adding @ (per_block @ np.ascontiguousarray(W))).T


class ArraySource(DataSource):
    """``Psi`` as an array of another array API library (CuPy, PyTorch: on its device), passed over where it is by
    blocks of :attr:`block_rows` rows (:mod:`mrc_pyomo.data.namespace`), its rows that library's arrays.  On a GPU
    a pass is one kernel a block, and small blocks' launches bounded MRC-PDHG's iterations (docs/theory.rst, "On a
    GPU"); a device's sums are not NumPy's bit for bit anyway."""

    sparse = False
    #: the rows of a block of a pass (a multiple of :data:`BLOCK_ROWS`)
    block_rows = 64 * BLOCK_ROWS

    def __init__(self, Psi):
        self.array, self.xp = Psi, array_namespace(Psi)
        self.n_samples, self.n_features = Psi.shape

    def rows(self, ids, columns=None):
        xp = self.xp
        rows = xp.take(self.array, xp.asarray(np.asarray(ids, dtype=np.int64)), axis=0)
        return rows if columns is None else xp.take(rows, xp.asarray(np.asarray(columns, dtype=np.int64)), axis=1)

    def map_reduce(self, fn, combine, *per_sample):
        return combine(map_canonical_blocks(fn, self.array, per_sample, block_rows=self.block_rows))

    def map_blocks(self, fn):
        return ArraySource(fn(self.array))

    def row_nonzeros(self):
        return to_numpy(self.xp.count_nonzero(self.array, axis=1))

    def persist(self):
        return self
