"""``mrc-pyomo``: fit and apply minimax risk classifiers from the command line.

    mrc-pyomo fit data.csv --label class --save model.pkl --history history.csv --export-master master.lp
    mrc-pyomo predict model.pkl new.csv --output predictions.csv

Data: a CSV file with a header (the label column named by --label, default "label"; or labels in a
separate file with --labels; the separator set by --sep, default ",") or a LIBSVM / svmlight file (.svm,
.svmlight, .libsvm or --format svmlight; read as a sparse matrix).  A model fitted on a CSV file knows its
feature columns: 'predict' checks that the new file has the same columns in the same order.
"""

import argparse
import os
import pickle
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from . import __version__

SVMLIGHT_SUFFIXES = {".svm", ".svmlight", ".libsvm"}


class CommandError(Exception):
    """An error to report on one line."""


def read_data(path, label=None, labels_file=None, fmt="auto", n_features=None, require_labels=True, sep=","):
    """``(X, y)`` from a CSV or svmlight file; ``y`` is None when there are no labels and none are required.

    ``X`` is a DataFrame of the feature columns for a CSV file (so the estimator records their names), a
    sparse matrix for an svmlight file."""
    path = Path(path)
    if not path.exists():
        raise CommandError(f"no such file: {path}")
    if fmt == "auto":
        fmt = "svmlight" if path.suffix.lower() in SVMLIGHT_SUFFIXES else "csv"
    if fmt == "svmlight":
        from sklearn.datasets import load_svmlight_file
        try:
            X, y = load_svmlight_file(str(path), n_features=n_features)
        except ValueError as exc:
            raise CommandError(f"{path} is not a valid svmlight file: {exc}") from exc
    else:
        try:
            df = pd.read_csv(path, sep=sep)
        except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
            raise CommandError(f"{path} is not a readable CSV file: {exc}") from exc
        if not len(df):
            raise CommandError(f"{path} has a header but no samples")
        label = "label" if label is None else label
        y = None
        if label in df.columns:
            y = df[label].to_numpy()
            df = df.drop(columns=label)
        elif labels_file is None and require_labels:
            raise CommandError(f"{path} has no column {label!r} (columns: {', '.join(map(str, df.columns[:10]))}"
                               f"{', ...' if len(df.columns) > 10 else ''}); name it with --label or give --labels")
        non_numeric = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
        if non_numeric:
            raise CommandError(f"{path}: non-numeric feature columns {non_numeric[:5]}")
        X = df.astype(float)
    if labels_file is not None:
        labels = Path(labels_file)
        if not labels.exists():
            raise CommandError(f"no such file: {labels}")
        y = pd.read_csv(labels, header=None).iloc[:, 0].to_numpy()
        if len(y) != X.shape[0]:
            raise CommandError(f"{labels} has {len(y)} labels for {X.shape[0]} samples")
    return X, y


