"""What every method returns (:class:`FitResult`), why it stopped (:class:`Status`), where it may start
(:class:`Start`), what a first-order phase leaves (:class:`Outcome`), and how its iterations are watched.

Each method (:mod:`~mrc_pyomo.methods.registry`) is a generator, ``steps(problem, config, *, start=None,
deadline=None, log=None)``: it yields what each iteration leaves to watch (MRC-CCG's
:class:`~mrc_pyomo.methods.ccg.record.IterationState`, a first-order iteration's record), is sent back whether to
stop there (``True``: stop), and returns one :class:`FitResult` whose ``mu`` is a rule of that problem (its
rescaled columns, reduced features at 0).  So a fit is watched one iteration at a time in the caller's thread
(:meth:`mrc_pyomo.MRCClassifier.steps`), and a method that runs another passes them on with ``yield from``.
"""

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from ..oracles.certificate import gap_tolerance
from ..oracles.incumbent import Incumbent


class Status(str, Enum):
    """Why a fit stopped.  A ``str``: ``Status.CONVERGED == "converged"``, and it prints as its value."""

    CONVERGED = "converged"        # certified gap upper - lower <= max(eps_1, GAP_FLOOR)
    MAX_ITER = "max_iter"          # the iteration limit
    TIME_LIMIT = "time_limit"      # the time limit
    CALLBACK = "callback"          # the callback asked to stop
    STALLED = "stalled"            # every solve optimal, but the solver's precision cannot narrow the gap further
    SOLVER_ERROR = "solver_error"  # the solver failed (an error, or a limit of its own)
    NOT_REACHED = "not_reached"    # a stage of a path that its limits or its callback left out: not fitted

    def __str__(self):
        return self.value

    def __format__(self, spec):
        return format(self.value, spec)


#: how far below the lower end an upper end must be for :func:`status_of` to call the interval empty
EMPTY_INTERVAL = 1e-6


def status_of(lower, upper, eps_1, stopped=None):
    """Why a fit with the certified interval ``[lower, upper]`` stopped, the one place that says "converged":
    ``"converged"`` exactly when ``upper - lower <= max(eps_1, GAP_FLOOR)``
    (:func:`~mrc_pyomo.oracles.certificate.gap_tolerance`), whatever stopped it; else ``stopped``, what did (None:
    nothing, the fit goes on), a method's "converged" that the interval does not support being ``"stalled"``.
    ``ValueError`` for an empty interval (``upper`` below ``lower`` by :data:`EMPTY_INTERVAL`): a finite ``R*`` is at
    least 0 (:mod:`~mrc_pyomo.oracles.certificate`), so ``R(mu) < 0`` proves the LP unbounded, ``R* = -inf`` (a
    ``tau`` given to :meth:`~mrc_pyomo.problem.MRCProblem.from_arrays` that no mean of rows reaches within
    ``lambda``)."""
    if upper < lower - EMPTY_INTERVAL:
        raise ValueError(f"the certified interval [{lower:.6g}, {upper:.6g}] is empty: R(mu) below the lower end "
                         "proves the LP unbounded (R* = -inf); check tau and lambda (every mean of rows is farther "
                         "from tau than lambda allows)")
    if upper - lower <= gap_tolerance(eps_1):
        return Status.CONVERGED
    return Status.STALLED if stopped == Status.CONVERGED else stopped


@dataclass(frozen=True)
class Start:
    """Where a method may start instead of from scratch: ``master``, a restricted master for MRC-CCG
    (:func:`~mrc_pyomo.methods.ccg.start.initial_master`); ``previous``, the :class:`FitResult` of a path's
    previous stage, for a method that warm-starts; ``candidates``, rules the result may be, evaluated before the
    first master; ``solve_times``, earlier master solves' seconds, for
    :func:`~mrc_pyomo.methods.ccg.config.simplex_budget`; ``iterations_before``, the fit's iterations before
    this method's, from which its records number on."""

    master: object = None
    previous: object = None
    candidates: tuple = ()
    solve_times: tuple = ()
    iterations_before: int = 0


@dataclass(frozen=True)
class Outcome(Incumbent):
    """What a first-order phase leaves: its best rule (an :class:`~mrc_pyomo.oracles.incumbent.Incumbent`, on the
    host), its certified ``lower`` bound (0: none) and its last dual point ``W`` (``(n, K)``, in the data's
    namespace; None: none), where the next phase may start."""

    lower: float = 0.0
    W: object = None


@dataclass
class FitResult:
    """The result of a method on a prepared problem: ``master``, the last
    :class:`~mrc_pyomo.master.RestrictedMaster` (None where no LP was solved); ``mu``, the best certified rule;
    ``objective``, the last master's value ``R^k`` (MRC-SUB: ``upper``; else NaN without one); ``[lower, upper]``,
    the certified interval, ``upper = R(mu)``; ``status``, a :class:`Status`; ``history``, one record per
    iteration, with the keys ``columns``."""

    master: object
    mu: np.ndarray
    objective: float
    lower: float
    upper: float
    status: Status
    history: list = field(default_factory=list)
    columns: tuple = ()

    @property
    def gap(self):
        """The certified gap ``upper - lower``."""
        return self.upper - self.lower


def reported(record, log, deadline):
    """The end of an iteration (a generator step): ``record`` shown to ``log`` (if any) and yielded; returns
    :attr:`Status.CALLBACK` if a stop was sent back, :attr:`Status.TIME_LIMIT` past ``deadline``, else None."""
    if log is not None:
        log(record)
    if (yield record):
        return Status.CALLBACK
    return Status.TIME_LIMIT if deadline.expired() else None


def finish(steps, callback=None):
    """The :class:`FitResult` of a method's ``steps`` run to the end, each iteration shown to ``callback`` (if
    given), whose true return value stops the method there."""
    try:
        state = next(steps)
        while True:
            state = steps.send(bool(callback(state)) if callback is not None else False)
    except StopIteration as end:
        return end.value

