"""Backends that solve the master's Pyomo model (:mod:`mrc_pyomo.master.model`) with Pyomo's solvers, by name or
instance (:mod:`mrc_pyomo.master.pyomo_solve`).

* :class:`PersistentBackend`, for any persistent interface (``appsi_highs``, ``gurobi_persistent``, ...): the model
  is handed over once, then each change as it happens, with the solver's own change detection off, so that a
  re-solve neither scans nor rebuilds the model, and warm starts where it can.
* :class:`PyomoBackend`, for Pyomo's other solvers (``glpk``, ``cbc``, ...): the whole model is handed over at
  every solve; its components are built once per batch.

Both read the duals from Pyomo's ``dual`` suffix: ``alpha = -dual`` on the ``<=`` rows (eq. 8's ``alpha >= 0``),
``beta = dual >= 0`` on the floor.  Solves take turns (:data:`~mrc_pyomo.master.pyomo_solve.SOLVES`), so fits in
threads are safe.  Python's cyclic garbage collector is paused while Pyomo rows, one object per term, are built,
handed over and removed.
"""

import time

import numpy as np
import pyomo.environ as pyo
from pyomo.common.collections import ComponentSet
from pyomo.common.gc_manager import PauseGC
from pyomo.contrib.appsi import base as appsi_base

from ..formulations.paper import objective_coefficients
from .backend import TEE, Backend, Capabilities, tee_value
from .highs_setup import check_options as check_highs_options
from .pyomo_solve import SOLVES, check_pyomo_solver, make_solver, solve_and_load, solver_name
from .solution import BackendSolution, MasterSolveError

# Pyomo solver names that run HiGHS: their options are checked against HiGHS's own list
HIGHS_NAMES = ("appsi_highs", "highs")


class _PyomoSolverBackend(Backend):
    """What both Pyomo backends share: the solver's checks (HiGHS checks options for Pyomo's HiGHS interfaces),
    its name for messages, and ``tee`` (the library's option: :attr:`tee`, never the solver's)."""

    def __init__(self, solver, objective_floor=False, options=None):
        super().__init__(solver, objective_floor, options)
        self.name = solver_name(solver)
        self.tee = tee_value(self.options.pop(TEE, None))

    @classmethod
    def check_available(cls, solver):
        check_pyomo_solver(solver)

    @classmethod
    def check_options(cls, solver, options):
        options = dict(options or {})
        tee_value(options.pop(TEE, None))
        if solver_name(solver) in HIGHS_NAMES:
            check_highs_options(options)

    def set_option(self, name, value):
        if name == TEE:
            self.tee = tee_value(value)
        else:
            self.options[name] = value


def read_solution(status, master_model, name, tau, lam):
    """The :class:`~mrc_pyomo.master.solution.BackendSolution` of the values and duals loaded into the model."""
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
    """Pyomo's non-persistent solvers: the model handed over at every solve, which starts from scratch.

    ``seconds``: ``build`` (Pyomo components), ``handover`` (the rest of Pyomo's ``solve``: writing the model and
    reading the answer) and ``solve`` (the solver's own run as Pyomo timed it, else all of Pyomo's ``solve``)."""

    def solve(self, master, time_limit=None, budget=None):
        tic = time.perf_counter()
        master.materialise()
        build = time.perf_counter() - tic
        opt = make_solver(self.solver)
        for name, value in self.options.items():
            opt.options[name] = value
        with SOLVES:   # one Pyomo solve at a time in the process (its output capture is process-wide)
            status, solver_seconds = solve_and_load(opt, master.pyomo_model.pyomo, self.name, "model", self.tee)
        total = time.perf_counter() - tic - build
        solve = total if solver_seconds is None else min(solver_seconds, total)
        self.seconds = {"build": build, "handover": total - solve, "solve": solve}
        return read_solution(status, master.pyomo_model, self.name, master.tau, master.lam)


def _manual_updates(opt):
    """Switch off a persistent solver's automatic change detection: every change is passed on explicitly."""
    config = getattr(opt, "update_config", None)
    if config is None:
        config = getattr(getattr(opt, "config", None), "auto_updates", None)
    if config is None:
        return
    for name in list(config.keys()):
        if name != "treat_fixed_vars_as_params" and isinstance(config[name], bool):
            config[name] = False


