"""The array seam (:mod:`mrc_pyomo.data.namespace`): the primal oracle and the first-order passes take their
namespace from their arrays, so that an array of another library of the array API standard (``array-api-strict``
here; CuPy or PyTorch on a GPU) flows through them and gives NumPy's numbers; NumPy arrays and SciPy matrices
keep NumPy's path."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.data import ArraySource, InMemorySource, array_namespace, as_source, is_numpy
from mrc_pyomo.methods.fista import smoothed
from mrc_pyomo.oracles.passes import backward, forward, soft_threshold
from mrc_pyomo.oracles.primal import class_scores, most_violated_subsets, subset_values

xps = pytest.importorskip("array_api_strict")


@pytest.fixture(autouse=True)
def newest_standard():
    xps.set_array_api_strict_flags(api_version="2024.12")   # take_along_axis
    yield
    xps.reset_array_api_strict_flags()


def test_the_namespace_of_the_arrays():
    dense, sparse = np.ones((2, 2)), sp.csr_matrix(np.eye(2))
    assert is_numpy(array_namespace(dense)) and is_numpy(array_namespace(sparse, dense, None))
    assert array_namespace(xps.asarray(dense)) is xps and not is_numpy(xps)
    with pytest.raises(TypeError):
        array_namespace(xps.asarray(dense), xps.asarray(dense, device=xps.Device("device1")), np.ones(2)[None])
    assert isinstance(as_source(xps.asarray(dense)), ArraySource) and isinstance(as_source(dense), InMemorySource)


def test_the_primal_oracle_on_a_standard_array_gives_numpy_s_numbers():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(300, 6))
    scores[:, 2] = scores[:, 3]   # ties: the smallest subset of equal value in both
    blocked = rng.random((300, 6)) < 0.2
    blocked[:, 0] = False
    for block in (None, blocked):
        psi, subsets = most_violated_subsets(scores, block)
        psi_s, subsets_s = most_violated_subsets(xps.asarray(scores), block)
        assert np.array_equal(np.asarray(psi_s), psi) and np.array_equal(np.asarray(subsets_s), subsets)
        values = subset_values(xps.asarray(scores), subsets_s)
        assert np.allclose(np.asarray(values), subset_values(scores, subsets), rtol=0, atol=1e-15)
    Psi, mu = rng.normal(size=(50, 4)), rng.normal(size=(3, 4))
    assert np.allclose(np.asarray(class_scores(xps.asarray(Psi), xps.asarray(mu))), class_scores(Psi, mu))
    assert np.allclose(class_scores(sp.csr_matrix(Psi), mu), Psi @ mu.T)


def test_the_first_order_passes_run_on_a_standard_array():
    """forward, backward, the smoothed objective and its prox on an ArraySource of 2,500 rows (three blocks): the numbers of the NumPy passes."""
    X, y = random_problem(2500, 5, 3, seed=4)
    Psi = np.hstack([np.ones((len(X), 1)), X])
    mu = np.random.default_rng(1).normal(scale=0.1, size=(3, Psi.shape[1]))
    tau = np.zeros_like(mu)
    source = as_source(xps.asarray(Psi))
    source.block_rows = 1000   # three blocks (a device's are larger: ArraySource.block_rows)
    assert source.rows([3, 0])[1, 0] == 1.0 and np.array_equal(source.row_nonzeros(), np.count_nonzero(Psi, axis=1))
    V, V_s = forward(Psi, mu), forward(source, xps.asarray(mu))
    assert np.allclose(np.asarray(V_s), V, rtol=0, atol=1e-12)
    f, W, top = smoothed(V, mu, tau, 0.05)
    f_s, W_s, top_s = smoothed(V_s, xps.asarray(mu), xps.asarray(tau), 0.05)
    assert f_s == pytest.approx(f, abs=1e-12) and top_s == pytest.approx(top, abs=1e-12)
    assert np.allclose(np.asarray(W_s), W, rtol=0, atol=1e-15)
    g, g_s = backward(Psi, W), backward(source, W_s)
    assert np.allclose(np.asarray(g_s), g, rtol=0, atol=1e-12)
    assert np.array_equal(np.asarray(soft_threshold(xps.asarray(g), 0.01)),
                          soft_threshold(g, 0.01))


def test_to_numpy_brings_any_array_to_the_host():
    from mrc_pyomo.data import to_numpy
    dense = np.arange(6.0).reshape(2, 3)
    assert to_numpy(dense) is dense
    assert np.array_equal(to_numpy(xps.asarray(dense)), dense)

    class OnDevice:   # CuPy's way: get() copies to the host
        def get(self):
            return dense
    assert to_numpy(OnDevice()) is dense
