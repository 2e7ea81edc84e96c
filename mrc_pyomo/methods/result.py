"""What every method returns (:class:`FitResult`), why it stopped (:class:`Status`), where it may start
(:class:`Start`), what a first-order phase leaves (:class:`Outcome`), and how its iterations are watched
(:func:`reported`, :func:`finish`).

Each method of :mod:`mrc_pyomo.methods` (:mod:`~mrc_pyomo.methods.registry`) is a generator of a prepared
:class:`~mrc_pyomo.problem.MRCProblem`, ``steps(problem, config, *, start=None, deadline=None, log=None)``: it
yields what each iteration leaves to watch (MRC-CCG's :class:`~mrc_pyomo.methods.ccg.record.IterationState`, a
first-order iteration's record), is sent back whether to stop there (``True``: stop; ``None`` or ``False``: go
on), and returns one :class:`FitResult` whose ``mu`` is a rule of that problem (its rescaled columns, reduced
features at 0) with the certified interval ``[lower, upper]``, ``upper = R(mu)``; :func:`finish` runs its
``steps`` to the end, a callback watching each iteration.  So a fit is watched one
iteration at a time in the caller's own thread (:meth:`mrc_pyomo.MRCClassifier.steps`), and a method that runs
another (a path's stages, a first-order phase before the loop) passes its iterations on with ``yield from``.
"""

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

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


@dataclass(frozen=True)
class Start:
    """Where a method may start, instead of from scratch.

    ``master``: a restricted master to start MRC-CCG from (the rows a first-order phase names active, a previous
    fit's rows: :func:`~mrc_pyomo.methods.ccg.start.initial_master`); ``previous``: the :class:`FitResult` of the
    previous stage of a path (a larger ``lambda0``), which a method that warm-starts starts from (MRC-CCG: its
    final master with this problem's costs); ``candidates``: rules the result may be, evaluated on this problem
    before the first master; ``solve_times``: the seconds of earlier master solves (a previous stage's), which
    count for the stall budget of :func:`~mrc_pyomo.methods.ccg.config.simplex_budget`; ``iterations_before``: the
    iterations of the fit before this method's (earlier phases and stages): its records number on from there.
    """

    master: object = None
    previous: object = None
    candidates: tuple = ()
    solve_times: tuple = ()
    iterations_before: int = 0


@dataclass(frozen=True)
class Outcome(Incumbent):
    """What a first-order phase leaves: its best rule (an :class:`~mrc_pyomo.oracles.incumbent.Incumbent`, on the
    host), the best certified ``lower`` bound of its duals (0 where it has none) and its last dual point ``W``
    (per sample and class, in the data's namespace; None where it has none), where the next phase may start."""

    lower: float = 0.0
    W: object = None


@dataclass
class FitResult:
    """The result of a method on a prepared problem.

    ``master``: the last restricted master (a :class:`~mrc_pyomo.master.RestrictedMaster`; None for MRC-SUB,
    which solves no LP, or for a full LP stopped by its time limit); ``mu``: the best certified rule;
    ``objective``: the last master's value ``R^k`` (MRC-SUB: ``upper``; NaN when there is none); ``[lower,
    upper]``: the certified interval, ``upper = R(mu)``; ``status``: a :class:`Status`; ``history``: one record
    per iteration, with the keys ``columns`` (the method's own).
    """

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
    """The end of an iteration of a method that yields its records (a generator step): ``record`` shown to ``log``
    (if any) and yielded; returns :attr:`Status.CALLBACK` if a stop was sent back, :attr:`Status.TIME_LIMIT` if the
    ``deadline`` has expired, else None (go on)."""
    if log is not None:
        log(record)
    if (yield record):
        return Status.CALLBACK
    return Status.TIME_LIMIT if deadline.expired() else None


def finish(steps, callback=None):
    """The :class:`FitResult` of a method's ``steps`` (a generator, module docstring) run to its end, each
    iteration shown to ``callback`` (if given), whose true return value stops the method there."""
    try:
        state = next(steps)
        while True:
            state = steps.send(bool(callback(state)) if callback is not None else False)
    except StopIteration as end:
        return end.value

