"""What the loop hands a callback at each iteration (:class:`mrc_pyomo.methods.ccg.record.IterationState`: the
master's Pyomo model, ``mu``, ``alpha``, the violations, the rows to add and those added, the record), a callback
that stops the fit, and the state's readable forms (its one-line repr, its tables and its HTML)."""

import pyomo.environ as pyo
import pytest
from sklearn.datasets import make_blobs
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


def test_a_state_reads_as_one_short_line_a_table_and_html():
    """``repr(state)`` is one line of the size, ``R^k``, the certified interval and the changes (not the
    dataclass's dump of every array); ``describe()``, ``next_changes()`` and ``summary()`` are the readable
    forms of :mod:`mrc_pyomo.methods.ccg.readable`; a notebook shows the state as HTML with its interval."""
    from mrc_pyomo.methods.ccg import readable
    X, y = make_blobs(n_samples=60, centers=3, cluster_std=2.5, random_state=0)
    for state in MRCClassifier(regime="nm", n_max=4, m_max=2).steps(X, y):
        text = repr(state)
        assert text == readable.state_line(state) and "\n" not in text and len(text) < 200
        assert "array" not in text and f"iteration {state.iteration}: master with" in text
        assert f"R* in [{state.lower:.4g}, {state.upper:.4g}]" in text
        page = state._repr_html_()
        assert page.startswith("<div>") and f"R* in [{state.lower:.6g}, {state.upper:.6g}]" in page
        assert state.describe().equals(readable.changes_table(state))
        assert state.next_changes().equals(readable.next_changes_table(state))
        assert state.summary()["max_dual_violation"] == state.dual_violations.max()
        assert state.problem.classes.tolist() == [0, 1, 2]
