"""The ``mrc-pyomo`` command (also ``python -m mrc_pyomo``): :mod:`~mrc_pyomo.cli.main` (its commands and
arguments), :mod:`~mrc_pyomo.cli.demo` (the digits job), :mod:`~mrc_pyomo.cli.data` (reading data files),
:mod:`~mrc_pyomo.cli.models` (saved models)."""
