"""What the first-order methods, MRC-FOM (:mod:`~mrc_pyomo.methods.fista`) and MRC-PDHG
(:mod:`~mrc_pyomo.methods.pdhg`), share, so that each module holds only its iterations.

A first-order method is two functions and a config.  ``iterations(problem, config, *, start=None, deadline=None,
log=None, iterations_before=0)``: a generator of its records (``phase`` :data:`FIRST_ORDER`; each iteration a
forward and a backward pass, :mod:`mrc_pyomo.oracles.passes`), from ``start`` (None, or a phase's
:class:`~mrc_pyomo.methods.result.Outcome`), that returns ``(found, history, status)``: its
:class:`~mrc_pyomo.methods.result.Outcome`, its records, and the :class:`~mrc_pyomo.methods.result.Status` of a
stop by a limit, a stop sent or a closed gap (None for a stall or a hand-over).  ``active_rows(problem, found,
config)``: the row blocks ``(samples, subsets)`` the outcome names active, where the certificate's loop starts.
Its config is a frozen dataclass with at least ``eps_1``, ``max_iter``, ``certify`` and ``certificate`` (that
loop's :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`).  The rest is here (:func:`register_first_order`).
"""

from dataclasses import replace
from functools import partial

from ..display.log import LOG_HEADER, format_record
from .ccg.config import configure as ccg_configure
from .ccg.method import METHOD as CCG
from .pathwise import Phase, fit_steps, phase_result
from .registry import Method, get_method, register_method
from .result import Status

#: the ``phase`` of a first-order iteration's record (a master's says ``"generation"``)
FIRST_ORDER = "first-order"
#: the iteration log shows every this many first-order iterations
LOG_EVERY = 10


def configure(config_class, settings, problem):
    """The ``config_class`` of a first-order method from the estimator's
    :class:`~mrc_pyomo.estimator.parameters.Settings` (``max_iter`` None: the class's default); its certificate's
    loop has MRC-CCG's settings in the regime ``"n"``, whatever regime was asked (the loop keeps its rows where
    the class's ``keep_rows`` says: :func:`~mrc_pyomo.methods.pathwise.fit_steps`)."""
    certificate = ccg_configure(replace(settings, regime="n"), problem)
    max_iter = config_class.max_iter if settings.max_iter is None else settings.max_iter
    return config_class(eps_1=settings.eps_1, max_iter=max_iter, certificate=certificate)


def steps(name, problem, config, *, start=None, deadline=None, log=None):
    """The fit of ``problem`` by the registered first-order method ``name``, a generator of its iterations: done
    after them if its own bound closed the gap or ``config.certify`` is False (its lower end its own bound, 0 for
    FISTA's); else MRC-CCG from the master of its active rows (:func:`~mrc_pyomo.methods.pathwise.fit_steps`).
    Returns a :class:`~mrc_pyomo.methods.result.FitResult`.  ``start`` is not used."""
    method = get_method(name)
    if not config.certify:
        found, history, status = yield from method.iterations(problem, config, deadline=deadline, log=log)
        return phase_result(found, history, status or Status.MAX_ITER, config.eps_1, method.columns)
    certificate = replace(config.certificate, eps_1=config.eps_1, max_iter=config.max_iter)
    return (yield from fit_steps(problem, [problem.lambda0], CCG, certificate, deadline=deadline, log=log,
                                 phases=(Phase(method, config),)))


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
    made of the shared :func:`configure`, :func:`steps` and :func:`log_line` (its lines marked ``label``);
    ``columns``: those of its fit's history.  Returns the entry."""
    def method_steps(problem, config=None, *, start=None, deadline=None, log=None):
        config = config_class() if config is None else config
        return steps(name, problem, config, start=start, deadline=deadline, log=log)

    return register_method(Method(
        name=name, title=title, summary=summary, configure=partial(configure, config_class), steps=method_steps,
        columns=tuple(columns), iterations=iterations, active_rows=active_rows, log_line=partial(log_line, label),
        log_header=LOG_HEADER))
