"""MRC-CCG's entry in the registry of methods (:mod:`mrc_pyomo.methods.ccg.method`): registered under ``"ccg"`` with
its config, columns and log; its steps are the loop's (one :class:`IterationState` per master), and in the regime
``"full"`` the full LP's with the same settings (one solve of every row, no iteration, ``R*`` of an independent LP);
its log line is :func:`~mrc_pyomo.display.log.format_record`'s."""

import numpy as np
import pytest

from helpers import reference_R_star, scaled_problem
from mrc_pyomo.display.log import LOG_HEADER, format_record
from mrc_pyomo.methods import full_lp, get_method
from mrc_pyomo.methods.ccg import method
from mrc_pyomo.methods.ccg.config import CCGConfig, configure
from mrc_pyomo.methods.ccg.record import IterationState
from mrc_pyomo.methods.history import HISTORY_COLUMNS
from mrc_pyomo.methods.result import finish
from mrc_pyomo.problem import MRCProblem

K = 3


@pytest.fixture(scope="module")
def case():
    Psi, y_idx, tau, lam = scaled_problem(20, 2, K, False, seed=6)
    return MRCProblem.from_arrays(Psi, y_idx, tau, lam), reference_R_star(Psi, y_idx, K, 0.01)


def test_the_registry_s_entry():
    entry = get_method("ccg")
    assert entry is method.METHOD and entry.title == "MRC-CCG"
    assert entry.configure is configure and entry.steps is method.steps
    assert entry.columns == tuple(HISTORY_COLUMNS) and entry.masters and entry.reduces
    assert entry.warm_starts and entry.routed and entry.iterations is None
    assert entry.log_line is method.log_line and entry.log_header == LOG_HEADER


@pytest.mark.parametrize("config", [None, CCGConfig(regime="n", eps_1=0.0), CCGConfig(regime="nm", eps_1=0.0)])
def test_the_steps_are_the_loop_s(case, config):
    problem, R_star = case
    steps = method.steps(problem, config)
    states = [next(steps)]
    assert isinstance(states[0], IterationState) and states[0].iteration == 1
    result = None
    try:
        while True:
            states.append(steps.send(False))
    except StopIteration as end:
        result = end.value
    assert [s.iteration for s in states] == list(range(1, len(states) + 1)) == [r["iteration"] for r in
                                                                                 result.history]
    assert result.status == "converged" and result.lower - 1e-7 <= R_star <= result.upper + 1e-7


def test_the_regime_full_solves_the_full_lp(case):
    """No iteration to watch, the master of every row ``(i, C)`` and feature, and ``R*``."""
    problem, R_star = case
    steps = method.steps(problem, CCGConfig(regime="full", eps_1=0.0))
    with pytest.raises(StopIteration) as end:
        next(steps)
    result = end.value.value
    assert result.history == [] and result.status == "converged"
    assert result.master.n_rows == problem.n_samples * (2 ** K - 1)
    assert len(result.master.features) == problem.tau.size
    assert result.upper == pytest.approx(R_star, abs=1e-7) and result.lower <= R_star + 1e-7


def test_the_regime_full_passes_its_settings_to_the_full_lp(case, monkeypatch):
    problem, _ = case
    calls = []

    def full_steps(problem, config=None, *, start=None, deadline=None, log=None):
        calls.append((problem, config, deadline, log))
        yield from ()
        return "the full LP's result"

    monkeypatch.setattr(full_lp, "steps", full_steps)
    log, deadline = [].append, object()
    config = CCGConfig(regime="full", eps_1=0.02, solver="highs", solver_options={"threads": 1},
                       formulation="compact")
    assert finish(method.steps(problem, config, deadline=deadline, log=log)) == "the full LP's result"
    [(given, lp_config, given_deadline, given_log)] = calls
    assert given is problem and given_deadline is deadline and given_log is log
    assert isinstance(lp_config, full_lp.LPConfig)
    assert (lp_config.eps_1, lp_config.solver, lp_config.solver_options, lp_config.formulation) == (
        0.02, "highs", {"threads": 1}, "compact")


def test_the_log_line_is_the_record_s_format(case):
    problem, _ = case
    records = []
    finish(method.steps(problem, CCGConfig(eps_1=0.0), log=records.append))
    assert records
    for record in records:
        assert method.log_line(record) == format_record(record)
        assert len(method.log_line(record)) == len(LOG_HEADER)
    failed = dict(records[0], R_master=np.nan, solver_status="error")
    assert method.log_line(failed) == format_record(failed)
