"""The restricted master ``P_{I,J}`` (paper, eq. 7): a Pyomo model of blocks and the backends that solve it.

* :mod:`~mrc_pyomo.master.model`: the Pyomo model, one block per batch of rows (the record of I and J);
* :mod:`~mrc_pyomo.master.interface`: :class:`Master`, what the methods need from a master, written down;
* :mod:`~mrc_pyomo.master.restricted`: :class:`RestrictedMaster`, the master that implements it;
* :mod:`~mrc_pyomo.master.backend`: the backend seam, :class:`Backend` and its :class:`Capabilities`;
* :mod:`~mrc_pyomo.master.solver_backends`: the one registry from solver names to backends;
* :mod:`~mrc_pyomo.master.highs_backend`: the built-in HiGHS backend (``solver="highs"``), loaded in bulk;
* :mod:`~mrc_pyomo.master.highs_setup`: a quiet ``highspy.Highs``, its options and time limits;
* :mod:`~mrc_pyomo.master.pyomo_backends`: Pyomo's persistent interfaces and Pyomo's other solvers;
* :mod:`~mrc_pyomo.master.pyomo_solve`: Pyomo's solvers by name or instance, and the solver a backend runs;
* :mod:`~mrc_pyomo.master.export`: the master's Pyomo model written to a file (``format``, ``io_options``);
* :mod:`~mrc_pyomo.master.solution`: :class:`BackendSolution`, :class:`MasterSolution`, :class:`MasterSolveError` and
  :class:`MasterTimeLimit`.
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
