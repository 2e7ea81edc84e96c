"""A quiet ``highspy.Highs`` and its options: what every HiGHS instance of the library is made and run with.

From highspy 1.16 the constructor prints HiGHS's banner on the process's stdout before any option can be set;
:func:`quiet_highs` makes instances that have printed nothing.  Options are checked against HiGHS's own answer
(:func:`set_option`, :func:`check_options`), which Pyomo's HiGHS interfaces do not look at.
"""

import contextlib
import ctypes
import os
import sys
import time

try:
    import highspy
except ImportError:  # pragma: no cover - highspy is a dependency; a clear error is raised on use
    highspy = None

INF = 1e30 if highspy is None else highspy.kHighsInf


def run_with_limit(highs, time_limit):
    """``highs.run()`` with a limit for this run only: HiGHS compares its ``time_limit`` option with its own
    clock, which runs across runs, so it is set to that clock plus the limit and restored afterwards."""
    with limited(highs, time_limit):
        highs.run()


def run_pdlp(highs, time_limit):
    """HiGHS's PDLP run in HiGHS's three steps, one at a time, so that its last point reaches the LP's own space
    whether or not it is optimal: ``presolve``; the presolved LP solved by a second instance with ``highs``'s options
    and no presolve, within what is left of ``time_limit``; ``postsolve`` of its point, optimal or not, into
    ``highs``.  (``highs.run()`` of highspy 1.15 postsolves an optimal point only: stopped by its time limit, its
    point is the presolved LP's, of other columns; from 1.16 it postsolves a stopped point too, the same as this.)
    The same point as ``highs.run()``'s when it ends optimal.  Returns ``(status,
    iterate)``: the model status of the solve, and whether ``highs.getSolution()`` holds its point.  A presolve that
    ends the solve (an LP reduced to nothing, infeasible or unbounded) is ``highs.run()``'s."""
    end = None if time_limit is None else time.perf_counter() + max(float(time_limit), 0.0)

    def remaining():
        return None if end is None else max(end - time.perf_counter(), 0.0)

    with limited(highs, remaining()):
        highs.presolve()
    if highs.getModelPresolveStatus() not in (highspy.HighsPresolveStatus.kReduced,
                                              highspy.HighsPresolveStatus.kNotReduced):
        run_with_limit(highs, remaining())
        return highs.getModelStatus(), False
    reduced = quiet_highs()
    reduced.passOptions(highs.getOptions())
    reduced.passModel(highs.getPresolvedLp())
    reduced.setOptionValue("presolve", "off")
    run_with_limit(reduced, remaining())
    point = reduced.getSolution()
    if len(point.col_value) != reduced.getNumCol() or len(point.row_dual) != reduced.getNumRow():
        return reduced.getModelStatus(), False
    point.value_valid = point.dual_valid = True
    highs.postsolve(point)
    return reduced.getModelStatus(), True


@contextlib.contextmanager
def limited(highs, time_limit):
    """While the block runs, HiGHS's ``time_limit`` is ``time_limit`` seconds from now on its own clock (None:
    as it is); restored afterwards (:func:`run_with_limit`)."""
    if time_limit is None:
        yield
        return
    previous = highs.getOptionValue("time_limit")[1]
    highs.setOptionValue("time_limit", highs.getRunTime() + max(float(time_limit), 0.0))
    try:
        yield
    finally:
        highs.setOptionValue("time_limit", previous)


def set_option(highs, name, value):
    """Set a HiGHS option; ``ValueError`` naming it if HiGHS rejects it (Pyomo's HiGHS interfaces do not look)."""
    try:
        status = highs.setOptionValue(name, value)
    except TypeError:   # highspy takes booleans, numbers and strings only
        status = None
    if status != highspy.HighsStatus.kOk:
        raise ValueError(f"HiGHS rejected the option {name}={value!r} (unknown name, or a value of the wrong "
                         f"type or range)")


def _flush_c_streams():
    """Flush the C library's output buffers (``fflush(NULL)``), where the C library can be reached."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):   # no C library by that route (Windows): HiGHS flushes its log
        pass


@contextlib.contextmanager
def stdout_to_devnull():
    """While the block runs, whatever is written to file descriptor 1 (C code's ``stdout``) is discarded.

    ``sys.stdout`` is flushed first, so nothing printed before is lost; another thread's output in that instant is
    discarded too."""
    try:
        sys.stdout.flush()
    except (AttributeError, ValueError, OSError):
        pass
    try:
        saved = os.dup(1)
    except OSError:   # no file descriptor 1 (a closed stdout): nothing to protect
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 1)
        yield
    finally:
        _flush_c_streams()
        os.dup2(saved, 1)
        os.close(saved)


def print_log(event):
    """A line of HiGHS's log, printed to Python's ``sys.stdout`` as it is now (a notebook's cell), not to fd 1."""
    print(event.message, end="", flush=True)


def quiet_highs(options=None):
    """A new ``highspy.Highs`` that has printed nothing, its log off unless ``options`` (:func:`set_option`) turn it
    on; the log then goes through Python (:func:`print_log`), as GLPK's, CBC's and APPSI's do, unless
    ``log_to_console`` is asked for too."""
    if highspy is None:
        raise ImportError("the default solver needs the package highspy: pip install highspy")
    with stdout_to_devnull():
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", False)
    highs.setOptionValue("log_to_console", False)
    highs.cbLogging.subscribe(print_log)
    for name, value in (options or {}).items():
        set_option(highs, name, value)
    return highs


def check_options(options):
    """Raise ``ValueError`` naming the first option HiGHS does not know, or whose value it rejects: a scratch
    ``Highs`` answers, where Pyomo's HiGHS interfaces would ignore a misspelt option."""
    if highspy is None or not options:
        return
    quiet_highs(options)
