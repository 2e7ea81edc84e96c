"""The fit's clock (:mod:`mrc_pyomo.methods.deadline`): one deadline per fit, from its start, asked by every
level; tested with a clock that jumps (``deadline.now`` patched), not by timing.  Once the time is up no method
starts another master solve or iteration (the one running ends: one solve's or one pass's overshoot), the status
names what stopped the fit, and a solver's time-out is known by its status, not by the words of its message."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.data.source import InMemorySource
from mrc_pyomo.master import MasterSolveError, MasterTimeLimit, RestrictedMaster
from mrc_pyomo.master.dual_lp import DualLPBackend
from mrc_pyomo.methods import deadline, full_lp
from mrc_pyomo.methods.deadline import Deadline, caller_time_left_out
from mrc_pyomo.problem import prepare
from mrc_pyomo.methods.result import finish


class JumpingClock:
    """A clock that jumps a day ahead once ``jump()`` is called, and counts the master solves and the passes over
    the data made after the jump."""

    def __init__(self, monkeypatch):
        self.offset, self.solves, self.passes = 0.0, 0, 0
        real_now, real_solve, real_pass = deadline.now, RestrictedMaster.solve, InMemorySource.map_reduce
        monkeypatch.setattr(deadline, "now", lambda: real_now() + self.offset)

        def solve(master, *args, **kwargs):
            self.solves += self.jumped
            return real_solve(master, *args, **kwargs)

        def map_reduce(source, *args, **kwargs):
            self.passes += self.jumped
            return real_pass(source, *args, **kwargs)
        monkeypatch.setattr(RestrictedMaster, "solve", solve)
        monkeypatch.setattr(InMemorySource, "map_reduce", map_reduce)

    @property
    def jumped(self):
        return self.offset > 0

    def jump(self):
        self.offset = 86400.0


def test_a_deadline_counts_the_fit_s_own_time(monkeypatch):
    clock = {"now": 100.0}
    monkeypatch.setattr(deadline, "now", lambda: clock["now"])
    limit = Deadline(10.0)
    clock["now"] = 104.0
    assert limit.elapsed() == 4.0 and limit.remaining() == 6.0 and not limit.expired()
    with limit.paused():   # the caller's time at a step
        clock["now"] = 150.0
    assert limit.elapsed() == 4.0 and limit.remaining() == 6.0
    clock["now"] = 160.0
    assert limit.expired() and limit.remaining() == 0.0
    assert Deadline().remaining() is None and not Deadline().expired() and "no limit" in repr(Deadline())

    def steps():
        clock["now"] += 1.0   # the method's own second
        stop = yield "state"
        return stop
    watched = Deadline(5.0)
    run = caller_time_left_out(steps(), watched)
    assert next(run) == "state"
    clock["now"] += 1000.0    # the caller looks at the state for a long time
    with pytest.raises(StopIteration):
        run.send(True)
    assert watched.elapsed() == 1.0


@pytest.mark.parametrize("params", [
    {}, {"continuation": True}, {"first_order": True, "max_iter": 20}, {"method": "fom"}, {"regime": "nm"},
    {"solver": "appsi_highs"}])
def test_once_the_time_is_up_no_master_is_solved(monkeypatch, params):
    """The clock jumps past the limit in the second master's solve: that solve ends, no other starts, the fit
    says "time_limit" (every method, every level: stages, phase, loop, solver)."""
    pytest.importorskip("highspy")
    X, y = random_problem(400, 6, 4, seed=9)
    clock = JumpingClock(monkeypatch)
    real_solve = RestrictedMaster.solve
    calls = {"n": 0}

    def jumping_solve(master, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            clock.jump()
        return real_solve(master, *args, **kwargs)
    monkeypatch.setattr(RestrictedMaster, "solve", jumping_solve)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(eps_1=0.0, n_max=2, time_limit=60.0, **params).fit(X, y)
    assert clf.status_ == "time_limit" and calls["n"] == 2
    assert 0.0 <= clf.lower_ <= clf.upper_


@pytest.mark.parametrize("method, inner", [("fom", "forward"), ("subgradient", "_risk_and_subgradient_row")])
def test_the_first_order_and_subgradient_methods_stop_at_once(monkeypatch, method, inner):
    """A first-order phase, and MRC-SUB, stop after the iteration in which the clock jumped (its fifth pass)."""
    from mrc_pyomo.methods import fista, subgradient
    module = {"fom": fista, "subgradient": subgradient}[method]
    X, y = random_problem(400, 6, 4, seed=9)
    clock = JumpingClock(monkeypatch)
    real, calls = getattr(module, inner), {"n": 0}

    def jumping(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            clock.jump()
        return real(*args, **kwargs)
    monkeypatch.setattr(module, inner, jumping)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(method=method, max_iter=500, time_limit=60.0).fit(X, y)
    assert clf.status_ == "time_limit" and clf.n_iter_ <= 5 and clock.solves == 0


def test_time_spent_preparing_counts(monkeypatch):
    """The deadline starts with the fit: a clock that jumps while the problem is prepared (the feature map: the
    15.6 s of a 5 s limit) leaves the paper's small first master, solved whatever the time, and nothing else."""
    import mrc_pyomo.estimator.fitting as fitting
    X, y = random_problem(400, 6, 4, seed=9)
    clock = JumpingClock(monkeypatch)
    real_prepare = fitting.prepare

    def slow_prepare(*args, **kwargs):
        problem = real_prepare(*args, **kwargs)
        clock.jump()
        return problem
    monkeypatch.setattr(fitting, "prepare", slow_prepare)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(time_limit=5.0, first_order=False).fit(X, y)
    assert clf.status_ == "time_limit" and clf.n_iter_ == 1 and clock.solves == 1


