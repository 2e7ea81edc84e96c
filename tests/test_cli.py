"""The ``mrc-pyomo`` command: fit, save, predict, its errors (one line, before any fit or output), the data
checks (non-finite values, missing labels, a single class, the wrong separator), --standardize, and its
progress display (the estimator's ``verbose`` levels)."""

import io
import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import dump_svmlight_file, load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

import mrc_pyomo
from conftest import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli.main import main as cli_main
from mrc_pyomo.master.highs import quiet_highs

PREFIX = "mrc-pyomo: error:"


@pytest.fixture
def data_files(tmp_path):
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    df = X.copy()
    df["diagnosis"] = y
    df.to_csv(tmp_path / "bc.csv", index=False)
    X.to_csv(tmp_path / "features.csv", index=False)
    pd.Series(y).to_csv(tmp_path / "labels.txt", index=False, header=False)
    dump_svmlight_file(X.to_numpy(), y.to_numpy(), str(tmp_path / "bc.svm"))
    return tmp_path


def cli(args):
    """``mrc-pyomo args`` in this process (paths as strings); its exit code."""
    return cli_main([str(a) for a in args])


def cli_error(capsys, args):
    """The one-line error of ``mrc-pyomo args`` (in this process): exit code 1, nothing on stdout (no header
    line, no fit), one line on stderr."""
    code = cli(args)
    out, err = capsys.readouterr()
    assert code == 1 and out == "", out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX), err
    return lines[0]


# -- fit, save, predict --------------------------------------------------------------------------------------

def test_cli_fit_save_predict_export(data_files, capsys):
    d = data_files
    code = cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--eps-1", "0", "--save", str(d / "m.pkl"),
                     "--history", str(d / "h.csv"), "--export-master", str(d / "master.lp")])
    assert code == 0
    out = capsys.readouterr().out
    assert "R_master" in out and "converged: R* in [" in out and "certified gap" in out
    history = pd.read_csv(d / "h.csv")
    assert list(history.iteration) == list(range(1, len(history) + 1))
    h = quiet_highs()
    h.readModel(str(d / "master.lp"))
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(history.R_master.iloc[-1], abs=1e-7)
    assert cli_main(["predict", str(d / "m.pkl"), str(d / "bc.csv"), "--label", "diagnosis", "--proba",
                     "--output", str(d / "p.csv")]) == 0
    pred = pd.read_csv(d / "p.csv")
    assert len(pred) == 569 and {"prediction", "p_0", "p_1"} <= set(pred.columns)
    assert np.allclose(pred[["p_0", "p_1"]].sum(axis=1), 1.0)


def test_cli_svmlight_and_labels_file(data_files, capsys):
    d = data_files
    assert cli_main(["fit", str(d / "bc.svm"), "--quiet", "--save", str(d / "s.pkl")]) == 0
    assert cli_main(["fit", str(d / "features.csv"), "--labels", str(d / "labels.txt"), "--quiet"]) == 0
    assert cli_main(["predict", str(d / "s.pkl"), str(d / "bc.svm")]) == 0
    out = capsys.readouterr().out
    assert out.count("converged") == 2 and "prediction" in out


@pytest.mark.parametrize("args,message", [
    (["fit", "missing.csv"], "no such file"),
    (["fit", "{d}/header_only.csv"], "has a header but no samples"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--save", "{d}/no/such/dir/m.pkl"], "no such directory"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--history", "{d}"], "is a directory"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--export-master", "{d}/m.txt"], "must end in .lp or .mps"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--method", "subgradient", "--export-master", "{d}/m.lp"],
     "solves no LP"),
    (["predict", "{d}/m.pkl", "{d}/reordered.csv"], "another order than the model's"),
    (["predict", "{d}/m.pkl", "{d}/dropped.csv"], "missing ['mean radius']"),
    (["predict", "{d}/m.pkl", "{d}/bc.csv", "--label", "diagnosis", "--output", "{d}/no/p.csv"], "no such directory"),
    (["fit", "{d}/bc.csv"], "no column 'label'"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--solver", "nope"], "unknown solver"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--lambda0", "-1"], "lambda0"),
    (["fit", "{d}/bc.csv", "--label", "diagnosis", "--solver-option", "x"], "KEY=VALUE"),
    (["predict", "{d}/bc.csv", "{d}/bc.csv"], "not a model"),
])
def test_cli_errors_are_one_line(data_files, args, message):
    """Each error is one line on stderr, before any fit starts (nothing on stdout: no Pyomo warning either)."""
    d = data_files
    pd.read_csv(d / "bc.csv").iloc[:0].to_csv(d / "header_only.csv", index=False)
    features = pd.read_csv(d / "features.csv")
    features[features.columns[::-1]].to_csv(d / "reordered.csv", index=False)
    features.drop(columns="mean radius").to_csv(d / "dropped.csv", index=False)
    if args[0] == "predict" and "m.pkl" in args[1]:
        assert cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--quiet", "--save", str(d / "m.pkl")]) == 0
    args = [a.format(d=d) for a in args]
    result = subprocess.run([sys.executable, "-m", "mrc_pyomo.cli.main", *args], capture_output=True, text=True,
                            cwd=d)   # not the repository: python -m would import its source tree
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mrc-pyomo: error:") and message in lines[0]


