"""The one registry of methods: a method is one module plus one :class:`Method` entry, registered by
:func:`register_method`, and everything that offers a choice of method reads the registry: the estimator's
``method`` parameter, the command line's ``--method``, the progress display's names and the default fit's
first-order phases (:mod:`mrc_pyomo.methods.route` names them).

A method's module holds its config dataclass (its own tuning, with defaults), a ``configure(settings, problem)``
that makes that config from the estimator's parameters (:class:`~mrc_pyomo.estimator.parameters.Settings`,
whichever of them it reads), and its ``steps(problem, config, *, start=None, deadline=None, log=None)``: a
generator of its iterations that returns a :class:`~mrc_pyomo.methods.result.FitResult`
(:mod:`mrc_pyomo.methods.result`; :func:`~mrc_pyomo.methods.result.finish` runs them to the end).
``examples/new_method.py`` adds one without touching the library.
"""

from dataclasses import dataclass
from typing import Callable


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
    that a path and ``continuation`` pay; ``routed``: the default fit runs the first-order phases of its route
    before it (:func:`mrc_pyomo.methods.route.route`).  A first-order method (:mod:`mrc_pyomo.methods.first_order`)
    has its ``iterations``, which a fit may run as a phase before the loop, and its ``active_rows``, the rows of
    the loop's first master after them (None for the others).  ``log_line``: ``log_line(record)``, a record's
    line in the iteration log (None: not shown), and ``log_header``: the line before its first one (None: none).
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
    routed: bool = False
    iterations: Callable = None
    active_rows: Callable = None
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
