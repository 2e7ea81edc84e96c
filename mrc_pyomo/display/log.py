"""The one format of MRC-CCG's records (:data:`mrc_pyomo.methods.ccg.record.HISTORY_COLUMNS`) that the iteration log
(``verbose=2``), the command line and the plots share: :data:`LOG_HEADER` and :func:`format_record` (a line per
master), :data:`TIME_PARTS` and :func:`time_split` (where a fit's time went).
"""

#: where an iteration's time went: the columns of a record, in order, and what each is called
TIME_PARTS = [("seconds_oracle", "oracles"), ("seconds_update", "model updates"),
              ("seconds_build", "Pyomo model built"), ("seconds_handover", "handed to the solver"),
              ("seconds_solve", "solver")]

#: the first line of the iteration log of MRC-CCG, one column per key of :func:`format_record`'s line
LOG_HEADER = ("  it.    R_master         R(mu)        lower        upper       gap   primal_v     dual_v    rows  "
              "feats  +rows  -rows  again  +feat  oracle  update   model   solve")


def format_record(record):
    """One line of the iteration log (with the solver's message when it failed)."""
    if record["R_master"] != record["R_master"]:  # NaN: the solver failed on this master
        return f"{record['iteration']:5d}  solver failed: {record['solver_status']}"
    return ("{iteration:5d} {R_master:12.8f} {R_mu:12.8f} {lower:12.8f} {upper:12.8f} {gap:9.2e} "
            "{max_primal_violation:10.2e} {max_dual_violation:10.2e} {n_rows:7d} {n_features:7d} {rows_added:+6d} "
            "{rows_removed:6d} {rows_readded:6d} {features_added:+6d} {seconds_oracle:7.2f} {seconds_update:7.2f} "
            "{model:7.2f} {seconds_solve:7.2f}").format(gap=record["upper"] - record["lower"],
                                           model=record["seconds_build"] + record["seconds_handover"], **record)


def time_split(history):
    """The time split of a fit's records (a ``history_`` DataFrame), as one phrase: the seconds of each part of
    :data:`TIME_PARTS`, the Pyomo model's parts only where Pyomo's solvers spent any."""
    parts = [(column, label) for column, label in TIME_PARTS
             if column not in ("seconds_build", "seconds_handover") or history[column].sum()]
    return ", ".join(f"{label} {history[column].sum():.2f} s" for column, label in parts)
