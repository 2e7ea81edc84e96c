"""The ``mrc-pyomo`` command (:mod:`mrc_pyomo.cli.main`): fit, save, predict, its errors (one line, before any fit or
output), --standardize, its progress display (the estimator's ``verbose`` levels), and each command's output
alone on its stream.  The checks of its data files: ``tests/cli/test_data.py``; the ``data_files`` fixture is
in ``tests/conftest.py``."""

import io
import pickle
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

import mrc_pyomo
import mrc_pyomo.cli.help
from helpers import SOLVER_BANNERS, cli, cli_error, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli.main import main as cli_main
from mrc_pyomo.cli.models import load_model
from mrc_pyomo.display.log import LOG_HEADER
from mrc_pyomo.master.highs_backend import quiet_highs


def test_cli_fit_save_predict_export(data_files, capsys):
    d = data_files
    code = cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--eps-1", "0", "--save", str(d / "m.pkl"),
                     "--history", str(d / "h.csv"), "--export-master", str(d / "master.lp")])
    assert code == 0
    out = capsys.readouterr().out
    assert "R^k" in out and "R(mu^k)" in out and "converged: R* in [" in out and "certified gap" in out
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
    (["predict", "{d}/bc.csv", "{d}/bc.csv"], "is a data file, not a model"),
    (["predict", "{d}/m.pkl", "{d}/bc.csv", "--label", "wrong"], "the --label named"),
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
    doc = " ".join(mrc_pyomo.cli.help.EPILOG.split())   # the end of mrc-pyomo --help
    assert "invariant under a positive rescaling" in doc and "not under a shift" in doc


def test_cli_header_counts_with_plurals(data_files, capsys):
    d = data_files
    assert cli(["fit", d / "bc.csv", "--label", "diagnosis", "--max-iter", "1", "--method", "subgradient"]) == 0
    out = capsys.readouterr().out
    assert "bc.csv: 569 samples, 30 features, 2 classes; solver none (MRC-SUB)" in out


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
    saved = load_model(tmp_path / "std.pkl")   # a model file of arrays: read without pickle
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
    message = cli_error(capsys, ["predict", tmp_path / "logistic.pkl", tmp_path / "test.csv", "--trust-pickle"])
    assert "a Pipeline ending in a LogisticRegression, not an MRCClassifier or a Pipeline ending in one" in message
    assert "--trust-pickle" in cli_error(capsys, ["predict", tmp_path / "logistic.pkl", tmp_path / "test.csv"])


