"""Cross-validation over the regularisation path (:mod:`mrc_pyomo.estimator.cv`, ``MRCClassifierCV``)."""

import warnings

import numpy as np
import pytest

from helpers import SKLEARN_VERSION, random_problem
from mrc_pyomo import MRCClassifier, MRCClassifierCV


def test_cross_validation_chooses_lambda0_over_the_path():
    X, y = random_problem(240, 4, 3, seed=5)
    lambda0s = [0.3, 0.03, 0.003]
    cv = MRCClassifierCV(lambda0s=lambda0s, cv=3, eps_1=1e-4).fit(X, y)
    results = cv.cv_results_
    assert list(results["lambda0"]) == lambda0s and cv.lambda0_ in lambda0s
    assert results["mean_test_score"].shape == (3,) and "split2_test_score" in results
    best = int(np.argmax(results["mean_test_score"]))
    assert cv.lambda0_ == lambda0s[best]
    refit = MRCClassifier(lambda0=cv.lambda0_, eps_1=1e-4).fit(X, y)
    assert np.array_equal(cv.predict(X), refit.predict(X)) and cv.upper_ == pytest.approx(refit.upper_, abs=1e-9)
    assert cv.score(X, y) == refit.score(X, y) and np.allclose(cv.predict_proba(X), refit.predict_proba(X))
    # the folds' scores are those of independent fits at each value
    from sklearn.model_selection import StratifiedKFold
    train, test = next(StratifiedKFold(3).split(X, y))
    fold = [MRCClassifier(lambda0=l, eps_1=1e-4).fit(X[train], y[train]).score(X[test], y[test]) for l in lambda0s]
    assert np.allclose(results["split0_test_score"], fold)


def test_the_cv_estimator_follows_scikit_learn_s_conventions():
    from sklearn.utils.estimator_checks import check_estimator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2), on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:200]) for r in results if r["status"] == "failed"]
    assert not failed


def test_a_value_missing_from_one_fold_cannot_win():
    """The candidate scores best on every fold but one, where it has no score (NaN, as a stage a fold's path did
    not reach): its mean is NaN and it is ranked last, as in scikit-learn's search estimators, with a warning;
    the mean of the folds that reached it (1.0) does not make it win."""
    X, y = random_problem(120, 4, 3, seed=5)
    calls = []

    def scorer(estimator, X_test, y_test):
        calls.append(estimator.lambda0)
        if estimator.lambda0 == 0.01:
            return np.nan if calls.count(0.01) == 1 else 1.0
        return 0.5

    with pytest.warns(UserWarning, match="no score on some fold"):
        cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3, scoring=scorer).fit(X, y)
    assert np.isnan(cv.cv_results_["mean_test_score"][1]) and cv.cv_results_["mean_test_score"][0] == 0.5
    assert list(cv.cv_results_["rank_test_score"]) == [1, 2] and cv.lambda0_ == 0.1


def test_a_scorer_of_nan_everywhere_ranks_every_value_alike():
    X, y = random_problem(120, 4, 3, seed=5)
    with pytest.warns(UserWarning, match="2 of 2 values"):
        cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2, scoring=lambda est, X, y: np.nan).fit(X, y)
    assert list(cv.cv_results_["rank_test_score"]) == [1, 1] and cv.lambda0_ == 0.1


def test_a_feature_map_object_is_a_valid_phi():
    """phi given as an object: its nested parameters (phi__n_components) are not the classifier's own."""
    from mrc_pyomo import RandomFourierFeatures
    X, y = random_problem(80, 3, 2, seed=1)
    cv = MRCClassifierCV(phi=RandomFourierFeatures(n_components=10, random_state=0), lambda0s=[0.1, 0.01],
                         cv=2).fit(X, y)
    assert cv.best_estimator_.mu_.shape == (2, 14)


