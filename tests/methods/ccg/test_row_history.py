"""What MRC-CCG's loop remembers of its rows (:mod:`mrc_pyomo.methods.ccg.row_history`): row ageing (a row leaves
after ``row_age`` consecutive over-satisfied masters, the count reset by a master that needs it), the rows added
again counted, and the anti-cycling rule: a row added back while ``R^k`` has not risen by more than
:data:`CYCLE_TOLERANCE` (relative to ``max(1, |R^k|)``) since it left is pinned, never to leave again, so a loop
that removes and adds the same rows at one value stops going round."""

import numpy as np
import pytest

from mrc_pyomo.methods.ccg.row_history import CYCLE_TOLERANCE, RowHistory
from mrc_pyomo.oracles.rows import all_subsets

SUBSETS = all_subsets(3)


def rows(samples, picks):
    return np.array(samples), SUBSETS[picks]


def test_a_new_history_pins_nothing():
    history = RowHistory(idle=np.zeros(4, dtype=np.int64))
    assert history.pinned.tolist() == [False] * 4 and history.dropped == {}


@pytest.mark.parametrize("row_age", [1, 2, 3])
def test_a_row_leaves_after_row_age_over_satisfied_masters_in_a_row(row_age):
    """Row 0 is over-satisfied at every master, row 1 at every master but the second, row 2 never."""
    history = RowHistory(idle=np.zeros(3, dtype=np.int64))
    over = [np.array([True, k != 1, False]) for k in range(6)]
    left = [history.age(remove, row_age) for remove in over]
    for k in range(6):
        # consecutive over-satisfied masters up to master k, row by row
        streak = [next((s for s in range(k + 1) if not over[k - s][r]), k + 1) for r in range(3)]
        assert left[k].tolist() == [s >= row_age for s in streak]
    assert history.idle.tolist() == [6, 4, 0]


def test_a_pinned_row_never_leaves():
    history = RowHistory(idle=np.zeros(2, dtype=np.int64), pinned=np.array([True, False]))
    for _ in range(4):
        assert history.age(np.array([True, True]), 1).tolist() == [False, True]


def test_updated_remembers_the_rows_removed_and_keeps_idle_and_pinned_in_step():
    history = RowHistory(idle=np.array([2, 0, 1, 3]), pinned=np.array([False, True, False, False]))
    removed = np.array([True, False, False, True])
    history.updated(removed, rows([5, 8], [0, 6]), rows([9, 10], [1, 2]), 0.25)
    assert history.idle.tolist() == [0, 1, 0, 0] and history.pinned.tolist() == [True, False, False, False]
    assert sorted(history.dropped.values()) == [0.25, 0.25] and len(history.dropped) == 2
    assert history.readded(rows([5, 8, 5, 9], [0, 6, 6, 1])) == 2   # (5, C0) and (8, C012); not (5, C012)


def test_a_row_added_back_at_the_same_value_is_pinned_and_the_cycle_stops():
    """The cycle of the docstring: at ``R^k = 0`` throughout, a row removed then added again; it comes back pinned
    and ageing never removes it again."""
    history = RowHistory(idle=np.zeros(2, dtype=np.int64))
    over = np.array([True, False])
    leaving = history.age(over, 1)
    assert leaving.tolist() == [True, False]
    history.updated(leaving, rows([3], [4]), rows([], []), 0.0)
    history.age(np.array([False]), 1)
    history.updated(np.array([False]), rows([], []), rows([3], [4]), 0.0)   # back, R^k has not risen
    assert history.pinned.tolist() == [False, True]
    for _ in range(3):
        assert not history.age(np.array([True, True]), 1)[1]


@pytest.mark.parametrize("value", [0.0, 0.5, -3.0, 200.0])
def test_the_rise_that_counts_as_progress_is_relative_to_max_one_and_the_value(value):
    """Added back after ``R^k`` rose by less than ``CYCLE_TOLERANCE max(1, |R^k|)``: pinned; by more: not, and it
    may leave again."""
    scale = max(1.0, abs(value))
    for rise, pinned in ((0.0, True), (0.5 * CYCLE_TOLERANCE * scale, True), (-1.0, True),
                         (2.0 * CYCLE_TOLERANCE * scale, False), (0.1, False)):
        history = RowHistory(idle=np.zeros(1, dtype=np.int64))
        history.updated(np.array([True]), rows([7], [2]), rows([], []), value)
        history.updated(np.zeros(0, dtype=bool), rows([], []), rows([7], [2]), value + rise)
        assert history.pinned.tolist() == [pinned], (value, rise)
        assert history.age(np.array([True]), 1).tolist() == [not pinned]


def test_a_row_never_removed_comes_back_unpinned():
    history = RowHistory(idle=np.zeros(1, dtype=np.int64))
    history.updated(np.array([True]), rows([1], [0]), rows([1, 2], [1, 0]), 0.0)   # other label set, other sample
    assert history.pinned.tolist() == [False, False] and history.readded(rows([1, 2], [1, 0])) == 0
