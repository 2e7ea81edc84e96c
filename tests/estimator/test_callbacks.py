"""scikit-learn's callbacks on the estimators (:mod:`mrc_pyomo.estimator.callbacks`): ``set_callbacks`` where the
installed scikit-learn has ``sklearn.callback`` (1.9), a fit's tasks (its parts, a first-order phase or a stage at a
``lambda0``, and their iterations), a callback's stop, ``ScoringMonitor``'s scores, ``GridSearchCV`` passing its
callbacks down into the MRC fits, MRCClassifierCV's folds and refit; and nothing of it with a scikit-learn without
callbacks."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_wine

from mrc_pyomo import MRCClassifier, MRCClassifierCV


@pytest.fixture
def callback():
    """:mod:`sklearn.callback`; the tests that take it are skipped with a scikit-learn before 1.9."""
    return pytest.importorskip("sklearn.callback", reason="scikit-learn before 1.9 has no callbacks")


class Recorder:
    """A callback that records each hook: ``(hook, estimator's name, task's name)``; auto-propagated (a
    meta-estimator passes it down) when ``depth`` is given."""

    def __init__(self, depth=False, stop_at=None):
        if depth is not False:
            self.max_propagation_depth = depth
        self.events, self.stop_at = [], stop_at

    def setup(self, estimator, context):
        self.events.append(("setup", context.estimator_name, context.task_name))

    def on_fit_task_begin(self, estimator, context):
        self.events.append(("begin", context.estimator_name, context.task_name))

    def on_fit_task_end(self, estimator, context):
        self.events.append(("end", context.estimator_name, context.task_name))
        return context.task_name == self.stop_at

    def teardown(self, estimator, context):
        self.events.append(("teardown", context.estimator_name, context.task_name))

    def tasks(self, hook="begin", estimator="MRCClassifier"):
        return [task for event, name, task in self.events if event == hook and name == estimator]


def wine(n=90):
    X, y = load_wine(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    keep = np.random.default_rng(0).permutation(len(y))[:n]
    return X[keep], y[keep]


def test_a_fit_shows_its_stages_and_iterations_to_the_callbacks(callback):
    """``set_callbacks`` (there was no such method): the fit is the root task, each stage of ``continuation`` a part
    named by its ``lambda0``, each master a leaf; every task begun is ended, set up and torn down once; the
    ``callback=`` parameter still sees every iteration."""
    X, y = wine()
    recorder, seen = Recorder(), []
    clf = MRCClassifier(continuation=True, callback=seen.append).set_callbacks(recorder)
    clf.fit(X, y)
    stages = list(dict.fromkeys(clf.history_["lambda0"]))
    assert len(stages) > 1 and len(seen) == clf.n_iter_
    assert recorder.tasks() == ["fit"] + [task for stage in stages for task in (
        [f"MRC-CCG at lambda0 = {stage:g}"] + [f"iteration {k}" for k in clf.history_.iteration[
            clf.history_["lambda0"] == stage]])]
    assert sorted(recorder.tasks("end")) == sorted(recorder.tasks("begin"))
    assert [event for event, _, _ in recorder.events].count("setup") == 1 == recorder.events.count(
        ("teardown", "MRCClassifier", "fit"))


def test_a_first_order_phase_is_a_part_of_its_own(callback):
    X, y = wine()
    recorder = Recorder()
    MRCClassifier(first_order=True, max_iter=20).set_callbacks(recorder).fit(X, y)
    parts = [task for task in recorder.tasks() if not task.startswith("iteration") and task != "fit"]
    assert parts[0] == "MRC-PDHG phase" and parts[-1] == "MRC-CCG at lambda0 = 0.01"


def test_a_callback_s_true_end_of_an_iteration_stops_the_fit_there(callback):
    from sklearn.exceptions import ConvergenceWarning
    X, y = wine()
    with pytest.warns(ConvergenceWarning, match=r"stopped \(callback\)"):
        clf = MRCClassifier(eps_1=0.0).set_callbacks(Recorder(stop_at="iteration 2")).fit(X, y)
    assert clf.status_ == "callback" and clf.n_iter_ == 2


def test_scoring_monitor_scores_each_master_s_rule_and_the_fitted_model(callback):
    """``ScoringMonitor`` gets a fitted estimator at each master (the best certified rule so far, in the user's
    units) and at the end of the fit (the fitted model)."""
    X, y = wine()
    monitor = callback.ScoringMonitor(scoring="accuracy")
    clf = MRCClassifier().set_callbacks(monitor).fit(X, y)
    log = monitor.get_logs().data
    assert len(log) == clf.n_iter_ + 1
    assert log[0]["task_name"] == "fit" and log[0]["accuracy"] == clf.score(X, y)
    assert all(0 <= row["accuracy"] <= 1 for row in log)


def test_grid_search_passes_its_callbacks_down_into_each_mrc_fit(callback):
    """``GridSearchCV(MRCClassifier(), ...).set_callbacks(...)`` warned once per inner fit "does not support
    callbacks" and showed nothing of them: each of its fits (2 values x 2 folds, and the refit) is now an
    MRCClassifier fit task within its tree, as LogisticRegression's are."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV
    X, y = wine()
    recorders = {}
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*does not support callbacks")
        for estimator, grid in ((MRCClassifier(), {"lambda0": [0.1, 0.01]}),
                                (LogisticRegression(), {"C": [1.0, 0.1]})):
            recorder = recorders[type(estimator).__name__] = Recorder(depth=None)
            GridSearchCV(estimator, grid, cv=2).set_callbacks(recorder).fit(X, y)
    for name, recorder in recorders.items():
        assert recorder.tasks(estimator=name).count("fit") == 5, name
    assert sum(task.startswith("MRC-CCG at lambda0 = ") for task in recorders["MRCClassifier"].tasks()) == 5


