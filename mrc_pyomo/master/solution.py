"""What a backend returns: the solution of ``P_{I,J}`` (eq. 7) with the duals of ``D_{I,J}`` (eq. 8), or an error."""

from dataclasses import dataclass

import numpy as np


class MasterSolveError(RuntimeError):
    """The solver did not return an optimal solution of the restricted master."""


@dataclass
class MasterSolution:
    """Primal and dual solution of ``P_{I,J}``.

    ``mu`` has shape ``(K, D)`` (zero outside ``J``), ``alpha[r]`` is the dual value of the r-th row of ``I``
    (``alpha >= 0``, ``sum(alpha) = 1 - beta``), ``beta`` that of the ``objective >= 0`` row (0 without it) and
    ``objective`` is ``R^k``.
    """

    mu: np.ndarray
    nu: float
    alpha: np.ndarray
    beta: float
    objective: float