def test_cli_standardize_sparse_scales_without_centring(data_files, capsys):
    d = data_files
    assert cli(["fit", d / "bc.svm", "--standardize", "--quiet", "--save", d / "s.pkl"]) == 0
    saved = load_model(d / "s.pkl")
    assert isinstance(saved, Pipeline) and not saved.steps[0][1].with_mean
    assert cli(["predict", d / "s.pkl", d / "bc.svm", "--output", d / "p.csv"]) == 0
    assert len(pd.read_csv(d / "p.csv")) == 569
    capsys.readouterr()
    pd.DataFrame(np.ones((4, 3)), columns=["a", "b", "c"]).to_csv(d / "three.csv", index=False)
    assert "has 3 features; the model expects 30" in cli_error(capsys, ["predict", d / "s.pkl", d / "three.csv"])


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("where", ["terminal", "pipe", "quiet", "wide"])
def test_cli_progress_display(data_files, capsys, monkeypatch, where):
    """The CLI leaves the display to the estimator: verbose=1 (a live line on stderr) when stderr is a
    terminal, verbose=2 (the iteration log on stdout, no line over 100 characters) when it is not, 0 with
    --quiet, 3 (the wide log, every column) with --wide-log, on a terminal too; never a callback."""
    from mrc_pyomo.display.log import LOG_HEADER, WIDE_HEADER, format_record
    d = data_files
    seen = []
    fit = MRCClassifier.fit

    def recording_fit(self, X, y):
        seen.append((self.verbose, self.callback))
        return fit(self, X, y)

    monkeypatch.setattr(MRCClassifier, "fit", recording_fit)
    if where in ("terminal", "wide"):
        monkeypatch.setattr(sys, "stderr", _Terminal())
    args = ["fit", d / "bc.csv", "--label", "diagnosis", "--history", d / "h.csv", "--save", d / "m.model"]
    assert cli(args + {"quiet": ["--quiet"], "wide": ["--wide-log"]}.get(where, [])) == 0
    out = capsys.readouterr().out
    assert seen == [({"terminal": 1, "pipe": 2, "quiet": 0, "wide": 3}[where], None)]
    assert load_model(d / "m.model").verbose is False   # the command's display is not saved with the model
    assert type(seen[0][0]) is int and "\r" not in out and "\033" not in out
    if where == "pipe":   # a log file or a pipe gets the iteration log: its header and a line per master
        history = pd.read_csv(d / "h.csv")
        lines = out.splitlines()
        start = lines.index(LOG_HEADER) + 1
        assert lines[start:start + len(history)] == [format_record(r) for r in history.to_dict("records")]
        assert [line for line in lines if len(line) > 100] == []
    if where == "wide":   # every column
        history = pd.read_csv(d / "h.csv")
        lines = out.splitlines()
        start = lines.index(WIDE_HEADER) + 1
        assert lines[start:start + len(history)] == [format_record(r, wide=True)
                                                     for r in history.to_dict("records")]
    if where in ("quiet", "terminal"):   # the outcome, then the rule's R(mu), in 100 columns
        assert [line for line in out.splitlines() if len(line) > 100] == []
        assert out.splitlines()[-5].startswith("converged: R* in [")
    if where == "quiet":
        assert LOG_HEADER not in out


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "mrc_pyomo.cli.main", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


def test_each_command_writes_only_its_own_output(tmp_path):
    """fit, predict (to stdout: the CSV and nothing else), --version and --help, in their own processes."""
    X, y = random_problem(120, 3, 3, seed=2)
    data = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y)
    data.to_csv(tmp_path / "d.csv", index=False)
    fit = _cli("fit", "d.csv", "--save", "m.pkl", "--quiet", cwd=tmp_path)
    assert fit.returncode == 0 and fit.stderr == ""
    assert fit.stdout.splitlines()[0].startswith("converged: R* in [")
    assert not any(banner in fit.stdout for banner in SOLVER_BANNERS)
    logged = _cli("fit", "d.csv", cwd=tmp_path)   # not a terminal: the iteration log
    assert logged.returncode == 0 and logged.stderr == "" and LOG_HEADER in logged.stdout
    assert not any(banner in logged.stdout for banner in SOLVER_BANNERS)
    predict = _cli("predict", "m.pkl", "d.csv", "--proba", cwd=tmp_path)
    assert predict.returncode == 0
    lines = predict.stdout.splitlines()
    assert lines[0] == "prediction,p_0,p_1,p_2" and len(lines) == 1 + len(y)
    assert all(len(line.split(",")) == 4 for line in lines[1:])
    assert predict.stderr.strip().startswith("error on the given labels:")   # the file has a label column
    for args in (["--version"], ["fit", "--help"], ["predict", "--help"]):
        result = _cli(*args, cwd=tmp_path)
        assert result.returncode == 0 and result.stderr == ""
        assert not any(banner in result.stdout for banner in SOLVER_BANNERS)


