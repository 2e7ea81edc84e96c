"""The fitted attributes (:mod:`mrc_pyomo.estimator.fitted`) follow SPEC.md."""

import numpy as np
import pandas as pd

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.methods.ccg import HISTORY_COLUMNS
from mrc_pyomo.oracles.primal import worst_case_risk


def test_fitted_attributes_follow_the_spec():
    X, y = random_problem(90, 4, 3, seed=2)
    labels = np.array(["cat", "dog", "emu"])[y]
    clf = MRCClassifier(eps_1=0.0).fit(X, labels)
    assert list(clf.classes_) == ["cat", "dog", "emu"]
    assert clf.n_features_in_ == 4
    assert clf.tau_.shape == clf.lambda_.shape == clf.mu_.shape == (3, 5)
    Psi = clf.feature_map_.transform(X)
    assert Psi.shape == (90, 5) and np.all(Psi[:, 0] == 1.0)
    assert clf.upper_ == worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_)
    assert isinstance(clf.history_, pd.DataFrame) and list(clf.history_.columns) == HISTORY_COLUMNS
    assert len(clf.history_) == clf.n_iter_ >= 1
    assert (clf.history_.seconds_solve >= 0).all() and (clf.history_.seconds_update >= 0).all()
    proba = clf.predict_proba(X)
    assert proba.shape == (90, 3) and np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(clf.predict(X), clf.classes_[np.argmax(Psi @ clf.mu_.T, axis=1)])
    assert clf.score(X, labels) > 0.6
    # nu = varphi(mu) + 1 at the master's optimum, up to the master's missing rows: upper_ >= R^k
    assert clf.upper_ >= clf.objective_ - 1e-9