def test_first_order_is_the_refit_s():
    """``first_order`` reaches the refit (its history shows the phase) and not the folds' paths, which have none."""
    X, y = random_problem(120, 3, 3, seed=2)
    cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2, first_order=True).fit(X, y)
    assert cv.best_estimator_.first_order is True
    assert cv.best_estimator_.history_.phase.iloc[0] == "first-order"
    plain = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2).fit(X, y)
    assert "first-order" not in set(plain.best_estimator_.history_.phase)


def test_folds_run_in_parallel_with_n_jobs_and_are_shown(capfd, monkeypatch):
    """``n_jobs=2`` runs the folds' paths in two processes (joblib; here even for small data: the workers' start
    counted free) and gives the same scores and choice as one process; ``verbose=2`` prints a line per stage of
    each fold, ``verbose=1`` one progress line over the folds' stages on stderr, each followed by the refit's own
    display."""
    monkeypatch.setattr("mrc_pyomo.estimator.folds.WORKER_START_SECONDS", 0.0)
    X, y = random_problem(120, 3, 3, seed=5)
    lambda0s = [0.1, 0.03, 0.01]
    alone = MRCClassifierCV(lambda0s=lambda0s, cv=3, verbose=2).fit(X, y)
    out, err = capfd.readouterr()
    stages = [line for line in out.splitlines() if line.startswith("fold ")]
    assert err == "" and len(stages) == 9 and all("R* in [" in line and "score" in line for line in stages)
    assert [line.split()[1] for line in stages] == ["1/3"] * 3 + ["2/3"] * 3 + ["3/3"] * 3
    assert "converged: R* in [" in out.splitlines()[-1]   # the refit's log ends the output
    parallel = MRCClassifierCV(lambda0s=lambda0s, cv=3, n_jobs=2, verbose=1).fit(X, y)
    out, err = capfd.readouterr()
    assert out == "" and "MRCClassifierCV: 9/9 fold stages" in err and "MRC-CCG: " in err
    for key in ("mean_test_score", "split0_test_score", "split2_test_score", "rank_test_score"):
        assert np.array_equal(parallel.cv_results_[key], alone.cv_results_[key])
    assert parallel.lambda0_ == alone.lambda0_ and parallel.upper_ == alone.upper_


def iris():
    from sklearn.datasets import load_iris
    return load_iris(return_X_y=True)   # sorted by class: 50 samples of each


def no_path(monkeypatch):
    """A fit that reaches a fold's path fails with 'a path ran': the errors below must come before it."""
    def fail(*args, **kwargs):
        raise AssertionError("a path ran")
    monkeypatch.setattr("mrc_pyomo.estimator.folds.mrc_path", fail)


def test_a_scorer_without_sample_weight_is_called_without_them_with_one_warning(monkeypatch):
    """A callable that takes no sample_weight is called without the held-out weights (it used to fail with a
    TypeError after the first fold's path): one warning, decided before any path runs, says the scores are
    unweighted; they are those of the unweighted scorer."""
    X, y = iris()
    scorer = lambda e, X, y: e.score(X, y)   # noqa: E731
    with pytest.warns(UserWarning, match="does not take sample_weight") as record:
        cv = MRCClassifierCV(lambda0s=[0.1], cv=3, scoring=scorer).fit(X, y, sample_weight=np.ones(150))
    mine = [w for w in record if "sample_weight" in str(w.message)]
    assert len(mine) == 1 and mine[0].filename == __file__ and "<lambda>" in str(mine[0].message)
    unweighted = MRCClassifierCV(lambda0s=[0.1], cv=3, scoring=scorer).fit(X, y)
    assert np.allclose(cv.cv_results_["mean_test_score"], unweighted.cv_results_["mean_test_score"])
    no_path(monkeypatch)
    with pytest.warns(UserWarning, match="does not take sample_weight"), pytest.raises(AssertionError):
        MRCClassifierCV(lambda0s=[0.1], cv=3, scoring=scorer).fit(X, y, sample_weight=np.ones(150))


