"""The oracles of the MRC LP, in NumPy / SciPy, never a solver: CONSTR, ``varphi`` and ``R(mu)``
(:mod:`~mrc_pyomo.oracles.primal`, Algorithm 2, eq. 3), FEAT (:mod:`~mrc_pyomo.oracles.dual`), the rows ``(i, C)``
(:mod:`~mrc_pyomo.oracles.rows`, eq. 5), selection (:mod:`~mrc_pyomo.oracles.selection`), first-order passes
(:mod:`~mrc_pyomo.oracles.passes`), and the certified interval's ends (:mod:`~mrc_pyomo.oracles.certificate`,
:mod:`~mrc_pyomo.oracles.incumbent`), safe in floating point (:mod:`~mrc_pyomo.oracles.rounding`).
"""
