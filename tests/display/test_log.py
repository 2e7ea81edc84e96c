"""The one format of MRC-CCG's records (:mod:`mrc_pyomo.display.log`): the default log's header has one title per
column of :data:`NARROW_COLUMNS` at its width, 96 characters (at most :data:`LOG_WIDTH`, 100), the wide log's
(``verbose=3``) one per column of :data:`LOG_COLUMNS`, 122; :func:`format_record` puts each value of a real loop's
records under its title in its format (``gap = upper - lower``) at either width (:func:`wide_log` chooses it for
the methods' lines); a failed master's line names the solver's message, wrapped to 100 columns, and a master
stopped by the time limit says ``time limit`` as the fit's status does (:func:`failure_record` says so);
:func:`time_split` sums each part of :data:`TIME_PARTS`, the Pyomo model's parts only where spent."""

import numpy as np
import pandas as pd
import pytest

from helpers import scaled_problem
from mrc_pyomo.display.log import (LOG_COLUMNS, LOG_HEADER, LOG_WIDTH, NARROW_COLUMNS, TIME_PARTS, WIDE_HEADER,
                                   WIDE_ONLY, format_record, log_header, time_split, wide_log)
from mrc_pyomo.master import MasterSolveError, MasterTimeLimit
from mrc_pyomo.methods import ccg
from mrc_pyomo.methods.history import HISTORY_COLUMNS, failure_record
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.problem import MRCProblem
from mrc_pyomo.methods.result import finish

#: the two logs: their columns, their header, and format_record's ``wide``
WIDTHS = {"default": (NARROW_COLUMNS, LOG_HEADER, False), "wide": (LOG_COLUMNS, WIDE_HEADER, True)}
#: HiGHS's words for a solve its time limit stopped
HIGHS_TIME_OUT = ("HiGHS did not solve the restricted master (767 rows, 488 features) to optimality: model status "
                  "'Time limit reached'")


@pytest.fixture(scope="module")
def records():
    """The records of a small MRC-CCG fit, as its ``log`` receives them."""
    Psi, y_idx, tau, lam = scaled_problem(30, 3, 3, False, seed=1)
    seen = []
    finish(ccg.steps(MRCProblem.from_arrays(Psi, y_idx, tau, lam), ccg.CCGConfig(eps_1=0.0, n_max=3), log=seen.append))
    assert len(seen) > 2
    return seen


def columns_of(line, columns):
    """The fields of a line cut at the header's column widths (one space between columns)."""
    fields, start = [], 0
    for _, width, _ in columns:
        fields.append(line[start:start + width])
        start += width + 1
    return fields


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_header_has_each_title_at_its_column_s_width(width):
    columns, header, _ = WIDTHS[width]
    assert len(header) == sum(width for _, width, _ in columns) + len(columns) - 1
    assert [field.strip() for field in columns_of(header, columns)] == [title for title, _, _ in columns]


def test_the_default_log_fits_100_columns_and_the_wide_log_has_every_column():
    assert len(LOG_HEADER) == 96 <= LOG_WIDTH == 100 and len(WIDE_HEADER) == 122
    assert [title for title, _, _ in LOG_COLUMNS if title not in LOG_HEADER.split()] == list(WIDE_ONLY)
    assert set(WIDE_ONLY) == {"primal_v", "dual_v", "solve"} and WIDE_HEADER.split() == [t for t, _, _ in LOG_COLUMNS]
    for essential in ("R^k", "lower", "upper", "gap", "rows", "feats", "+rows", "-rows", "+feat", "seconds"):
        assert essential in LOG_HEADER.split()


def test_the_columns_are_keys_of_a_record_or_the_gap():
    keys = {spec[1:].split(":")[0] for _, _, spec in LOG_COLUMNS}
    assert keys - set(HISTORY_COLUMNS) == {"gap"}


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_record_s_line_puts_each_value_under_its_title(records, width):
    columns, header, wide = WIDTHS[width]
    for record in records:
        line = format_record(record, wide=wide)
        assert len(line) == len(header), line
        fields = columns_of(line, columns)
        for (title, width, spec), field in zip(columns, fields):
            assert len(field) == width and field == field.rjust(width)
            key = spec[1:].split(":")[0]
            value = record["upper"] - record["lower"] if key == "gap" else record[key]
            assert field == spec.format(**{key: value}), title
        assert float(fields[4]) == pytest.approx(record["upper"] - record["lower"], rel=0.06, abs=1e-300)
        assert int(fields[0]) == record["iteration"]


