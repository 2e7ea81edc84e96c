"""MRC-CCG, the generation loop (paper, Algorithm 1), in four modules:

* :mod:`~mrc_pyomo.generation.config`: :class:`CCGConfig`, every setting, and the rules that derive settings
  from the problem (the regime, row ageing, the simplex's stall budget);
* :mod:`~mrc_pyomo.generation.check`: the check step (CONSTR, FEAT and the certificate on a master's
  solution) and the selection policy;
* :mod:`~mrc_pyomo.generation.record`: the iteration record, what a callback sees, the log format;
* :mod:`~mrc_pyomo.generation.loop`: :func:`fit_ccg`, the loop that sequences the master and the check.

``mrc_pyomo.ccg`` is the documented name of this package's contents.
"""

from .check import Best, Check, check_solution, improve_on_segments
from .config import (FULL_LP_MAX_ROWS, GAP_FLOOR, INIT_FEATURE_ROUNDS, LARGE_M, SPARSE_DENSITY,
                     UNREGULARISED_ROW_AGE, CCGConfig, choose_regime, feature_density, gap_tolerance, row_age,
                     simplex_budget)
from .loop import RowHistory, centroid_rows, fit_ccg, initial_master, solve_master, update_master
from .record import (HISTORY_COLUMNS, LOG_HEADER, TIME_PARTS, IterationState, failure_record, format_record,
                     iteration_record, time_split)

__all__ = [
    "FULL_LP_MAX_ROWS", "GAP_FLOOR", "HISTORY_COLUMNS", "INIT_FEATURE_ROUNDS", "LARGE_M", "LOG_HEADER",
    "SPARSE_DENSITY", "TIME_PARTS", "UNREGULARISED_ROW_AGE", "Best", "CCGConfig", "Check", "IterationState",
    "RowHistory", "centroid_rows", "check_solution", "choose_regime", "failure_record", "feature_density",
    "fit_ccg", "format_record", "gap_tolerance", "improve_on_segments", "initial_master", "iteration_record",
    "row_age", "simplex_budget", "solve_master", "time_split", "update_master",
]
