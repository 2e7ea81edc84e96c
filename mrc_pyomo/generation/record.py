"""The **record** of MRC-CCG's iterations: one record per master (keys :data:`HISTORY_COLUMNS`), what a
``callback`` sees (:class:`IterationState`), and the one format of a record that the iteration log
(``verbose=2``), the CLI and the plots share (:data:`LOG_HEADER`, :func:`format_record`, :data:`TIME_PARTS`,
:func:`time_split`).
"""

import time
from dataclasses import dataclass

import numpy as np

from ..master import RestrictedMaster
from ..primal_oracle import primal_violations
from .check import Check

HISTORY_COLUMNS = [
    "iteration", "lambda0", "phase", "R_master", "R_mu", "lower", "upper", "max_primal_violation",
    "max_dual_violation", "n_rows", "n_features", "rows_added", "rows_removed", "rows_readded", "features_added",
    "seconds_oracle", "seconds_update", "seconds_build", "seconds_handover", "seconds_solve", "seconds_elapsed",
    "solver_status",
]

#: where an iteration's time went: the columns of a record, in order, and what each is called
TIME_PARTS = [("seconds_oracle", "oracles"), ("seconds_update", "model updates"),
              ("seconds_build", "Pyomo model built"), ("seconds_handover", "handed to the solver"),
              ("seconds_solve", "solver")]

#: the first line of the iteration log of MRC-CCG, one column per key of :func:`format_record`'s line
LOG_HEADER = ("  it.    R_master         R(mu)        lower        upper       gap   primal_v     dual_v    rows  "
              "feats  +rows  -rows  again  +feat  oracle  update   model   solve")


def format_record(record):
    """One line of the iteration log (with the solver's message when it failed)."""
    if record["R_master"] != record["R_master"]:  # NaN: the solver failed on this master
        return f"{record['iteration']:5d}  solver failed: {record['solver_status']}"
    return ("{iteration:5d} {R_master:12.8f} {R_mu:12.8f} {lower:12.8f} {upper:12.8f} {gap:9.2e} "
            "{max_primal_violation:10.2e} {max_dual_violation:10.2e} {n_rows:7d} {n_features:7d} {rows_added:+6d} "
            "{rows_removed:6d} {rows_readded:6d} {features_added:+6d} {seconds_oracle:7.2f} {seconds_update:7.2f} "
            "{model:7.2f} {seconds_solve:7.2f}").format(gap=record["upper"] - record["lower"],
                                           model=record["seconds_build"] + record["seconds_handover"], **record)


def time_split(history):
    """The time split of a fit's records (a ``history_`` DataFrame), as one phrase: the seconds of each part of
    :data:`TIME_PARTS`, the Pyomo model's parts only where Pyomo's solvers spent any."""
    parts = [(column, label) for column, label in TIME_PARTS
             if column not in ("seconds_build", "seconds_handover") or history[column].sum()]
    return ", ".join(f"{label} {history[column].sum():.2f} s" for column, label in parts)


def iteration_record(known, phase, solution, check, lower, master, seconds_oracle, start):
    """The record of a master (keys :data:`HISTORY_COLUMNS`), from what was known before it was solved
    (``known``: its size, the changes that made it, ``seconds_update`` and the solve's time split), its solution
    and its check."""
    return {**known, "phase": phase, "R_master": solution.objective, "R_mu": check.risk, "lower": lower,
            "upper": check.best.risk, "max_primal_violation": check.max_primal_violation,
            "max_dual_violation": check.max_dual_violation, "seconds_oracle": seconds_oracle,
            "seconds_elapsed": time.perf_counter() - start, "solver_status": master.solver_status}


def failure_record(known, phase, lower, upper, seconds_solve, seconds_elapsed, error):
    """The record of a master the solver failed on: ``R_master`` and the violations NaN, the solver's message."""
    return {**known, "phase": phase, "R_master": np.nan, "R_mu": np.nan, "lower": lower, "upper": upper,
            "max_primal_violation": np.nan, "max_dual_violation": np.nan, "seconds_oracle": 0.0,
            "seconds_build": 0.0, "seconds_handover": 0.0, "seconds_solve": seconds_solve,
            "seconds_elapsed": seconds_elapsed, "solver_status": str(error)}


@dataclass
class IterationState:
    """What a ``callback`` sees after master ``k`` is solved and checked.

    ``rows_added`` / ``rows_removed`` (pairs ``(samples, subsets)``) and ``features_added`` are the changes
    that made this master; ``next_rows``, ``next_features`` and ``next_removed`` (a mask over the master's
    rows) what the oracles chose for the next one.  ``model`` is the Pyomo model of the master (built on
    first access on the default path) with this solution loaded.
    """

    iteration: int
    master: RestrictedMaster
    solution: object
    check: Check
    record: dict
    rows_added: tuple
    rows_removed: tuple
    features_added: np.ndarray
    data: object = None
    blocked: np.ndarray = None

    @property
    def model(self):
        return self.master.model

    @property
    def mu(self):
        return self.solution.mu

    @property
    def nu(self):
        return self.solution.nu

    @property
    def alpha(self):
        return self.solution.alpha

    @property
    def lower(self):
        return self.check.lower

    @property
    def upper(self):
        return self.check.best.risk

    @property
    def primal_violations(self):
        """``psi(x_i) + 1 - nu`` for every sample: one more pass over the data (the loop keeps only the largest
        and the rows it picks)."""
        return primal_violations(self.data, self.mu, self.nu, self.blocked)

    @property
    def dual_violations(self):
        return self.check.dual_violations

    @property
    def next_rows(self):
        return self.check.new_samples, self.check.new_subsets

    @property
    def next_features(self):
        return self.check.new_features

    @property
    def next_removed(self):
        return self.check.remove
