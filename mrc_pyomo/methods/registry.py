"""The one registry of methods: a method is one module plus one :class:`Method` entry, registered by
:func:`register_method`, and everything that offers a choice of method reads the registry: the estimator's
``method`` parameter, the command line's ``--method``, the progress display's names and the default fit's
first-order phases (:mod:`mrc_pyomo.methods.route` names them).

A method's module holds its config dataclass (its own tuning, with defaults), a ``configure(settings, problem)``
that makes that config from the estimator's parameters (:class:`Settings`), and its ``steps(problem, config, *,
start=None, deadline=None, log=None)``: a generator of its iterations that returns a
:class:`~mrc_pyomo.methods.result.FitResult` (:mod:`mrc_pyomo.methods.result`;
:func:`~mrc_pyomo.methods.result.finish` runs them to the end).  ``examples/new_method.py`` adds one without touching the
library.
"""

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Settings:
    """What the estimator's parameters say to a method (each method's ``configure`` reads the ones it uses):
    the target gap ``eps_1`` and the features' ``eps_2``, the batches ``n_max`` and ``m_max``, ``max_iter``
    (None: the method's default), the ``regime`` asked for, ``fit_intercept``, the ``solver`` and its
    ``solver_options``, the ``formulation``, ``lambda0`` and the ``first_order`` setting."""

    eps_1: float = 1e-3
    eps_2: float = 1e-5
    n_max: int = 400
    m_max: int = 400
    max_iter: int = None
    regime: str = "auto"
    fit_intercept: bool = True
    solver: object = "highs"
    solver_options: dict = None
    formulation: object = "paper"
    lambda0: float = 0.01
    first_order: object = "auto"


@dataclass(frozen=True)
class Method:
    """A way of solving a prepared problem (module docstring).

    ``name``: the estimator's ``method`` value; ``title``: how the displays call it ("MRC-CCG");
    ``summary``: one line for the command line's help; ``configure``: ``configure(settings, problem) -> config``
    (its config, a dataclass of its module); ``steps``: its generator of iterations; ``columns``: the keys of
    its history's records (the columns of ``history_``); ``masters``: it solves LP masters (its fit has a
    ``master_`` to inspect and export; MRC-SUB has none); ``reduces``: it solves the problem's exact reduction
    (:mod:`mrc_pyomo.problem.reduction`; MRC-SUB works on the whole problem).  ``warm_starts``: it
    takes the previous stage of a path as its start (the final master and the rules of a larger ``lambda0``), so
    that a path and ``continuation`` pay; ``phase``: a first-order phase it offers the default fit,
    ``phase(problem, config, *, start, deadline, log)`` a generator that returns ``(best, history, status)`` (an
    :class:`~mrc_pyomo.methods.result.Outcome`, its records, the status of a stop by a limit or a stop sent, None
    for a stall or a hand-over), from ``start`` (None, or the outcome of the phase before it);
    ``certificate_master``: ``certificate_master(problem, outcome, config)``, the first master of the loop after
    its phase (None: the loop's own); ``after_phase``: the default fit runs the first-order phases of its route
    before it (:func:`mrc_pyomo.methods.route.route`); ``log_line``: ``log_line(record)``, a record's line in the
    iteration log (None: not shown), and ``log_header``: the line before its first one (None: none).
    """

    name: str
    title: str
    configure: Callable
    steps: Callable
    summary: str = ""
    columns: tuple = ()
    masters: bool = True
    reduces: bool = True
    warm_starts: bool = False
    phase: Callable = None
    certificate_master: Callable = None
    after_phase: bool = False
    log_line: Callable = None
    log_header: str = None


#: the registered methods by name, in the order of registration
METHODS = {}


def register_method(method):
    """Register ``method`` (a :class:`Method`) under its name, replacing one of the same name; return it."""
    if not isinstance(method, Method):
        raise TypeError(f"register_method takes a Method, not a {type(method).__name__}")
    METHODS[method.name] = method
    return method


def get_method(name):
    """The registered method ``name``; ``ValueError`` naming the registered ones otherwise."""
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown method {name!r}: the registered ones are {sorted(METHODS)}") from None
