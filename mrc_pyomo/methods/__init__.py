"""The ways of solving a prepared problem (:class:`~mrc_pyomo.problem.MRCProblem`), one room each, each registered
in :mod:`~mrc_pyomo.methods.registry` with its config and its ``steps(problem, config, *, start, deadline, log)``,
a generator of its iterations that returns a :class:`~mrc_pyomo.methods.result.FitResult`
(:func:`~mrc_pyomo.methods.result.finish` runs them to the end):

* :mod:`~mrc_pyomo.methods.ccg`: MRC-CCG, constraint and column generation (Algorithm 1), ``method="ccg"``;
* :mod:`~mrc_pyomo.methods.full_lp`: the full LP, solved the fastest way HiGHS can, ``method="lp"``;
* :mod:`~mrc_pyomo.methods.subgradient`: MRC-SUB, the paper's accelerated subgradient baseline,
  ``method="subgradient"``;
* the first-order methods (:mod:`~mrc_pyomo.methods.first_order`, what they share): MRC-FOM
  (:mod:`~mrc_pyomo.methods.fista`, FISTA on the smoothed worst-case risk, ``method="fom"``) and MRC-PDHG
  (:mod:`~mrc_pyomo.methods.pdhg`, a primal-dual hybrid gradient on the saddle form, ``method="pdhg"``), each
  then MRC-CCG from its active rows; the default fit's first-order phases (:mod:`~mrc_pyomo.methods.route`).

What they share: :mod:`~mrc_pyomo.methods.result` (the result, the start, the driver of the steps),
:mod:`~mrc_pyomo.methods.deadline` (the fit's clock), :mod:`~mrc_pyomo.methods.registry` (the registry) and
:mod:`~mrc_pyomo.methods.pathwise` (the runner of every fit: first-order phases, then a sequence of ``lambda0``
values, each stage by a method from the one before; the core of every fit and of :func:`mrc_pyomo.mrc_path`).
Importing this package registers the built-in methods.
"""

from . import first_order, fista, full_lp, pathwise, pdhg, subgradient
from .ccg import method as ccg_method
from .registry import METHODS, Method, get_method, register_method

__all__ = ["METHODS", "Method", "ccg_method", "first_order", "fista", "full_lp", "get_method", "pathwise",
           "pdhg", "register_method", "subgradient"]
