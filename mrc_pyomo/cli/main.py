"""``mrc-pyomo``: fit and apply minimax risk classifiers from the command line.

    mrc-pyomo fit data.csv --label class --standardize --save model.npz --history history.csv
    mrc-pyomo predict model.npz new.csv --output predictions.csv

Data: a CSV file with a header (the label column named by --label, default "label"; or labels in a
separate file with --labels, one a line; the separator set by --sep, default ","; '\\t' or tab for a tab)
or a LIBSVM / svmlight file (.svm, .svmlight, .libsvm or --format svmlight; read as a sparse matrix).
Every feature value must be a finite number and every label present: the first empty, NaN or infinite
value is reported with its line and column.  A model fitted on a CSV file knows its feature columns:
'predict' checks that the new file has the same columns in the same order.

Standardise (--standardize) features measured with a large offset relative to their spread (raw
measurements): the worst-case error R of an MRC is invariant under a positive rescaling of a feature
column, but not under a shift of it (examples/standardize.py: on scikit-learn's wine data, R = 0.311 and
test accuracy 0.944 raw, R = 0.248 and accuracy 1.000 standardised).  The saved model then standardises
the data it predicts (a scikit-learn Pipeline of a StandardScaler and the MRCClassifier); for sparse
(svmlight) data the features are scaled, not centred (centring would make them dense).

Progress: on a terminal a live line on stderr; otherwise (a pipe, a log file) the iteration log on stdout,
a line per master within 100 columns; with --wide-log the log with every column (122), on a terminal too;
nothing with --quiet.
"""

import argparse
import os
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from .. import __version__
from ..formulations import FORMULATIONS
from ..methods import METHODS, get_method
from .data import CommandError, check_standardizable, missing_labels, plain, plural, read_data, separator_hint
from .help import FIT_DESCRIPTION, STANDARDIZE_HELP, PlainFormatter
from .models import load_model, save_model

#: the values of ``--first-order``: the estimator's ``first_order``
FIRST_ORDER = {"auto": "auto", "on": True, "off": False}


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


def verbosity(quiet, wide=False):
    """The estimator's ``verbose`` level: 0 with --quiet; 3 (the wide iteration log on stdout) with --wide-log;
    1 (a live line on stderr, drawn by the estimator) when stderr is a terminal; 2 (the iteration log on stdout)
    otherwise, so that a pipe or a log file gets the log."""
    if quiet:
        return 0
    if wide:
        return 3
    try:
        return 1 if sys.stderr.isatty() else 2
    except (AttributeError, ValueError):   # no stderr, or a closed one
        return 2


