"""Backends that solve the master's Pyomo model (:mod:`mrc_pyomo.master.model`) with Pyomo's solvers.

* :class:`PersistentBackend`, for any ``SolverFactory(name)`` whose ``is_persistent()`` is true (``appsi_highs``,
  ``highs``, ``gurobi_persistent``, ``appsi_gurobi``, ``cplex_persistent``, ...): the model is handed over once
  (``set_instance``), then each change is passed on as it happens (variables and constraints added and
  removed, the objective set again when J grows); the solver's automatic change detection is switched off,
  so that a re-solve neither scans the model nor rebuilds it, and the solver warm starts where it can.
* :class:`PyomoBackend`, for Pyomo's other solvers (``glpk``, ``cbc``, ...): the whole model is handed to
  ``SolverFactory(name).solve`` at every solve (written to a file, for file-based solvers); the Pyomo
  components themselves are built once per batch.

Both read the duals from Pyomo's ``dual`` suffix, where a ``<=`` row of a minimisation has a dual ``<= 0``:
``alpha = -dual`` (eq. 8's ``alpha >= 0``), and the floor ``objective >= 0`` has ``beta = dual >= 0``.
"""

import io
import time

import numpy as np
import pyomo.environ as pyo
from pyomo.common.collections import ComponentSet
from pyomo.common.gc_manager import PauseGC
from pyomo.common.log import LoggingIntercept
from pyomo.contrib.appsi import base as appsi_base
from pyomo.solvers.plugins.solvers.persistent_solver import PersistentSolver

from ..formulations.paper import objective_coefficients
from .backend import Backend, Capabilities
from .highs_instance import check_options as check_highs_options
from .solution import BackendSolution, MasterSolveError, solve_error

# Pyomo solver names that run HiGHS: their options are checked against HiGHS's own list
HIGHS_NAMES = ("appsi_highs", "highs")


def check_pyomo_solver(solver):
    """Raise a clear error if ``solver`` is not a Pyomo solver name, or one not usable on this machine."""
    with LoggingIntercept(io.StringIO(), "pyomo"):   # Pyomo's own warning and traceback: the error says it
        opt = pyo.SolverFactory(solver)
    if type(opt).__name__ == "UnknownSolver":
        raise ValueError(f"unknown solver {solver!r}: not a Pyomo solver name (see pyomo help --solvers)")
    if not opt.available(exception_flag=False):
        raise RuntimeError(f"solver {solver!r} is known to Pyomo but not available on this machine "
                           "(is it installed and on the PATH, with a licence if it needs one?)")


def is_persistent(solver):
    """Whether Pyomo's ``SolverFactory(solver)`` is a persistent interface: APPSI's and the newer interfaces
    say so with ``is_persistent()``; the older ones (``gurobi_persistent``, ``cplex_persistent``, ...) are
    subclasses of Pyomo's ``PersistentSolver``."""
    opt = pyo.SolverFactory(solver)
    if isinstance(opt, PersistentSolver):
        return True
    return bool(getattr(opt, "is_persistent", lambda: False)())


class _PyomoSolverBackend(Backend):
    """What both Pyomo backends share: the name's checks (Pyomo's HiGHS interfaces pass options on without
    looking at HiGHS's answer, so HiGHS checks them here)."""

    @classmethod
    def check_available(cls, solver):
        check_pyomo_solver(solver)

    @classmethod
    def check_options(cls, solver, options):
        if solver in HIGHS_NAMES:
            check_highs_options(options)


