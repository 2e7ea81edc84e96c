"""The one registry from solver names to backends (docs/solvers.rst, "Choosing a solver").

``"highs"`` is the built-in backend (:class:`~mrc_pyomo.master.highs.HighsBackend`); any name not registered
here means what it means to ``pyomo.environ.SolverFactory``: a persistent interface gets
:class:`~mrc_pyomo.master.pyomo_backends.PersistentBackend`, any other solver
:class:`~mrc_pyomo.master.pyomo_backends.PyomoBackend`.  A new backend registers itself with
:func:`register_backend` (a name that Pyomo also knows is then the backend's).
"""

import difflib

import pyomo.environ as pyo

from .highs import HighsBackend
from .pyomo_backends import PersistentBackend, PyomoBackend, is_persistent

# the solver name of the built-in backend (docs/solvers.rst)
BUILTIN_SOLVER = "highs"

_BACKENDS = {}


def register_backend(name, backend):
    """Make ``solver=name`` use ``backend`` (a subclass of :class:`~mrc_pyomo.master.backend.Backend`)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a backend is registered under a non-empty name, got {name!r}")
    _BACKENDS[name] = backend


def registered_backends():
    """The registered names and their backends (a copy)."""
    return dict(_BACKENDS)


def backend_class(solver):
    """The backend of ``solver``: the registered one, else Pyomo's persistent or non-persistent backend."""
    if solver in _BACKENDS:
        return _BACKENDS[solver]
    return PersistentBackend if is_persistent(solver) else PyomoBackend


def check_solver(solver):
    """Raise a clear error if ``solver`` is not a registered backend's name or a usable Pyomo LP solver name."""
    if not isinstance(solver, str) or not solver:
        raise ValueError(f"solver must be 'highs' or a Pyomo solver name, got {solver!r}")
    try:
        (_BACKENDS.get(solver) or PyomoBackend).check_available(solver)
    except ValueError as error:
        raise ValueError(f"{error}{suggestion(solver)}") from None


def suggestion(solver):
    """`` (did you mean 'highs'?)`` for a name close to a known solver's (the registered backends' and Pyomo's
    solver names, letter case ignored), else ``""``."""
    names = {name.lower(): name for name in [*_BACKENDS, *pyo.SolverFactory] if not name.startswith("_")}
    close = difflib.get_close_matches(solver.lower(), list(names), n=1, cutoff=0.75)
    return f" (did you mean {names[close[0]]!r}?)" if close else ""


def make_backend(solver, objective_floor=False, options=None, backend=None):
    """A new backend for ``solver`` (``backend``: a backend class to use instead of the registry's), its
    options checked where the solver can check them."""
    backend = backend_class(solver) if backend is None else backend
    backend.check_options(solver, options)
    return backend(solver, objective_floor, options)


register_backend(BUILTIN_SOLVER, HighsBackend)