def _fit(args):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from .. import MRCClassifier, RandomFourierFeatures
    from ..display.log import LOG_WIDTH, time_split
    from ..display.progress import outcome
    from ..estimator.parameters import validate_parameters
    from ..master import check_solver

    check_output(args.save, "--save")
    check_output(args.history, "--history")
    check_output(args.export_master, "--export-master", suffixes=(".lp", ".mps"))
    method = get_method(args.method)
    if args.export_master and not method.masters:
        raise CommandError(f"--export-master: {method.title} (--method {method.name}) solves no LP")
    check_solver(args.solver)
    X, y = read_data(args.data, args.label, args.labels, args.format, sep=args.sep)
    classes = np.unique(y)
    if len(classes) < 2:
        source = args.labels if args.labels is not None else args.data
        raise CommandError(f"{Path(source).name}: the labels have {plural(len(classes), 'class', 'classes')} "
                           f"({', '.join(plain(c) for c in classes)}); an MRC needs at least two")
    phi = args.phi
    if phi == "fourier":
        phi = RandomFourierFeatures(n_components=args.n_components, random_state=args.random_state)
    verbose = verbosity(args.quiet, args.wide_log)
    clf = MRCClassifier(
        phi=phi, lambda0=args.lambda0, fit_intercept=not args.no_intercept, method=args.method,
        solver=args.solver, eps_1=args.eps_1, eps_2=args.eps_2, n_max=args.n_max, m_max=args.m_max,
        max_iter=args.max_iter, regime=args.regime, time_limit=args.time_limit,
        first_order=FIRST_ORDER[args.first_order],
        solver_options=_solver_options(args.solver_option), random_state=args.random_state, verbose=verbose,
        formulation=args.formulation)
    validate_parameters(clf)   # a bad parameter is reported before anything is printed
    model = clf
    if args.standardize:   # scaled only for sparse data: centring would make them dense
        check_standardizable(X, args.data)
        model = make_pipeline(StandardScaler(with_mean=not sp.issparse(X)), clf)
    if not args.quiet:
        solver = args.solver if method.masters else f"none ({method.title})"
        print(f"{Path(args.data).name}: {plural(X.shape[0], 'sample')}, {plural(X.shape[1], 'feature')}, "
              f"{plural(len(classes), 'class', 'classes')}{', standardised' if args.standardize else ''}; "
              f"solver {solver}", flush=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(X, y)
    for warning in caught:  # an early stop: one line, not a traceback-like warning
        print(f"mrc-pyomo: warning: {warning.message}", file=sys.stderr)
    h = clf.history_
    error = f"training error {1 - model.score(X, y):.4f}"
    worst = f"R(mu) = {clf.upper_:.8f} is the rule's certified worst-case error"
    if verbose < 2:   # the estimator's log ends with the status and the certified interval; else this line
        print(outcome(clf.status_, clf.lower_, clf.upper_, clf.n_iter_))
    print(f"{worst}, {error}")
    if "seconds_solve" in h and len(h):   # the masters' records: where their time went
        print(textwrap.fill(f"{h.seconds_elapsed.iloc[-1]:.2f} s: {time_split(h)}", LOG_WIDTH,
                            subsequent_indent="  "))
    if args.save:   # the saved model is quiet: the log level was this command's, not the model's
        clf.set_params(verbose=False)
        save_model(model, args.save)
        print(f"model saved to {args.save}")
    if args.history:
        h.to_csv(args.history, index=False)
        print(f"history written to {args.history}")
    if args.export_master:
        clf.master_.write(args.export_master)
        print(f"master written to {args.export_master}")


def _predict(args):
    model = load_model(args.model, trust_pickle=args.trust_pickle)
    check_output(args.output, "--output")
    X, y = read_data(args.data, args.label, None, args.format, n_features=model.n_features_in_,
                     require_labels=False, sep=args.sep)
    X = check_columns(model, X, args.data, args.sep)
    out = pd.DataFrame({"prediction": model.predict(X)})
    if args.proba:
        proba = model.predict_proba(X)
        for k, c in enumerate(model.classes_):
            out[f"p_{c}"] = proba[:, k]
    if args.output:
        out.to_csv(args.output, index=False)
    else:
        out.to_csv(sys.stdout, index=False)
    if y is not None:
        known = ~missing_labels(y)
        if known.any():
            share = "" if known.all() else f" ({known.sum()} of {plural(len(y), 'sample')} labelled)"
            print(f"error on the given labels{share}: "
                  f"{np.mean(out['prediction'].to_numpy()[known] != y[known]):.4f}", file=sys.stderr)


def check_columns(model, X, path, sep=","):
    """The data's features must be the model's: their number, and for a model fitted on a CSV file, the column
    names in the same order (as the estimator itself checks, in one line)."""
    names = getattr(model, "feature_names_in_", None)
    columns = list(X.columns) if isinstance(X, pd.DataFrame) else None
    hint = separator_hint(columns, "\t" if sep in ("\\t", "tab") else sep) if columns is not None else ""
    if names is not None and columns is not None and columns != list(names):
        names = list(names)
        absent = [c for c in names if c not in columns]
        unexpected = [c for c in columns if c not in names]
        if absent or unexpected:
            raise CommandError(f"{path}: feature columns differ from the model's: missing {absent[:5]}, "
                               f"unexpected {unexpected[:5]}{hint}")
        raise CommandError(f"{path}: feature columns in another order than the model's "
                           f"({', '.join(map(str, names[:5]))}{', ...' if len(names) > 5 else ''})")
    if X.shape[1] != model.n_features_in_:
        raise CommandError(f"{path} has {plural(X.shape[1], 'feature')}; the model expects "
                           f"{model.n_features_in_}{hint}")
    if isinstance(X, pd.DataFrame) and names is None:
        return X.to_numpy()   # a model fitted without names (svmlight) takes the values only
    return X


def build_parser():
    parser = argparse.ArgumentParser(
        prog="mrc-pyomo", formatter_class=PlainFormatter,
        description="Minimax risk classifiers (0-1 loss) learned by constraint and column generation.",
        epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{fit,predict}")

    fit = sub.add_parser("fit", help="learn an MRC from a data file and show the iterations",
                         description=FIT_DESCRIPTION, formatter_class=PlainFormatter)
    fit.add_argument("data", help="CSV file with a header, or LIBSVM/svmlight file")
    fit.add_argument("--label", help="name of the label column of a CSV file (default: label)")
    fit.add_argument("--labels", help="file with one label per line, for data without a label column")
    fit.add_argument("--format", choices=["auto", "csv", "svmlight"], default="auto")
    fit.add_argument("--sep", default=",", help="separator of a CSV file (default: ,; '\\t' or tab: a tab)")
    fit.add_argument("--standardize", action="store_true", help=STANDARDIZE_HELP)
    fit.add_argument("--phi", choices=["linear", "fourier"], default="linear", help="feature map")
    fit.add_argument("--n-components", type=int, default=400, help="random Fourier features (with --phi fourier)")
    fit.add_argument("--lambda0", type=float, default=0.01, help="regularisation: lambda = lambda0 * std")
    fit.add_argument("--no-intercept", action="store_true", help="do not add the constant feature")
    names = sorted(METHODS, key=lambda name: name != "ccg")   # the default first, then as registered
    fit.add_argument("--method", choices=names, default="ccg",
                     help="; ".join(f"{name}: {METHODS[name].summary}" for name in names) + " (default: ccg)")
    fit.add_argument("--first-order", choices=list(FIRST_ORDER), default="auto",
                     help="MRC-CCG only: a first-order phase before the loop, for a good rule early ('auto': "
                          "where the loop is slow to give one, dense features with K * D >= 4000)")
    fit.add_argument("--solver", default="highs",
                     help="'highs' (the built-in HiGHS backend, default) or any Pyomo LP solver name")
    fit.add_argument("--solver-option", action="append", metavar="KEY=VALUE", help="solver option (repeatable)")
    fit.add_argument("--formulation", choices=list(FORMULATIONS), default="paper",
                     help="the master's items: paper, the paper's (sample, label subset) rows (default); compact, "
                          "(sample, class) pairs with a column each; or another registered formulation")
    fit.add_argument("--eps-1", type=float, default=1e-3,
                     help="target of the certified gap upper - lower (default 1e-3)")
    fit.add_argument("--eps-2", type=float, default=1e-5, help="dual (feature) violation threshold")
    fit.add_argument("--n-max", type=int, default=400, help="rows added per iteration at most")
    fit.add_argument("--m-max", type=int, default=400, help="features added per iteration at most")
    fit.add_argument("--max-iter", type=int, help="iterations at most (default: the method's, 1000; 10000 for MRC-SUB)")
    fit.add_argument("--time-limit", type=float, help="seconds")
    fit.add_argument("--regime", choices=["auto", "n", "nm"], default="auto")
    fit.add_argument("--random-state", type=int)
    fit.add_argument("--save", metavar="MODEL", help="save the fitted model for 'predict' (model.npz: a NumPy "
                     "archive of its arrays and parameters, no code)")
    fit.add_argument("--history", metavar="CSV", help="write the iteration history as CSV")
    fit.add_argument("--export-master", metavar="PATH", help="write the last master as .lp or .mps")
    display = fit.add_mutually_exclusive_group()
    display.add_argument("--quiet", action="store_true", help="no progress display or iteration log")
    display.add_argument("--wide-log", action="store_true",
                         help="the iteration log with every column, the largest violations and the solver's seconds "
                              "too (122 characters wide; the estimator's verbose=3), on stdout even on a terminal")
    fit.set_defaults(run=_fit)

    predict = sub.add_parser("predict", help="predict with a saved model", formatter_class=PlainFormatter,
                             description="Write one prediction per sample (CSV) to --output or stdout.  A model "
                                         "fitted with --standardize standardises the data itself.")
    predict.add_argument("model", help="file written by 'mrc-pyomo fit --save' (model.npz), checked before use")
    predict.add_argument("--trust-pickle", action="store_true",
                         help="read a model that is a pickle (saved by mrc_pyomo 0.1.0): it runs its author's code")
    predict.add_argument("data", help="CSV or svmlight file with the model's features")
    predict.add_argument("--label", help="label column to drop from a CSV file (default: label, if present)")
    predict.add_argument("--format", choices=["auto", "csv", "svmlight"], default="auto")
    predict.add_argument("--sep", default=",", help="separator of a CSV file (default: ,; '\\t' or tab: a tab)")
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
