"""MRC-PDHG: a restarted primal-dual hybrid gradient on the saddle form of the MRC LP, its dual a running
certified lower bound and the first master of its certificate, in six modules:

* :mod:`~mrc_pyomo.methods.pdhg.saddle`: the saddle form, the exact prox of its dual part, the nested
  decomposition of a dual iterate into rows of the LP;
* :mod:`~mrc_pyomo.methods.pdhg.bound`: the certified lower bound of a dual iterate, and its rescue;
* :mod:`~mrc_pyomo.methods.pdhg.iteration`: one step, its preconditioner and its residual;
* :mod:`~mrc_pyomo.methods.pdhg.phase`: the iterations with their restarts, primal weight and stops (the
  first-order phase);
* :mod:`~mrc_pyomo.methods.pdhg.tuning`: :class:`PDHGConfig`, every setting and its tuning;
* :mod:`~mrc_pyomo.methods.pdhg.certify`: the method: the phase, then the certificate from the dual's support,
  and its entry in the registry.
"""

from .bound import dual_bound
from .tuning import PDHGConfig, configure
from .certify import FIT_COLUMNS, METHOD, certificate_master, steps
from .phase import phase_steps
from .saddle import dual_prox, empirical_weights, nested_rows, row_thresholds, simplex_shift

__all__ = ["FIT_COLUMNS", "METHOD", "PDHGConfig", "certificate_master", "configure", "dual_bound",
           "dual_prox", "empirical_weights", "nested_rows", "phase_steps", "row_thresholds",
           "simplex_shift", "steps"]
