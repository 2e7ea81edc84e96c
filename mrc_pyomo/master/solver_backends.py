"""The one registry from solver names to backends (docs/solvers.rst, "Choosing a solver").

``"highs"`` is the built-in backend (:class:`~mrc_pyomo.master.highs_backend.HighsBackend`); any other name, and any
Pyomo solver instance, is Pyomo's (:class:`~mrc_pyomo.master.pyomo_backends.PersistentBackend` for a persistent
interface, else :class:`~mrc_pyomo.master.pyomo_backends.PyomoBackend`).  A new backend registers with
:func:`register_backend` (a name Pyomo knows too is then the backend's) and the option that shows its log, which
``solver_options={"tee": True}`` stands for.
"""

import pickle

import pyomo.environ as pyo

from ..display.words import suggestion
from .backend import TEE, tee_value
from .highs_backend import HighsBackend
from .pyomo_backends import PersistentBackend, PyomoBackend
from .pyomo_solve import solver_words, is_persistent, is_solver_instance, solver_name

# the solver name of the built-in backend (docs/solvers.rst)
BUILTIN_SOLVER = "highs"

_BACKENDS = {}
_LOG_OPTIONS = {}


def register_backend(name, backend, log_option=None):
    """Make ``solver=name`` use ``backend`` (a subclass of :class:`~mrc_pyomo.master.backend.Backend`); ``log_option``:
    the boolean solver option that ``solver_options={"tee": value}`` becomes (None: ``tee`` is refused)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a backend is registered under a non-empty name, got {name!r}")
    _BACKENDS[name] = backend
    _LOG_OPTIONS[name] = log_option


def registered_backends():
    """The registered names and their backends (a copy)."""
    return dict(_BACKENDS)


def backend_class(solver):
    """The backend of ``solver``: the registered one, else Pyomo's persistent or non-persistent backend."""
    if isinstance(solver, str) and solver in _BACKENDS:
        return _BACKENDS[solver]
    return PersistentBackend if is_persistent(solver) else PyomoBackend


def check_solver(solver):
    """Raise a clear error unless ``solver`` is a registered name, or a usable Pyomo solver name or instance."""
    if is_solver_instance(solver):
        PyomoBackend.check_available(solver)
        return
    if not isinstance(solver, str) or not solver:
        raise ValueError(f"solver must be 'highs', a Pyomo solver name or a Pyomo solver instance "
                         f"(pyo.SolverFactory(name)), got {solver!r} of type {type(solver).__name__}")
    try:
        (_BACKENDS.get(solver) or PyomoBackend).check_available(solver)
    except ValueError as error:
        raise ValueError(f"{error}{meant(solver)}") from None


def meant(solver):
    """`` (did you mean 'highs'?)`` for a name close to a registered or Pyomo solver name (any case), else ``""``."""
    close = suggestion(solver, [name for name in [*_BACKENDS, *pyo.SolverFactory] if not name.startswith("_")], 0.75)
    return f" (did you mean {close!r}?)" if close else ""


def backend_options(solver, options):
    """The options (a new dict) ``solver``'s backend gets for the user's ``options``: a registered backend's ``tee``
    becomes its log option unless that is given too; Pyomo's backends take ``tee`` themselves."""
    options = dict(options or {})
    if TEE not in options:
        return options
    tee = tee_value(options[TEE])
    if is_solver_instance(solver) or solver not in _BACKENDS:
        return options
    option = _LOG_OPTIONS.get(solver)
    if option is None:
        raise ValueError(f"solver_options['tee']: the backend of {solver_words(solver)} has no log option known to "
                         f"the library (register_backend's log_option); pass the solver's own option")
    del options[TEE]
    options.setdefault(option, tee)
    return options


def backend_option(solver, name, value):
    """The option ``(name, value)`` as ``solver``'s backend takes it (:func:`backend_options`)."""
    return next(iter(backend_options(solver, {name: value}).items()))


def picklable_solver(solver):
    """``solver`` as a master pickles it: a name, or an instance Pyomo can pickle, as it is; any other instance by
    its name, so the loaded master solves with ``SolverFactory(name)``, without its options."""
    if isinstance(solver, str):
        return solver
    try:
        pickle.dumps(solver)
    except Exception:  # noqa: BLE001 - Pyomo's interfaces fail with AttributeError, TypeError, PicklingError
        return solver_name(solver)
    return solver


def make_backend(solver, objective_floor=False, options=None, backend=None):
    """A new backend for ``solver`` (``backend``: a class instead of the registry's), its options checked."""
    backend = backend_class(solver) if backend is None else backend
    options = backend_options(solver, options)
    backend.check_options(solver, options)
    return backend(solver, objective_floor, options)


register_backend(BUILTIN_SOLVER, HighsBackend, log_option="output_flag")
