"""The oracles of the MRC LP, pure NumPy / SciPy, never a solver:

* :mod:`~mrc_pyomo.oracles.primal`: CONSTR, the most violated row of every sample (Algorithm 2), ``varphi`` and
  ``R(mu)`` (eq. 3);
* :mod:`~mrc_pyomo.oracles.dual`: FEAT, the dual violations of the features, ``g = F_I^T alpha`` without ``F``;
* :mod:`~mrc_pyomo.oracles.rows`: the paper's rows ``(i, C)``: label subsets, ``F`` and ``b`` (eq. 5);
* :mod:`~mrc_pyomo.oracles.selection`: which rows and features enter or leave the master;
* :mod:`~mrc_pyomo.oracles.certificate`: the certified interval's lower end (the Lagrangian bound);
* :mod:`~mrc_pyomo.oracles.passes`: the forward and backward passes of the first-order methods, and the
  soft-threshold;
* :mod:`~mrc_pyomo.oracles.incumbent`: the best certified rule found, its upper end;
* :mod:`~mrc_pyomo.oracles.rounding`: bounds on the rounding of sums, which make both ends safe in floating point.
"""
