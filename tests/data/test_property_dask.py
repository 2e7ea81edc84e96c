"""Property test of data on Dask: on the property test's problems (``helpers.problems``, made dense: Dask arrays
of sparse chunks are refused), a fit on a Dask array goes through the in-memory fit's masters.  With canonical
blocks of 10 rows and chunks of 7 (:mod:`mrc_pyomo.data.source`: the chunks are aligned on the blocks for the
passes, the rows the master fetches read as given), the certified interval, the number of masters and the
status are the in-memory ones bit for bit, at ``eps_1 = 0`` and at the default ``eps_1``, where the path decides
where the fit stops; and the interval holds the independent full LP's R*.  Derandomised, on the local
synchronous scheduler (the cluster's worker processes are tried in ``test_dask_source.py``)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import REFERENCE_TOL, problems, reference_R_star
from mrc_pyomo import MRCClassifier
from mrc_pyomo.data import source as canonical

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_a_fit_on_dask_is_the_in_memory_fit_and_holds_R_star(problem):
    X, y, params = problem
    X = X.toarray() if sp.issparse(X) else X
    with pytest.MonkeyPatch.context() as patch, dask.config.set(scheduler="sync"), warnings.catch_warnings():
        patch.setattr(canonical, "BLOCK_ROWS", 10)
        warnings.simplefilter("ignore", ConvergenceWarning)  # eps = 0 may end at round-off, checked below
        for eps in (0.0, 1e-3):
            memory = MRCClassifier(eps_1=eps, eps_2=eps, **params).fit(X, y)
            on_dask = MRCClassifier(eps_1=eps, eps_2=eps, **params).fit(da.from_array(X, chunks=(7, -1)), y)
            assert (on_dask.lower_, on_dask.upper_, on_dask.n_iter_, on_dask.status_) == (
                memory.lower_, memory.upper_, memory.n_iter_, memory.status_)
            assert np.array_equal(on_dask.mu_, memory.mu_)
    classes, y_idx = np.unique(y, return_inverse=True)
    R_star = reference_R_star(on_dask.feature_map_.transform(X), y_idx, len(classes), params["lambda0"])
    assert on_dask.lower_ - REFERENCE_TOL <= R_star <= on_dask.upper_ + REFERENCE_TOL
