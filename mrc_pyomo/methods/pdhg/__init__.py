"""MRC-PDHG: a restarted primal-dual hybrid gradient on the saddle form of the MRC LP, its dual a running
certified lower bound and its dual's support the first master of its certificate: the saddle form and its dual
prox (:mod:`~mrc_pyomo.methods.pdhg.saddle`), the dual's bound (:mod:`~mrc_pyomo.methods.pdhg.bound`), one step
(:mod:`~mrc_pyomo.methods.pdhg.step`), the steps with their restarts and stops
(:mod:`~mrc_pyomo.methods.pdhg.restarted`) and the settings (:mod:`~mrc_pyomo.methods.pdhg.config`).  The rest it
shares with MRC-FOM (:mod:`mrc_pyomo.methods.first_order`, which registers it here).
"""

from ..first_order import register_first_order
from ..history import HISTORY_COLUMNS
from .bound import dual_bound
from .config import PDHGConfig
from .restarted import active_rows, iterations
from .saddle import dual_prox, empirical_weights, nested_rows, row_thresholds, simplex_shift

#: the columns of the history of a fit: those of MRC-CCG's records, then the iterations' own
FIT_COLUMNS = HISTORY_COLUMNS + ["omega", "residual", "work"]

METHOD = register_first_order(
    "pdhg", "MRC-PDHG", "MRC-PDHG: restarted primal-dual hybrid gradient on the saddle form, its dual the "
    "certificate's first master", PDHGConfig, iterations, active_rows, FIT_COLUMNS, label="PDHG")

__all__ = ["FIT_COLUMNS", "METHOD", "PDHGConfig", "active_rows", "dual_bound", "dual_prox", "empirical_weights",
           "iterations", "nested_rows", "row_thresholds", "simplex_shift"]
