"""MRC-CCG (paper, Algorithm 1): the documented name of :mod:`mrc_pyomo.generation`, whose names it holds.

The loop is :func:`fit_ccg` (:mod:`mrc_pyomo.generation.loop`), its settings :class:`CCGConfig`
(:mod:`~mrc_pyomo.generation.config`), its check step :func:`check_solution`
(:mod:`~mrc_pyomo.generation.check`) and its records :data:`HISTORY_COLUMNS` and :class:`IterationState`
(:mod:`~mrc_pyomo.generation.record`).
"""

from .generation import *  # noqa: F401,F403
from .generation import __all__  # noqa: F401