class PersistentBackend(_PyomoSolverBackend):
    """A Pyomo persistent solver, handed the model once and then each change.

    ``instances``: the times the model was handed over whole (1, unless :meth:`refine` asked for a fresh start);
    ``seconds``: ``build``, ``handover`` and ``solve``."""

    capabilities = Capabilities(warm_start=True)

    def __init__(self, solver, objective_floor=False, options=None):
        super().__init__(solver, objective_floor, options)
        self.opt = None
        self.instances = 0
        self._pending = []     # constraints to hand over again at the next solve (their bound changed)
        self._handed = ComponentSet()   # the constraints the solver holds
        # how the solver takes changes and answers: "classic" (one at a time), "appsi" or "model"; solve_and_load
        self._interface = None

    def _new_solver(self):
        opt = make_solver(self.solver)
        if isinstance(opt, appsi_base.PersistentBase):
            opt.config.load_solution = False   # loaded by solve_and_load once it is known to be optimal
        for name, value in self.options.items():
            opt.options[name] = value
        self._interface = ("classic" if not hasattr(opt, "add_constraints") else
                           "appsi" if isinstance(opt, appsi_base.LegacySolverInterface) else "model")
        return opt

    def _remove(self, constraints):
        if self.opt is None or not constraints:
            return
        constraints = [c for c in constraints if c in self._handed]
        for constraint in constraints:
            self._handed.discard(constraint)
        self._take_out(constraints, "remove_constraint", "remove_constraints")

    def features_added(self, master, features):
        # rows already handed over gain entries for the new features: they are rebuilt, so taken out first
        with PauseGC():
            self._remove(master.pyomo_model.stale_constraints())

    def removing_rows(self, master, mask):
        with PauseGC():
            self._remove(master.pyomo_model.row_constraints(mask))
            self._remove_variables(master.pyomo_model.item_columns(mask))

    def _remove_variables(self, variables):
        """Take the items' columns out of the solver's copy (after the rows that hold them)."""
        if self.opt is None or not variables:
            return
        self._take_out(variables, "remove_var", "remove_variables")

    def _take_out(self, components, one, many):
        """Take ``components`` out of the solver's copy: by its method ``one`` one at a time (the classic
        interface), else by ``many`` at once."""
        if self._interface == "classic":
            for component in components:
                getattr(self.opt, one)(component)
        else:
            getattr(self.opt, many)(components)

    def row_bounds_changing(self, master, mask):
        # taken out of the solver's copy now, handed over again with their new bound at the next solve
        changed = master.pyomo_model.row_constraints(mask)
        with PauseGC():
            self._remove(changed)
        if self.opt is not None:
            self._pending.extend(changed)

    def set_option(self, name, value):
        super().set_option(name, value)
        if self.opt is not None and name != TEE:
            self.opt.options[name] = value

    def refine(self):
        self.opt = None   # the next solve hands the model over to a fresh solver
        self._pending = []
        self._handed = ComponentSet()

    def solve(self, master, time_limit=None, budget=None):
        model = master.pyomo_model
        with SOLVES, PauseGC():   # one Pyomo solve (and hand-over) at a time in the process
            tic = time.perf_counter()
            if self.opt is None and not model.row_constraints():
                self._start(model)   # the first solve: the rows are handed over as changes, once built
            start = time.perf_counter() - tic
            new_variables, built = master.materialise()
            fresh = ComponentSet(built)
            built, self._pending = built + [c for c in self._pending if c not in fresh], []
            build = time.perf_counter() - tic - start
            self._hand_over(model, new_variables, built)
            handover = time.perf_counter() - tic - build
            status, _ = solve_and_load(self.opt, model.pyomo, self.name, self._interface, self.tee)
            solution = read_solution(status, model, self.name, master.tau, master.lam)
            self.seconds = {"build": build, "handover": handover,
                            "solve": time.perf_counter() - tic - build - handover}
            return solution

    def _start(self, model):
        """A new solver, handed the whole model before its rows and features are built, so that they follow as
        changes, in the built-in backend's column order (HiGHS then takes its path)."""
        self.opt = self._new_solver()
        self.opt.set_instance(model.pyomo)
        _manual_updates(self.opt)
        self.instances += 1
        self._handed = ComponentSet(model.pyomo.component_data_objects(pyo.Constraint, active=True))
        self._remove(model.stale_constraints())   # the floor, built again with the features not built yet

    def _hand_over(self, model, new_variables, built):
        """The whole model to a new solver, or the new variables and constraints to the current one."""
        if self.opt is None:
            self._start(model)
            return
        m = model.pyomo
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
