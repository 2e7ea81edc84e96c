"""The restricted master ``P_{I,J}`` (paper, eq. 7): a Pyomo model of blocks and the backends that solve it.

The record of I and J is a Pyomo model of blocks (:mod:`~mrc_pyomo.master.model`); :class:`RestrictedMaster`
(:mod:`~mrc_pyomo.master.restricted`) implements :class:`Master` (:mod:`~mrc_pyomo.master.interface`) over a
:class:`Backend` (:mod:`~mrc_pyomo.master.backend`), which :mod:`~mrc_pyomo.master.solver_backends` picks by solver
name: the built-in HiGHS (:mod:`~mrc_pyomo.master.highs_backend`) or Pyomo's (:mod:`~mrc_pyomo.master.pyomo_backends`).
Results and errors are in :mod:`~mrc_pyomo.master.solution`.
"""

from .backend import Backend, Capabilities
from .highs_backend import REFINED_TOLERANCE
from .interface import Master
from .solver_backends import BUILTIN_SOLVER, check_solver, register_backend
from .restricted import RestrictedMaster
from .solution import BackendSolution, MasterSolution, MasterSolveError, MasterTimeLimit, solve_error

__all__ = ["BUILTIN_SOLVER", "REFINED_TOLERANCE", "Backend", "BackendSolution", "Capabilities", "Master",
           "MasterSolution", "MasterSolveError", "MasterTimeLimit", "RestrictedMaster", "check_solver",
           "register_backend", "solve_error"]
