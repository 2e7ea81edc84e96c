"""The estimator (:mod:`mrc_pyomo.estimator.classifier`): scikit-learn's conventions, its inputs left as given, dense
and sparse data alike, a pickle that keeps the predictions and the master.  Its parameters:
``test_parameters.py``; its fitted attributes: ``test_fitted.py``; its rule (``predict``, ``coef_``):
``test_rule.py``."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import check_estimator

from helpers import random_problem
from mrc_pyomo import MRCClassifier


@pytest.mark.parametrize("estimator", [MRCClassifier(), MRCClassifier(phi="fourier", regime="nm")],
                         ids=["default", "fourier-nm"])
def test_check_estimator(estimator):
    check_estimator(estimator)


def test_inputs_are_not_modified():
    X, y = random_problem(40, 3, 2, seed=4)
    Xs = sp.csr_matrix(X)
    X0, y0, Xs0 = X.copy(), y.copy(), Xs.copy()
    MRCClassifier().fit(X, y)
    MRCClassifier().fit(Xs, y)
    assert np.array_equal(X, X0) and np.array_equal(y, y0) and (Xs != Xs0).nnz == 0


def test_dense_and_sparse_give_the_same_classifier():
    X, y = random_problem(60, 4, 3, seed=5)
    a = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(X, y)
    b = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(sp.csr_matrix(X), y)
    assert a.upper_ == pytest.approx(b.upper_, abs=1e-9)


def test_pickle_roundtrip_keeps_predictions_and_master():
    X, y = random_problem(200, 5, 3, seed=8)
    clf = MRCClassifier().fit(X, y)
    clone = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(clone.predict(X), clf.predict(X))
    # the master can be solved again after unpickling and gives the same R^k
    assert clone.master_.solve().objective == pytest.approx(clf.objective_, abs=1e-9)
    # the fitted master holds only the samples of its rows, not the training data
    assert clone.master_.data.n_samples <= clone.master_.n_rows
