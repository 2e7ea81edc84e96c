"""A stepped fit (``MRCClassifier.steps``): it runs in the caller's thread only inside ``next()``, writes nothing into
the estimator until it ends, ends as a callback's stop when the iteration is left (``close``, ``break``, dropped),
is dropped unfinished at the end of the program, and never mixes with another fit of the same estimator."""

import gc
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy as np
import pytest
from helpers import random_problem
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from mrc_pyomo import MRCClassifier


def problem():
    return random_problem(120, 3, 3, seed=2)


def run_script(body, timeout=60):
    """Run ``body`` as a script; its output, and the seconds between its last line and the process's exit."""
    script = textwrap.dedent(body) + "\nimport time, sys\nprint('END', repr(time.time()), flush=True)\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout)
    ended = time.time()
    last = [line for line in out.stdout.splitlines() if line.startswith("END ")]
    return out, (ended - float(last[-1].split()[1])) if last else None


PAUSED = """
    import numpy as np
    from mrc_pyomo import MRCClassifier
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(200, 4)), rng.integers(0, 3, 200)
    it = MRCClassifier(n_max=5).steps(X, y)
    state = next(it)
    print("paused at", state.iteration, flush=True)
"""


def test_a_script_that_ends_with_a_paused_fit_exits_at_once():
    """``state = next(it)`` as a script's last line: the program exits at once (it hung for ever on a non-daemon
    fit thread); "at once" is within 10 s, the interpreter's shutdown on a loaded machine with room to spare
    (1.06 s was seen with the suite on two processes)."""
    out, lag = run_script(PAUSED)
    assert out.returncode == 0, out.stderr
    assert "paused at 1" in out.stdout and lag is not None and lag < 10.0, lag
    assert "Exception ignored" not in out.stderr


def test_a_script_whose_code_raises_while_a_fit_is_paused_exits_at_once():
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(PAUSED) + "raise ValueError('user code fails')\n"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "ValueError: user code fails" in out.stderr
    assert "Exception ignored" not in out.stderr


def test_a_paused_fit_leaves_the_estimator_as_it_was():
    """While paused, a fresh estimator is not fitted (NotFittedError, not AttributeError), and a fitted one keeps
    its model, its data's width and its predictions."""
    X, y = problem()
    fresh = MRCClassifier(n_max=5)
    steps = fresh.steps(X, y)
    next(steps)
    assert not hasattr(fresh, "n_features_in_")
    with pytest.raises(NotFittedError):
        fresh.predict(X)
    with pytest.warns(ConvergenceWarning):
        steps.close()
    X2, y2 = random_problem(80, 5, 2, seed=3)
    fitted = MRCClassifier(n_max=5).fit(X, y)
    before = fitted.predict(X)
    steps = fitted.steps(X2, y2)
    next(steps)
    assert fitted.n_features_in_ == X.shape[1] and np.array_equal(fitted.predict(X), before)
    assert len(fitted.classes_) == 3
    with pytest.warns(ConvergenceWarning):
        steps.close()
    assert fitted.n_features_in_ == X2.shape[1] and len(fitted.classes_) == 2 and fitted.status_ == "callback"


def test_breaking_out_of_a_loop_ends_the_fit_as_a_callback_stop():
    """The iterator still referenced after ``break``: the fit ends there, the estimator fitted (it stayed paused
    and half-written)."""
    X, y = problem()
    clf = MRCClassifier(n_max=5)
    steps = clf.steps(X, y)
    with pytest.warns(ConvergenceWarning, match="callback"):
        for state in steps:
            if state.iteration == 2:
                break
    assert clf.status_ == "callback" and clf.n_iter_ == 2 and clf.predict(X).shape == y.shape
    with pytest.raises(StopIteration):   # the loop owned the fit: it has ended
        next(steps)
    assert "ended" in repr(steps)


def test_dropping_a_paused_iterator_ends_its_fit():
    X, y = problem()
    clf = MRCClassifier(n_max=5)
    steps = clf.steps(X, y)
    next(steps)
    with pytest.warns(ConvergenceWarning, match="callback"):
        del steps
        gc.collect()
    assert clf.status_ == "callback" and clf.n_iter_ == 1


def test_one_fit_at_a_time():
    """A second iterator, or ``fit``, while a fit is paused is refused; once it is closed the estimator fits
    again, and the closed fit never overwrites the later one."""
    X, y = problem()
    X2, y2 = random_problem(90, 4, 2, seed=4)
    clf = MRCClassifier(n_max=5)
    first = clf.steps(X, y)
    next(first)
    second = clf.steps(X2, y2)
    with pytest.raises(RuntimeError, match="paused after iteration 1.*close"):
        next(second)
    with pytest.raises(RuntimeError, match="paused after iteration 1"):
        clf.fit(X2, y2)
    assert not hasattr(clf, "n_features_in_")   # the refused fits wrote nothing either
    with pytest.warns(ConvergenceWarning):
        first.close()
    clf.fit(X2, y2)
    mu, classes = clf.mu_.copy(), clf.classes_.copy()
    del first, second
    gc.collect()
    assert np.array_equal(clf.mu_, mu) and np.array_equal(clf.classes_, classes)
    assert clf.n_features_in_ == X2.shape[1] and clf.mu_.shape[0] == len(clf.classes_) == 2


