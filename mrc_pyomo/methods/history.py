"""The history of a fit, whatever its method: the schema of a record (:data:`HISTORY_COLUMNS`), the part of a fit
a record belongs to (``phase``: :data:`GENERATION` for a master, :data:`FIRST_ORDER` for a first-order iteration)
and the records of a master, solved (:func:`iteration_record`) or failed (:func:`failure_record`).  Every method
may import it; how a record is shown is :mod:`mrc_pyomo.display.log`'s."""

import numpy as np

from ..display.log import TIME_LIMIT
from ..master import MasterTimeLimit

HISTORY_COLUMNS = [
    "iteration", "lambda0", "phase", "features_only", "R_master", "R_mu", "lower", "upper", "max_primal_violation",
    "max_dual_violation", "n_rows", "n_features", "rows_added", "rows_removed", "rows_readded", "features_added",
    "seconds_oracle", "seconds_update", "seconds_build", "seconds_handover", "seconds_solve", "seconds_elapsed",
    "solver_status",
]
#: the ``phase`` of a master's record
GENERATION = "generation"
#: the ``phase`` of a first-order iteration's record
FIRST_ORDER = "first-order"


def iteration_record(known, solution, check, lower, master, seconds_oracle, deadline):
    """The record of a master (keys :data:`HISTORY_COLUMNS`, ``phase`` ``"generation"``) from what was known before its
    solve (``known``: size, changes, ``seconds_update``, time split, ``features_only``), its solution and its check."""
    return {**known, "phase": GENERATION, "R_master": solution.objective, "R_mu": check.risk, "lower": lower,
            "upper": check.best.risk, "max_primal_violation": check.max_primal_violation,
            "max_dual_violation": check.max_dual_violation, "seconds_oracle": seconds_oracle,
            "seconds_elapsed": deadline.elapsed(), "solver_status": master.solver_status}


def failure_record(known, lower, upper, error, deadline, timed_out=None):
    """The record of a master the solver failed on (``known`` has its ``seconds_solve``): ``R_master`` and the
    violations NaN, the solver's message after ``"time limit: "`` where the time limit stopped the solve (a
    :class:`~mrc_pyomo.master.MasterTimeLimit`, or the fit's time up), as the log words it
    (:func:`~mrc_pyomo.display.log.format_record`).  ``timed_out``: the loop's decision, so that record and status agree
    (None: decided here alike)."""
    if timed_out is None:
        timed_out = deadline.expired() or isinstance(error, MasterTimeLimit)
    return {**known, "phase": GENERATION, "R_master": np.nan, "R_mu": np.nan, "lower": lower, "upper": upper,
            "max_primal_violation": np.nan, "max_dual_violation": np.nan, "seconds_oracle": 0.0,
            "seconds_build": 0.0, "seconds_handover": 0.0,
            "seconds_elapsed": deadline.elapsed(),
            "solver_status": f"{TIME_LIMIT}: {error}" if timed_out else str(error)}