def test_a_fit_stopped_by_max_iter_says_so_with_a_time_limit_set():
    """continuation=True with a time limit that is not reached: a fit whose stages max_iter stops is "max_iter"
    (it said "time_limit" whenever a time limit was set)."""
    X, y = random_problem(300, 5, 4, seed=4)
    with pytest.warns(ConvergenceWarning, match=r"stopped \(max_iter\)"):
        clf = MRCClassifier(continuation=True, max_iter=2, eps_1=0.0, time_limit=3600.0).fit(X, y)
    assert clf.status_ == "max_iter" and clf.n_iter_ == 2 and set(clf.history_.lambda0) != {0.01}


def test_the_full_lp_knows_a_time_out_by_its_status(monkeypatch):
    """A time-out whose message says nothing of time is a time-out; an error whose message says "Time limit" is
    not (the full LP read the words of the message)."""
    X, y = random_problem(60, 3, 3, seed=1)
    problem = prepare(X, y)

    def failing(error):
        def solve(backend, master, time_limit=None, budget=None):
            raise error
        return solve
    monkeypatch.setattr(DualLPBackend, "solve", failing(MasterTimeLimit("HiGHS: model status 'kTimeLimit'")))
    result = finish(full_lp.steps(problem, full_lp.LPConfig(form="simplex"), deadline=Deadline(60.0)))
    assert result.status == "time_limit" and result.lower == 0.0 and result.master is None
    assert result.upper == pytest.approx(1 - 1 / 3, abs=1e-9)   # R(0)
    monkeypatch.setattr(DualLPBackend, "solve", failing(MasterSolveError("Time limit of the licence reached")))
    with pytest.raises(MasterSolveError, match="licence"):
        finish(full_lp.steps(problem, full_lp.LPConfig(form="simplex"), deadline=Deadline(60.0)))


def test_the_caller_s_time_at_a_step_does_not_count(monkeypatch):
    """A callback that takes an hour (the clock jumps inside it) does not use up the fit's time limit."""
    X, y = random_problem(200, 4, 3, seed=3)
    clock = JumpingClock(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = MRCClassifier(time_limit=60.0, n_max=5, callback=lambda state: clock.jump()).fit(X, y)
    assert clf.status_ == "converged" and np.all(clf.history_.seconds_elapsed < 60.0)