def test_the_held_out_weights_reach_a_scorer_that_takes_them():
    """A callable with a sample_weight parameter or **kwargs gets each fold's held-out weights, without a
    warning; scikit-learn's scorers (a string, the default) weight the scores as before."""
    from sklearn.model_selection import StratifiedKFold
    X, y = iris()
    w = np.random.default_rng(0).uniform(0.1, 3.0, 150)
    seen = []

    def named(estimator, X_test, y_test, sample_weight=None):
        seen.append(sample_weight)
        return estimator.score(X_test, y_test, sample_weight=sample_weight)

    def keywords(estimator, X_test, y_test, **kwargs):
        seen.append(kwargs["sample_weight"])
        return estimator.score(X_test, y_test, **kwargs)

    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*sample_weight", category=UserWarning)
        results = [MRCClassifierCV(lambda0s=[0.01], cv=3, scoring=scoring).fit(X, y, sample_weight=w).cv_results_
                   for scoring in (named, keywords, "accuracy", None)]
    splits = list(StratifiedKFold(3).split(X, y))
    assert len(seen) == 6 and all(np.array_equal(s, w[splits[k % 3][1]]) for k, s in enumerate(seen))
    for k, (train, test) in enumerate(splits):
        fold = MRCClassifier(lambda0=0.01).fit(X[train], y[train], sample_weight=w[train])
        weighted = fold.score(X[test], y[test], sample_weight=w[test])
        assert all(np.allclose(r[f"split{k}_test_score"], [weighted]) for r in results)
    assert not np.allclose(results[0]["mean_test_score"],
                           MRCClassifierCV(lambda0s=[0.01], cv=3).fit(X, y).cv_results_["mean_test_score"])


@pytest.mark.parametrize("scoring, cause", [("acuracy", "did you mean 'accuracy'"), ("r2x", "get_scorer_names")])
def test_an_unknown_scoring_is_refused_before_any_path_runs(monkeypatch, scoring, cause):
    X, y = iris()
    no_path(monkeypatch)
    with pytest.raises(ValueError, match="MRCClassifierCV's scoring='") as error:
        MRCClassifierCV(lambda0s=[0.1], cv=3, scoring=scoring).fit(X, y)
    assert cause in str(error.value) and "check_scoring" not in str(error.value)


@pytest.mark.parametrize("weighted, fold, part", [(slice(0, 50), 0, "training"), (slice(0, 100), 2, "held-out"),
                                                  (slice(50, 150), 0, "held-out")])
def test_a_fold_with_only_zero_weights_is_named_before_any_path_runs(monkeypatch, weighted, fold, part):
    """Unshuffled KFold(3) on iris (sorted by class) with the weight on some classes only: the first fold whose
    training or held-out samples all weigh 0 is named, with the way out; StratifiedKFold spreads them (where the
    weighted samples are of two classes or more)."""
    from sklearn.model_selection import KFold, StratifiedKFold
    X, y = iris()
    w = np.zeros(150)
    w[weighted] = 1.0
    with monkeypatch.context() as patch:
        no_path(patch)
        with pytest.raises(ValueError, match=f"fold {fold} .*{part} samples") as error:
            MRCClassifierCV(lambda0s=[0.1, 0.01], cv=KFold(3)).fit(X, y, sample_weight=w)
    message = str(error.value)
    assert f"split{fold}_test_score" in message and "StratifiedKFold" in message and "fewer folds" in message
    assert "at least one non-zero" not in message
    if len(set(y[w > 0])) > 1:   # weight on one class alone fits no MRC at all
        cv = MRCClassifierCV(lambda0s=[0.1], cv=StratifiedKFold(3)).fit(X, y, sample_weight=w)
        assert np.isfinite(cv.cv_results_["mean_test_score"]).all()


def test_best_index_and_best_score_name_the_chosen_value():
    X, y = random_problem(150, 4, 3, seed=5)
    cv = MRCClassifierCV(lambda0s=[0.003, 0.3, 0.03], cv=3).fit(X, y)
    results = cv.cv_results_
    assert isinstance(cv.best_index_, int) and results["lambda0"][cv.best_index_] == cv.lambda0_
    assert results["rank_test_score"][cv.best_index_] == 1
    assert cv.best_score_ == results["mean_test_score"][cv.best_index_] == np.max(results["mean_test_score"])


