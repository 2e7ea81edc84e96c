"""MRC-PDHG as a method (:mod:`mrc_pyomo.methods.registry`): its phase, then, where its own bound has not closed
the gap, its certificate from its dual, and its entry in the registry.

**The certificate from the dual.**  The support of the last dual iterate ``W`` names the active rows: the rows
``(i, C_k)`` of its nested decomposition with positive weight (:func:`~mrc_pyomo.methods.pdhg.saddle.nested_rows`;
about the size of the loop's final master) and the class centroids' rows are the first master of MRC-CCG in the
regime ``"n"``, the phase's best rule a candidate (:func:`certificate_master`, :func:`steps`).
"""

import time
from dataclasses import replace

from ...display.log import LOG_HEADER, format_record
from ...oracles.certificate import gap_tolerance
from ...oracles.incumbent import improve_on_segments
from .. import ccg
from ..deadline import deadline_of
from ..pathwise import after_phase, phase_result
from ..registry import Method, register_method
from ..result import Start, Status, finish
from .tuning import PDHGConfig, configure
from .phase import phase_steps
from .saddle import nested_rows

#: the columns of the history of a fit: those of MRC-CCG's records, then the iterations' own
COLUMNS = ccg.HISTORY_COLUMNS + ["omega", "residual"]
#: the iteration log shows every this many iterations
LOG_EVERY = 10


def certificate_master(problem, W, config):
    """The first master of the certificate: the rows of the nested decomposition of ``W`` above
    ``config.support_floor``, each class centroid's row of its own label (which keep the master bounded) and
    all features (MRC-CCG's first master in the regime ``"n"``, :func:`~mrc_pyomo.methods.ccg.initial_master`),
    marked a large change: its first solve is cold, by the interior point method where the solver has one.  On
    satellite + RFF: 683 rows, 7.0 s, against 1,058 rows (all 378 centroid rows) and 12.5 s, the same 12
    masters; the final master's cold solve by IPM 6.0 s, by the dual simplex 20.3 s."""
    master = ccg.initial_master(problem, config.certificate, own_labels_only=True)
    master.add_rows(*nested_rows(W, config.support_floor))
    master.large_change()
    return master


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """MRC-PDHG on ``problem``, a generator of its iterations (:mod:`mrc_pyomo.methods.result`): its phase
    (:func:`~mrc_pyomo.methods.pdhg.phase.phase_steps`); done if its bound closed the gap (no master), else, with
    ``config.certify`` and time left, MRC-CCG from the master of its dual's support (:func:`certificate_master`),
    its best rule a candidate, ``config.max_iter`` masters at most.  Returns a
    :class:`~mrc_pyomo.methods.result.FitResult` whose lower end is the better of the phase's bound and the
    loop's; ``start`` is not used."""
    config, deadline = PDHGConfig() if config is None else config, deadline_of(deadline)
    found, history, status = yield from phase_steps(problem, config, deadline=deadline, log=log)
    if (status in (Status.CONVERGED, Status.CALLBACK, Status.TIME_LIMIT) or not config.certify
            or deadline.expired()):
        result = phase_result(found, history, status or Status.MAX_ITER, config.eps_1, COLUMNS)
        return replace(result, lower=found.lower, status=ended(found, status, config))
    certificate = replace(config.certificate, eps_1=config.eps_1, max_iter=config.max_iter)
    result = yield from after_phase(lambda log: with_segments(ccg.steps(
        problem, certificate, deadline=deadline, log=log, start=Start(
            master=certificate_master(problem, found.W, config), candidates=(found.mu,))), problem, found,
        config.eps_1), found, history, status, config.eps_1, deadline, log, problem.lambda0, COLUMNS)
    if found.lower > result.lower:
        result = replace(result, lower=found.lower)
    if result.upper - result.lower <= gap_tolerance(config.eps_1):
        result = replace(result, status=Status.CONVERGED)
    return result


def with_segments(loop, problem, best, eps_1):
    """The steps of MRC-CCG's ``loop`` (its generator), passed on, with after each master the best rule on the
    segments from the incumbent ``best`` to the master's point (:func:`~mrc_pyomo.oracles.incumbent.
    improve_on_segments`: ``R`` is convex along each, a few dozen passes) while such a search took less time
    than the master's solve.  The masters' lower end reaches ``R*`` before their points do (satellite + RFF: in 4
    of 12 masters): once the rule found closes the gap to the loop's lower end, the loop is stopped and its
    result takes that rule, "converged" (there: 4 masters fewer).  A stop sent by the caller stays a stop."""
    searching, closed = True, False
    try:
        item = next(loop)
        while True:
            stop = yield item
            if not stop and searching and isinstance(item, ccg.IterationState):
                started = time.perf_counter()
                best = improve_on_segments(problem, best, item.mu)
                searching = time.perf_counter() - started < item.record.get("seconds_solve", 0.0)
                closed = stop = best.risk - item.record["lower"] <= gap_tolerance(eps_1)
            item = loop.send(bool(stop))
    except StopIteration as end:
        result = end.value
    if best.risk < result.upper:
        result = replace(result, mu=best.mu, upper=best.risk)
    return replace(result, status=Status.CONVERGED) if closed else result


def ended(found, status, config):
    """The status of a fit that ends with its phase: ``"converged"`` when the phase's interval is within
    ``eps_1``, else its stop (a stall: ``"max_iter"``)."""
    if found.risk - found.lower <= gap_tolerance(config.eps_1):
        return Status.CONVERGED
    return status or Status.MAX_ITER


def solve(problem, config=None, *, start=None, deadline=None, log=None, callback=None):
    """Run MRC-PDHG on ``problem``: :func:`steps` to its end, each iteration shown to ``callback`` (if given),
    whose true return value stops the fit (:func:`~mrc_pyomo.methods.result.finish`)."""
    return finish(steps(problem, config, start=start, deadline=deadline, log=log), callback)


def log_line(record):
    """A record's line in the iteration log: an iteration's every :data:`LOG_EVERY`, a master of the certificate
    as MRC-CCG words it."""
    if record.get("phase") != "first-order":
        return format_record(record)
    if record["iteration"] % LOG_EVERY:
        return None
    return (f"{record['iteration']:6d} PDHG  R(mu_k) = {record['R_mu']:.6f}  "
            f"[{record['lower']:.6f}, {record['upper']:.6f}]  {record['seconds_elapsed']:7.1f} s")


METHOD = register_method(Method(
    name="pdhg", title="MRC-PDHG", config=PDHGConfig, configure=configure, steps=steps,
    summary="MRC-PDHG: restarted primal-dual hybrid gradient on the saddle form, its dual the certificate's "
            "first master", columns=tuple(COLUMNS), log_line=log_line, log_header=LOG_HEADER))
