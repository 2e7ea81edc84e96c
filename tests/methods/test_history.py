"""The history of every method (:mod:`mrc_pyomo.methods.history`): one schema, the part of a fit each record belongs
to, and a master's record, solved or failed."""

from types import SimpleNamespace

import numpy as np

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import MasterSolveError, MasterTimeLimit
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.history import FIRST_ORDER, GENERATION, HISTORY_COLUMNS, failure_record, iteration_record


def test_a_master_s_record_has_every_column_of_the_schema():
    known = {"iteration": 3, "lambda0": 0.01, "features_only": False, "n_rows": 10, "n_features": 4,
             "rows_added": 2, "rows_removed": 1, "rows_readded": 0, "features_added": 0, "seconds_update": 0.1,
             "seconds_build": 0.0, "seconds_handover": 0.0, "seconds_solve": 0.2}
    solution = SimpleNamespace(objective=0.3)
    check = SimpleNamespace(risk=0.35, best=SimpleNamespace(risk=0.34), max_primal_violation=0.1,
                            max_dual_violation=0.0)
    record = iteration_record(known, solution, check, 0.29, SimpleNamespace(solver_status="Optimal"), 0.05,
                              Deadline())
    assert set(record) == set(HISTORY_COLUMNS) and record["phase"] == GENERATION
    assert (record["R_master"], record["R_mu"], record["lower"], record["upper"]) == (0.3, 0.35, 0.29, 0.34)
    failed = failure_record(known, 0.29, 0.34, MasterSolveError("no optimum"), Deadline())
    assert set(failed) == set(HISTORY_COLUMNS) and np.isnan(failed["R_master"])
    assert failed["solver_status"] == "no optimum"
    timed_out = failure_record(known, 0.29, 0.34, MasterTimeLimit("limit"), Deadline())
    assert timed_out["solver_status"].startswith("time limit")


def test_a_fit_s_records_say_their_part_of_the_fit():
    X, y = random_problem(200, 4, 3, seed=1)
    clf = MRCClassifier(first_order=True, max_iter=20, eps_1=1e-2).fit(X, y)
    assert set(clf.history_.phase) == {FIRST_ORDER, GENERATION}
    assert list(clf.history_.columns[:len(HISTORY_COLUMNS)]) == HISTORY_COLUMNS
