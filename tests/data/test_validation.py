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


def test_arrays_of_another_library_by_scikit_learn_s_convention():
    """With ``sklearn.config_context(array_api_dispatch=True)`` (and ``SCIPY_ARRAY_API=1``, which scikit-learn asks
    for, set before SciPy is imported: a fresh interpreter), a fit on array-api-strict arrays gives the NumPy fit's
    certified interval, and its predictions come back as arrays of that library (the fit failed inside scikit-learn's
    validation: "'dtype' must be a dtype, not a <class 'type'>"); without the dispatch, NumPy's arrays come back."""
    import os
    import subprocess
    import sys
    pytest.importorskip("array_api_strict")
    code = """
import numpy as np, sklearn, array_api_strict as xps
from mrc_pyomo import MRCClassifier
rng = np.random.default_rng(0)
X = rng.normal(size=(300, 4)); y = np.digitize(X[:, 0] + 0.5 * X[:, 1], [-0.5, 0.5])
w = rng.uniform(0.5, 2.0, 300)
reference = MRCClassifier().fit(X, y, sample_weight=w)
with sklearn.config_context(array_api_dispatch=True):
    clf = MRCClassifier().fit(xps.asarray(X), xps.asarray(y), sample_weight=xps.asarray(w))
    assert abs(clf.upper_ - reference.upper_) <= 1e-9 and abs(clf.lower_ - reference.lower_) <= 1e-9
    for name in ("predict", "predict_proba", "decision_function"):
        out = getattr(clf, name)(xps.asarray(X))
        assert type(out).__module__.startswith("array_api_strict"), (name, type(out))
        assert np.allclose(np.asarray(out), getattr(reference, name)(X), atol=1e-12)
    assert clf.score(xps.asarray(X), xps.asarray(y)) == reference.score(X, y)
assert isinstance(MRCClassifier().fit(xps.asarray(X), xps.asarray(y)).predict(xps.asarray(X)), np.ndarray)
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "SCIPY_ARRAY_API": "1"})
    assert result.stdout.strip().endswith("ok"), result.stderr[-2000:]
