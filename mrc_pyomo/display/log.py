"""The one format of MRC-CCG's records (:data:`mrc_pyomo.methods.history.HISTORY_COLUMNS`) that the iteration log,
the command line and the plots share: :func:`format_record` (a line per master) and :func:`time_split`.

The log fits :data:`LOG_WIDTH` columns by default; the wide log (``verbose=3``, :data:`WIDE_HEADER`) has every
column of :data:`LOG_COLUMNS`.  The methods word their lines; the display chooses the width (:func:`wide_log`).
"""

import textwrap
from contextlib import contextmanager
from contextvars import ContextVar

#: where an iteration's time went: the columns of a record, in order, and what each is called
TIME_PARTS = [("seconds_oracle", "oracles"), ("seconds_update", "model updates"),
              ("seconds_build", "Pyomo model built"), ("seconds_handover", "handed to the solver"),
              ("seconds_solve", "solver")]

#: the most characters of a line of the default (narrow) log
LOG_WIDTH = 100
#: the columns of the wide iteration log of MRC-CCG, 122 characters: title, width, and the format of the record's
#: value (the keys of :data:`~mrc_pyomo.methods.history.HISTORY_COLUMNS`; ``gap`` derived).  ``R(mu^k)``, the
#: worst-case error of the master's point (optimal for its rows only), can be far above ``upper``.
LOG_COLUMNS = [("it.", 5, "{iteration:5d}"), ("R^k", 9, "{R_master:9.6f}"), ("lower", 10, "{lower:10.8f}"),
               ("upper", 10, "{upper:10.8f}"), ("gap", 8, "{gap:8.1e}"), ("R(mu^k)", 9, "{R_mu:9.4g}"),
               ("primal_v", 8, "{max_primal_violation:8.1e}"), ("dual_v", 8, "{max_dual_violation:8.1e}"),
               ("rows", 6, "{n_rows:6d}"), ("feats", 6, "{n_features:6d}"), ("+rows", 5, "{rows_added:+5d}"),
               ("-rows", 5, "{rows_removed:5d}"), ("+feat", 5, "{features_added:+5d}"),
               ("solve", 7, "{seconds_solve:7.2f}"), ("seconds", 7, "{seconds_elapsed:7.1f}")]
#: the titles of the columns only the wide log shows: the largest violations and the solver's own seconds
WIDE_ONLY = ("primal_v", "dual_v", "solve")
#: the columns of the default log, 96 characters
NARROW_COLUMNS = [column for column in LOG_COLUMNS if column[0] not in WIDE_ONLY]
#: the first line of the default iteration log of MRC-CCG, one title per column of :func:`format_record`'s line
LOG_HEADER = " ".join(f"{title:>{width}}" for title, width, _ in NARROW_COLUMNS)
#: the first line of the wide log (``verbose=3``): every column of :data:`LOG_COLUMNS`
WIDE_HEADER = " ".join(f"{title:>{width}}" for title, width, _ in LOG_COLUMNS)
#: how a record's ``solver_status`` begins when the time limit stopped its master's solve
#: (:func:`~mrc_pyomo.methods.history.failure_record`)
TIME_LIMIT = "time limit"

_LINES = {False: " ".join(spec for _, _, spec in NARROW_COLUMNS), True: " ".join(spec for _, _, spec in LOG_COLUMNS)}
_WIDE = ContextVar("mrc_pyomo_wide_log", default=False)


@contextmanager
def wide_log(wide=True):
    """Within the block, :func:`format_record` words the wide log's lines (``wide``) or the default's: how
    ``verbose=3`` has every column without a method knowing the width."""
    token = _WIDE.set(bool(wide))
    try:
        yield
    finally:
        _WIDE.reset(token)


def log_header(header, wide=None):
    """The line a log shows for a method's ``log_header``: :data:`LOG_HEADER` becomes :data:`WIDE_HEADER` in the
    wide log (``wide``; None: as :func:`wide_log` says), any other header stays itself."""
    wide = _WIDE.get() if wide is None else wide
    return WIDE_HEADER if wide and header == LOG_HEADER else header


def format_record(record, wide=None):
    """One line of the iteration log: the columns of :data:`LOG_HEADER` (``wide``: of :data:`WIDE_HEADER`; None:
    as :func:`wide_log` says).  A failed master (``R_master`` NaN) says why: ``time limit`` (the wide log adds the
    solver's words), else ``solver failed:`` and the solver's message, wrapped at :data:`LOG_WIDTH` by default."""
    wide = _WIDE.get() if wide is None else wide
    if record["R_master"] == record["R_master"]:   # not NaN: a solved master
        return _LINES[wide].format(gap=record["upper"] - record["lower"], **record)
    iteration, status = f"{record['iteration']:5d}  ", str(record["solver_status"])
    if status.startswith(TIME_LIMIT):
        if wide:
            return iteration + status
        return (f"{iteration}{TIME_LIMIT}: stopped in the solve of this master ({record['n_rows']} rows, "
                f"{record['n_features']} features) after {record['seconds_solve']:.2f} s")
    line = f"{iteration}solver failed: {status}"
    return line if wide else textwrap.fill(line, LOG_WIDTH, subsequent_indent=" " * len(iteration),
                                             break_on_hyphens=False)


def time_split(history):
    """Where a fit's time went, in one phrase: the seconds of each part of :data:`TIME_PARTS` in ``history``, the
    Pyomo model's only where Pyomo's solvers spent any."""
    parts = [(column, label) for column, label in TIME_PARTS
             if column not in ("seconds_build", "seconds_handover") or history[column].sum()]
    return ", ".join(f"{label} {history[column].sum():.2f} s" for column, label in parts)
