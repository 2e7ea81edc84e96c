"""The clock of a fit: one :class:`Deadline`, made from its ``time_limit`` when the fit starts and passed down to
every level that spends time, each of which asks it for the time left instead of keeping a clock of its own.

The time its caller spends at a step (a callback, or a notebook between two ``next()`` of
:meth:`MRCClassifier.steps <mrc_pyomo.MRCClassifier.steps>`) is left out (:meth:`Deadline.paused`).  Every
reading goes through :func:`now`, so that a test can make the clock jump.
"""

import time
from contextlib import contextmanager


def now():
    """The seconds of the clock every deadline reads (``time.perf_counter``)."""
    return time.perf_counter()


class Deadline:
    """The time of a fit: ``seconds`` at most (None: no limit), counted from its making (or ``start``, a reading
    of :func:`now`), less the time spent :meth:`paused`."""

    def __init__(self, seconds=None, start=None):
        self.seconds = seconds
        self.start = now() if start is None else start
        self.pauses = 0.0

    def __repr__(self):
        limit = "no limit" if self.seconds is None else f"{self.seconds:g} s"
        return f"Deadline({limit}, {self.elapsed():.3f} s elapsed)"

    def elapsed(self):
        """The seconds the fit has spent so far."""
        return now() - self.start - self.pauses

    def remaining(self):
        """The seconds left (None: no limit; 0 once the time is up)."""
        return None if self.seconds is None else max(0.0, self.seconds - self.elapsed())

    def expired(self):
        """Whether the time is up."""
        return self.seconds is not None and self.elapsed() >= self.seconds

    @contextmanager
    def paused(self):
        """A context whose time the fit does not count (its caller's, at a step)."""
        began = now()
        try:
            yield self
        finally:
            self.pauses += now() - began


def deadline_of(deadline):
    """``deadline``, or a new one without a limit for None (a method called on its own)."""
    return Deadline() if deadline is None else deadline


def caller_time_left_out(steps, deadline):
    """The generator ``steps`` (a method's) with the time its caller spends between a state yielded and the
    answer sent back left out of ``deadline``.  Closing it closes ``steps``."""
    try:
        state = next(steps)
        while True:
            began = now()
            answer = yield state
            deadline.pauses += now() - began
            state = steps.send(answer)
    except StopIteration as end:
        return end.value
    finally:
        steps.close()
