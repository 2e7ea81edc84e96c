"""What a fit shows while it runs: the ``verbose`` levels (docs/tutorial.rst, "The iteration log").

* ``verbose=0`` (or ``False``, the default): nothing.
* ``verbose=1`` (or ``True``): one live line on ``sys.stderr`` by ``tqdm.auto`` (in Jupyter, a widget): the
  iteration, the certified interval ``[lower, upper]`` that holds ``R*`` and its gap, the master's rows and
  features where the terminal has room, and the elapsed time; at the end, why the fit stopped.
* ``verbose=2``: the iteration log on ``sys.stdout``, within :data:`~mrc_pyomo.display.log.LOG_WIDTH` columns: a
  header, a line per master (MRC-CCG), per ten first-order iterations or per hundred steps (MRC-SUB), the result;
  ``--- lambda0 = ... ---`` where a stage begins (:func:`mrc_pyomo.mrc_path`, ``continuation=True``).
* ``verbose=3``: the wide log, with the largest violations and the solver's seconds too
  (:data:`~mrc_pyomo.display.log.WIDE_HEADER`).

The solver's own log is turned on only through ``solver_options`` (``{"tee": True}``).  A display is a callable
given each iteration's record (the keys of :attr:`~mrc_pyomo.methods.registry.Method.columns`, worded by
:attr:`~mrc_pyomo.methods.registry.Method.log_line`), then closed with the fit's outcome; as a context manager it
is closed on leaving the block, without an outcome if the fit raised.
"""

import os
import sys
import threading

from tqdm.auto import tqdm

from .log import log_header, wide_log


def progress_display(verbose, method, stages=False, phases=()):
    """The display for ``verbose`` of a fit by ``method`` (a :class:`~mrc_pyomo.methods.registry.Method`, given:
    the display imports nothing above it) after first-order phases by the methods ``phases``; ``stages``: the fit
    passes through several ``lambda0`` (a path, continuation), whose starts the log marks."""
    level = int(verbose)
    if level <= 0 or (level == 1 and sys.stderr is None) or (level >= 2 and sys.stdout is None):
        return Silent()   # no stream to show it on (pythonw, some services): nothing to show
    return LiveLine(method.title) if level == 1 else IterationLog(method, stages, phases, wide=level >= 3)


def phase_method(record, phases, method):
    """The method of ``phases`` whose columns hold the first-order ``record``'s keys (else ``method``, the fit's)."""
    return next((phase for phase in phases if set(record) <= set(phase.columns)), method)


def interval_text(lower, upper, record=None, room=None):
    """A fit's state in a few words: its certified interval and gap, then the size of ``record``'s master
    (MRC-CCG) or its phase, if the text then fits in ``room`` characters (None: no limit)."""
    text = f"R* in [{lower:.6f}, {upper:.6f}], gap {upper - lower:.2e}"
    more = ""
    if record is not None and "n_rows" in record:
        more = f", {record['n_rows']} rows" + (f", {record['n_features']} features" if "n_features" in record else "")
    elif record is not None and record.get("phase") == "first-order":
        more = ", first-order phase" + (f", beta {record['beta']:.1e}" if "beta" in record else "")
    return text + more if room is None or len(text + more) <= room else text