def test_cli_standardize_refuses_a_column_too_large_naming_it(tmp_path, capsys):
    """A column of 1e200: its variance overflows inside the scaler, which would fail with 'Input X contains NaN'
    naming no column; the command says which column and why, in one line, before any fit."""
    X, y = random_problem(40, 3, 2, seed=5)
    frame = pd.DataFrame(X, columns=["length", "width", "area"]).assign(label=y)
    frame["area"] = frame["area"] * 1e200
    frame.to_csv(tmp_path / "huge.csv", index=False)
    assert cli(["fit", tmp_path / "huge.csv", "--standardize"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--standardize" in err and "area" in err and "width" not in err
    assert "overflows" in err and "rescale it" in err


def test_cli_first_order_sets_the_phase(data_files, capsys):
    """``--first-order on``: the phase's iterations, then the masters, each bounded by ``--max-iter``; ``off``:
    the masters alone."""
    d = data_files
    for setting, iterations in (("on", {4, 5, 6}), ("off", {3})):
        assert cli(["fit", d / "bc.csv", "--label", "diagnosis", "--max-iter", "3", "--first-order", setting]) == 0
        assert int(re.search(r"(\d+) iterations", capsys.readouterr().out).group(1)) in iterations


def test_cli_wide_log_and_quiet_exclude_each_other(data_files, capsys):
    """--wide-log asks for the log that --quiet leaves out: both at once is argparse's error, before any fit."""
    with pytest.raises(SystemExit) as exit_:
        cli(["fit", data_files / "bc.csv", "--label", "diagnosis", "--quiet", "--wide-log"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "" and "not allowed with argument" in err


def test_python_m_mrc_pyomo_is_the_command_line(data_files):
    """``python -m mrc_pyomo fit ...`` is ``mrc-pyomo fit ...`` (it answered "unrecognized arguments": only the
    digits demo ran there)."""
    result = subprocess.run([sys.executable, "-m", "mrc_pyomo", "fit", str(data_files / "bc.csv"), "--label",
                             "diagnosis", "--quiet", "--eps-1", "0.05"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "is the rule's certified worst-case error" in result.stdout


def test_predict_drops_the_label_column_the_model_was_fitted_with(data_files, capsys):
    """A file that still holds the fit's label column (``--label diagnosis``) is read by ``predict`` without
    ``--label`` (it failed: "non-numeric feature columns" for a text label, or an unexpected column): the model
    file keeps the column's name, and the labels found there are scored."""
    d = data_files
    iris = pd.read_csv(d / "bc.csv")
    iris["diagnosis"] = np.where(iris["diagnosis"] == 1, "benign", "malignant")   # a text label, as iris' species
    iris.to_csv(d / "named.csv", index=False)
    assert cli_main(["fit", str(d / "named.csv"), "--label", "diagnosis", "--quiet", "--eps-1", "0.05", "--save",
                     str(d / "named.npz")]) == 0
    capsys.readouterr()
    assert cli_main(["predict", str(d / "named.npz"), str(d / "named.csv")]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "prediction" and len(out.splitlines()) == 570
    assert "error on the given labels: " in err
    X = iris.drop(columns="diagnosis")
    X.to_csv(d / "features_only.csv", index=False)   # no label column: the features alone are read
    assert cli_main(["predict", str(d / "named.npz"), str(d / "features_only.csv")]) == 0
    assert "error on the given labels" not in capsys.readouterr().err


@pytest.mark.parametrize("order", ["data model", "data data"])
def test_predict_with_its_arguments_swapped_says_the_order(data_files, capsys, order):
    """``predict data.csv model.npz``: the CSV file is recognised as data, and the message says the order MODEL DATA
    (it advised --trust-pickle, which then failed with "unpickling stack underflow")."""
    d = data_files
    assert cli_main(["fit", str(d / "bc.csv"), "--label", "diagnosis", "--quiet", "--eps-1", "0.05", "--save",
                     str(d / "m.npz")]) == 0
    capsys.readouterr()
    second = d / ("m.npz" if order == "data model" else "bc.csv")
    assert cli_main(["predict", str(d / "bc.csv"), str(second)]) == 1
    err = capsys.readouterr().err
    assert "is a data file, not a model" in err and "'mrc-pyomo predict MODEL DATA'" in err
    assert "--trust-pickle" not in err and len(err.strip().splitlines()) == 1