def test_lambda0s_as_a_number_is_a_log_spaced_grid_over_the_default_range():
    from mrc_pyomo import mrc_path
    from mrc_pyomo.estimator.path import DEFAULT_LAMBDA0S, lambda0_grid
    assert np.allclose(lambda0_grid(8), DEFAULT_LAMBDA0S)
    assert np.allclose(lambda0_grid(np.int64(3)), [1, 0.0316227766, 1e-3])
    assert list(lambda0_grid(1)) == [1.0]
    X, y = random_problem(90, 3, 3, seed=5)
    cv = MRCClassifierCV(lambda0s=4, cv=3).fit(X, y)
    assert np.allclose(cv.cv_results_["lambda0"], [1, 0.1, 0.01, 0.001]) and cv.scores_.shape == (3, 4)
    assert len(mrc_path(X, y, 2).table) == 2
    for bad in (0, -3, True, 2.5):
        with pytest.raises(ValueError, match="lambda0s"):
            MRCClassifierCV(lambda0s=bad).fit(X, y)


def test_scores_and_coefs_paths_are_the_folds_paths():
    """scores_ holds split<k>_test_score as rows; coefs_paths_[k] the mu of fold k's path, over the classes of all
    the data: NaN on the rows of a class a fold never saw (an iterable of splits whose first fold lacks class 2)."""
    from mrc_pyomo import mrc_path
    X, y = random_problem(150, 4, 3, seed=5)
    lambda0s = [0.1, 0.01]
    lacking = np.flatnonzero(y != 2)[:60]
    splits = [(lacking, np.setdiff1d(np.arange(150), lacking)), (np.arange(0, 100), np.arange(100, 150))]
    cv = MRCClassifierCV(lambda0s=lambda0s, cv=splits).fit(X, y)
    assert cv.scores_.shape == (2, 2) and cv.coefs_paths_.shape == (2, 2, 3, 5)
    for k in range(2):
        assert np.array_equal(cv.scores_[k], cv.cv_results_[f"split{k}_test_score"])
    path = mrc_path(X[splits[1][0]], y[splits[1][0]], lambda0s)
    assert np.array_equal(cv.coefs_paths_[1], np.stack(path.coefs))
    first = mrc_path(X[lacking], y[lacking], lambda0s)
    assert np.isnan(cv.coefs_paths_[0, :, 2]).all()
    assert np.array_equal(cv.coefs_paths_[0, :, :2], np.stack(first.coefs))


def test_refit_false_chooses_without_a_final_fit_and_says_so():
    from sklearn.exceptions import NotFittedError
    X, y = random_problem(120, 3, 3, seed=5)
    cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3).fit(X, y)
    assert hasattr(cv, "best_estimator_")
    fits = []
    original = MRCClassifier.fit

    def counted(self, *args, **kwargs):
        fits.append(self)
        return original(self, *args, **kwargs)
    import unittest.mock
    with unittest.mock.patch.object(MRCClassifier, "fit", counted):
        cv.set_params(refit=False).fit(X, y)   # the same estimator: nothing of the refit before is left
    assert fits == []
    assert {"lambda0_", "best_index_", "best_score_", "cv_results_", "scores_", "coefs_paths_"} <= set(vars(cv))
    assert not hasattr(cv, "best_estimator_")
    assert cv.classes_.tolist() == [0, 1, 2] == list(range(cv.coefs_paths_.shape[2]))   # the class axis's labels
    for call in (lambda: cv.predict(X), lambda: cv.predict_proba(X), lambda: cv.decision_function(X),
                 lambda: cv.score(X, y)):
        with pytest.raises(NotFittedError, match="refit=False.*lambda0_ = "):
            call()
    with pytest.raises(AttributeError, match="refit=False"):
        cv.mu_
    with pytest.raises(NotFittedError, match="not fitted yet"):
        MRCClassifierCV(refit=False).predict(X)


