"""What a backend returns: the solution of ``P_{I,J}`` (eq. 7) with the duals of ``D_{I,J}`` (eq. 8), or an error."""

from dataclasses import dataclass

import numpy as np


class MasterSolveError(RuntimeError):
    """The solver did not return an optimal solution of the restricted master."""


@dataclass
class MasterSolution:
    """Primal and dual solution of ``P_{I,J}``.

    ``mu`` has shape ``(K, D)`` (zero outside ``J``), ``alpha[r]`` is the dual mass of the r-th item of ``I``
    (``alpha >= 0``, ``sum(alpha) = 1 - beta``; in the paper's formulation the dual value of the row ``(i, C)``),
    ``beta`` that of the ``objective >= 0`` row (0 without it) and ``objective`` is ``R^k``.  ``row_duals`` are
    the duals (``>= 0``) of the LP rows of ``I`` in order and ``columns`` the values of the items' own columns
    (none in the paper's formulation): :mod:`mrc_pyomo.formulations`.
    """

    mu: np.ndarray
    nu: float
    alpha: np.ndarray
    beta: float
    objective: float
    row_duals: np.ndarray
    columns: np.ndarray
