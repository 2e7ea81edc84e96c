"""The one registry of methods: a method is one module plus one :class:`Method` entry (:func:`register_method`),
and everything that offers a choice of method reads it: the estimator's ``method``, the command line's
``--method``, the progress display and the default fit's phases (:mod:`mrc_pyomo.methods.plan`).

A method's module holds its config dataclass, a ``configure(settings, problem)`` that makes it from the
estimator's :class:`~mrc_pyomo.estimator.parameters.Settings`, and its ``steps(problem, config, *, start=None,
deadline=None, log=None)``, a generator of its iterations that returns a
:class:`~mrc_pyomo.methods.result.FitResult` (:mod:`mrc_pyomo.methods.result`).  ``examples/new_method.py`` adds
one without touching the library.
"""

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Method:
    """A way of solving a prepared problem (module docstring).

    ``name``: the estimator's ``method`` value; ``title``: its name in the displays ("MRC-CCG"); ``summary``: one
    line for the command line's help; ``configure(settings, problem) -> config``; ``steps``: its generator of
    iterations; ``columns``: its records' keys; ``masters``: it solves LP masters (a ``master_``); ``reduces``: it
    solves the exact reduction (:mod:`mrc_pyomo.problem.reduction`); ``warm_starts``: it starts from a path's
    previous stage; ``routed``: the default fit runs its route's phases first (:func:`mrc_pyomo.methods.plan.route`);
    ``iterations``, ``active_rows``: a first-order method's (:mod:`mrc_pyomo.methods.first_order`; else None);
    ``log_line(record)``: a record's log line (None: not shown); ``log_header``: the line before the first.
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