def test_cli_separator_version_and_subgradient(data_files, capsys):
    d = data_files
    pd.read_csv(d / "bc.csv").to_csv(d / "bc_semicolon.csv", index=False, sep=";")
    assert cli_main(["fit", str(d / "bc_semicolon.csv"), "--sep", ";", "--label", "diagnosis", "--quiet",
                     "--save", str(d / "m.pkl")]) == 0
    assert cli_main(["predict", str(d / "m.pkl"), str(d / "bc_semicolon.csv"), "--sep", ";",
                     "--label", "diagnosis"]) == 0
    assert cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--method", "subgradient",
                     "--max-iter", "50"]) == 0
    out = capsys.readouterr().out
    assert out.count("R* in [") == 2 and "solver none (MRC-SUB)" in out and "50 iterations" in out
    with pytest.raises(SystemExit) as exit_:
        cli_main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"mrc-pyomo {mrc_pyomo.__version__}"


def test_cli_help(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mrc_pyomo.cli.main", "fit", "--help"], capture_output=True,
                            text=True, cwd=tmp_path)
    assert result.returncode == 0 and "--export-master" in result.stdout and "--solver" in result.stdout
    # why to standardise: R is invariant under a rescaling of a feature, not under a shift of it
    help_text = " ".join(result.stdout.split())
    assert "--standardize" in help_text and "invariant under a positive rescaling" in help_text
    assert "not under a shift" in help_text and "0.944" in help_text and "1.000" in help_text
    assert "with_mean=False" in help_text
    doc = " ".join(mrc_pyomo.cli.main.__doc__.split())
    assert "invariant under a positive rescaling" in doc and "not under a shift" in doc


# -- the data: non-finite values, missing labels, one class, the separator ------------------------------------

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


def test_cli_header_counts_with_plurals(data_files, capsys):
    d = data_files
    assert cli(["fit", d / "bc.csv", "--label", "diagnosis", "--max-iter", "1", "--method", "subgradient"]) == 0
    out = capsys.readouterr().out
    assert "bc.csv: 569 samples, 30 features, 2 classes; solver none (MRC-SUB)" in out


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
            (["predict", d / "m.pkl", d / "other.csv", "--label", "diagnosis"], "non-numeric feature columns")]:
        error = cli_error(capsys, args)
        assert message in error and error.endswith(hint), error
    assert cli(["fit", d / "other.csv", "--label", "diagnosis", "--sep", shown.strip("'"), "--quiet"]) == 0
    assert "converged" in capsys.readouterr().out


# -- --standardize -------------------------------------------------------------------------------------------