def terminal_width(stream):
    """The width of the terminal ``stream`` writes to, or None (not a terminal: a file, a notebook)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None


def outcome(status, lower, upper, n_iter):
    """The last line of a fit: why it stopped, its certified interval and gap, its iterations."""
    text = f"{status}: R* in [{lower:.8f}, {upper:.8f}] (certified gap {upper - lower:.2e})"
    return text + (f" after {n_iter} iteration{'' if n_iter == 1 else 's'}" if n_iter else "")


class Silent:
    """``verbose=0``: shows nothing.  The base of the displays: closed on leaving a ``with`` block."""

    def __call__(self, record):
        pass

    def close(self, status=None, lower=None, upper=None, n_iter=None):
        """End the display, with the fit's outcome if it has one."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class LiveLine(Silent):
    """``verbose=1``: one tqdm line, rewritten after each iteration and every :data:`TICK` seconds by a daemon
    thread, so that the elapsed time moves while a long master solves: a slow fit is told from a hung one."""

    #: seconds between two redraws of the line while nothing else changes it
    TICK = 1.0

    def __init__(self, title):
        self.bar = tqdm(desc=title, unit="it", file=sys.stderr, dynamic_ncols=True,
                        bar_format="{desc}: {n_fmt} it [{elapsed}]{postfix}")
        self.record = None
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="mrc_pyomo progress", daemon=True)
        self._ticker.start()

    def _tick(self):
        while not self._stop.wait(self.TICK):
            self.bar.refresh()   # tqdm's own lock orders it with update() and close()

    def room(self, status=""):
        """The characters left for :func:`interval_text` after tqdm's part of the line (None: not a terminal)."""
        width = terminal_width(self.bar.fp)
        used = len(f"{self.bar.desc}: {self.bar.n} it [00:00:00], {status}")
        return None if width is None else width - 1 - used

    def __call__(self, record):
        self.record = record
        self.bar.set_postfix_str(interval_text(record["lower"], record["upper"], record, self.room()), refresh=False)
        self.bar.update(record["iteration"] - self.bar.n)

    def close(self, status=None, lower=None, upper=None, n_iter=None):
        if self.bar.disable:   # closed already
            return
        self._stop.set()
        self._ticker.join()
        if status is not None:
            text = interval_text(lower, upper, self.record, self.room(f"{status}, "))
            self.bar.set_postfix_str(f"{status}, {text}", refresh=False)
        self.bar.close()


class IterationLog(Silent):
    """``verbose=2``: the iteration log on ``sys.stdout``, each record's line worded by the method that made it
    (:attr:`~mrc_pyomo.methods.registry.Method.log_line`; a first-order record by a method of ``phases``), the
    header before the first line; ``wide`` (``verbose=3``): every column (:func:`~mrc_pyomo.display.log.wide_log`)."""

    def __init__(self, method, stages=False, phases=(), wide=False):
        self.method, self.phases, self.stages, self.header_shown, self.lambda0 = method, phases, stages, False, None
        self.wide = wide

    def __call__(self, record):
        if self.stages and record.get("lambda0", self.lambda0) != self.lambda0:   # a stage begins
            self.lambda0 = record["lambda0"]
            print(f"--- lambda0 = {self.lambda0:g} ---", flush=True)
        first_order = record.get("phase") == "first-order"
        method = phase_method(record, self.phases, self.method) if first_order else self.method
        with wide_log(self.wide):
            line = None if method.log_line is None else method.log_line(record)
        if line is None:
            return
        if not first_order and method.log_header is not None and not self.header_shown:
            print(log_header(method.log_header, self.wide), flush=True)
            self.header_shown = True
        print(line, flush=True)

    def close(self, status=None, lower=None, upper=None, n_iter=None):
        if status is not None:
            print(outcome(status, lower, upper, n_iter), flush=True)


class FoldsDisplay:
    """What :class:`~mrc_pyomo.MRCClassifierCV` shows while its folds' paths run: at ``verbose=1`` one tqdm line
    on ``sys.stderr`` over the ``n_folds x len(lambda0s)`` stages, advanced as each fold's path ends; at
    ``verbose=2`` (and 3) a line per stage of each fold on ``sys.stdout`` (its ``lambda0``, status, certified
    interval, iterations, seconds and validation score).  The refit shows itself as a fit does."""

    def __init__(self, verbose, n_folds, lambda0s):
        self.level, self.n_folds, self.lambda0s = int(verbose), n_folds, list(lambda0s)
        self.bar = None
        if self.level == 1 and sys.stderr is not None:
            self.bar = tqdm(total=n_folds * len(self.lambda0s), desc="MRCClassifierCV", unit="stage",
                            file=sys.stderr, dynamic_ncols=True,
                            bar_format="{desc}: {n_fmt}/{total_fmt} fold stages [{elapsed}<{remaining}]{postfix}")

    def fold(self, k, table, scores):
        """Show that fold ``k`` (from 0) ended: ``table``, its path's table; ``scores``, a score per stage."""
        if self.bar is not None:
            self.bar.set_postfix_str(f"fold {k + 1} of {self.n_folds} done", refresh=False)
            self.bar.update(len(self.lambda0s))
        elif self.level >= 2 and sys.stdout is not None:
            for row, score in zip(table.itertuples(), scores):
                print(f"fold {k + 1}/{self.n_folds} lambda0 {row.lambda0:<7g} {row.status:<10} R* in "
                      f"[{row.lower:.6f}, {row.upper:.6f}] {row.n_iter:4d} it. {row.seconds:7.2f} s "
                      f"score {score:.4f}", flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