def _solver_options(items):
    options = {}
    for item in items or []:
        if "=" not in item:
            raise CommandError(f"--solver-option takes KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        for cast in (int, float):
            try:
                value = cast(value)
                break
            except ValueError:
                pass
        options[key] = value
    return options


def check_output(path, option, suffixes=None):
    """Fail now, not after a long fit, if ``path`` cannot be written: a missing or read-only directory, an
    existing directory, or (``suffixes``) a file type that cannot be written."""
    if path is None:
        return
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise CommandError(f"{option} {path}: the file name must end in {' or '.join(suffixes)}")
    if path.is_dir():
        raise CommandError(f"{option} {path}: is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CommandError(f"{option} {path}: no such directory {parent}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CommandError(f"{option} {path}: not writable")


class Progress:
    """The fit's progress: on a terminal, one line rewritten after each master (iteration, certified interval,
    active rows and features, elapsed time); otherwise the iteration log, a line per master."""

    def __init__(self, stream=None):
        self.stream = sys.stdout if stream is None else stream
        self.live = self.stream.isatty()
        self.start = time.perf_counter()

    def begin(self):
        from .ccg import LOG_HEADER
        if not self.live:
            print(LOG_HEADER, file=self.stream, flush=True)

    def __call__(self, state):
        """The estimator's callback: show the record of this master; never stops the fit."""
        from .ccg import format_record
        r = state.record
        if self.live:
            line = (f"iteration {r['iteration']}: R* in [{r['lower']:.6f}, {r['upper']:.6f}] (gap "
                    f"{r['upper'] - r['lower']:.2e}), {r['n_rows']} rows, {r['n_features']} features, "
                    f"{time.perf_counter() - self.start:.1f} s")
            self.stream.write("\r\033[K" + line)
            self.stream.flush()
        else:
            print(format_record(r), file=self.stream, flush=True)
        return False

    def end(self):
        if self.live:
            self.stream.write("\n")
            self.stream.flush()


def _fit(args):
    from . import MRCClassifier, RandomFourierFeatures
    from .ccg import time_split
    from .master import check_solver

    check_output(args.save, "--save")
    check_output(args.history, "--history")
    check_output(args.export_master, "--export-master", suffixes=(".lp", ".mps"))
    if args.export_master and args.method == "subgradient":
        raise CommandError("--export-master: MRC-SUB (--method subgradient) solves no LP")
    check_solver(args.solver)
    X, y = read_data(args.data, args.label, args.labels, args.format, sep=args.sep)
    phi = args.phi
    if phi == "fourier":
        phi = RandomFourierFeatures(n_components=args.n_components, random_state=args.random_state)
    clf = MRCClassifier(
        phi=phi, lambda0=args.lambda0, fit_intercept=not args.no_intercept, method=args.method,
        solver=args.solver, eps_1=args.eps_1, eps_2=args.eps_2, n_max=args.n_max, m_max=args.m_max,
        max_iter=args.max_iter, regime=args.regime, time_limit=args.time_limit,
        solver_options=_solver_options(args.solver_option), random_state=args.random_state)
    clf._validate_params()   # a bad parameter is reported before anything is printed
    progress = None
    if not args.quiet:
        solver = "none (MRC-SUB)" if args.method == "subgradient" else args.solver
        print(f"{Path(args.data).name}: {X.shape[0]} samples, {X.shape[1]} features, "
              f"{len(np.unique(y))} classes; solver {solver}", flush=True)
        if args.method == "ccg":
            progress = Progress()
            progress.begin()
            clf.set_params(callback=progress)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        try:
            clf.fit(X, y)
        finally:
            if progress is not None:
                progress.end()
    for warning in caught:  # an early stop: one line, not a traceback-like warning
        print(f"mrc-pyomo: warning: {warning.message}", file=sys.stderr)
    clf.set_params(callback=None)
    h = clf.history_
    print(f"{clf.status_}: R* in [{clf.lower_:.8f}, {clf.upper_:.8f}] (certified gap "
          f"{clf.upper_ - clf.lower_:.2e}; R(mu) = {clf.upper_:.8f} is the rule's certified worst-case error), "
          f"training error {1 - clf.score(X, y):.4f}, {clf.n_iter_} iterations")
    if args.method == "ccg" and len(h):
        print(f"{h.seconds_elapsed.iloc[-1]:.2f} s: {time_split(h)}")
    if args.save:
        with open(args.save, "wb") as f:
            pickle.dump(clf, f)
        print(f"model saved to {args.save}")
    if args.history:
        h.to_csv(args.history, index=False)
        print(f"history written to {args.history}")
    if args.export_master:
        clf.master_.write(args.export_master)
        print(f"master written to {args.export_master}")


def _predict(args):
    from . import MRCClassifier

    path = Path(args.model)
    if not path.exists():
        raise CommandError(f"no such file: {path}")
    with open(path, "rb") as f:
        try:
            clf = pickle.load(f)
        except Exception as exc:
            raise CommandError(f"{path} is not a model saved by 'mrc-pyomo fit --save': {exc}") from exc
    if not isinstance(clf, MRCClassifier):
        raise CommandError(f"{path} holds a {type(clf).__name__}, not an MRCClassifier")
    check_output(args.output, "--output")
    X, y = read_data(args.data, args.label, None, args.format, n_features=clf.n_features_in_,
                     require_labels=False, sep=args.sep)
    X = check_columns(clf, X, args.data)
    out = pd.DataFrame({"prediction": clf.predict(X)})
    if args.proba:
        proba = clf.predict_proba(X)
        for k, c in enumerate(clf.classes_):
            out[f"p_{c}"] = proba[:, k]
    if args.output:
        out.to_csv(args.output, index=False)
    else:
        out.to_csv(sys.stdout, index=False)
    if y is not None:
        print(f"error on the given labels: {np.mean(out['prediction'].to_numpy() != y):.4f}", file=sys.stderr)


def check_columns(clf, X, path):
    """The data's features must be the model's: their number, and for a model fitted on a CSV file, the column
    names in the same order (as the estimator itself checks, in one line)."""
    names = getattr(clf, "feature_names_in_", None)
    columns = list(X.columns) if isinstance(X, pd.DataFrame) else None
    if names is not None and columns is not None and columns != list(names):
        names = list(names)
        missing = [c for c in names if c not in columns]
        unexpected = [c for c in columns if c not in names]
        if missing or unexpected:
            raise CommandError(f"{path}: feature columns differ from the model's: missing {missing[:5]}, "
                               f"unexpected {unexpected[:5]}")
        raise CommandError(f"{path}: feature columns in another order than the model's "
                           f"({', '.join(map(str, names[:5]))}{', ...' if len(names) > 5 else ''})")
    if X.shape[1] != clf.n_features_in_:
        raise CommandError(f"{path} has {X.shape[1]} features; the model expects {clf.n_features_in_}")
    if isinstance(X, pd.DataFrame) and names is None:
        return X.to_numpy()   # a model fitted without names (svmlight) takes the values only
    return X


def build_parser():
    parser = argparse.ArgumentParser(
        prog="mrc-pyomo", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Minimax risk classifiers (0-1 loss) learned by constraint and column generation.",
        epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{fit,predict}")

    fit = sub.add_parser("fit", help="learn an MRC from a data file and show the iterations",
                         description="Learn an MRC; prints one line per iteration: the master's value R^k, "
                                     "the certified R(mu^k), the largest violations and the active rows "
                                     "and features.")
    fit.add_argument("data", help="CSV file with a header, or LIBSVM/svmlight file")
    fit.add_argument("--label", help="name of the label column of a CSV file (default: label)")
    fit.add_argument("--labels", help="file with one label per line, for data without a label column")
    fit.add_argument("--format", choices=["auto", "csv", "svmlight"], default="auto")
    fit.add_argument("--sep", default=",", help="separator of a CSV file (default: ,)")
    fit.add_argument("--phi", choices=["linear", "fourier"], default="linear", help="feature map")
    fit.add_argument("--n-components", type=int, default=400, help="random Fourier features (with --phi fourier)")
    fit.add_argument("--lambda0", type=float, default=0.01, help="regularisation: lambda = lambda0 * std")
    fit.add_argument("--no-intercept", action="store_true", help="do not add the constant feature")
    fit.add_argument("--method", choices=["ccg", "lp", "subgradient"], default="ccg",
                     help="MRC-CCG (default), the full LP, or MRC-SUB (the subgradient baseline)")
    fit.add_argument("--solver", default="highs",
                     help="'highs' (the built-in HiGHS backend, default) or any Pyomo LP solver name")
    fit.add_argument("--solver-option", action="append", metavar="KEY=VALUE", help="solver option (repeatable)")
    fit.add_argument("--eps-1", type=float, default=1e-3,
                     help="target of the certified gap upper - lower (default 1e-3)")
    fit.add_argument("--eps-2", type=float, default=1e-5, help="dual (feature) violation threshold")
    fit.add_argument("--n-max", type=int, default=400, help="rows added per iteration at most")
    fit.add_argument("--m-max", type=int, default=400, help="features added per iteration at most")
    fit.add_argument("--max-iter", type=int, default=1000)
    fit.add_argument("--time-limit", type=float, help="seconds")
    fit.add_argument("--regime", choices=["auto", "n", "nm"], default="auto")
    fit.add_argument("--random-state", type=int)
    fit.add_argument("--save", metavar="MODEL", help="save the fitted model (pickle) for 'predict'")
    fit.add_argument("--history", metavar="CSV", help="write the iteration history as CSV")
    fit.add_argument("--export-master", metavar="PATH", help="write the last master as .lp or .mps")
    fit.add_argument("--quiet", action="store_true", help="no progress display or iteration log")
    fit.set_defaults(run=_fit)

    predict = sub.add_parser("predict", help="predict with a saved model",
                             description="Write one prediction per sample (CSV) to --output or stdout.")
    predict.add_argument("model", help="file written by 'mrc-pyomo fit --save'")
    predict.add_argument("data", help="CSV or svmlight file with the model's features")
    predict.add_argument("--label", help="label column to drop from a CSV file (default: label, if present)")
    predict.add_argument("--format", choices=["auto", "csv", "svmlight"], default="auto")
    predict.add_argument("--sep", default=",", help="separator of a CSV file (default: ,)")
    predict.add_argument("--proba", action="store_true", help="add the class probabilities")
    predict.add_argument("--output", help="CSV file to write (default: stdout)")
    predict.set_defaults(run=_predict)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except BrokenPipeError:  # the reader (e.g. head) closed the pipe: not an error of ours
        sys.stderr.close()
        return 0
    except (CommandError, ValueError, RuntimeError, OSError) as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"mrc-pyomo: error: {message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