def test_ProgressBar_shows_grid_search_s_mrc_fits_without_a_warning(callback):
    pytest.importorskip("rich")
    from sklearn.model_selection import GridSearchCV
    X, y = wine()
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*does not support callbacks")
        GridSearchCV(MRCClassifier(), {"lambda0": [0.1, 0.01]}, cv=2).set_callbacks(callback.ProgressBar()).fit(X, y)


def test_the_cv_estimator_shows_its_folds_their_stages_and_its_refit(callback):
    """MRCClassifierCV's tasks: each fold with a leaf per ``lambda0`` of its path, then the refit, into which an
    auto-propagated callback passes down (the refit's own MRCClassifier tasks), a plain one not."""
    X, y = wine()
    plain, passed = Recorder(), Recorder(depth=None)
    cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3).set_callbacks(plain, passed).fit(X, y)
    folds = [f"fold {k}" for k in range(3)]
    expected = ["fit"] + [task for fold in folds for task in (fold, "lambda0 = 0.1", "lambda0 = 0.01")] + ["refit"]
    assert plain.tasks(estimator="MRCClassifierCV") == expected
    assert plain.tasks() == [] and passed.tasks()[:2] == ["fit", f"MRC-CCG at lambda0 = {cv.lambda0_:g}"]
    assert "callback" not in MRCClassifierCV(lambda0s=[0.1], cv=2).fit(X, y).best_estimator_.status_


def test_without_sklearn_callback_the_estimators_fit_and_have_no_set_callbacks():
    """With a scikit-learn that has no ``sklearn.callback`` (before 1.9: its import fails), the estimators import,
    fit and predict, and have no ``set_callbacks``."""
    # with scikit-learn 1.9, its own modules are imported before its callbacks are made unimportable (they use them)
    code = ("import sys, sklearn.datasets, sklearn.kernel_approximation, sklearn.linear_model, sklearn.metrics\n"
            "import sklearn.model_selection, sklearn.pipeline\n"
            "try:\n    import sklearn.callback._callback_support\nexcept ImportError:\n    pass\n"
            "sys.modules['sklearn.callback'] = None\n"
            "from sklearn.datasets import load_iris\n"
            "from mrc_pyomo import MRCClassifier, MRCClassifierCV\n"
            "X, y = load_iris(return_X_y=True)\n"
            "clf = MRCClassifier(phi='fourier', random_state=0).fit(X, y)\n"
            "cv = MRCClassifierCV(lambda0s=[0.1], cv=2, phi='fourier', random_state=0).fit(X, y)\n"
            "print(hasattr(clf, 'set_callbacks'), hasattr(cv, 'set_callbacks'), clf.score(X, y) > 0.9)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True"]
