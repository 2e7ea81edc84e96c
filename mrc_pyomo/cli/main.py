"""``mrc-pyomo``: fit and apply minimax risk classifiers from the command line (the arguments:
:mod:`mrc_pyomo.cli.arguments`; the help on the data and the progress shown: :data:`mrc_pyomo.cli.help.EPILOG`)."""

import os
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np

from .data import CommandError, check_standardizable, missing_labels, plain_label, plural, read_data, separator_hint
from .arguments import FIRST_ORDER, build_parser
from .help import COMMANDS


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
    """Fail now, not after a long fit, if ``path`` cannot be written (a missing or read-only directory, a
    directory, a file type not in ``suffixes``)."""
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
    """The estimator's ``verbose``: 0 with --quiet; 3 (the wide log on stdout) with --wide-log; 1 (a live line)
    when stderr is a terminal; 2 (the iteration log on stdout) otherwise, for a pipe or a log file."""
    if quiet:
        return 0
    if wide:
        return 3
    try:
        return 1 if sys.stderr.isatty() else 2
    except (AttributeError, ValueError):   # no stderr, or a closed one
        return 2


def _fit(args):
    import scipy.sparse as sp
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from .. import MRCClassifier, RandomFourierFeatures
    from ..display.log import LOG_WIDTH, time_split
    from ..display.progress import outcome
    from ..estimator.parameters import validate_parameters
    from ..master import check_solver
    from ..methods import get_method
    from .models import save_model

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
                           f"({', '.join(plain_label(c) for c in classes)}); an MRC needs at least two")
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
        csv_labels = args.labels is None and not sp.issparse(X)   # the labels were a column of the CSV file
        save_model(model, args.save, (args.label or "label") if csv_labels else None)
        print(f"model saved to {args.save}")
    if args.history:
        h.to_csv(args.history, index=False)
        print(f"history written to {args.history}")
    if args.export_master:
        clf.master_.write(args.export_master)
        print(f"master written to {args.export_master}")


def _predict(args):
    import pandas as pd

    from .models import check_argument_order, load_model, saved_label_column
    check_argument_order(args.model, args.data)
    model = load_model(args.model, trust_pickle=args.trust_pickle)
    check_output(args.output, "--output")
    label = args.label if args.label is not None else saved_label_column(args.model)   # the fit's label column
    X, y = read_data(args.data, label, None, args.format, n_features=model.n_features_in_,
                     require_labels=False, sep=args.sep, named=args.label is not None)
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
    """The data's features must be the model's: their number and, for a model fitted on a CSV file, the column
    names in order (the estimator's check, in one line)."""
    import pandas as pd
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


def _demo(args):
    """The digits job (``python -m mrc_pyomo`` with no command): :func:`mrc_pyomo.cli.demo.fit_digits`."""
    from .demo import fit_digits
    fit_digits(args.solver, args.eps_1, args.wide_log)


def main(argv=None, prog="mrc-pyomo"):
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``) and return its exit status; the parser has the
    arguments of the command named only (:func:`~mrc_pyomo.cli.arguments.build_parser`)."""
    argv = sys.argv[1:] if argv is None else [str(arg) for arg in argv]
    named = next((token for token in argv if token in COMMANDS), None)
    args = build_parser(prog, () if named is None else (named,)).parse_args(argv)
    try:
        {"demo": _demo, "fit": _fit, "predict": _predict}[args.command](args)
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