def _solve_and_load(opt, m, name, interface):
    """Run the solver and load the solution and duals into ``m``; ``MasterSolveError`` unless it is optimal.

    ``interface``: ``"classic"`` (Pyomo's older persistent interface), ``"appsi"`` (APPSI's own ``solve``, under
    the legacy wrapper ``SolverFactory`` returns: the wrapper would copy the whole solution keyed by name, or
    warn when it loads a suboptimal one) or ``"model"`` (any other solver, handed the model).  Return the
    status and the seconds the solver itself ran where Pyomo measured them (a file-based solver's process: not
    the writing of its input or the reading of its answer), else None."""
    m.dual.clear()
    try:
        if interface == "classic":
            results = opt.solve(load_solutions=False, save_results=False)
        elif interface == "appsi":
            results = super(appsi_base.LegacySolverInterface, opt).solve(m)
        else:
            results = opt.solve(m, load_solutions=False)
    except Exception as exc:  # solvers raise many types; the message is what matters
        raise MasterSolveError(f"solver {name!r} failed on the restricted master: {exc}") from exc
    if interface == "appsi":
        condition = results.termination_condition.name
        optimal = results.termination_condition == appsi_base.TerminationCondition.optimal
        timed_out = results.termination_condition == appsi_base.TerminationCondition.maxTimeLimit
    else:
        condition = str(results.solver.termination_condition)
        optimal = results.solver.termination_condition == pyo.TerminationCondition.optimal
        timed_out = results.solver.termination_condition == pyo.TerminationCondition.maxTimeLimit
    if not optimal:
        raise solve_error(f"solver {name!r} did not solve the restricted master to optimality: termination "
                          f"condition '{condition}'", timed_out)
    if interface == "classic":
        opt.load_vars()
        opt.load_duals()
    elif interface == "appsi":
        results.solution_loader.load_vars()
        m.dual.update(results.solution_loader.get_duals())
    else:
        m.solutions.load_from(results)
    seconds = getattr(getattr(results, "solver", None), "time", None)
    return condition, (float(seconds) if isinstance(seconds, (int, float)) else None)


def read_solution(status, master_model, name, tau, lam):
    """The :class:`~mrc_pyomo.master.solution.BackendSolution` of the values and duals loaded into the model, with the
    solver's words ``status``."""
    m = master_model.pyomo
    keys = master_model.feature_keys()
    # a column without entries (an all-zero feature) may be left out of the solver's answer: it is 0
    mu_pos = np.array([m.mu_pos[k].value or 0.0 for k in keys])
    mu_neg = np.array([m.mu_neg[k].value or 0.0 for k in keys])
    alpha = []
    for constraint in master_model.row_constraints():
        value = m.dual.get(constraint)
        if value is None and not constraint.active:
            value = 0.0   # a relaxed row (upper bound +inf, RestrictedMaster.set_row_upper): not in the LP solved
        if value is None:
            raise MasterSolveError(f"solver {name!r} returned no dual values for the master's rows")
        alpha.append(-value)
    beta = float(m.dual.get(m.objective_floor, 0.0)) if master_model.objective_floor else 0.0
    nu = m.nu.value or 0.0
    cost_pos, cost_neg = objective_coefficients(tau, lam, master_model.features)
    objective = float(cost_pos @ mu_pos + cost_neg @ mu_neg + nu)
    u = np.array([v.value or 0.0 for v in master_model.item_columns()])
    return BackendSolution(status=status, objective=objective, mu=mu_pos - mu_neg, nu=nu, columns=u,
                           row_duals=np.asarray(alpha, dtype=float), beta=beta)


class PyomoBackend(_PyomoSolverBackend):
    """Pyomo's non-persistent solvers: the model built in Pyomo (once per batch), handed over at every solve,
    which starts from scratch.

    ``seconds`` splits the last solve into ``build`` (Pyomo components), ``handover`` (the rest of
    ``SolverFactory(name).solve``: writing the model and reading the answer back, for a file-based solver) and
    ``solve`` (the solver's own run, as Pyomo timed it; all of ``SolverFactory(name).solve`` if it did not).
    """

    def solve(self, master, time_limit=None, budget=None):
        tic = time.perf_counter()
        master.materialise()
        build = time.perf_counter() - tic
        opt = pyo.SolverFactory(self.solver)
        for name, value in self.options.items():
            opt.options[name] = value
        status, solver_seconds = _solve_and_load(opt, master.pyomo_model.pyomo, self.solver, "model")
        total = time.perf_counter() - tic - build
        solve = total if solver_seconds is None else min(solver_seconds, total)
        self.seconds = {"build": build, "handover": total - solve, "solve": solve}
        return read_solution(status, master.pyomo_model, self.solver, master.tau, master.lam)


def _manual_updates(opt):
    """Switch off a persistent solver's automatic change detection (APPSI's ``update_config``, the newer
    interfaces' ``config.auto_updates``): every change is passed on explicitly."""
    config = getattr(opt, "update_config", None)
    if config is None:
        config = getattr(getattr(opt, "config", None), "auto_updates", None)
    if config is None:
        return
    for name in list(config.keys()):
        if name != "treat_fixed_vars_as_params" and isinstance(config[name], bool):
            config[name] = False


