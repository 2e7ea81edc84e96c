"""``fit(X, y, sample_weight=w)``: the weights enter ``tau`` and ``lambda`` (an integer weight is that many copies
of the sample), a sample of weight 0 is not a training sample; through ``mrc_path``, ``MRCClassifierCV``, a
Pipeline and ``cross_validate``; bad weights are refused by name and the user's arrays are not modified."""

import numpy as np
import pytest
from sklearn.model_selection import cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from helpers import random_problem
from mrc_pyomo import MRCClassifier, MRCClassifierCV, mrc_path


def _weights(n, seed=0, low=0):
    return np.random.default_rng(seed).integers(low, 4, size=n)


@pytest.mark.parametrize("K,sparse,method,phi", [(2, False, "ccg", "linear"), (3, True, "ccg", "linear"),
                                                 (4, False, "ccg", "linear"), (3, False, "lp", "linear"),
                                                 (3, False, "fom", "linear"), (3, False, "ccg", "fourier"),
                                                 (2, True, "ccg", "fourier")])
def test_integer_weights_are_repeated_rows_and_zero_weights_dropped_rows(K, sparse, method, phi):
    """Random Fourier features too: their ``gamma="scale"`` is the weighted variance."""
    X, y = random_problem(90, 4, K, sparse=sparse, seed=K)
    w = _weights(len(y), seed=K)
    assert (w == 0).any() and (w > 1).any()
    keep = np.repeat(np.arange(len(y)), w)   # every sample w_i times: those of weight 0 not at all
    params = dict(eps_1=1e-10, method=method, phi=phi, random_state=0)
    weighted = MRCClassifier(**params).fit(X, y, sample_weight=w)
    repeated = MRCClassifier(**params).fit(X[keep], y[keep])
    assert weighted.status_ == repeated.status_ == "converged"
    assert weighted.upper_ == pytest.approx(repeated.upper_, abs=1e-9)
    assert weighted.lower_ == pytest.approx(repeated.lower_, abs=1e-9)
    assert np.allclose(weighted.tau_, repeated.tau_, atol=1e-12)
    assert np.allclose(weighted.lambda_, repeated.lambda_, atol=1e-12)
    # zero weights are dropped rows: the same R*, with the weights of the others
    dropped = MRCClassifier(**params).fit(X[w > 0], y[w > 0], sample_weight=w[w > 0])
    assert dropped.upper_ == pytest.approx(weighted.upper_, abs=1e-9)


def test_equal_weights_are_no_weights_bit_for_bit_and_nothing_given_is_modified():
    X, y = random_problem(80, 3, 3, seed=1)
    plain = MRCClassifier().fit(X, y)
    w = np.full(len(y), 2.5)
    given = (X.copy(), y.copy(), w.copy())
    weighted = MRCClassifier().fit(X, y, sample_weight=w)
    assert weighted.upper_ == plain.upper_ and np.array_equal(weighted.mu_, plain.mu_)
    assert all(np.array_equal(a, b) for a, b in zip((X, y, w), given))


def test_a_class_whose_samples_all_weigh_zero_is_not_a_class():
    X, y = random_problem(90, 3, 3, seed=2)
    w = (y != 2).astype(float)
    clf = MRCClassifier().fit(X, y, sample_weight=w)
    assert list(clf.classes_) == [0, 1]
    with pytest.raises(ValueError, match="at least two classes"):
        MRCClassifier().fit(X, y, sample_weight=(y == 2).astype(float))


@pytest.mark.parametrize("w,match", [
    (-np.ones(60), "Negative values in data passed to `sample_weight`"),
    (np.ones(59), r"sample_weight.shape == \(59,\), expected \(60,\)"),
    (np.zeros(60), "Sample weights must contain at least one non-zero number"),
    (np.r_[np.nan, np.ones(59)], "Input sample_weight contains NaN"),
])
def test_bad_weights_are_refused_by_name(w, match):
    X, y = random_problem(60, 3, 2, seed=3)
    with pytest.raises(ValueError, match=match):
        MRCClassifier().fit(X, y, sample_weight=w)


def test_weights_through_a_path_a_pipeline_and_cross_validation():
    X, y = random_problem(90, 3, 3, seed=4)
    X = X * 3.0 + 1.0
    w = _weights(len(y), seed=4, low=1)
    keep = np.repeat(np.arange(len(y)), w)
    # mrc_path: each stage as a weighted fit at its lambda0
    path = mrc_path(X, y, [0.1, 0.01], sample_weight=w, eps_1=1e-8)
    for lambda0, upper in zip(path.table.lambda0, path.table.upper):
        assert upper == pytest.approx(MRCClassifier(lambda0=lambda0, eps_1=1e-8).fit(X[keep], y[keep]).upper_,
                                      abs=1e-7)
    # a Pipeline routes each step its weights: a weighted scaler and MRC are the repeated rows' pipeline
    weighted = make_pipeline(StandardScaler(), MRCClassifier(eps_1=1e-10))
    weighted.fit(X, y, standardscaler__sample_weight=w, mrcclassifier__sample_weight=w)
    repeated = make_pipeline(StandardScaler(), MRCClassifier(eps_1=1e-10)).fit(X[keep], y[keep])
    assert weighted[-1].upper_ == pytest.approx(repeated[-1].upper_, abs=1e-9)
    # cross_validate passes the weights of each training fold to fit
    scores = cross_validate(MRCClassifier(eps_1=1e-8), X, y, cv=3, params={"sample_weight": w},
                            return_estimator=True, return_indices=True)
    for estimator, train in zip(scores["estimator"], scores["indices"]["train"]):
        alone = MRCClassifier(eps_1=1e-8).fit(X[train], y[train], sample_weight=w[train])
        assert estimator.upper_ == pytest.approx(alone.upper_, abs=1e-12)
    # MRCClassifierCV: weighted folds, refit and scores
    cv = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=3).fit(X, y, sample_weight=w)
    assert cv.best_estimator_.upper_ == pytest.approx(
        MRCClassifier(lambda0=cv.lambda0_).fit(X, y, sample_weight=w).upper_, abs=1e-12)