def test_a_fit_that_fits_its_own_estimator_from_its_callback_is_refused():
    X, y = problem()
    clf = MRCClassifier(n_max=5)
    clf.set_params(callback=lambda state: clf.fit(X, y))
    with pytest.raises(RuntimeError, match="being fitted"):
        clf.fit(X, y)
    assert not hasattr(clf, "mu_")
    clf.set_params(callback=None).fit(X, y)   # and the estimator is free again
    assert clf.status_ == "converged"


def test_steps_run_in_the_callers_thread_and_warn_at_its_line():
    """No thread is started, and the fit's warnings point at this file (they came from threading.py)."""
    X, y = problem()
    threads = threading.active_count()
    clf = MRCClassifier(n_max=5, max_iter=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for state in clf.steps(X, y):
            assert threading.active_count() == threads
    assert clf.status_ == "max_iter"
    assert caught and {w.filename for w in caught} == {__file__}, [(w.filename, str(w.message)) for w in caught]


def test_an_error_in_the_callback_leaves_the_estimator_as_it_was():
    X, y = problem()

    def failing(state):
        raise ZeroDivisionError("the callback fails")
    clf = MRCClassifier(n_max=5, callback=failing)
    steps = clf.steps(X, y)
    with pytest.raises(ZeroDivisionError):
        next(steps)
    assert not hasattr(clf, "mu_") and "ended" in repr(steps)
    clf.set_params(callback=None).fit(X, y)   # free again
    assert clf.status_ == "converged"


def test_a_paused_fit_refuses_what_would_mix_it_up():
    """While a fit is paused: ``set_params`` (the fit would end with other parameters' attributes), a copy or a
    pickle of its steps, and a ``next()`` from its own callback are refused."""
    import copy
    import pickle
    X, y = problem()
    clf = MRCClassifier(n_max=5)
    steps = clf.steps(X, y)
    next(steps)
    with pytest.raises(RuntimeError, match="paused.*before setting its parameters"):
        clf.set_params(lambda0=1.0)
    assert clf.lambda0 == 0.01
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot be copied"):
            attempt(steps)
    with pytest.warns(ConvergenceWarning):
        steps.close()
    clf.set_params(lambda0=1.0)   # free again
    inner = MRCClassifier(n_max=5, callback=lambda state: next(inner_steps))   # it runs inside next()
    inner_steps = inner.steps(X, y)
    with pytest.raises(RuntimeError, match="one step at a time"):
        next(inner_steps)
    assert not hasattr(inner, "mu_")


def test_parameters_set_before_the_fit_starts_are_checked_when_it_starts():
    """``steps()`` checks the parameters, and the fit checks them again at its first ``next()``: a ``set_params``
    in between (allowed: no fit runs yet) cannot slip an invalid value into the fit (it ran MRC-CCG for
    method="foo", and raised from HiGHS for lambda0=-1)."""
    from sklearn.utils._param_validation import InvalidParameterError
    X, y = problem()
    for bad in ({"method": "foo"}, {"lambda0": -1.0}, {"max_iter": -3}):
        clf = MRCClassifier()
        steps = clf.steps(X, y)
        clf.set_params(**bad)
        with pytest.raises(InvalidParameterError, match=next(iter(bad))):
            next(steps)
        assert not hasattr(clf, "n_features_in_") and "ended" in repr(steps)


def test_a_state_kept_after_its_step_refuses_a_later_master():
    """The loop changes one master object from step to step: a kept state's ``master`` and ``model`` raise
    instead of showing a later master (they all showed the last one), and its own values stay valid."""
    X, y = problem()
    clf = MRCClassifier(n_max=5)
    states = []
    for state in clf.steps(X, y):
        assert state.model is state.master.model   # while the loop waits at it
        states.append(state)
    assert len(states) > 2
    with pytest.raises(RuntimeError, match="master of iteration 1 has changed"):
        states[0].model
    assert [s.record["R_master"] for s in states] == list(clf.history_.R_master)
    assert states[-1].master is clf.master_   # the last master is the fitted one


def test_a_fit_running_in_a_daemon_thread_at_exit_ends_with_it_quietly():
    """A daemon thread still inside ``next()`` when the program ends: no error at exit (the exit's clean-up tried
    to close a generator that was running)."""
    out, lag = run_script("""
        import threading, time
        import numpy as np
        from mrc_pyomo import MRCClassifier
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(3000, 20)), rng.integers(0, 8, 3000)   # many short masters: one row each
        it = MRCClassifier(n_max=1, eps_1=0.0, lambda0=1e-4).steps(X, y)
        threading.Thread(target=lambda: list(it), daemon=True).start()
        time.sleep(1.0)
        print(repr(it), flush=True)
    """)
    assert out.returncode == 0 and "running iteration" in out.stdout, (out.stdout, out.stderr)
    assert "Exception ignored" not in out.stderr and "Error" not in out.stderr, out.stderr
