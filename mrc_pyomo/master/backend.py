"""The backend seam: what a solver backend of the restricted master ``P_{I,J}`` does, and what it can do.

A :class:`~mrc_pyomo.master.RestrictedMaster` keeps the one record of ``I`` and ``J`` (:mod:`mrc_pyomo.master.model`)
and tells its backend of every change; the backend holds the solver's copy of the LP, or none, and solves it.  The
loop asks only for its :class:`Capabilities`, never which backend it is (Coluna's idea).  A new backend is a subclass
of :class:`Backend` registered under a solver name with :func:`mrc_pyomo.master.solver_backends.register_backend`.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

#: the library's own solver option, on every backend: ``solver_options={"tee": True}`` shows the solver's own log
#: (docs/solvers.rst, "The solver's log"); it is never passed to a solver as an option of that name
TEE = "tee"


def tee_value(value):
    """The value of the option ``tee`` as a bool (None: not given); ``ValueError`` unless it is True or False."""
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    raise ValueError(f"solver_options['tee'] must be True or False (show the solver's log, or not), got {value!r}")


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, as the loop and the master ask it.

    ``limits_inside_solve``: a solve stops inside the solver at its ``time_limit`` (a warm simplex at its ``budget``);
    ``bulk_loading``: each change is loaded from the master's arrays, the Pyomo model built only when asked for;
    ``warm_start``: a re-solve starts from the last basis (:meth:`Backend.large_change` and :meth:`Backend.refine`
    then mean something); ``item_columns``: items may bring columns of their own (:mod:`mrc_pyomo.formulations`)."""

    limits_inside_solve: bool = False
    bulk_loading: bool = False
    warm_start: bool = False
    item_columns: bool = True


class Backend(ABC):
    """A solver's copy of ``P_{I,J}``, told of every change of the master (the hooks are no-ops by default).

    ``solver``: the name it was made for; ``objective_floor``: whether the master has the row ``objective >= 0``;
    ``options``: the solver's; ``seconds``: the last solve's time as ``build``, ``handover`` and ``solve``."""

    capabilities = Capabilities()

    def __init__(self, solver, objective_floor=False, options=None):
        self.solver = solver
        self.objective_floor = objective_floor
        self.options = dict(options or {})
        self.seconds = {}

    @classmethod
    def check_available(cls, solver):
        """Raise a clear error if ``solver`` cannot be used on this machine (the default: it can)."""

    @classmethod
    def check_options(cls, solver, options):
        """Raise ``ValueError`` naming an option the solver rejects (the default: none is checked)."""

    def load(self, master):
        """Load the whole ``master`` into this new backend (after unpickling); nothing by default."""

    def features_added(self, master, features):
        """``J`` has grown by these flat feature ids (already in ``master.features``)."""

    def rows_added(self, master, block):
        """``I`` has grown by the batch ``block``: LP rows and columns ``master.block(block.samples, block.subsets,
        master.features)``, right-hand sides ``block.upper``."""

    def removing_rows(self, master, mask):
        """The items of ``I`` at ``mask`` (their LP rows ``master.pyomo_model.lp_rows(mask)`` and columns
        ``master.pyomo_model.lp_columns(mask)``) are about to be removed."""

    def row_bounds_changing(self, master, mask):
        """The right-hand sides of the LP rows of the items at ``mask`` are about to change."""

    def row_bounds_changed(self, master, mask):
        """... and have changed (``master.pyomo_model.upper``)."""

    def set_option(self, name, value):
        """A solver option for the next solves."""
        self.options[name] = value

    def large_change(self):
        """The next solve has no useful basis to start from (a new master, or one changed by a large fraction)."""

    def refine(self):
        """Forget warm-start information: the next solve starts from scratch."""

    @abstractmethod
    def solve(self, master, time_limit=None, budget=None):
        """Solve ``P_{I,J}``; return a :class:`~mrc_pyomo.master.solution.BackendSolution`, or raise
        :class:`~mrc_pyomo.master.MasterSolveError`.  ``time_limit``, ``budget``: seconds (``limits_inside_solve``)."""