def test_the_wide_log_s_block_words_the_wide_lines(records):
    """A method's line is ``format_record(record)``: the log of ``verbose=3`` gets the wide one by
    :func:`wide_log`, and the header it shows for :data:`LOG_HEADER` is :data:`WIDE_HEADER`."""
    record = records[0]
    assert format_record(record) == format_record(record, wide=False) and log_header(LOG_HEADER) == LOG_HEADER
    with wide_log():
        assert format_record(record) == format_record(record, wide=True)
        assert log_header(LOG_HEADER) == WIDE_HEADER and log_header("other") == "other"
        with wide_log(False):
            assert format_record(record) == format_record(record, wide=False)
        assert len(format_record(record)) == len(WIDE_HEADER)
    assert len(format_record(record)) == len(LOG_HEADER)


def test_a_failed_master_s_line_names_the_solver_s_message(records):
    failed = dict(records[-1], iteration=7, R_master=np.nan, solver_status="the solver ran out of memory")
    assert format_record(failed) == "    7  solver failed: the solver ran out of memory"
    long = dict(failed, solver_status="solver 'glpk' failed on the restricted master: " + "a word " * 30)
    lines = format_record(long).splitlines()
    assert len(lines) > 1 and all(len(line) <= LOG_WIDTH for line in lines)
    assert lines[0].startswith("    7  solver failed: solver 'glpk'")
    assert all(line.startswith(" " * 7) and line[7] != " " for line in lines[1:])   # under the message's start
    assert format_record(long, wide=True) == f"    7  solver failed: {long['solver_status']}"


def test_a_master_stopped_by_the_time_limit_says_time_limit(records):
    """The record of a master whose solve the time limit stopped (a ``MasterTimeLimit``, or any failure once the
    fit's time is up) says ``time limit`` before the solver's words, and its line says ``time limit`` as the
    fit's status ``"time_limit"`` does, not "solver failed: ... Time limit reached"."""
    known = {key: records[-1][key] for key in ("iteration", "n_rows", "n_features", "rows_added", "rows_removed",
                                               "rows_readded", "features_added", "seconds_update", "features_only")}
    known = dict(known, iteration=14, seconds_solve=0.42)
    timed_out = failure_record(known, 0.2, 0.4, MasterTimeLimit(HIGHS_TIME_OUT), Deadline(3600.0))
    assert timed_out["solver_status"] == f"time limit: {HIGHS_TIME_OUT}"
    line = format_record(timed_out)
    assert line == (f"   14  time limit: stopped in the solve of this master ({known['n_rows']} rows, "
                    f"{known['n_features']} features) after 0.42 s")
    assert "solver failed" not in line and "Time limit reached" not in line and len(line) <= LOG_WIDTH
    assert format_record(timed_out, wide=True) == f"   14  time limit: {HIGHS_TIME_OUT}"
    expired = Deadline(0.0)
    assert failure_record(known, 0.2, 0.4, MasterSolveError("no optimum"), expired)["solver_status"] == \
        "time limit: no optimum"
    failed = failure_record(known, 0.2, 0.4, MasterSolveError("no optimum"), Deadline(3600.0))
    assert failed["solver_status"] == "no optimum" and format_record(failed) == "   14  solver failed: no optimum"


def history(build, handover):
    """A history of two records with every part of the time split."""
    rows = {column: [0.5, 0.25] for column, _ in TIME_PARTS}
    rows["seconds_build"], rows["seconds_handover"] = build, handover
    return pd.DataFrame(rows)


def test_time_split_sums_each_part_and_leaves_out_the_pyomo_parts_where_none_was_spent():
    phrase = time_split(history([0.0, 0.0], [0.0, 0.0]))
    assert phrase == "oracles 0.75 s, model updates 0.75 s, solver 0.75 s"
    phrase = time_split(history([1.0, 0.125], [0.0, 0.0]))
    assert phrase == f"oracles 0.75 s, model updates 0.75 s, Pyomo model built {1.125:.2f} s, solver 0.75 s"
    parts = time_split(history([0.0, 0.0], [2.0, 0.5])).split(", ")
    assert [part.rsplit(" ", 2)[0] for part in parts] == [label for column, label in TIME_PARTS
                                                          if column != "seconds_build"]


def test_time_split_of_a_real_fit(records):
    frame = pd.DataFrame(records)
    phrase = time_split(frame)
    for column, label in TIME_PARTS:
        if column in ("seconds_build", "seconds_handover") and not frame[column].sum():
            assert label not in phrase
        else:
            assert f"{label} {frame[column].sum():.2f} s" in phrase
