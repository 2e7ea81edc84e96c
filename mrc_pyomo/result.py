"""What every fit returns: MRC-CCG (:mod:`mrc_pyomo.ccg`), the full LP (:mod:`mrc_pyomo.full_lp`) and MRC-SUB
(:mod:`mrc_pyomo.subgradient`)."""

from dataclasses import dataclass, field

import numpy as np


@dataclass
class FitResult:
    """The result of a fit: the last master (a :class:`~mrc_pyomo.master.RestrictedMaster`; None for MRC-SUB,
    which solves no LP, or for a full LP stopped by its time limit), the best rule ``mu``, the last master's
    value ``objective`` (MRC-SUB: ``upper``), the certified interval ``[lower, upper]`` (``upper = R(mu)``),
    why it stopped (``status``) and one record per iteration (``history``)."""

    master: object
    mu: np.ndarray
    objective: float
    lower: float
    upper: float
    status: str
    history: list = field(default_factory=list)
