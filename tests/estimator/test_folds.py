"""The folds of ``MRCClassifierCV`` (:mod:`mrc_pyomo.estimator.folds`): where they run (the first in this process,
the others in joblib's workers only where their start pays: small data never start any), and the check of the
folds' weights, the training and the held-out ones each."""

import numpy as np
import pytest
from sklearn.datasets import load_iris

from mrc_pyomo import MRCClassifierCV
from mrc_pyomo.estimator import folds
from mrc_pyomo.estimator.folds import (WORKER_START_SECONDS, check_fold_weights, routed_fit_params, run_folds,
                                      workers_pay)


def test_workers_are_started_only_where_they_pay():
    # iris: a fold's path takes about 0.1 s; four more of them take 0.4 s here against 2 s to start two workers
    assert not workers_pay(0.1, 4, 2)
    assert workers_pay(5.0, 4, 2)                     # 2 + 2 x 5 s against 4 x 5 s
    assert not workers_pay(5.0, 4, 1) and not workers_pay(5.0, 1, 8)   # one process, or one fold left
    assert workers_pay(0.1, 4, 2, start_seconds=0.0)
    assert WORKER_START_SECONDS > 1.0


def spied_parallel(monkeypatch):
    """joblib's Parallel in :mod:`~mrc_pyomo.estimator.folds`, each use recorded in the list returned."""
    used = []

    class Recorded(folds.Parallel):
        def __init__(self, *args, **kwargs):
            used.append(kwargs.get("n_jobs", args[0] if args else None))
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(folds, "Parallel", Recorded)
    return used


def test_small_data_with_n_jobs_run_in_this_process_and_give_the_same_choice(monkeypatch):
    """The issue's case: iris with n_jobs=2 took 8 s against 1 s in one process (the workers' start); now no
    worker is started, and the results are those of n_jobs=1."""
    X, y = load_iris(return_X_y=True)
    used = spied_parallel(monkeypatch)
    parallel = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=5, n_jobs=2).fit(X, y)
    assert used == []
    alone = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=5).fit(X, y)
    assert np.array_equal(parallel.scores_, alone.scores_) and parallel.lambda0_ == alone.lambda0_


def test_folds_go_to_the_workers_where_they_pay(monkeypatch):
    X, y = load_iris(return_X_y=True)
    used = spied_parallel(monkeypatch)
    monkeypatch.setattr(folds, "WORKER_START_SECONDS", 0.0)
    cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3, n_jobs=2).fit(X, y)
    assert used == [2]
    assert np.array_equal(cv.scores_, MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3).fit(X, y).scores_)


def test_run_folds_gives_every_result_once_the_first_here():
    calls = [(lambda k: k * k, (k,), {}) for k in range(5)]
    assert sorted(run_folds(calls, n_jobs=None)) == [0, 1, 4, 9, 16]
    assert list(run_folds([], n_jobs=2)) == []


def test_the_training_and_the_held_out_weights_are_checked_each():
    splits = [(np.array([0, 1]), np.array([2, 3])), (np.array([2, 3]), np.array([0, 1]))]
    check_fold_weights(splits, None, None, 2)
    check_fold_weights(splits, np.array([1.0, 0, 1, 0]), np.array([1.0, 1, 1, 1]), 2)
    with pytest.raises(ValueError, match=r"fold 1 \(split1_test_score\).*training samples"):
        check_fold_weights(splits, np.array([1.0, 0, 0, 0]), None, 2)
    with pytest.raises(ValueError, match=r"fold 0 \(split0_test_score\).*held-out samples"):
        check_fold_weights(splits, None, np.array([1.0, 1, 0, 0]), 2)


def test_the_fit_s_parameters_are_split_between_the_splitter_and_the_scorer():
    """Without metadata routing ``groups`` goes to the splitter, the scorer's are decided by its signature (None),
    another name is scikit-learn's ValueError; with routing, scikit-learn routes each to whoever requested it."""
    import sklearn
    from sklearn.metrics import accuracy_score, make_scorer
    from sklearn.model_selection import GroupKFold
    from mrc_pyomo import MRCClassifierCV
    groups, w = np.arange(6) % 3, np.ones(6)
    cv = MRCClassifierCV(cv=GroupKFold(3))
    assert routed_fit_params(cv, w, {"groups": groups}) == ({"groups": groups}, None)
    assert routed_fit_params(cv, None, {}) == ({}, None)
    with pytest.raises(ValueError, match="enable_metadata_routing=True"):
        routed_fit_params(cv, None, {"groups": groups, "other": 1})
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
        split, score = routed_fit_params(cv.set_params(scoring=scorer), w, {"groups": groups})
    assert split["groups"] is groups and score["sample_weight"] is w
