"""The ways of solving a prepared problem, one room each, registered in :mod:`~mrc_pyomo.methods.registry` with
their config and generator of iterations (:mod:`~mrc_pyomo.methods.result`):

* :mod:`~mrc_pyomo.methods.ccg`: MRC-CCG, constraint and column generation (Algorithm 1), ``method="ccg"``;
* :mod:`~mrc_pyomo.methods.full_lp`: the full LP, ``method="lp"``;
* :mod:`~mrc_pyomo.methods.subgradient`: MRC-SUB, the paper's subgradient baseline, ``method="subgradient"``;
* the first-order methods (:mod:`~mrc_pyomo.methods.first_order`): MRC-FOM (:mod:`~mrc_pyomo.methods.fista`,
  ``method="fom"``) and MRC-PDHG (:mod:`~mrc_pyomo.methods.pdhg`, ``method="pdhg"``), each then MRC-CCG from its
  active rows; the default fit's first-order phases are :mod:`~mrc_pyomo.methods.plan`'s.

Shared: :mod:`~mrc_pyomo.methods.deadline` (the fit's clock), :mod:`~mrc_pyomo.methods.history` (the records of
every method), :mod:`~mrc_pyomo.methods.result` (what every method returns, and its status), the planner
:mod:`~mrc_pyomo.methods.plan` (how a fit runs) and :mod:`~mrc_pyomo.methods.pathwise` (the runner of every plan and
of :func:`mrc_pyomo.mrc_path`).  Importing this package registers the built-in methods.
"""

from . import first_order, fista, full_lp, pathwise, pdhg, subgradient
from .ccg import method as ccg_method
from .registry import METHODS, Method, get_method, register_method

__all__ = ["METHODS", "Method", "ccg_method", "first_order", "fista", "full_lp", "get_method", "pathwise",
           "pdhg", "register_method", "subgradient"]
