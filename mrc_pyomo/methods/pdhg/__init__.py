"""MRC-PDHG: a restarted primal-dual hybrid gradient on the saddle form of the MRC LP, its dual a running
certified lower bound and its dual's support the first master of its certificate, in five modules:

* :mod:`~mrc_pyomo.methods.pdhg.saddle`: the saddle form, the exact prox of its dual part, the nested
  decomposition of a dual iterate into rows of the LP;
* :mod:`~mrc_pyomo.methods.pdhg.bound`: the certified lower bound of a dual iterate, and its rescue;
* :mod:`~mrc_pyomo.methods.pdhg.step`: one step, its preconditioner and its residual;
* :mod:`~mrc_pyomo.methods.pdhg.restarted`: the steps with their restarts, primal weight and stops, and the rows
  they name active;
* :mod:`~mrc_pyomo.methods.pdhg.config`: :class:`PDHGConfig`, every setting.

The rest, its configuration, its certificate and its log, it shares with MRC-FOM (:mod:`mrc_pyomo.methods.first_order`,
which registers it here).
"""

from ..first_order import register_first_order
from ..ccg.record import HISTORY_COLUMNS
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
