"""The command line's data files (:mod:`mrc_pyomo.cli.data`): CSV and svmlight files, a labels file; the first
non-finite value named by its line and column, missing labels, a single class, the wrong separator, each one
line of error before any fit.  The ``data_files`` fixture is in ``tests/conftest.py``."""

import numpy as np
import pandas as pd
import pytest

from helpers import PREFIX, cli, cli_error
from mrc_pyomo.cli.main import main as cli_main


def test_cli_svmlight_and_labels_file(data_files, capsys):
    d = data_files
    assert cli_main(["fit", str(d / "bc.svm"), "--quiet", "--save", str(d / "s.pkl")]) == 0
    assert cli_main(["fit", str(d / "features.csv"), "--labels", str(d / "labels.txt"), "--quiet"]) == 0
    assert cli_main(["predict", str(d / "s.pkl"), str(d / "bc.svm")]) == 0
    out = capsys.readouterr().out
    assert out.count("converged") == 2 and "prediction" in out
    predictions = out.split("prediction\n")[1].split()
    assert set(predictions) == {"0", "1"}   # svmlight stores labels as floats: whole ones print as 0 and 1


def _bc_lines(d):
    return (d / "bc.csv").read_text().splitlines()


@pytest.mark.parametrize("case", ["nan", "inf", "empty", "blank_line", "labels_file", "predict"])
def test_cli_names_the_first_non_finite_value(data_files, capsys, case):
    """A NaN, infinite or empty feature value is reported with its line (the header is line 1) and column,
    before the header line and any fit; not as scikit-learn's "Input X contains NaN"."""
    d = data_files
    lines = _bc_lines(d)
    columns = lines[0].split(",")
    row = lines[17].split(",")        # line 18 of the file
    j = columns.index("mean radius")
    row[j] = {"nan": "nan", "inf": "inf", "empty": "", "blank_line": "-inf", "labels_file": "nan",
              "predict": "nan"}[case]
    lines[17] = ",".join(row)
    later = lines[30].split(",")      # a later bad value is not the one reported
    later[0] = "nan"
    lines[30] = ",".join(later)
    line, value = 18, {"inf": "inf", "blank_line": "-inf"}.get(case, "nan")
    if case == "blank_line":          # pandas skips blank lines: the line number still is the file's
        lines.insert(5, "")
        line = 19
    (d / "bad.csv").write_text("\n".join(lines) + "\n")
    args = ["fit", d / "bad.csv", "--label", "diagnosis"]
    if case == "labels_file":
        pd.read_csv(d / "bad.csv").drop(columns="diagnosis").to_csv(d / "bad_features.csv", index=False)
        args = ["fit", d / "bad_features.csv", "--labels", d / "labels.txt"]
    if case == "predict":
        assert cli(["fit", d / "bc.csv", "--label", "diagnosis", "--quiet", "--save", d / "m.pkl"]) == 0
        capsys.readouterr()
        args = ["predict", d / "m.pkl", d / "bad.csv", "--label", "diagnosis"]
    message = cli_error(capsys, args)
    name = "bad_features.csv" if case == "labels_file" else "bad.csv"
    assert message.endswith(f"{name}: line {line}, column 'mean radius': not a finite number ({value})"), message


def test_cli_names_the_first_non_finite_value_of_an_svmlight_file(tmp_path, capsys):
    """The line of an svmlight file (comments and blank lines counted) and the feature index as written."""
    text = "# two features\n1 1:0.5 2:1.5\n\n0 1:0.1 2:1.0\n1 1:0.3 2:inf # a comment\n0 1:nan 2:0.2\n"
    (tmp_path / "bad.svm").write_text(text)
    message = cli_error(capsys, ["fit", tmp_path / "bad.svm"])
    assert message.endswith("bad.svm: line 5, feature 2: not a finite number (inf)"), message
    (tmp_path / "bad_label.svm").write_text("1 1:0.5 2:1.5\nnan 1:0.1 2:1.0\n")
    message = cli_error(capsys, ["fit", tmp_path / "bad_label.svm"])
    assert "bad_label.svm: line 2: the label" in message, message


