"""``python -m mrc_pyomo``: the ``mrc-pyomo`` command (:mod:`mrc_pyomo.cli.main`); with no command, ``demo``, an MRC
fitted on scikit-learn's digits data set with its iteration log."""

import sys

from .cli.help import COMMANDS
from .cli.main import main


def run(argv=None):
    """The command line on ``argv``, ``demo`` where it names no command (and asks for no help or version)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not any(token in COMMANDS or token in ("-h", "--help", "--version") for token in argv):
        argv = ["demo", *argv]
    return main(argv, prog="python -m mrc_pyomo")


if __name__ == "__main__":
    sys.exit(run())