def test_class_weight_weights_the_folds_and_the_refit_with_the_weights_of_all_of_y():
    """class_weight="balanced" is sample_weight = the balanced weights of all of y for the folds' paths and the
    refit (as LogisticRegressionCV), while the validation scores stay unweighted."""
    from sklearn.utils.class_weight import compute_sample_weight
    X, y = random_problem(150, 4, 3, seed=5)
    keep = np.r_[np.flatnonzero(y == 0), np.flatnonzero(y == 1)[:20], np.flatnonzero(y == 2)[:10]]
    X, y = X[keep], y[keep]
    weighted = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3, class_weight="balanced").fit(X, y)

    def unweighted_accuracy(estimator, X_test, y_test):
        return float(np.mean(estimator.predict(X_test) == y_test))
    by_sample = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3, scoring=unweighted_accuracy).fit(
        X, y, sample_weight=compute_sample_weight("balanced", y))
    assert np.array_equal(weighted.coefs_paths_, by_sample.coefs_paths_)
    assert np.array_equal(weighted.scores_, by_sample.scores_)
    assert np.array_equal(weighted.mu_, by_sample.mu_) and weighted.best_estimator_.class_weight == "balanced"
    with pytest.raises(ValueError, match=r"class_weight has weights for \[7\]"):
        MRCClassifierCV(lambda0s=[0.1], cv=3, class_weight={7: 2.0}).fit(X, y)


def test_a_frame_s_feature_names_are_checked_on_every_predicting_surface_as_logistic_regression_cv_does():
    """Fitted on a DataFrame, the refit keeps the column names (``best_estimator_.feature_names_in_``), so the columns
    given in another order are refused by scikit-learn's own check, by the CV estimator and by its best estimator, on
    ``predict``, ``predict_proba``, ``decision_function`` and ``score``, with LogisticRegressionCV's error; the frame
    in the fit's order predicts without a warning (it warned that the refit had no feature names)."""
    import pandas as pd
    from sklearn.linear_model import LogisticRegressionCV
    X, y = iris()
    frame = pd.DataFrame(X, columns=["sepal_length", "sepal_width", "petal_length", "petal_width"])
    reordered = frame[frame.columns[::-1]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # iris's linear MRC never predicts class 1 (test_classifier.py)
        cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2).fit(frame, y)
        # use_legacy_attributes: a parameter from scikit-learn 1.8 on
        modern = {"use_legacy_attributes": False} if "use_legacy_attributes" in LogisticRegressionCV().get_params() \
            else {}
        reference = LogisticRegressionCV(Cs=2, cv=2, l1_ratios=(0,), **modern).fit(frame, y)
    assert list(cv.best_estimator_.feature_names_in_) == list(frame.columns)
    with pytest.raises(ValueError) as expected:
        reference.predict(reordered)
    message = str(expected.value)
    assert message.startswith("The feature names should match those that were passed during fit")
    for estimator in (cv, cv.best_estimator_):
        for call in (lambda: estimator.predict(reordered), lambda: estimator.predict_proba(reordered),
                     lambda: estimator.decision_function(reordered), lambda: estimator.score(reordered, y)):
            with pytest.raises(ValueError) as error:
                call()
            assert str(error.value) == message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        predicted = cv.predict(frame)
    assert np.mean(predicted == y) == cv.score(frame, y) > 0.6


def test_max_iter_bounds_each_lambda0_of_the_folds_paths():
    """``max_iter=2`` gives every candidate its two masters on every fold, as LogisticRegressionCV gives each ``C``
    its ``max_iter``: every value is scored (the smaller ones went unscored, ranked last, and the choice drifted to
    large values); the refit's own two masters end in a ConvergenceWarning, as any fit's."""
    from sklearn.exceptions import ConvergenceWarning
    X, y = random_problem(150, 4, 3, seed=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cv = MRCClassifierCV(lambda0s=[0.3, 0.03, 0.003], cv=3, max_iter=2).fit(X, y)
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "no score on some fold" in m]
    assert [w.category for w in caught] == [ConvergenceWarning] and cv.best_estimator_.n_iter_ == 2
    assert np.isfinite(cv.scores_).all() and np.isfinite(cv.coefs_paths_).all()