def test_cli_refuses_missing_labels(data_files, capsys):
    """An empty label is bad input named by its line, not a class of its own (in the data file and in a
    --labels file); blank lines at the end of a labels file are no labels."""
    d = data_files
    lines = _bc_lines(d)
    lines[9] = lines[9].rsplit(",", 1)[0] + ","      # line 10: the label cell (last column) empty
    (d / "no_label.csv").write_text("\n".join(lines) + "\n")
    message = cli_error(capsys, ["fit", d / "no_label.csv", "--label", "diagnosis"])
    assert "no_label.csv: line 10" in message and "label is missing" in message, message

    labels = (d / "labels.txt").read_text().splitlines()
    (d / "blank.txt").write_text("\n".join(labels[:6] + [""] + labels[7:]) + "\n")
    message = cli_error(capsys, ["fit", d / "features.csv", "--labels", d / "blank.txt"])
    assert "blank.txt: line 7" in message and "label is missing" in message, message
    (d / "nan.txt").write_text("\n".join(labels[:2] + ["nan"] + labels[3:]) + "\n")
    message = cli_error(capsys, ["fit", d / "features.csv", "--labels", d / "nan.txt"])
    assert "nan.txt: line 3" in message and "label is missing" in message, message

    (d / "trailing.txt").write_text("\n".join(labels) + "\n\n\n")
    assert cli(["fit", d / "features.csv", "--labels", d / "trailing.txt", "--quiet"]) == 0
    assert "converged" in capsys.readouterr().out


@pytest.mark.parametrize("labels,shown", [("1", "(1)"), ("yes", "('yes')")])
def test_cli_refuses_a_single_class(data_files, capsys, labels, shown):
    d = data_files
    df = pd.read_csv(d / "bc.csv")
    df["diagnosis"] = labels if labels == "yes" else 1
    df.to_csv(d / "one.csv", index=False)
    message = cli_error(capsys, ["fit", d / "one.csv", "--label", "diagnosis"])
    assert message == f"{PREFIX} one.csv: the labels have 1 class {shown}; an MRC needs at least two"
    pd.Series(np.ones(569, dtype=int)).to_csv(d / "ones.txt", index=False, header=False)
    message = cli_error(capsys, ["fit", d / "features.csv", "--labels", d / "ones.txt"])
    assert message == f"{PREFIX} ones.txt: the labels have 1 class (1); an MRC needs at least two"


@pytest.mark.parametrize("sep,shown", [(";", "';'"), ("\t", "'\\t'")])
def test_cli_hints_at_the_separator(data_files, capsys, sep, shown):
    """A file read into a single column whose header holds ';' or a tab: every error about it says which
    --sep to pass; passing it works."""
    d = data_files
    what = "a tab" if sep == "\t" else shown
    hint = f"(its header contains {what}: pass --sep {shown})"
    df = pd.read_csv(d / "bc.csv")
    df.to_csv(d / "other.csv", index=False, sep=sep)
    df.drop(columns="diagnosis").to_csv(d / "other_features.csv", index=False, sep=sep)
    df.iloc[:0].to_csv(d / "other_header.csv", index=False, sep=sep)
    assert cli(["fit", d / "bc.csv", "--label", "diagnosis", "--quiet", "--save", d / "m.pkl"]) == 0
    capsys.readouterr()
    for args, message in [
            (["fit", d / "other.csv", "--label", "diagnosis"], "has no column 'diagnosis'"),
            (["fit", d / "other_features.csv", "--labels", d / "labels.txt"], "non-numeric feature columns"),
            (["fit", d / "other_header.csv", "--label", "diagnosis"], "has a header but no samples"),
            (["predict", d / "m.pkl", d / "other.csv", "--label", "diagnosis"], "has no column 'diagnosis'")]:
        error = cli_error(capsys, args)
        assert message in error and error.endswith(hint), error
    assert cli(["fit", d / "other.csv", "--label", "diagnosis", "--sep", shown.strip("'"), "--quiet"]) == 0
    assert "converged" in capsys.readouterr().out
