"""What the loop hands a callback at each iteration (:class:`mrc_pyomo.methods.ccg.record.IterationState`: the
master's Pyomo model, ``mu``, ``alpha``, the violations, the rows to add and those added, the record), and a
callback that stops the fit."""

import pyomo.environ as pyo
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem
from mrc_pyomo import MRCClassifier


def test_callback_sees_each_iteration_and_can_stop():
    X, y = random_problem(80, 4, 3, seed=1)
    seen = []

    def callback(state):
        m = state.model
        assert isinstance(m, pyo.ConcreteModel)
        assert pyo.value(m.objective) == pytest.approx(state.record["R_master"], abs=1e-9)
        assert state.mu.shape == (3, 5) and state.alpha.shape == (state.master.n_rows,)
        assert state.primal_violations.shape == (80,) and state.dual_violations.shape == (3, 5)
        samples, subsets = state.next_rows
        assert len(samples) == len(subsets) == state.check.new_samples.size
        added_samples, _ = state.rows_added
        assert len(added_samples) == state.record["rows_added"]
        seen.append(state.iteration)
        return state.iteration == 3

    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(eps_1=0.0, n_max=3, callback=callback).fit(X, y)
    assert seen == [1, 2, 3] and clf.status_ == "callback" and clf.n_iter_ == 3
