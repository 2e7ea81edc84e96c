"""
A new data source in one class: the samples read from a ``.npy`` file on disk, block by block
=============================================================================================

A fit reaches its data only through full passes, whose per-block results do not grow with the number of
samples, and through the rows the master holds, fetched by sample id (:mod:`mrc_pyomo.data.source`).  This
source never holds more than one block of rows in memory; the feature map and the scaling are row-wise
functions it applies to each block as it reads it.  Its blocks are the canonical ones
(:data:`~mrc_pyomo.data.source.BLOCK_ROWS` samples), so that its sums are the in-memory fit's to the last bit
and the fit goes through the same masters.
"""

import tempfile
from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits

from mrc_pyomo import MRCClassifier
from mrc_pyomo.data import DataSource
from mrc_pyomo.data.source import block_starts


class NpyFileSource(DataSource):
    """The rows of a 2-d ``.npy`` file, one canonical block at a time, with the row-wise ``functions`` applied."""

    def __init__(self, path, functions=()):
        self.path, self.functions = Path(path), tuple(functions)
        self.n_samples = np.load(self.path, mmap_mode="r").shape[0]
        self.n_features = self._apply(self._read(0, 1)).shape[1]
        self.sparse = False

    def _read(self, start, stop):
        return np.array(np.load(self.path, mmap_mode="r")[start:stop], dtype=np.float64)   # a copy

    def _apply(self, block):
        for fn in self.functions:
            block = fn(block)
        return block

    def rows(self, ids, columns=None):
        ids = np.asarray(ids, dtype=np.int64)
        out = self._apply(np.array(np.load(self.path, mmap_mode="r")[ids], dtype=np.float64))
        return out if columns is None else out[:, np.asarray(columns, dtype=np.int64)]

    def map_reduce(self, fn, combine, *per_sample):
        results = []
        for start, stop in zip(block_starts(self.n_samples), [*block_starts(self.n_samples)[1:], self.n_samples]):
            results.append(fn(self._apply(self._read(start, stop)), start, *[a[start:stop] for a in per_sample]))
        return combine(results)

    def map_blocks(self, fn):
        return NpyFileSource(self.path, self.functions + (fn,))

    # persist(): the default, which gathers the blocks into memory, serves the line search's class scores, an
    # array of 2 K columns (DataSource.persist)


if __name__ == "__main__":
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    with tempfile.TemporaryDirectory() as directory:
        np.save(Path(directory) / "digits.npy", X)
        source = NpyFileSource(Path(directory) / "digits.npy")
        on_disk = MRCClassifier().fit(source, y)
        in_memory = MRCClassifier().fit(X, y)
        print(f"from disk, block by block: R* in [{on_disk.lower_:.6f}, {on_disk.upper_:.6f}]")
        print(f"in memory:                 R* in [{in_memory.lower_:.6f}, {in_memory.upper_:.6f}]")
        print(f"same predictions: {np.array_equal(on_disk.predict(source), in_memory.predict(X))}")