def test_groups_reach_the_splitter_with_and_without_metadata_routing():
    """``fit(X, y, groups=g)`` with ``cv=GroupKFold(3)`` (it raised "unexpected keyword argument 'groups'"): the
    folds are the splitter's of those groups, routed by scikit-learn where metadata routing is on, passed on as
    ``GridSearchCV`` passes them where it is off; any other name without routing is refused as scikit-learn
    refuses it."""
    import sklearn
    from sklearn.model_selection import GroupKFold
    X, y = iris()
    groups = np.arange(150) % 6
    train, test = next(GroupKFold(3).split(X, y, groups))
    fold = MRCClassifier(lambda0=0.1).fit(X[train], y[train]).score(X[test], y[test])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # iris's linear rule never predicts class 1
        plain = MRCClassifierCV(lambda0s=[0.1], cv=GroupKFold(3)).fit(X, y, groups=groups)
        with sklearn.config_context(enable_metadata_routing=True):
            routed = MRCClassifierCV(lambda0s=[0.1], cv=GroupKFold(3)).fit(X, y, groups=groups)
    assert plain.cv_results_["split0_test_score"][0] == routed.cv_results_["split0_test_score"][0] == fold
    with pytest.raises(ValueError, match="'groups' parameter should not be None"):
        MRCClassifierCV(lambda0s=[0.1], cv=GroupKFold(3)).fit(X, y)
    with pytest.raises(ValueError, match=r"only supported if enable_metadata_routing=True.*\{'labels'\}"):
        MRCClassifierCV(lambda0s=[0.1], cv=GroupKFold(3)).fit(X, y, groups=groups, labels=y)


def test_with_metadata_routing_the_weights_reach_only_a_scorer_that_requested_them(monkeypatch):
    """Routing on: a scorer that did not request ``sample_weight`` (the default accuracy) refuses it with
    ``UnsetMetadataPassedError``, as LogisticRegressionCV's does (MRCClassifierCV passed the weights to it
    silently), before any path runs, where scikit-learn's routing refuses unrequested metadata (1.9 on); one that
    requested them gets each fold's held-out weights."""
    import sklearn
    from sklearn.exceptions import UnsetMetadataPassedError
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.metrics import accuracy_score, make_scorer
    from sklearn.model_selection import StratifiedKFold
    X, y = iris()
    w = np.random.default_rng(0).uniform(0.1, 3.0, 150)
    with sklearn.config_context(enable_metadata_routing=True):
        if SKLEARN_VERSION >= (1, 9):
            with pytest.raises(UnsetMetadataPassedError, match=r"\[sample_weight\] are passed"):
                LogisticRegressionCV(cv=3, l1_ratios=(0,), use_legacy_attributes=False).fit(X, y, sample_weight=w)
            with monkeypatch.context() as patch:
                no_path(patch)
                for scoring in (None, "accuracy"):
                    with pytest.raises(UnsetMetadataPassedError, match=r"\[sample_weight\] are passed"):
                        MRCClassifierCV(lambda0s=[0.01], cv=3, scoring=scoring).fit(X, y, sample_weight=w)
        requested = make_scorer(accuracy_score).set_score_request(sample_weight=True)
        cv = MRCClassifierCV(lambda0s=[0.01], cv=3, scoring=requested).fit(X, y, sample_weight=w)
    train, test = next(StratifiedKFold(3).split(X, y))
    fold = MRCClassifier(lambda0=0.01).fit(X[train], y[train], sample_weight=w[train])
    assert cv.cv_results_["split0_test_score"][0] == fold.score(X[test], y[test], sample_weight=w[test])