def test_cli_standardize(tmp_path, capsys):
    """fit --standardize saves a Pipeline(StandardScaler, MRCClassifier) whose predictions are those of the same
    pipeline fitted in Python; predict applies it without a flag; --history and --export-master work; a model
    saved without --standardize still predicts; predict refuses a Pipeline that does not end in an MRC."""
    X, y = random_problem(240, 4, 3, seed=5)
    X = X * np.array([3.0, 0.5, 20.0, 1.0]) + np.array([1e4, -5e3, 2e5, 800.0])   # raw measurements
    columns = ["length", "width", "area", "mass"]
    train = pd.DataFrame(X[:160], columns=columns).assign(label=y[:160])
    test = pd.DataFrame(X[160:], columns=columns).assign(label=y[160:])
    train.to_csv(tmp_path / "train.csv", index=False)
    test.to_csv(tmp_path / "test.csv", index=False)
    assert cli(["fit", tmp_path / "train.csv", "--standardize", "--save", tmp_path / "std.pkl",
                     "--history", tmp_path / "h.csv", "--export-master", tmp_path / "master.lp"]) == 0
    out = capsys.readouterr().out
    assert "3 classes, standardised" in out
    assert len(pd.read_csv(tmp_path / "h.csv")) >= 1 and (tmp_path / "master.lp").stat().st_size > 0
    with open(tmp_path / "std.pkl", "rb") as f:
        saved = pickle.load(f)
    assert isinstance(saved, Pipeline) and isinstance(saved.steps[0][1], StandardScaler)
    assert saved.steps[0][1].with_mean and isinstance(saved.steps[-1][1], MRCClassifier)

    assert cli(["predict", tmp_path / "std.pkl", tmp_path / "test.csv", "--proba",
                     "--output", tmp_path / "p.csv"]) == 0
    predicted = pd.read_csv(tmp_path / "p.csv")
    train_back, test_back = pd.read_csv(tmp_path / "train.csv"), pd.read_csv(tmp_path / "test.csv")
    reference = make_pipeline(StandardScaler(), MRCClassifier()).fit(train_back[columns], train_back.label)
    assert np.array_equal(predicted.prediction, reference.predict(test_back[columns]))
    assert np.allclose(predicted[["p_0", "p_1", "p_2"]], reference.predict_proba(test_back[columns]))

    assert cli(["fit", tmp_path / "train.csv", "--quiet", "--save", tmp_path / "raw.pkl"]) == 0
    assert cli(["predict", tmp_path / "raw.pkl", tmp_path / "test.csv", "--output", tmp_path / "r.csv"]) == 0
    raw = MRCClassifier().fit(train_back[columns], train_back.label)
    assert np.array_equal(pd.read_csv(tmp_path / "r.csv").prediction, raw.predict(test_back[columns]))
    capsys.readouterr()

    # the model's checks stay: column order, and the type of the loaded object
    test[columns[::-1]].to_csv(tmp_path / "reordered.csv", index=False)
    assert "another order" in cli_error(capsys, ["predict", tmp_path / "std.pkl", tmp_path / "reordered.csv"])
    with open(tmp_path / "logistic.pkl", "wb") as f:
        pickle.dump(make_pipeline(StandardScaler(), LogisticRegression()), f)
    message = cli_error(capsys, ["predict", tmp_path / "logistic.pkl", tmp_path / "test.csv"])
    assert "a Pipeline ending in a LogisticRegression, not an MRCClassifier or a Pipeline ending in one" in message


def test_cli_standardize_sparse_scales_without_centring(data_files, capsys):
    d = data_files
    assert cli(["fit", d / "bc.svm", "--standardize", "--quiet", "--save", d / "s.pkl"]) == 0
    with open(d / "s.pkl", "rb") as f:
        saved = pickle.load(f)
    assert isinstance(saved, Pipeline) and not saved.steps[0][1].with_mean
    assert cli(["predict", d / "s.pkl", d / "bc.svm", "--output", d / "p.csv"]) == 0
    assert len(pd.read_csv(d / "p.csv")) == 569
    capsys.readouterr()
    pd.DataFrame(np.ones((4, 3)), columns=["a", "b", "c"]).to_csv(d / "three.csv", index=False)
    assert "has 3 features; the model expects 30" in cli_error(capsys, ["predict", d / "s.pkl", d / "three.csv"])


# -- the progress display ------------------------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("where", ["terminal", "pipe", "quiet"])
def test_cli_progress_display(data_files, capsys, monkeypatch, where):
    """The CLI leaves the display to the estimator: verbose=1 (a live line on stderr) when stderr is a
    terminal, verbose=2 (the iteration log on stdout) when it is not, 0 with --quiet; never a callback."""
    from mrc_pyomo.display.log import LOG_HEADER, format_record
    d = data_files
    seen = []
    fit = MRCClassifier.fit

    def recording_fit(self, X, y):
        seen.append((self.verbose, self.callback))
        return fit(self, X, y)

    monkeypatch.setattr(MRCClassifier, "fit", recording_fit)
    if where == "terminal":
        monkeypatch.setattr(sys, "stderr", _Terminal())
    args = ["fit", d / "bc.csv", "--label", "diagnosis", "--history", d / "h.csv"]
    assert cli(args + (["--quiet"] if where == "quiet" else [])) == 0
    out = capsys.readouterr().out
    assert seen == [({"terminal": 1, "pipe": 2, "quiet": 0}[where], None)]
    assert type(seen[0][0]) is int and "\r" not in out and "\033" not in out
    if where == "pipe":   # a log file or a pipe gets the iteration log: its header and a line per master
        history = pd.read_csv(d / "h.csv")
        lines = out.splitlines()
        start = lines.index(LOG_HEADER) + 1
        assert lines[start:start + len(history)] == [format_record(r) for r in history.to_dict("records")]
    if where == "quiet":
        assert LOG_HEADER not in out
