"""What the first-order methods, MRC-FOM (:mod:`~mrc_pyomo.methods.fista`) and MRC-PDHG
(:mod:`~mrc_pyomo.methods.pdhg`), share, so that each module holds only its iterations.

A first-order method is two functions and a config.  ``iterations(problem, config, *, start=None, deadline=None,
log=None, iterations_before=0)``: a generator of its records (``phase``
:data:`~mrc_pyomo.methods.history.FIRST_ORDER`; each iteration a forward and a backward pass,
:mod:`mrc_pyomo.oracles.passes`), from ``start`` (None, or a phase's :class:`~mrc_pyomo.methods.result.Outcome`),
that returns ``(found, history, status)``: its :class:`~mrc_pyomo.methods.result.Outcome`, its records, and the
:class:`~mrc_pyomo.methods.result.Status` of a stop by a limit, a stop sent or a closed gap (None for a stall or a
hand-over).  ``active_rows(problem, found, config)``: the row blocks ``(samples, subsets)`` the outcome names
active, where the certificate's loop starts.  Its config is a :class:`FirstOrderConfig`.  The rest is here
(:func:`register_first_order`); a fit by such a method is a plan (:func:`mrc_pyomo.methods.plan.first_order_plan`).
"""

from dataclasses import dataclass, field, replace
from functools import partial
from typing import ClassVar

from ..display.log import LOG_HEADER, format_record
from .ccg.config import CCGConfig
from .ccg.config import configure as ccg_configure
from .history import FIRST_ORDER
from .pathwise import fit_steps
from .plan import first_order_plan
from .registry import Method, register_method

#: the iteration log shows every this many first-order iterations
LOG_EVERY = 10


@dataclass(frozen=True)
class FirstOrderConfig:
    """What every first-order method's config declares, the fields its fit reads beyond its iterations:
    ``eps_1``, the certified gap it stops at (its own bound's, or its certificate's loop's); ``max_iter``, iterations
    at most (and masters of that loop); ``certify``: False ends the fit with the iterations (lower end their own
    bound); ``near``: the rows within this of ``varphi`` at its rule join the certificate's first master;
    ``keep_rows``: that loop keeps every row (the rows named are nearly the final ones) or removes them as MRC-CCG
    does; ``certificate``: that loop's :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`; ``regime``: the regime of
    every master it solves (all features), a constant of the method."""

    eps_1: float = 1e-3
    max_iter: int = 1000
    certify: bool = True
    near: float = 1e-2
    keep_rows: bool = False
    certificate: CCGConfig = field(default_factory=lambda: CCGConfig(regime="n"))
    regime: ClassVar[str] = "n"


def configure(config_class, settings, problem):
    """The ``config_class`` of a first-order method from the estimator's
    :class:`~mrc_pyomo.estimator.parameters.Settings` (``max_iter`` None: the class's default); its certificate's
    loop has MRC-CCG's settings in the regime ``"n"``, whatever regime was asked."""
    certificate = ccg_configure(replace(settings, regime="n"), problem)
    max_iter = config_class.max_iter if settings.max_iter is None else settings.max_iter
    return config_class(eps_1=settings.eps_1, max_iter=max_iter, certificate=certificate)


def log_line(label, record):
    """A record's line in the iteration log: a first-order iteration's every :data:`LOG_EVERY` iterations, after
    the method's ``label``; a master of the certificate's loop as MRC-CCG words it."""
    if record.get("phase") != FIRST_ORDER:
        return format_record(record)
    if record["iteration"] % LOG_EVERY:
        return None
    return (f"{record['iteration']:6d} {label:5s}  R(mu_k) = {record['R_mu']:.8f}  R* in [{record['lower']:.8f}, "
            f"{record['upper']:.8f}] {record['seconds_elapsed']:7.1f} s")


def register_first_order(name, title, summary, config_class, iterations, active_rows, columns, label):
    """Register the first-order method ``name`` (module docstring), a :class:`~mrc_pyomo.methods.registry.Method`
    made of the shared :func:`configure` and :func:`log_line` (its lines marked ``label``), whose ``steps`` run the
    plan of a fit by it (:func:`~mrc_pyomo.methods.plan.first_order_plan`, run by
    :func:`~mrc_pyomo.methods.pathwise.fit_steps`); ``columns``: those of its fit's history.  Returns the entry."""
    def method_steps(problem, config=None, *, start=None, deadline=None, log=None):
        config = config_class() if config is None else config
        return fit_steps(problem, first_order_plan(entry, config, problem.lambda0), deadline=deadline, log=log)

    entry = register_method(Method(
        name=name, title=title, summary=summary, configure=partial(configure, config_class), steps=method_steps,
        columns=tuple(columns), iterations=iterations, active_rows=active_rows, log_line=partial(log_line, label),
        log_header=LOG_HEADER))
    return entry
