"""Pyomo's solvers as the library takes them: by name (``"glpk"``, ...) or as an instance
(``pyo.SolverFactory("glpk")``, with its options); their names, their checks, and the solver object a backend of
:mod:`mrc_pyomo.master.pyomo_backends` runs (docs/solvers.rst, "A solver instance").

A backend never solves with the user's instance (not to give it a model, reconfigure it or share it between
masters) but with its own made like it (:func:`make_solver`): an APPSI solver anew of its class
(:func:`with_extensions`) with ``only_child_vars=True`` (APPSI then does not look for new variables in each
constraint) and copies of its ``config`` and ``options``; any other a deep copy or, where it holds a module or a
lock, ``SolverFactory(name)`` with copies of its ``options`` and ``config``.
"""

import copy
import io
import logging
import threading
from contextlib import contextmanager

import pyomo.environ as pyo
from pyomo.common.config import ConfigDict
from pyomo.common.log import LoggingIntercept
from pyomo.contrib.appsi import base as appsi_base
from pyomo.contrib.appsi.cmodel import cmodel_available
from pyomo.opt.base.solvers import UnknownSolver
from pyomo.solvers.plugins.solvers.persistent_solver import PersistentSolver

from .solution import MasterSolveError, solve_error


def is_solver_instance(solver):
    """Whether ``solver`` is an object to take as a Pyomo solver: it has ``solve`` and ``available`` (Pyomo's
    ``UnknownSolver`` counts, to be refused by :func:`check_pyomo_solver`)."""
    if isinstance(solver, UnknownSolver):
        return True
    try:
        return not isinstance(solver, str) and all(callable(getattr(solver, name, None))
                                                   for name in ("solve", "available"))
    except Exception:  # noqa: BLE001 - an object whose attributes raise is no solver
        return False


def solver_name(solver):
    """The name of ``solver``: itself, an instance's ``name``, the name ``SolverFactory`` makes its class under, or
    its class's name."""
    if isinstance(solver, str):
        return solver
    name = getattr(solver, "name", None)
    if isinstance(name, str) and name:
        return name
    return next((n for n in pyo.SolverFactory if pyo.SolverFactory.get_class(n) is type(solver)),
                type(solver).__name__)


def solver_words(solver):
    """How messages name ``solver``: ``'glpk'``, or ``the Pyomo solver instance 'glpk'``."""
    return repr(solver) if isinstance(solver, str) else f"the Pyomo solver instance {solver_name(solver)!r}"


def check_pyomo_solver(solver):
    """Raise a clear error if ``solver`` is not a Pyomo solver name or instance, or one not usable on this machine."""
    if isinstance(solver, str):
        with LoggingIntercept(io.StringIO(), "pyomo"):   # Pyomo's own warning and traceback: the error says it
            solver = pyo.SolverFactory(solver)
    if isinstance(solver, UnknownSolver):
        raise ValueError(f"unknown solver {solver.name!r}: not a Pyomo solver name (see pyomo help --solvers)")
    if isinstance(solver, appsi_base.Solver) and not isinstance(solver, appsi_base.LegacySolverInterface):
        raise ValueError(f"{solver_words(solver)} is an APPSI solver object: pass the one Pyomo's SolverFactory makes "
                         f"(pyo.SolverFactory('appsi_...')), whose interface the library drives")
    if not is_available(solver):
        raise RuntimeError(f"solver {solver_name(solver)!r} is known to Pyomo but not available on this machine "
                           "(is it installed and on the PATH, with a licence if it needs one?)")


def is_available(opt):
    """Whether the Pyomo solver ``opt`` can run here (without raising)."""
    try:
        return bool(opt.available(exception_flag=False))
    except Exception:  # a solver that fails to answer is not available; Pyomo's interfaces raise many types
        return False


def is_persistent(solver):
    """Whether the Pyomo solver ``solver`` (a name or an instance) is a persistent interface (``is_persistent()``,
    or a subclass of Pyomo's older ``PersistentSolver``)."""
    opt = pyo.SolverFactory(solver) if isinstance(solver, str) else solver
    if isinstance(opt, PersistentSolver):
        return True
    return bool(getattr(opt, "is_persistent", lambda: False)())


