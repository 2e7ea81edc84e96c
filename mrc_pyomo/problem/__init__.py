"""The prepared problem (:class:`MRCProblem`, :func:`prepare`: :mod:`~mrc_pyomo.problem.problem`) and the passes that
make it: :mod:`~mrc_pyomo.problem.estimates` (``tau``, ``lambda``, eq. 2), :mod:`~mrc_pyomo.problem.scaling`,
:mod:`~mrc_pyomo.problem.reduction` and :mod:`~mrc_pyomo.problem.initialization` (a first master).
"""

from .problem import MRCProblem, Rule, prepare

__all__ = ["MRCProblem", "Rule", "prepare"]