@pytest.mark.parametrize("scale", [1e306, 1e-300])
def test_only_the_ratios_of_the_weights_matter(scale):
    """Weights scaled by a constant give the same fit: huge ones overflowed the weighted sums (upper_ NaN,
    "stalled"), tiny ones lost digits."""
    X, y = random_problem(90, 4, 3, seed=7)
    w = _weights(len(y), seed=7, low=1).astype(float)
    fit = MRCClassifier(eps_1=1e-9).fit(X, y, sample_weight=w)
    scaled = MRCClassifier(eps_1=1e-9).fit(X, y, sample_weight=w * scale)
    assert scaled.status_ == fit.status_ == "converged"
    assert scaled.upper_ == pytest.approx(fit.upper_, abs=1e-12) and np.allclose(scaled.mu_, fit.mu_, atol=1e-9)


def test_weights_spread_over_twelve_orders_of_magnitude_still_fit():
    """One sample a trillion times heavier than the others: the first master, bounded by its centroid rows,
    was called unbounded by HiGHS's presolve (MasterSolveError); it is solved again from scratch at tighter
    tolerances, as a later master would be, and the fit is certified."""
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    w = np.ones(len(y))
    w[0] = 1e12
    with pytest.warns(UserWarning, match=r"never predicts classes 1, 2 .*: these classes carry 1e-10 of the "
                                         r"sample weight"):
        clf = MRCClassifier().fit(X, y, sample_weight=w)
    assert clf.status_ == "converged" and 0 <= clf.lower_ <= clf.upper_ < 1e-6


@pytest.mark.parametrize("class_weight", ["balanced", {0: 3.0, 2: 0.5}, {"b": 2.0, "c": 0.0}])
def test_class_weight_is_sample_weight_times_the_class_s_weight(class_weight):
    """As scikit-learn's LogisticRegression: the class weights (``"balanced"``: from the weighted class sums)
    multiply ``sample_weight``; the fit is the fit of their product as ``sample_weight``; a class of weight 0 is
    left out; a path takes ``class_weight`` too; nothing given is modified."""
    from sklearn.utils.class_weight import compute_class_weight
    X, y = random_problem(120, 3, 3, seed=4)
    if isinstance(class_weight, dict) and "b" in class_weight:
        y = np.array(["a", "b", "c"])[y]
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    given = (X.copy(), y.copy(), w.copy(), dict(class_weight) if isinstance(class_weight, dict) else class_weight)
    classes = np.unique(y)
    by_class = compute_class_weight(class_weight, classes=classes, y=y, sample_weight=w)
    product = by_class[np.searchsorted(classes, y)] * w
    clf = MRCClassifier(class_weight=class_weight).fit(X, y, sample_weight=w)
    same = MRCClassifier().fit(X, y, sample_weight=product)
    assert np.array_equal(clf.mu_, same.mu_) and clf.upper_ == same.upper_ and np.array_equal(clf.tau_, same.tau_)
    assert list(clf.classes_) == [c for c, weight in zip(classes, by_class) if weight > 0]
    path = mrc_path(X, y, [0.1, 0.01], class_weight=class_weight, sample_weight=w)
    assert path.table["upper"].iloc[-1] == pytest.approx(same.upper_, abs=1e-9)
    assert all(np.array_equal(a, b) for a, b in zip((X, y, w), given[:3])) and class_weight == given[3]
    assert not np.array_equal(clf.mu_, MRCClassifier().fit(X, y, sample_weight=w).mu_)


def test_class_weight_without_sample_weight_and_its_bad_values():
    from sklearn.utils._param_validation import InvalidParameterError
    from sklearn.utils.class_weight import compute_sample_weight
    X, y = random_problem(90, 3, 3, seed=5)
    clf = MRCClassifier(class_weight={1: 4.0}).fit(X, y)
    assert np.array_equal(clf.mu_, MRCClassifier().fit(X, y, sample_weight=compute_sample_weight({1: 4.0}, y)).mu_)
    with pytest.raises(ValueError, match=r"class_weight has weights for \[5\], which are not labels of y.*\[0, 1, 2\]"):
        MRCClassifier(class_weight={1: 2.0, 5: 1.0}).fit(X, y)
    for bad in ({0: -1.0}, {0: np.nan}, {0: "2"}, {0: True}):
        with pytest.raises(InvalidParameterError, match="'class_weight' parameter of MRCClassifier"):
            MRCClassifier(class_weight=bad).fit(X, y)
    with pytest.raises(InvalidParameterError, match="'class_weight' parameter"):
        MRCClassifier(class_weight="auto").fit(X, y)
    with pytest.raises(ValueError, match=r"0.0\} leaves no sample of positive weight"):   # no sample_weight named
        MRCClassifier(class_weight={0: 0.0, 1: 0.0, 2: 0.0}).fit(X, y)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):   # not "not in class_weight"
        MRCClassifier(class_weight={0.5: 2.0, 1.5: 1.0}).fit(X, y + 0.5)
