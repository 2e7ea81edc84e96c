"""The selection policy (:mod:`mrc_pyomo.oracles.selection`): the most violated rows or features, the
over-satisfied rows."""

import numpy as np

from mrc_pyomo.oracles.selection import most_violated, over_satisfied


def test_selection():
    v = np.array([0.5, -1.0, 2.0, 1e-12, 0.3, 3.0])
    assert list(most_violated(v, 0.0, 10)) == [5, 2, 0, 4]
    assert list(most_violated(v, 0.4, 2)) == [5, 2]
    eligible = np.array([True, True, False, True, True, False])
    assert list(most_violated(v, 0.0, 2, eligible)) == [0, 4]
    mask = over_satisfied(np.array([-1.0, -1.0, 0.0, -1e-12]), np.array([0.0, 0.5, 0.0, 0.0]))
    assert list(mask) == [True, False, False, False]
