"""The ``mrc-pyomo`` command: :mod:`~mrc_pyomo.cli.main` (its commands and arguments), :mod:`~mrc_pyomo.cli.data`
(reading data files), :mod:`~mrc_pyomo.cli.models` (saved models)."""
