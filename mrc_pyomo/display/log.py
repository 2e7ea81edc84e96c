"""The one format of MRC-CCG's records (:data:`mrc_pyomo.methods.ccg.record.HISTORY_COLUMNS`) that the iteration log
(``verbose=2``), the command line and the plots share: :data:`LOG_HEADER` and :func:`format_record` (a line per
master), :data:`TIME_PARTS` and :func:`time_split` (where a fit's time went).
"""

#: where an iteration's time went: the columns of a record, in order, and what each is called
TIME_PARTS = [("seconds_oracle", "oracles"), ("seconds_update", "model updates"),
              ("seconds_build", "Pyomo model built"), ("seconds_handover", "handed to the solver"),
              ("seconds_solve", "solver")]

#: the columns of the iteration log of MRC-CCG: title, width, and the format of the record's value (the keys of
#: :data:`~mrc_pyomo.methods.ccg.record.HISTORY_COLUMNS`; ``gap`` derived), 122 characters in all.  The certified
#: interval comes first, with the digits the final line reports; ``R(mu^k)`` is the worst-case error of the
#: master's own point, which can be far above ``upper`` (a master's point is optimal for its rows, not for all
#: samples), shown with four significant digits.
LOG_COLUMNS = [("it.", 5, "{iteration:5d}"), ("R^k", 9, "{R_master:9.6f}"), ("lower", 10, "{lower:10.8f}"),
               ("upper", 10, "{upper:10.8f}"), ("gap", 8, "{gap:8.1e}"), ("R(mu^k)", 9, "{R_mu:9.4g}"),
               ("primal_v", 8, "{max_primal_violation:8.1e}"), ("dual_v", 8, "{max_dual_violation:8.1e}"),
               ("rows", 6, "{n_rows:6d}"), ("feats", 6, "{n_features:6d}"), ("+rows", 5, "{rows_added:+5d}"),
               ("-rows", 5, "{rows_removed:5d}"), ("+feat", 5, "{features_added:+5d}"),
               ("solve", 7, "{seconds_solve:7.2f}"), ("seconds", 7, "{seconds_elapsed:7.1f}")]
#: the first line of the iteration log of MRC-CCG, one title per column of :func:`format_record`'s line
LOG_HEADER = " ".join(f"{title:>{width}}" for title, width, _ in LOG_COLUMNS)
_LINE = " ".join(spec for _, _, spec in LOG_COLUMNS)


def format_record(record):
    """One line of the iteration log (with the solver's message when it failed)."""
    if record["R_master"] != record["R_master"]:  # NaN: the solver failed on this master
        return f"{record['iteration']:5d}  solver failed: {record['solver_status']}"
    return _LINE.format(gap=record["upper"] - record["lower"], **record)


def time_split(history):
    """The time split of a fit's records (a ``history_`` DataFrame), as one phrase: the seconds of each part of
    :data:`TIME_PARTS`, the Pyomo model's parts only where Pyomo's solvers spent any."""
    parts = [(column, label) for column, label in TIME_PARTS
             if column not in ("seconds_build", "seconds_handover") or history[column].sum()]
    return ", ".join(f"{label} {history[column].sum():.2f} s" for column, label in parts)
