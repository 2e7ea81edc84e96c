"""DataSource.persist: a derived array (the line search's class scores) computed once and kept; the line search of
the primal oracle gives the same rule on every source."""

import numpy as np
import pytest
from sklearn.datasets import load_wine

from mrc_pyomo.data import DataSource, InMemorySource, as_source
from mrc_pyomo.oracles.segment import risk_on_segment
from mrc_pyomo.problem import prepare


class Blocks(DataSource):
    """A source of blocks of 50 rows, with no persist of its own (the default gathers into memory)."""

    def __init__(self, array):
        self.array, (self.n_samples, self.n_features), self.sparse = array, array.shape, False

    def rows(self, ids, columns=None):
        out = self.array[np.asarray(ids)]
        return out if columns is None else out[:, columns]

    def map_reduce(self, fn, combine, *per_sample):
        return combine([fn(self.array[s:s + 50], s, *[a[s:s + 50] for a in per_sample])
                        for s in range(0, self.n_samples, 50)])

    def map_blocks(self, fn):
        return Blocks(fn(self.array))


def sources(array):
    found = [InMemorySource(array), Blocks(array)]
    dask = pytest.importorskip("dask.array")
    found.append(as_source(dask.from_array(array, chunks=(40, array.shape[1]))))
    return found


def test_persist_keeps_the_blocks():
    array = np.arange(300.0).reshape(100, 3)
    for source in sources(array):
        kept = source.map_blocks(lambda block: 2 * block).persist()
        assert isinstance(kept, DataSource) and kept.shape == (100, 3)
        np.testing.assert_array_equal(kept.map_reduce(lambda block, start: block, np.concatenate), 2 * array)


def test_the_line_search_is_the_same_on_every_source():
    X, y = load_wine(return_X_y=True)
    problem = prepare(X, y)
    Psi = problem.data.array
    rng = np.random.default_rng(0)
    mu_a, mu_b = rng.normal(size=problem.tau.shape), rng.normal(size=problem.tau.shape)
    results = [risk_on_segment(source, mu_a, mu_b, problem.tau, problem.lam) for source in sources(Psi)]
    for mu, value in results[1:]:
        np.testing.assert_allclose(mu, results[0][0], rtol=0, atol=1e-12)
        assert value == pytest.approx(results[0][1], abs=1e-12)
