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
