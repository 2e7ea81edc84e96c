"""MRC-CCG, the generation loop (paper, Algorithm 1), in eight modules:

* :mod:`~mrc_pyomo.methods.ccg.config`: :class:`CCGConfig`, every setting, and the rules that derive settings from the
  problem (the regime, row ageing, the simplex's stall budget);
* :mod:`~mrc_pyomo.methods.ccg.start`: the first master (the paper's initial one, a given one, a warm one);
* :mod:`~mrc_pyomo.methods.ccg.check`: the check step (CONSTR, FEAT, the certificate) and the selection policy;
* :mod:`~mrc_pyomo.methods.ccg.row_history`: what the loop remembers of its rows (ageing, anti-cycling);
* :mod:`~mrc_pyomo.methods.ccg.record`: what a callback sees (its record: :mod:`mrc_pyomo.methods.history`);
* :mod:`~mrc_pyomo.methods.ccg.readable`: what a callback sees, readable (one line, tables of the changes, HTML);
* :mod:`~mrc_pyomo.methods.ccg.loop`: :func:`steps`, the loop that sequences the master and the check;
* :mod:`~mrc_pyomo.methods.ccg.method`: the method's entry in the registry (:mod:`mrc_pyomo.methods.registry`)."""

from .check import Check, check_solution
from .config import (INIT_FEATURE_ROUNDS, LARGE_M, SPARSE_DENSITY, UNREGULARISED_ROW_AGE, CCGConfig,
                     choose_regime, configure, feature_density, problem_regime, row_age, simplex_budget,
                     sparse_text)
from .loop import solve_master, steps
from .record import IterationState
from .row_history import RowHistory
from .start import centroid_rows, first_master, initial_master, warm_master

__all__ = [
    "INIT_FEATURE_ROUNDS", "LARGE_M", "SPARSE_DENSITY", "UNREGULARISED_ROW_AGE",
    "CCGConfig", "Check", "IterationState", "RowHistory", "centroid_rows", "check_solution", "choose_regime",
    "configure", "feature_density", "first_master", "initial_master",
    "problem_regime", "row_age", "simplex_budget", "sparse_text", "solve_master", "steps", "warm_master",
]
