"""What a fit shows: :mod:`~mrc_pyomo.display.progress` (the ``verbose`` levels), :mod:`~mrc_pyomo.display.log`
(the format of MRC-CCG's records) and :mod:`~mrc_pyomo.display.plotting`."""
