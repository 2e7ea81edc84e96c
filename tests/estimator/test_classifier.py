"""The estimator (:mod:`mrc_pyomo.estimator.classifier`): scikit-learn's conventions, its inputs left as given, dense
and sparse data alike, a pickle that keeps the predictions and the master.  Its parameters:
``test_parameters.py``; its fitted attributes: ``test_fitted.py``; its rule (``predict``, ``coef_``):
``test_rule.py``."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import check_estimator

from helpers import random_problem
from mrc_pyomo import MRCClassifier


# scikit-learn's check fits 15 samples (shuffled) with weights and the same samples repeated, and compares the
# predicted probabilities: with 430 random Fourier features the MRC's optimum is not unique (both fits reach the
# same R* = 0.0061888077 and tau to 2e-16, at rules 0.89 apart); the weights' equivalence itself is tested in
# tests/estimator/test_sample_weight.py, where it is checked on R*, tau and lambda
NOT_UNIQUE = {f"check_sample_weight_equivalence_on_{kind}_data": "the optimum is not unique: same R*, other rule"
              for kind in ("dense", "sparse")}


@pytest.mark.parametrize("estimator,expected_failed", [(MRCClassifier(), {}),
                                                       (MRCClassifier(phi="fourier", regime="nm"), NOT_UNIQUE)],
                         ids=["default", "fourier-nm"])
def test_check_estimator(estimator, expected_failed):
    check_estimator(estimator, expected_failed_checks=expected_failed)


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


def test_a_rule_that_never_predicts_a_training_class_says_so():
    """Iris with the linear map never predicts class 1 (the certified optimum of that map): the fit warns,
    naming the class, the training accuracy and phi="fourier"; with random Fourier features it does not."""
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    with pytest.warns(UserWarning, match=r"never predicts class 'versicolor' on its training data \(training "
                                         r"accuracy 0\.667\).*phi=\"fourier\"") as caught:
        clf = MRCClassifier().fit(X, labels)
    assert clf.status_ == "converged" and "versicolor" not in clf.predict(X)
    assert clf.score(X, labels) == pytest.approx(float(str(caught[0].message).split("accuracy ")[1][:5]), abs=1e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fourier = MRCClassifier(phi="fourier", random_state=0).fit(X, labels)
    assert set(fourier.predict(X)) == set(labels)


def test_regime_says_where_the_fit_ran():
    """``regime_`` is the regime the fit ran in, not the one asked for: MRC-FOM certifies in ``"n"`` (it said
    ``"nm"`` when asked for it), the full LP and MRC-SUB take the whole problem (``"full"``)."""
    X, y = random_problem(60, 3, 3, seed=5)
    fom = MRCClassifier(method="fom", regime="nm", max_iter=50).fit(X, y)
    assert fom.regime_ == "n" and len(fom.master_.features) == fom.mu_.size   # every feature: the regime "n"
    assert MRCClassifier(method="lp", regime="n").fit(X, y).regime_ == "full"
    with pytest.warns(ConvergenceWarning):
        assert MRCClassifier(method="subgradient", max_iter=20).fit(X, y).regime_ == "full"
    assert MRCClassifier(regime="nm").fit(X, y).regime_ == "nm"
