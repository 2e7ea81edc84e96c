"""MRC-CCG, the generation loop (paper, Algorithm 1), in four modules:

* :mod:`~mrc_pyomo.methods.ccg.config`: :class:`CCGConfig`, every setting, and the rules that derive settings
  from the problem (the regime, row ageing, the simplex's stall budget);
* :mod:`~mrc_pyomo.methods.ccg.check`: the check step (CONSTR, FEAT and the certificate on a master's
  solution) and the selection policy;
* :mod:`~mrc_pyomo.methods.ccg.record`: the iteration record and what a callback sees;
* :mod:`~mrc_pyomo.methods.ccg.loop`: :func:`steps` (and :func:`solve`), the loop that sequences the master and
  the check.
"""

from .check import Check, check_solution
from .config import (FULL_LP_MAX_ROWS, INIT_FEATURE_ROUNDS, LARGE_M, SPARSE_DENSITY, UNREGULARISED_ROW_AGE, CCGConfig,
                     choose_regime, feature_density, problem_regime, row_age, simplex_budget)
from .loop import RowHistory, centroid_rows, initial_master, solve, solve_master, steps, update_master
from .record import HISTORY_COLUMNS, IterationState, failure_record, iteration_record

__all__ = [
    "FULL_LP_MAX_ROWS", "HISTORY_COLUMNS", "INIT_FEATURE_ROUNDS", "LARGE_M", "SPARSE_DENSITY", "UNREGULARISED_ROW_AGE",
    "CCGConfig", "Check", "IterationState", "RowHistory", "centroid_rows", "check_solution", "choose_regime",
    "failure_record", "feature_density", "initial_master", "iteration_record", "problem_regime", "row_age",
    "simplex_budget", "solve", "solve_master", "steps", "update_master",
]
