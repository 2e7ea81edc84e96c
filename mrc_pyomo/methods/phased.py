"""A first-order phase, then the loop that certifies: the runner that the default fit
(:func:`mrc_pyomo.methods.pathwise.fit_steps`, the phases of :mod:`mrc_pyomo.methods.route`) and MRC-PDHG share.

The phases (:class:`Phase`: a registered method's ``phase`` with its config) run one after the other, each from the
:class:`~mrc_pyomo.methods.result.Outcome` of the one before (FISTA's rule and its smoothed weights, where MRC-PDHG's
iterations start).  The last phase's method makes the loop's first master of what it found (MRC-PDHG: the rows of
its dual's and its primal's supports), which the loop keeps (:func:`keeping_rows`): such a master holds nearly the
final rows, and a row removed there comes back in a later master.  Each master's point is joined to the phases'
rule by a few segments (:func:`with_segments`): the masters' lower end reaches ``R*`` before their points do.  The
fit's rule is the best of both, its lower end the better of the phases' bound and the loop's.
"""

import time
from dataclasses import dataclass, fields, replace

import numpy as np

from ..oracles.certificate import gap_tolerance
from ..oracles.incumbent import improve_on_segments
from .ccg.record import IterationState
from .deadline import deadline_of
from .result import FitResult, Start, Status


@dataclass(frozen=True)
class Phase:
    """A first-order phase before a fit's loop: the registered ``method`` that offers it and its ``config``."""

    method: object
    config: object


def phased_steps(problem, phases, loop, eps_1, *, deadline=None, log=None, columns=()):
    """The first-order ``phases`` (a tuple of :class:`Phase`) on ``problem``, each started from the outcome of the one
    before (a :class:`~mrc_pyomo.methods.result.Outcome`), then the loop that certifies: ``loop(start, log)``, a
    generator of MRC-CCG's iterations (``columns``: its records' keys) from ``start``, a
    :class:`~mrc_pyomo.methods.result.Start` whose candidate is the phases' best rule and whose master is the last
    phase's first master of its certificate (its ``certificate_master``, where its method has one: MRC-PDHG's, the
    rows of its dual's and its primal's supports; else the loop's own first master), with after each master the
    best rule on the segments from the phases' rule to the master's point (:func:`with_segments`).  A generator of
    every iteration; returns the :class:`~mrc_pyomo.methods.result.FitResult` whose lower end is the better of the
    phases' bound and the loop's.

    A phase's stop sent, its deadline, or a gap closed by its own bound (MRC-PDHG's) ends the fit with the phases'
    rule (:func:`phase_result`).  A master given to the loop holds nearly the final rows: the loop keeps them
    (its config's ``row_age`` is None), since every row removed there comes back in a later master."""
    deadline = deadline_of(deadline)
    found, history, status = None, [], None
    for phase in phases:
        found, records, status = yield from phase.method.phase(problem, phase.config, start=found,
                                                                 deadline=deadline, log=numbered_on(log, history))
        history = history + records
        if status in (Status.CONVERGED, Status.CALLBACK, Status.TIME_LIMIT) or deadline.expired():
            break
    if status == Status.CONVERGED or found.risk - found.lower <= gap_tolerance(eps_1):
        result = phase_result(found, history, Status.CONVERGED, eps_1, columns)
        return replace(result, lower=found.lower, status=Status.CONVERGED)
    last = phases[-1].method
    master = None
    if last.certificate_master is not None and not deadline.expired():
        master = last.certificate_master(problem, found, phases[-1].config)
    start = Start(master=master, candidates=(found.mu,))
    result = yield from after_phase(
        lambda log: with_segments(loop(start, log), problem, found, eps_1), found, history, status, eps_1, deadline,
        log, problem.lambda0, columns)
    if found.lower > result.lower:
        result = replace(result, lower=found.lower)
    if result.upper - result.lower <= gap_tolerance(eps_1):
        result = replace(result, status=Status.CONVERGED)
    return result


def keeping_rows(config):
    """``config`` whose loop keeps every row of its master (``row_age`` None), where it has that setting: for a
    loop from a master that a first-order phase made, which holds nearly the final rows already."""
    return replace(config, row_age=None) if "row_age" in {f.name for f in fields(config)} else config


def with_segments(loop, problem, best, eps_1):
    """The steps of MRC-CCG's ``loop`` (its generator), passed on, with after each master the best rule on the
    segments from the incumbent ``best`` (the phases' rule) to the master's point
    (:func:`~mrc_pyomo.oracles.incumbent.improve_on_segments`: ``R`` is convex along each, a few dozen passes)
    while such a search took less time than the master's solve.  The masters' lower end reaches ``R*`` before
    their points do: once the rule found closes the gap to the loop's lower end, the loop is stopped and its
    result takes that rule, "converged".  A stop sent by the caller stays a stop."""
    searching, closed = True, False
    try:
        item = next(loop)
        while True:
            stop = yield item
            if not stop and searching and isinstance(item, IterationState):
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


def history_columns(*histories, columns=()):
    """The columns of a history made of several methods' records: ``columns`` first, then every other key of the
    records, in the order met."""
    found = dict.fromkeys(columns)
    for history in histories:
        for record in history:
            found.update(dict.fromkeys(record))
    return tuple(found)


def phase_result(best, history, status, eps_1, columns=()):
    """The :class:`~mrc_pyomo.methods.result.FitResult` of a fit that ends with its first-order phase: its best
    rule ``best``, ``upper = R(mu)``, no master and ``lower = 0``, so ``"converged"`` only when ``R(mu)`` is
    within the gap tolerance of ``eps_1``, else ``status``; its history's columns ``columns``, then the phase's."""
    status = Status.CONVERGED if best.risk <= gap_tolerance(eps_1) else status
    return FitResult(master=None, mu=best.mu, objective=np.nan, lower=0.0, upper=best.risk, status=status,
                     history=history, columns=history_columns(history, columns=columns))


def numbered_on(log, history, lambda0=None):
    """A log for the records of a method run after a first-order phase of ``history``: each record's
    ``iteration`` goes on from the phase's, and it has a ``lambda0`` (the given one unless it has its own, a
    stage's; none if both are None), before ``log`` (if any) sees it."""
    done = len(history)

    def numbered(record):
        record["iteration"] += done
        if lambda0 is not None:
            record.setdefault("lambda0", lambda0)
        if log is not None:
            log(record)
    return numbered


def after_phase(loop, best, history, status, eps_1, deadline, log, lambda0, columns=()):
    """The steps of ``loop(log)``, a method run after a first-order phase of ``history`` (best rule ``best``,
    stopped with ``status``), whose iterations this generator passes on, numbered on from the phase's
    (:func:`numbered_on`); returns its :class:`~mrc_pyomo.methods.result.FitResult` with the phase's records
    first.  A phase stopped by a stop sent or the ``deadline``, or a deadline expired before the loop begins,
    gives the phase's rule with ``lower = 0`` (:func:`phase_result`; ``columns``: those of the loop's records)."""
    if status in (Status.CALLBACK, Status.TIME_LIMIT) or deadline.expired():
        return phase_result(best, history, status or Status.TIME_LIMIT, eps_1, columns)
    result = yield from loop(numbered_on(log, history, lambda0))
    return replace(result, history=history + result.history,
                   columns=history_columns(history, columns=result.columns))
