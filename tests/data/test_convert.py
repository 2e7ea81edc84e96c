"""What a fit is given as a data source (:mod:`mrc_pyomo.data.convert`): :func:`as_source` keeps a source as it is,
puts NumPy arrays and SciPy sparse matrices in memory (CSR for any sparse format), a Dask array in a
:class:`~mrc_pyomo.data.dask_source.DaskSource` and an array of another array API library (``array-api-strict``) in
an :class:`~mrc_pyomo.data.source.ArraySource`, each giving the data's rows; :func:`is_dask_array` tells a Dask array
without importing Dask."""

import sys

import numpy as np
import pytest
import scipy.sparse as sp

from mrc_pyomo.data import ArraySource, DataSource, InMemorySource
from mrc_pyomo.data.convert import as_source, is_dask_array

DATA = np.arange(24.0).reshape(6, 4) * np.array([1.0, 0.0, -2.0, 0.5])
IDS = [4, 0, 4, 2]


def test_a_source_is_kept_as_it_is():
    source = InMemorySource(DATA)
    assert as_source(source) is source

    class Mine(InMemorySource):
        pass

    mine = Mine(DATA)
    assert as_source(mine) is mine


@pytest.mark.parametrize("data", [DATA, DATA.tolist(), np.asfortranarray(DATA)], ids=["array", "list", "fortran"])
def test_numpy_data_goes_in_memory(data):
    source = as_source(data)
    assert type(source) is InMemorySource and not source.sparse
    assert source.shape == DATA.shape
    assert np.array_equal(source.rows(IDS), DATA[IDS])
    assert np.array_equal(source.rows(IDS, [3, 0]), DATA[IDS][:, [3, 0]])


@pytest.mark.parametrize("matrix", [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.csr_array])
def test_sparse_data_goes_in_memory_as_csr(matrix):
    source = as_source(matrix(DATA))
    assert type(source) is InMemorySource and source.sparse
    assert sp.issparse(source.array) and source.array.format == "csr"
    rows = source.rows(IDS, [2, 1])
    assert sp.issparse(rows) and np.array_equal(rows.toarray(), DATA[IDS][:, [2, 1]])
    assert np.array_equal(source.row_nonzeros(), np.count_nonzero(DATA, axis=1))


def test_a_dask_array_gets_a_dask_source():
    da = pytest.importorskip("dask.array")
    from mrc_pyomo.data.dask_source import DaskSource

    array = da.from_array(DATA, chunks=(4, 4))
    assert is_dask_array(array)
    source = as_source(array)
    assert isinstance(source, DaskSource) and source.shape == DATA.shape
    assert np.array_equal(source.rows(IDS), DATA[IDS])


def test_an_array_of_another_array_api_library_gets_an_array_source():
    xp = pytest.importorskip("array_api_strict")
    array = xp.asarray(DATA)
    assert not is_dask_array(array)
    source = as_source(array)
    assert type(source) is ArraySource and isinstance(source, DataSource) and not source.sparse
    assert source.shape == DATA.shape
    rows = source.rows(IDS, [1, 3])
    assert not isinstance(rows, np.ndarray)   # the library's own array, on its device
    assert np.array_equal(np.asarray(rows), DATA[IDS][:, [1, 3]])


def test_is_dask_array_does_not_import_dask(monkeypatch):
    """With ``import dask`` made to fail, what is not a Dask array is still told apart; a class of a module under
    ``dask.`` without ``to_delayed`` (a Dask object that is no array) is not one either."""
    for name in [name for name in sys.modules if name == "dask" or name.startswith("dask.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "dask", None)
    for data in (DATA, sp.csr_matrix(DATA), DATA.tolist(), InMemorySource(DATA)):
        assert not is_dask_array(data)
    assert type(as_source(DATA)) is InMemorySource

    Lookalike = type("Array", (), {"__module__": "dask.bag.core"})
    assert not is_dask_array(Lookalike())
    Lookalike.to_delayed = lambda self: None
    assert is_dask_array(Lookalike())
