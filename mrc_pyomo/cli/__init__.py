"""The ``mrc-pyomo`` command (also ``python -m mrc_pyomo``): :mod:`~mrc_pyomo.cli.main`, :mod:`~mrc_pyomo.cli.demo`
(the digits job), :mod:`~mrc_pyomo.cli.data` (data files), :mod:`~mrc_pyomo.cli.models` (saved models)."""
