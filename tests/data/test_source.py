"""The data seam (:mod:`mrc_pyomo.data.source`): a new data source is one class (the architecture page's worked
example reads the samples from a file on disk, block by block), and a fit on it certifies the in-memory fit's
R*; passes over blocks combine to one pass."""

import runpy

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import ROOT, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.data import InMemorySource, as_source
from mrc_pyomo.data import source as source_module
from mrc_pyomo.oracles.primal import primal_violations, separation, varphi

EXAMPLES = ROOT / "examples"


def test_a_new_source_gives_the_in_memory_fit(tmp_path, monkeypatch):
    """The example's source, read in canonical blocks (of 40 rows here: 6 blocks, the last one short), goes
    through the in-memory fit's masters: the same interval to the last bit."""
    monkeypatch.setattr(source_module, "BLOCK_ROWS", 40)
    NpyFileSource = runpy.run_path(str(EXAMPLES / "new_data_source.py"), run_name="example")["NpyFileSource"]
    X, y = random_problem(230, 4, 3, seed=8)
    np.save(tmp_path / "X.npy", X)
    source = NpyFileSource(tmp_path / "X.npy")
    for params in (dict(eps_1=0.0, n_max=15), dict(phi="fourier", random_state=1, eps_1=1e-3, n_max=5)):
        in_memory, from_file = MRCClassifier(**params).fit(X, y), MRCClassifier(**params).fit(source, y)
        assert from_file.status_ == in_memory.status_ == "converged"
        assert (from_file.upper_, from_file.lower_) == (in_memory.upper_, in_memory.lower_)
        assert np.array_equal(from_file.predict(source), in_memory.predict(X))
        assert np.allclose(from_file.predict_proba(source), in_memory.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("sparse", [False, True])
def test_passes_over_blocks_equal_one_pass(sparse):
    """The same pass over one block (in memory) and over many (a source of blocks of 7 rows): the results
    combine to the same values, the n_max most violated rows included."""
    X, _ = random_problem(60, 5, 3, seed=3, sparse=sparse)
    X = sp.csr_matrix(X) if sparse else X

    class Blocks(InMemorySource):
        def map_reduce(self, fn, combine, *per_sample):
            return combine([fn(self.array[s:s + 7], s, *[a[s:s + 7] for a in per_sample])
                            for s in range(0, self.n_samples, 7)])

    mu = np.random.default_rng(2).normal(size=(3, X.shape[1]))
    one, many = separation(X, mu, 0.2, 9), separation(Blocks(X), mu, 0.2, 9)
    assert many.varphi == one.varphi and many.max_violation == one.max_violation
    assert np.array_equal(np.sort(many.samples), np.sort(one.samples))
    assert np.array_equal(primal_violations(Blocks(X), mu, 0.2), primal_violations(X, mu, 0.2))
    assert varphi(Blocks(X), mu) == varphi(X, mu)


def test_as_source_and_rows():
    X = np.arange(12.0).reshape(4, 3)
    source = as_source(X)
    assert as_source(source) is source and source.shape == (4, 3) and not source.sparse
    assert np.array_equal(source.rows([2, 0, 2], [1]), X[[2, 0, 2]][:, [1]])
    assert sp.issparse(as_source(sp.csr_matrix(X)).rows([1]))


def test_a_sparse_source_cuts_its_blocks_once():
    """A CSR matrix in memory is passed over by its canonical blocks, copies made at the first pass and kept
    (cutting them at every pass cost as much as the products on mnist's pixels): every pass sees the same
    blocks, and the per-sample arrays are cut alike."""
    import scipy.sparse as sp
    from mrc_pyomo.data import InMemorySource
    from mrc_pyomo.data.source import BLOCK_ROWS
    rng = np.random.default_rng(2)
    matrix = sp.random(2 * BLOCK_ROWS + 17, 6, density=0.3, format="csr", random_state=3)
    source = InMemorySource(matrix)
    labels = rng.integers(0, 3, matrix.shape[0])
    total = source.map_reduce(lambda block, start, part: np.asarray(block.T @ np.eye(3)[part]), sum, labels)
    assert np.allclose(total, matrix.T @ np.eye(3)[labels], rtol=0, atol=1e-12)
    first = source.blocks
    assert [block.shape[0] for block in first] == [BLOCK_ROWS, BLOCK_ROWS, 17]
    starts = source.map_reduce(lambda block, start: [start], lambda parts: sum(parts, []))
    assert starts == [0, BLOCK_ROWS, 2 * BLOCK_ROWS] and source.blocks is first


@pytest.mark.parametrize("sparse", [False, True])
def test_the_first_order_products_have_the_bits_of_the_canonical_blocks(sparse):
    """``scores`` and ``weighted_sums`` of a source in memory (a CSR matrix: one product, and two through
    ``block_sums``' matrices, costing their nonzeros) give the bits of the canonical blocks' products and sum, as
    a Dask source's: text's sparse columns, some untouched by a block, a block short, signed entries."""
    from mrc_pyomo.data.source import BLOCK_ROWS, DataSource
    rng = np.random.default_rng(5)
    matrix = sp.random(3 * BLOCK_ROWS + 123, 900, density=0.004, format="csr", random_state=4)
    matrix.data = rng.normal(size=matrix.nnz)
    source = InMemorySource(matrix if sparse else matrix.toarray())
    mu, W = rng.normal(size=(3, 900)), rng.random((matrix.shape[0], 3))
    assert np.array_equal(source.scores(mu), DataSource.scores(source, mu))
    assert np.array_equal(source.weighted_sums(W), DataSource.weighted_sums(source, W))
    assert np.allclose(source.weighted_sums(W), (matrix.T @ W).T, rtol=1e-12, atol=1e-12)