class PersistentBackend(_PyomoSolverBackend):
    """A Pyomo persistent solver, handed the model once and then each change (see the module docstring).

    ``instances`` counts the times the model was handed over whole (``set_instance``): 1 after any number of
    solves, unless :meth:`refine` asked for a fresh start.  ``seconds`` splits the last solve into ``build``
    (Pyomo components), ``handover`` (passing them to the solver) and ``solve``.
    """

    capabilities = Capabilities(warm_start=True)

    def __init__(self, solver, objective_floor=False, options=None):
        super().__init__(solver, objective_floor, options)
        self.opt = None
        self.instances = 0
        self._pending = []     # constraints to hand over again at the next solve (their bound changed)
        self._handed = ComponentSet()   # the constraints the solver holds
        # how the solver takes changes and answers: "classic" (Pyomo's older persistent interface: add_constraint,
        # one at a time), "appsi" or "model" (the newer pyomo.contrib.solver interfaces); see _solve_and_load
        self._interface = None

    def _new_solver(self):
        opt = pyo.SolverFactory(self.solver)
        if isinstance(opt, appsi_base.PersistentBase):
            # every variable is a component of the model: APPSI then neither looks for new variables in each
            # constraint handed over nor drops the columns of variables no constraint uses any more
            opt = pyo.SolverFactory(self.solver, only_child_vars=True)
            opt.config.load_solution = False   # loaded by _solve_and_load once it is known to be optimal
        for name, value in self.options.items():
            opt.options[name] = value
        self._interface = ("classic" if not hasattr(opt, "add_constraints") else
                           "appsi" if isinstance(opt, appsi_base.LegacySolverInterface) else "model")
        return opt

    def _remove(self, constraints):
        if self.opt is None or not constraints:
            return
        with PauseGC():
            self._remove_now(constraints)

    def _remove_now(self, constraints):
        constraints = [c for c in constraints if c in self._handed]
        for constraint in constraints:
            self._handed.discard(constraint)
        if self._interface == "classic":
            for constraint in constraints:
                self.opt.remove_constraint(constraint)
        else:
            self.opt.remove_constraints(constraints)

    def features_added(self, master, features):
        # rows already handed over gain entries for the new features: they are rebuilt, so taken out first
        self._remove(master.pyomo_model.stale_constraints())

    def removing_rows(self, master, mask):
        self._remove(master.pyomo_model.row_constraints(mask))
        self._remove_variables(master.pyomo_model.item_columns(mask))

    def _remove_variables(self, variables):
        """Take the items' columns out of the solver's copy (after the rows that hold them)."""
        if self.opt is None or not variables:
            return
        with PauseGC():
            if self._interface == "classic":
                for variable in variables:
                    self.opt.remove_var(variable)
            else:
                self.opt.remove_variables(variables)

    def row_bounds_changing(self, master, mask):
        # taken out of the solver's copy now, handed over again with their new bound at the next solve
        changed = master.pyomo_model.row_constraints(mask)
        self._remove(changed)
        if self.opt is not None:
            self._pending.extend(changed)

    def set_option(self, name, value):
        self.options[name] = value
        if self.opt is not None:
            self.opt.options[name] = value

    def refine(self):
        self.opt = None   # the next solve hands the model over to a fresh solver instance
        self._pending = []
        self._handed = ComponentSet()

    def solve(self, master, time_limit=None, budget=None):
        tic = time.perf_counter()
        new_variables, built = master.materialise()
        fresh = ComponentSet(built)
        built, self._pending = built + [c for c in self._pending if c not in fresh], []
        build = time.perf_counter() - tic
        m = master.pyomo_model.pyomo
        with PauseGC():
            self._hand_over(m, new_variables, built)
        handover = time.perf_counter() - tic - build
        status, _ = _solve_and_load(self.opt, m, self.solver, self._interface)
        self.seconds = {"build": build, "handover": handover, "solve": time.perf_counter() - tic - build - handover}
        return read_solution(status, master.pyomo_model, self.solver, master.tau, master.lam)

    def _hand_over(self, m, new_variables, built):
        """The whole model to a new solver instance, or the new variables and constraints to the current one."""
        if self.opt is None:
            self.opt = self._new_solver()
            self.opt.set_instance(m)
            _manual_updates(self.opt)
            self.instances += 1
            self._handed.update(m.component_data_objects(pyo.Constraint, active=True))
            return
        built = [c for c in built if c.active]
        self._handed.update(built)
        if self._interface == "classic":
            for variable in new_variables:
                self.opt.add_var(variable)
            if new_variables:
                self.opt.set_objective(m.objective)
            for constraint in built:
                self.opt.add_constraint(constraint)
        else:
            if new_variables:
                self.opt.add_variables(new_variables)
                self.opt.set_objective(m.objective)
            if built:
                self.opt.add_constraints(built)
