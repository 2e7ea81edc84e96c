"""The checks of the data a fit is given (:mod:`mrc_pyomo.data.validation`): NaN, infinity, no sample,
inconsistent lengths, a single class, continuous labels, each a ``ValueError`` that says so.  Dask arrays:
``tests/data/test_dask_source.py``; the command line's data files: ``tests/cli/test_data.py``."""

import numpy as np
import pytest

from mrc_pyomo import MRCClassifier


@pytest.mark.parametrize("X,y,match", [
    (np.array([[np.nan, 1.0], [1.0, 2.0]]), [0, 1], "NaN"),
    (np.array([[np.inf, 1.0], [1.0, 2.0]]), [0, 1], "infinity"),
    (np.zeros((0, 2)), [], "0 sample"),
    (np.ones((3, 2)), [0, 1], "inconsistent numbers of samples"),
    (np.ones((3, 2)), [1, 1, 1], "at least two classes"),
    (np.ones((3, 2)), [0.5, 1.2, 2.7], "Unknown label type"),
])
def test_bad_data(X, y, match):
    with pytest.raises(ValueError, match=match):
        MRCClassifier().fit(X, y)


def test_a_dask_array_without_rows_or_with_unknown_chunks_is_refused_plainly():
    """A Dask array of 0 rows: the same error as NumPy's (not an IndexError); one whose chunk sizes are unknown
    (after a boolean mask): how to make them known (not 'X has nan samples')."""
    da = pytest.importorskip("dask.array")
    with pytest.raises(ValueError, match="0 sample"):
        MRCClassifier().fit(da.zeros((0, 3), chunks=(10, 3)), np.zeros(0))
    X = da.from_array(np.arange(40.0).reshape(20, 2), chunks=(5, 2))
    masked = X[X[:, 0] > 10]
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        MRCClassifier().fit(masked, np.arange(masked.compute().shape[0]) % 2)


def test_a_column_that_does_not_hold_numbers_is_named():
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame({"size": np.arange(20.0), "colour": ["red", "blue"] * 10, "ok": [True, False] * 10})
    y = np.arange(20) % 2
    for colour in (X.colour, X.colour.astype("category")):
        with pytest.raises(ValueError, match=r"1 column\(s\) that do not hold numbers: 'colour'.*OneHotEncoder"):
            MRCClassifier().fit(X.assign(colour=colour), y)
    clf = MRCClassifier().fit(X.assign(colour=np.arange(20)), y)   # numbers and booleans are features
    with pytest.raises(ValueError, match="'colour'"):
        clf.predict(X)