def make_solver(solver):
    """The Pyomo solver object a backend runs: ``SolverFactory(solver)`` for a name, else one made like the
    instance (the module docstring); an APPSI solver of its class :func:`with_extensions`."""
    opt = pyo.SolverFactory(solver) if isinstance(solver, str) else solver
    if isinstance(opt, appsi_base.PersistentBase):
        made = with_extensions(type(opt))(only_child_vars=True)
        if opt is solver:
            made.config = solver.config()
            made.options = copy.deepcopy(dict(solver.options))
        return made
    if opt is not solver:
        return opt
    try:
        return copy.deepcopy(solver)
    except Exception:  # noqa: BLE001 - the interfaces that hold a module or a lock raise TypeError, or others
        return _made_by_name(solver)


_EXTENDED = {}


def with_extensions(cls):
    """A subclass of the APPSI solver class ``cls`` that reads constraints with Pyomo's compiled extension
    (``cmodel``, built by ``pyomo build-extensions``) where it is built.  APPSI's ``set_instance`` calls ``__init__``,
    which resets ``use_extensions`` to False (Pyomo 6.10; docs/solvers.rst, "What each backend costs"): here
    ``__init__`` keeps its value."""
    if cls not in _EXTENDED:
        def __init__(self, *args, **kwargs):
            keep = getattr(self, "use_extensions", bool(cmodel_available))
            cls.__init__(self, *args, **kwargs)
            self.use_extensions = keep

        _EXTENDED[cls] = type(cls.__name__, (cls,), {"__init__": __init__, "__module__": __name__,
                                                      "__doc__": with_extensions.__doc__})
    return _EXTENDED[cls]


def _made_by_name(solver):
    """``SolverFactory(name)`` with copies of the instance's ``options`` and ``config``."""
    opt = pyo.SolverFactory(solver_name(solver))
    for name, value in dict(solver.options).items():
        opt.options[name] = copy.deepcopy(value)
    if isinstance(getattr(solver, "config", None), ConfigDict):
        opt.config = solver.config()
    return opt


#: one Pyomo solve at a time in the process: Pyomo captures a solver's output through the process's own streams
#: and its loggers, so two solves in two threads crashed, hung or printed a quiet solver's log; HiGHS needs no lock
SOLVES = threading.RLock()
#: the loggers through which Pyomo reports a solver's failure (its return code, the solver's own log)
SOLVER_LOGGERS = ("pyomo.opt", "pyomo.solvers")


@contextmanager
def solver_errors():
    """A context that keeps, not prints, the error records of :data:`SOLVER_LOGGERS` and yields their texts, for
    the failed solve's error (the solver's own message is only there); a solve that does not fail gives them back."""
    kept, texts = [], []

    def keep(record):
        if record.levelno < logging.ERROR:
            return True
        kept.append(record)
        texts.append(record.getMessage())
        return False
    loggers = [logging.getLogger(name) for name in SOLVER_LOGGERS]
    for logger in loggers:
        logger.addFilter(keep)
    failed = False
    try:
        yield texts
    except BaseException:
        failed = True
        raise
    finally:
        for logger in loggers:
            logger.removeFilter(keep)
        if not failed:
            for record in kept:
                logging.getLogger(record.name).handle(record)


def solver_message(texts):
    """The first lines of the solver's log quoted in ``texts`` (:func:`solver_errors`), on one line; ``""`` if none."""
    logged = [text.split("\n", 1)[1] for text in texts if text.startswith("Solver log:") and "\n" in text]
    lines = [line.strip() for text in logged for line in text.splitlines() if line.strip()]
    return " / ".join(lines[:3])


def solve_and_load(opt, m, name, interface, tee=None):
    """Run the solver and load the solution and duals into ``m``; ``MasterSolveError`` unless it is optimal.

    ``interface``: ``"classic"`` (Pyomo's older persistent interface), ``"appsi"`` (APPSI's own ``solve``, not the
    legacy wrapper's, which copies the solution by name) or ``"model"`` (any other solver, handed the model).  Return
    the status and the seconds the solver itself ran where Pyomo measured them, else None.  ``tee``: show the
    solver's log (None: as configured)."""
    m.dual.clear()
    shown = {} if tee is None else {"tee": tee}
    with solver_errors() as said:
        try:
            if interface == "classic":
                results = opt.solve(load_solutions=False, save_results=False, **shown)
            elif interface == "appsi":
                if tee is not None:
                    opt.config.stream_solver = tee
                results = super(appsi_base.LegacySolverInterface, opt).solve(m)
            else:
                results = opt.solve(m, load_solutions=False, **shown)
        except Exception as exc:  # solvers raise many types; the message is what matters
            own = solver_message(said)
            raise MasterSolveError(f"solver {name!r} failed on the restricted master: {exc}"
                                   f"{f': {own}' if own else ''}") from exc
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
