"""Data beyond memory: a :class:`~mrc_pyomo.data.DataSource` on a ``dask.array.Array`` (docs/quickstart.rst; the
extra ``dask``: ``pip install -c constraints.txt ".[dask]"`` in the checkout).

A pass (:meth:`DaskSource.map_reduce`) is a Dask task per chunk of rows, where the chunk lives (a cluster's worker
or a local thread), running the block function on each canonical block of the chunk (the chunks are aligned on
:data:`~mrc_pyomo.data.source.BLOCK_ROWS`, so that the sums are those in memory); only the per-block results come
back.  The master's rows are fetched by id (:meth:`DaskSource.rows`) into a bounded cache.  The row-wise functions
of :meth:`DaskSource.map_blocks` (the feature map, the scaling) are applied to each chunk a pass reads and to the
rows a fetch brings: no ``(n, D)`` array is formed whole.  A pass's per-sample arrays are sliced per chunk.
"""

import numpy as np

from . import source as canonical
from .source import DataSource, map_canonical_blocks

try:
    import dask
    import dask.array as da
except ImportError:  # pragma: no cover - the optional extra; DaskSource says so when it is made
    dask = da = None

#: rows fetched by id are kept up to this many (the master's rows are fetched again and again)
CACHE_ROWS = 100_000


def check_known_rows(array, name="the Dask array"):
    """Raise ``ValueError``, saying how to fix it, if the Dask ``array``'s number of rows is unknown (after a mask)."""
    if any(np.isnan(size) for size in array.shape):
        raise ValueError(f"{name}'s number of rows is unknown (chunks of unknown size): call compute_chunk_sizes() "
                         "on it first")


def check_chunks(array):
    """Raise ``ValueError`` unless the chunks of the Dask ``array`` are NumPy arrays."""
    meta = getattr(array, "_meta", None)
    if meta is not None and not isinstance(meta, np.ndarray):
        raise ValueError(f"a Dask array of {type(meta).__module__}.{type(meta).__name__} chunks: only NumPy "
                         "chunks are supported (sparse data in memory: a SciPy sparse matrix)")


def _compose(functions):
    def apply(block):
        for fn in functions:
            block = fn(block)
        return block
    return apply


def aligned_chunks(row_chunks):
    """Row chunk sizes close to ``row_chunks`` whose edges are moved to the nearest multiple of
    :data:`~mrc_pyomo.data.source.BLOCK_ROWS` (chunks that vanish merged): ``row_chunks`` itself if already so."""
    edges = np.cumsum((0,) + tuple(row_chunks))
    n, size = int(edges[-1]), canonical.BLOCK_ROWS
    inner = np.clip(np.rint(edges[1:-1] / size).astype(np.int64) * size, 0, n)
    aligned = np.unique(np.concatenate([[0], inner, [n]]))
    return tuple(int(c) for c in np.diff(aligned)) or (0,)


class DaskSource(DataSource):
    """``Psi = f(array)``: a 2-d Dask array of samples by columns and the row-wise functions ``f`` (composed in
    order) of :meth:`map_blocks`.  Chunks are made to span all columns; a pass reads the array rechunked into whole
    canonical blocks (:func:`aligned_chunks`), a fetch of rows reads it as given."""

    def __init__(self, array, functions=(), cache_rows=CACHE_ROWS):
        if da is None:
            raise ImportError('a Dask array needs the extra dask: pip install -c constraints.txt ".[dask]" in the '
                              'checkout of mrc_pyomo (or pip install "dask[array]" distributed)')
        if array.ndim != 2:
            raise ValueError(f"the data must be a 2-d array of samples by features, got {array.ndim} dimensions")
        check_known_rows(array)
        check_chunks(array)
        if len(array.chunks[1]) > 1:
            array = array.rechunk({1: -1})
        self.base = array
        chunks = aligned_chunks(array.chunks[0])
        self.passed = array if chunks == array.chunks[0] else array.rechunk({0: chunks})
        self.functions = tuple(functions)
        self.cache_rows = cache_rows
        self._cache = {}
        self.n_samples = int(array.shape[0])
        self.sparse = False
        self.n_features = (int(array.shape[1]) if not self.functions
                           else int(_compose(self.functions)(array[:1].compute()).shape[1]))
        self.starts = np.concatenate([[0], np.cumsum(self.passed.chunks[0])]).astype(np.int64)

    def rows(self, ids, columns=None):
        ids = np.asarray(ids, dtype=np.int64)
        unique, inverse = np.unique(ids, return_inverse=True)
        missing = np.array([i for i in unique.tolist() if i not in self._cache], dtype=np.int64)
        if len(missing):
            # one slice per run of consecutive ids, each optimised on its own so that Dask hands it down to the
            # storage: a fancy index, or slices sharing a chunk in one graph, read every chunk they touch whole
            breaks = np.flatnonzero(np.diff(missing) != 1) + 1
            runs = zip(np.concatenate([[0], breaks]), np.concatenate([breaks, [len(missing)]]))
            parts = dask.optimize(*[self.base[missing[a]:missing[b - 1] + 1] for a, b in runs])
            fetched = np.concatenate([np.asarray(part, dtype=np.float64)
                                      for part in dask.compute(*parts, optimize_graph=False)])
            fetched = _compose(self.functions)(fetched)
            if len(self._cache) + len(missing) > self.cache_rows:
                self._cache.clear()
            self._cache.update(zip(missing.tolist(), fetched))
        out = np.stack([self._cache[i] for i in unique.tolist()]) if len(unique) else np.empty((0, self.n_features))
        out = out[inverse]
        return out if columns is None else out[:, np.asarray(columns, dtype=np.int64)]

    def map_reduce(self, fn, combine, *per_sample):
        apply = _compose(self.functions)
        blocks = self.passed.to_delayed().ravel()
        tasks = []
        for block, start, stop in zip(blocks, self.starts[:-1], self.starts[1:]):
            parts = [np.asarray(a)[start:stop] for a in per_sample]
            tasks.append(dask.delayed(_run)(fn, apply, block, int(start), canonical.BLOCK_ROWS, *parts))
        return combine([result for chunk in dask.compute(*tasks) for result in chunk])

    def map_blocks(self, fn):
        return DaskSource(self.base, self.functions + (fn,), self.cache_rows)

    def persist(self):
        """The blocks computed once and persisted (on the workers of a cluster): a source with no functions left."""
        apply = _compose(self.functions)
        array = self.passed.map_blocks(lambda block: apply(np.asarray(block, dtype=np.float64)),
                                       chunks=(self.passed.chunks[0], (self.n_features,)), dtype=np.float64,
                                       meta=np.empty((0, 0)))
        return DaskSource(array.persist(), (), self.cache_rows)


def _run(fn, apply, block, start, block_rows, *parts):
    """``fn`` on each canonical block of the chunk ``block`` of samples ``start, ...`` (``block_rows``: the
    client's, which a test may change, not the worker's)."""
    return map_canonical_blocks(fn, apply(np.asarray(block, dtype=np.float64)), parts, start, block_rows)
