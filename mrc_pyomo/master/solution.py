"""What a backend returns (:class:`BackendSolution`) and what the master makes of it (:class:`MasterSolution`): the
solution of ``P_{I,J}`` (eq. 7) with the duals of ``D_{I,J}`` (eq. 8); or an error (:class:`MasterSolveError`)."""

from dataclasses import dataclass, field

import numpy as np


class MasterSolveError(RuntimeError):
    """The solver did not return an optimal solution of the restricted master."""


class MasterTimeLimit(MasterSolveError):
    """The solver stopped at the time limit it was given, by its own status (not by its message's words).

    ``iterate``: the solver's point when it stopped, where it has one in the LP's own space (HiGHS's PDLP,
    :func:`~mrc_pyomo.master.highs_setup.run_pdlp`), else None: from a backend a :class:`BackendSolution`, from
    :meth:`~mrc_pyomo.master.RestrictedMaster.solve` a :class:`MasterSolution` of ``master``.  It is no optimum:
    its rule and duals are worth what the certificate makes of them (:mod:`mrc_pyomo.oracles.certificate`)."""

    def __init__(self, message, iterate=None, master=None):
        super().__init__(message)
        self.iterate, self.master = iterate, master


def solve_error(message, time_limit_reached, iterate=None):
    """The error of a solve that did not end optimal: :class:`MasterTimeLimit` (with the solver's ``iterate``, if
    any) if its time limit stopped it, else :class:`MasterSolveError`."""
    return MasterTimeLimit(message, iterate) if time_limit_reached else MasterSolveError(message)


@dataclass(frozen=True)
class BackendSolution:
    """What :meth:`~mrc_pyomo.master.backend.Backend.solve` returns, in one sign convention.

    ``status``: the solver's words; ``objective``: ``R^k``; ``mu``: ``mu1 - mu2`` in the order of ``master.features``;
    ``nu``; ``columns``: the items' own columns in order (none in the paper's formulation); ``row_duals``: the duals
    (``>= 0``, eq. 8) of the LP rows of ``I`` in order; ``beta``: the dual (``>= 0``) of the row ``objective >= 0``,
    0 without it."""

    status: str
    objective: float
    mu: np.ndarray
    nu: float
    columns: np.ndarray
    row_duals: np.ndarray
    beta: float = 0.0


@dataclass
class MasterSolution:
    """Primal and dual solution of ``P_{I,J}``.

    ``mu`` has shape ``(K, D)`` (zero outside ``J``), ``alpha[r]`` is the dual mass of the r-th item of ``I``
    (``alpha >= 0``, ``sum(alpha) = 1 - beta``; the dual of the row ``(i, C)`` in the paper's formulation), ``beta``
    that of the row ``objective >= 0`` (0 without it), ``objective`` is ``R^k``; ``row_duals`` and ``columns`` as in
    :class:`BackendSolution`.  ``seconds``: ``build`` (Pyomo components), ``handover`` (to the solver), ``solve``."""

    mu: np.ndarray
    nu: float
    alpha: np.ndarray
    beta: float
    objective: float
    row_duals: np.ndarray
    columns: np.ndarray
    seconds: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Changes:
    """What made a master from the one before: the items added and removed (``removed_mask`` over the items it had)
    and the features added (flat ids)."""

    added_samples: np.ndarray
    added_subsets: np.ndarray
    removed_samples: np.ndarray
    removed_subsets: np.ndarray
    features: np.ndarray
    removed_mask: np.ndarray = None

    @property
    def rows_added(self):
        """The items added, as the pair ``(samples, subsets)``."""
        return self.added_samples, self.added_subsets

    @property
    def rows_removed(self):
        """The items removed, as the pair ``(samples, subsets)``."""
        return self.removed_samples, self.removed_subsets
