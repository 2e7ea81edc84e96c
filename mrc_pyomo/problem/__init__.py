"""The prepared problem (:class:`MRCProblem`, made by :func:`prepare`) and the passes that make it:

* :mod:`~mrc_pyomo.problem.problem`: :class:`MRCProblem`, :func:`prepare`, a rule back in the user's units;
* :mod:`~mrc_pyomo.problem.estimates`: ``tau`` and ``lambda`` (eq. 2) per class, without forming ``Phi``;
* :mod:`~mrc_pyomo.problem.scaling`: the column scaling of ``Psi`` (R-invariant) and the centring;
* :mod:`~mrc_pyomo.problem.reduction`: the exact reduction (fixed features, blocked labels);
* :mod:`~mrc_pyomo.problem.initialization`: the centroid rows and initial features of a first master.
"""

from .problem import MRCProblem, Rule, prepare

__all__ = ["MRCProblem", "Rule", "prepare"]
