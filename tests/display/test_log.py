"""The one format of MRC-CCG's records (:mod:`mrc_pyomo.display.log`): the header has one title per column of
:data:`LOG_COLUMNS` at its width, 122 characters; :func:`format_record` puts each value of a real loop's
records under its title in its format (``gap = upper - lower``), and a failed master's line names the solver's
message; :func:`time_split` sums each part of :data:`TIME_PARTS`, the Pyomo model's parts only where spent."""

import numpy as np
import pandas as pd
import pytest

from helpers import scaled_problem
from mrc_pyomo.display.log import LOG_COLUMNS, LOG_HEADER, TIME_PARTS, format_record, time_split
from mrc_pyomo.methods import ccg
from mrc_pyomo.methods.ccg.record import HISTORY_COLUMNS
from mrc_pyomo.problem import MRCProblem


@pytest.fixture(scope="module")
def records():
    """The records of a small MRC-CCG fit, as its ``log`` receives them."""
    Psi, y_idx, tau, lam = scaled_problem(30, 3, 3, False, seed=1)
    seen = []
    ccg.solve(MRCProblem.from_arrays(Psi, y_idx, tau, lam), ccg.CCGConfig(eps_1=0.0, n_max=3), log=seen.append)
    assert len(seen) > 2
    return seen


def columns_of(line):
    """The fields of a line cut at the header's column widths (one space between columns)."""
    fields, start = [], 0
    for _, width, _ in LOG_COLUMNS:
        fields.append(line[start:start + width])
        start += width + 1
    return fields


def test_the_header_has_each_title_at_its_column_s_width():
    assert len(LOG_HEADER) == sum(width for _, width, _ in LOG_COLUMNS) + len(LOG_COLUMNS) - 1 == 122
    assert [field.strip() for field in columns_of(LOG_HEADER)] == [title for title, _, _ in LOG_COLUMNS]


def test_the_columns_are_keys_of_a_record_or_the_gap():
    keys = {spec[1:].split(":")[0] for _, _, spec in LOG_COLUMNS}
    assert keys - set(HISTORY_COLUMNS) == {"gap"}


def test_a_record_s_line_puts_each_value_under_its_title(records):
    for record in records:
        line = format_record(record)
        assert len(line) == len(LOG_HEADER), line
        fields = columns_of(line)
        for (title, width, spec), field in zip(LOG_COLUMNS, fields):
            assert len(field) == width and field == field.rjust(width)
            key = spec[1:].split(":")[0]
            value = record["upper"] - record["lower"] if key == "gap" else record[key]
            assert field == spec.format(**{key: value}), title
        assert float(fields[4]) == pytest.approx(record["upper"] - record["lower"], rel=0.06, abs=1e-300)
        assert int(fields[0]) == record["iteration"]


def test_a_failed_master_s_line_names_the_solver_s_message(records):
    failed = dict(records[-1], iteration=7, R_master=np.nan, solver_status="the solver ran out of time")
    assert format_record(failed) == "    7  solver failed: the solver ran out of time"


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
