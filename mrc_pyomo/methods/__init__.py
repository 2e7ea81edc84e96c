"""The ways of solving a prepared problem (:class:`~mrc_pyomo.problem.MRCProblem`), one room each, each a function
``solve(problem, config, start=None, ...)`` returning a :class:`~mrc_pyomo.methods.result.FitResult`:

* :mod:`~mrc_pyomo.methods.ccg`: MRC-CCG, constraint and column generation (Algorithm 1);
* :mod:`~mrc_pyomo.methods.continuation`: MRC-CCG along decreasing ``lambda0`` values (the path's core);
* :mod:`~mrc_pyomo.methods.full_lp`: the full LP, solved the fastest way HiGHS can;
* :mod:`~mrc_pyomo.methods.subgradient`: MRC-SUB, the paper's accelerated subgradient baseline;
* :mod:`~mrc_pyomo.methods.first_order`: MRC-FOM, FISTA on the smoothed worst-case risk, then MRC-CCG from
  its active rows;
* :mod:`~mrc_pyomo.methods.anytime`: the default fit, MRC-CCG after a first-order phase where it pays.

Their settings are one :class:`~mrc_pyomo.methods.ccg.config.CCGConfig` (each method reads the fields it uses).
"""
