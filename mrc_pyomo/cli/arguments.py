"""The arguments of the ``mrc-pyomo`` command (:mod:`mrc_pyomo.cli.main`), built for the command asked for only:
those of ``fit`` name the registered methods, which import the library; ``--help`` and ``--version`` need argparse."""

import argparse

from .. import __version__
from .help import COMMANDS, DEMO_HELP, EPILOG, FIT_DESCRIPTION, STANDARDIZE_HELP, PlainFormatter

#: the values of ``--first-order``: the estimator's ``first_order``
FIRST_ORDER = {"auto": "auto", "on": True, "off": False}
#: the help of ``--solver``, the same in ``demo`` and ``fit``
SOLVER_HELP = "'highs' (the built-in HiGHS backend, default) or any Pyomo LP solver name"


def build_parser(prog="mrc-pyomo", commands=COMMANDS):
    """The command line's parser with the arguments of ``commands`` only (module docstring)."""
    parser = argparse.ArgumentParser(
        prog=prog, formatter_class=PlainFormatter,
        description="Minimax risk classifiers (0-1 loss) learned by constraint and column generation.  The same "
                    "command is 'mrc-pyomo' and 'python -m mrc_pyomo' (which, with no command, runs 'demo').",
        epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join(COMMANDS) + "}")
    for name, summary in COMMANDS.items():
        command = sub.add_parser(name, help=summary, formatter_class=PlainFormatter)
        if name in commands:
            ARGUMENTS[name](command)
    return parser


def demo_arguments(demo):
    demo.description = DEMO_HELP
    demo.add_argument("--solver", default="highs", help=SOLVER_HELP)
    demo.add_argument("--eps-1", type=float, default=1e-3, help="target of the certified gap (default 1e-3)")
    demo.add_argument("--wide-log", action="store_true",
                      help="the iteration log with every column (122 characters; the estimator's verbose=3)")
    

def fit_arguments(fit):
    from ..formulations import FORMULATIONS
    from ..methods import METHODS
    fit.description = FIT_DESCRIPTION
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
                     help="MRC-CCG only: first-order phases before the loop ('auto': the plan measured best for "
                          "the data's shape and the time limit: none where masters are cheap, MRC-PDHG's iterations "
                          "for many classes and random Fourier features, FISTA's then PDHG's for images, FISTA's "
                          "for sparse text with a time limit its full LP would not meet or of more than two classes "
                          "and a large LP (else its full LP); with a time limit the loop alone gives way to PDHG's "
                          "iterations if, past a quarter of it, it is still far from certifying; 'on': the route's, "
                          "or PDHG's; 'off': none)")
    fit.add_argument("--solver", default="highs", help=SOLVER_HELP)
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


def predict_arguments(predict):
    predict.description = ("Write one prediction per sample (CSV) to --output or stdout.  A model fitted with "
                           "--standardize standardises the data itself.")
    predict.add_argument("model", help="file written by 'mrc-pyomo fit --save' (model.npz), checked before use")
    predict.add_argument("--trust-pickle", action="store_true",
                         help="read a model that is a pickle (saved by mrc_pyomo 0.1.0): it runs its author's code")
    predict.add_argument("data", help="CSV or svmlight file with the model's features")
    predict.add_argument("--label", help="label column to drop from a CSV file (default: label, if present)")
    predict.add_argument("--format", choices=["auto", "csv", "svmlight"], default="auto")
    predict.add_argument("--sep", default=",", help="separator of a CSV file (default: ,; '\\t' or tab: a tab)")
    predict.add_argument("--proba", action="store_true", help="add the class probabilities")
    predict.add_argument("--output", help="CSV file to write (default: stdout)")


#: the arguments of each command
ARGUMENTS = {"demo": demo_arguments, "fit": fit_arguments, "predict": predict_arguments}
