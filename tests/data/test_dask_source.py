"""Data beyond memory (:mod:`mrc_pyomo.data.dask_source`, SPEC "Progress, paths and data"): a Dask array, on a
``distributed.LocalCluster`` of several worker processes and from an array on disk, gives the in-memory fit's
certified interval to 1e-9, its ``mu_`` where the optimum is unique, and the same predictions; only the
master's rows are gathered."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo import MRCClassifier, mrc_path
from mrc_pyomo.data import DaskSource, as_source
from mrc_pyomo.data import source as canonical
from mrc_pyomo.data.dask_source import aligned_chunks
from mrc_pyomo.oracles.primal import separation, varphi
from mrc_pyomo.problem import prepare
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.scaling import column_scales


dask = pytest.importorskip("dask")


da = pytest.importorskip("dask.array")


distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    """A cluster of two worker processes (so every pass's block functions are pickled and run elsewhere)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def problem():
    """A problem whose LP optimum is unique: the full LP by dual simplex and by interior point give one mu."""
    X, y = random_problem(240, 5, 3, seed=17)
    simplex = MRCClassifier(method="lp", eps_1=0.0, solver_options={"solver": "simplex"}).fit(X, y)
    ipm = MRCClassifier(method="lp", eps_1=0.0, solver_options={"solver": "ipm"}).fit(X, y)
    assert np.allclose(simplex.mu_, ipm.mu_, atol=1e-6)
    return X, y, simplex


def _same_fit(in_memory, on_dask, mu=True):
    assert on_dask.status_ == in_memory.status_ == "converged"
    assert on_dask.upper_ == pytest.approx(in_memory.upper_, abs=1e-9)
    assert on_dask.lower_ == pytest.approx(in_memory.lower_, abs=1e-9)
    if mu:
        assert np.allclose(on_dask.mu_, in_memory.mu_, atol=1e-6)


def test_the_passes_equal_the_in_memory_ones(client, problem):
    X, y, _ = problem
    dask_X = da.from_array(X, chunks=(50, 2))    # chunks split the columns too: rechunked to whole rows
    source = as_source(dask_X)
    assert isinstance(source, DaskSource) and source.base.chunks[1] == (X.shape[1],)
    y_idx = np.unique(y, return_inverse=True)[1]
    for got, want in zip(mean_and_confidence(source, y_idx, 3, 0.1), mean_and_confidence(X, y_idx, 3, 0.1)):
        assert np.allclose(got, want, rtol=1e-12, atol=1e-15)
    assert np.allclose(column_scales(source), column_scales(X), rtol=1e-12)
    mu = np.random.default_rng(0).normal(size=(3, X.shape[1]))
    assert varphi(source, mu) == pytest.approx(varphi(X, mu), abs=1e-12)
    memory, dask = separation(X, mu, 0.5, 30), separation(source, mu, 0.5, 30)
    assert dask.varphi == pytest.approx(memory.varphi, abs=1e-12)
    assert sorted(dask.samples.tolist()) == sorted(memory.samples.tolist())
    assert np.array_equal(source.rows([7, 3, 7]), X[[7, 3, 7]])


def test_fit_on_a_cluster_equals_the_in_memory_fit(client, problem):
    X, y, lp = problem
    in_memory = MRCClassifier(eps_1=0.0, n_max=20).fit(X, y)
    on_dask = MRCClassifier(eps_1=0.0, n_max=20).fit(da.from_array(X, chunks=(45, X.shape[1])), y)
    _same_fit(in_memory, on_dask)
    assert in_memory.upper_ == pytest.approx(lp.upper_, abs=1e-8)
    # the master holds (and, compacted, keeps) only the rows of I, in memory: not the cluster's data
    assert on_dask.master_.data.n_samples <= on_dask.master_.n_rows
    dask_X = da.from_array(X, chunks=(60, X.shape[1]))
    predicted = on_dask.predict(dask_X)
    assert isinstance(predicted, da.Array)
    assert np.array_equal(predicted.compute(), in_memory.predict(X))
    assert np.allclose(on_dask.predict_proba(dask_X).compute(), in_memory.predict_proba(X), atol=1e-6)
    assert np.allclose(on_dask.decision_function(dask_X).compute(), in_memory.decision_function(X), atol=1e-6)
    assert on_dask.score(dask_X, y) == pytest.approx(in_memory.score(X, y))


@pytest.mark.parametrize("block_rows", [None, 40])
@pytest.mark.parametrize("chunks", [50, 37, 240])
def test_a_prepared_problem_is_the_in_memory_one_bit_for_bit(client, problem, monkeypatch, block_rows, chunks):
    """The same canonical blocks (here of the default size, one block, or of 40 rows, across chunks of 50, 37
    and 240 rows) and maps that give a row the same bits whatever rows they map: the estimates, the scales,
    the centring, the Fourier map's gamma, the rows the master fetches and the separation's choice are the
    in-memory numbers exactly, not to a tolerance."""
    if block_rows:
        monkeypatch.setattr(canonical, "BLOCK_ROWS", block_rows)
    X, y, _ = problem
    for params in (dict(phi="fourier", random_state=3, lambda0=0.0), dict(phi="linear")):
        memory, dask = prepare(X, y, **params), prepare(da.from_array(X, chunks=(chunks, X.shape[1])), y, **params)
        for name in ("tau", "std", "scale", "centre"):
            assert np.array_equal(getattr(dask, name), getattr(memory, name)), name
        assert dask.feature_map.base_.get_params() == memory.feature_map.base_.get_params()
        if params["phi"] == "fourier":
            assert dask.feature_map.base_.gamma_ == memory.feature_map.base_.gamma_
        ids = [200, 3, 4, 5, 77, 239, 0]
        assert np.array_equal(dask.data.rows(ids), memory.data.rows(ids))
        assert np.array_equal(dask.data.rows([17]), memory.data.rows([17]))
        mu = np.random.default_rng(4).normal(size=memory.tau.shape)
        assert varphi(dask.data, mu) == varphi(memory.data, mu)
        cut, want = separation(dask.data, mu, 0.1, 30), separation(memory.data, mu, 0.1, 30)
        assert np.array_equal(cut.samples, want.samples) and cut.varphi == want.varphi


@pytest.mark.parametrize("block_rows", [None, 20])
def test_a_fit_stopped_short_of_the_optimum_takes_the_in_memory_path(client, monkeypatch, block_rows):
    """Fourier features, small ``n_max`` and ``m_max``, ``eps_1 > 0``: the interval where the fit stops depends
    on the masters it went through.  Rows fetched through the feature map one by one and sums over the chunks
    gave a fit on Dask another path (upper ends 1.2e-3 apart); now its interval is the in-memory one exactly."""
    if block_rows:
        monkeypatch.setattr(canonical, "BLOCK_ROWS", block_rows)
    X, y = random_problem(120, 4, 3, seed=3)
    params = dict(phi="fourier", random_state=3, n_max=3, m_max=3, eps_1=0.01)
    in_memory = MRCClassifier(**params).fit(X, y)
    on_dask = MRCClassifier(**params).fit(da.from_array(X, chunks=(25, 4)), y)
    assert on_dask.status_ == in_memory.status_ == "converged"
    assert (on_dask.upper_, on_dask.lower_, on_dask.n_iter_) == (in_memory.upper_, in_memory.lower_,
                                                                in_memory.n_iter_)
    assert np.array_equal(on_dask.mu_, in_memory.mu_)


def test_chunks_are_aligned_on_canonical_blocks():
    """A pass's chunks are whole canonical blocks: edges moved to the nearest multiple of ``BLOCK_ROWS`` (1000),
    chunks that vanish merged, aligned chunks kept."""
    assert canonical.BLOCK_ROWS == 1000
    assert aligned_chunks((250_000,) * 3 + (1234,)) == (250_000,) * 3 + (1234,)
    assert aligned_chunks((1500, 1500, 700)) == (2000, 1000, 700)
    assert aligned_chunks((300, 300, 300)) == (900,)
    assert aligned_chunks((0,)) == (0,)


def test_fit_from_an_array_on_disk(tmp_path, problem):
    """A memory-mapped file, read chunk by chunk by Dask's local scheduler; Fourier features mapped per chunk,
    their gamma from the variance Dask computes."""
    X, y, _ = problem
    on_disk = np.lib.format.open_memmap(tmp_path / "X.npy", mode="w+", dtype=np.float64, shape=X.shape)
    on_disk[:] = X
    on_disk.flush()
    dask_X = da.from_array(np.load(tmp_path / "X.npy", mmap_mode="r"), chunks=(64, X.shape[1]))
    params = dict(phi="fourier", random_state=0, eps_1=0.0, n_max=30)
    in_memory = MRCClassifier(**params).fit(X, y)
    with dask.config.set(scheduler="threads"):   # the local scheduler reads the file where it is
        on_dask = MRCClassifier(**params).fit(dask_X, y)
    _same_fit(in_memory, on_dask, mu=False)
    assert on_dask.feature_map_.base_.gamma_ == pytest.approx(in_memory.feature_map_.base_.gamma_, rel=1e-12)
    assert np.array_equal(on_dask.predict(dask_X).compute(), in_memory.predict(X))


def test_continuation_the_full_lp_the_compact_formulation_and_the_path_on_dask(client, problem):
    """Each on the cluster equals its in-memory fit (the compact formulation's separation ships the items it
    holds to the workers with each pass)."""
    X, y, _ = problem
    dask_X = da.from_array(X, chunks=(80, X.shape[1]))
    for params in (dict(continuation=True, eps_1=0.0, n_max=20), dict(method="lp", eps_1=0.0),
                   dict(lambda0=0.0, eps_1=1e-7), dict(formulation="compact", eps_1=0.0, n_max=20)):
        _same_fit(MRCClassifier(**params).fit(X, y), MRCClassifier(**params).fit(dask_X, y),
                  mu=params.get("lambda0", 0.01) > 0)
    lambda0s = [0.1, 0.01]
    memory, dask = mrc_path(X, y, lambda0s, eps_1=0.0), mrc_path(dask_X, y, lambda0s, eps_1=0.0)
    assert np.allclose(dask.table.upper, memory.table.upper, atol=1e-9)


def test_sample_weights_on_dask_equal_the_in_memory_ones(client, problem):
    """Weights (zeros among them: those rows are left out of the Dask array too) give the in-memory fit."""
    X, y, _ = problem
    w = np.random.default_rng(0).integers(0, 4, size=len(y))
    dask_X = da.from_array(X, chunks=(80, X.shape[1]))
    in_memory = MRCClassifier(eps_1=0.0).fit(X, y, sample_weight=w)
    _same_fit(in_memory, MRCClassifier(eps_1=0.0).fit(dask_X, y, sample_weight=da.from_array(w, chunks=80)),
              mu=False)


def test_bad_dask_input_is_refused_with_its_cause(client):
    X = np.ones((20, 3))
    X[4, 1] = np.nan
    y = np.arange(20) % 2
    with pytest.raises(ValueError, match="NaN or infinity"):
        MRCClassifier().fit(da.from_array(X, chunks=(5, 3)), y)
    with pytest.raises(ValueError, match="2-d"):
        MRCClassifier().fit(da.ones(20, chunks=5), y)
    with pytest.raises(ValueError, match="samples but y has"):
        MRCClassifier().fit(da.ones((20, 3), chunks=(5, 3)), y[:10])
    with pytest.raises(ValueError, match="in memory"):
        MRCClassifier(method="subgradient").fit(da.random.random((20, 3), chunks=(5, 3)), y)
    with pytest.raises(ValueError, match="only NumPy chunks"):
        MRCClassifier().fit(da.ones((20, 3), chunks=(5, 3)).map_blocks(sp.csr_matrix), y)
    fitted = MRCClassifier().fit(np.random.default_rng(1).normal(size=(20, 3)), y)
    with pytest.raises(ValueError, match="expecting 3 features"):
        fitted.predict(da.ones((4, 5), chunks=(2, 5)))


def test_fetching_rows_reads_only_those_rows():
    """The master's rows are fetched by id without reading the chunks around them: the storage is asked for one
    slice per run of consecutive ids, not for whole chunks (a fancy index made Dask read every chunk it
    touched, and so did slices sharing a chunk in one graph: a pass over the data per master)."""
    class Rows:
        def __init__(self, array):
            self.array, self.shape, self.dtype, self.ndim, self.read = array, array.shape, array.dtype, 2, 0

        def __getitem__(self, key):
            out = self.array[key]
            self.read += out.shape[0]
            return out

    store = Rows(np.arange(4000.0).reshape(1000, 4))
    source = DaskSource(da.from_array(store, chunks=(250, 4), asarray=False))
    with dask.config.set(scheduler="sync"):
        rows = source.rows([700, 3, 4, 5, 998, 100])   # two runs in the first chunk
        assert np.array_equal(rows, store.array[[700, 3, 4, 5, 998, 100]]) and store.read == 6
        assert np.array_equal(source.rows([4, 700]), store.array[[4, 700]]) and store.read == 6   # cached
