"""MRC-CCG's entry in the registry of methods (:mod:`mrc_pyomo.methods.registry`): its config, steps and iteration log.
In the regime ``"full"`` (:func:`~mrc_pyomo.methods.ccg.config.choose_regime`) its steps are the full LP's
(:mod:`mrc_pyomo.methods.full_lp`).  Imported by :mod:`mrc_pyomo.methods`, not by its package (the full LP imports its
records)."""

from ...display.log import LOG_HEADER, format_record
from .. import full_lp
from ..registry import Method, register_method
from . import loop
from .config import CCGConfig, configure
from ..history import HISTORY_COLUMNS


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """MRC-CCG's steps (:func:`mrc_pyomo.methods.ccg.steps`), or in the regime ``"full"`` the full LP's with the same
    settings (:func:`mrc_pyomo.methods.full_lp.steps`)."""
    config = CCGConfig() if config is None else config
    if config.regime == "full":
        return full_lp.steps(problem, full_lp.LPConfig(eps_1=config.eps_1, solver=config.solver,
                                                       solver_options=config.solver_options,
                                                       formulation=config.formulation), deadline=deadline, log=log)
    return loop.steps(problem, config, start=start, deadline=deadline, log=log)


def log_line(record):
    """A master's line in the iteration log (:func:`mrc_pyomo.display.log.format_record`)."""
    return format_record(record)


METHOD = register_method(Method(
    name="ccg", title="MRC-CCG", configure=configure, steps=steps,
    summary="MRC-CCG: constraint and column generation (the paper's Algorithm 1)", columns=tuple(HISTORY_COLUMNS),
    warm_starts=True, routed=True, log_line=log_line, log_header=LOG_HEADER))
