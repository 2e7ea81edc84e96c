"""The rule of a fitted MRC (paper, Section 2): ``h(x) = argmax_y Psi(x).mu_y``, the conditional probabilities
``p(y | x) = max(v_y - psi(x), 0)`` and, for the linear map, ``coef_`` and ``intercept_``, which :class:`RuleMixin`
gives to an estimator with ``classes_``, ``feature_map_`` and ``mu_``, for data in memory, on Dask (lazy Dask arrays
back) or in another data source (:mod:`mrc_pyomo.data`).
"""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..data.validation import in_namespace_of, map_rows, validate_prediction_data
from ..feature_maps import LinearFeatures
from ..oracles.primal import class_scores, psi_values


def class_probabilities(scores):
    """``p(y | x) = max(v_y - psi(x), 0)``: the MRC's conditional probabilities; each row sums to 1.  ``psi`` is
    shift-equivariant, so the scores are first shifted by their maximum: the differences stay exact at any size."""
    scores = scores - scores.max(axis=1, keepdims=True)
    psi = psi_values(scores)
    proba = np.maximum(scores - psi[:, None], 0.0)
    return proba / proba.sum(axis=1, keepdims=True)


class RuleMixin:
    """``decision_function``, ``predict``, ``predict_proba``, ``coef_`` and ``intercept_`` of a fitted MRC."""

    def _linear_weights(self, name):
        """``mu_`` of a fitted linear map; ``AttributeError`` naming the cause for any other map."""
        check_is_fitted(self)
        base = self.feature_map_.base_
        if type(base) is not LinearFeatures:
            raise AttributeError(
                f"{name} is defined for the linear map only (phi='linear'): this classifier was fitted on the map "
                f"{type(base).__name__}, whose weights mu_ belong to the mapped features "
                f"feature_map_.transform(X), not to the columns of X")
        return self.mu_

    @property
    def coef_(self):
        # documented in the class docstring (Attributes); a docstring here would document it twice
        mu = self._linear_weights("coef_")
        coef = mu[:, 1:] if self.feature_map_.fit_intercept else mu[:, :]
        coef.flags.writeable = False
        return coef

    @property
    def intercept_(self):
        # documented in the class docstring (Attributes)
        mu = self._linear_weights("intercept_")
        intercept = mu[:, 0] if self.feature_map_.fit_intercept else np.zeros(mu.shape[0])
        intercept.flags.writeable = False
        return intercept

    def _per_row(self, X, fn, n_columns=None):
        """``fn(scores)`` of ``X``'s rows: in memory, or chunk by chunk, lazily, for a Dask array; for an array of
        another array API library under scikit-learn's ``array_api_dispatch``, back in its namespace."""
        check_is_fitted(self)
        given, X = X, validate_prediction_data(self, X)
        return in_namespace_of(given, map_rows(
            X, lambda rows: fn(class_scores(self.feature_map_.transform(rows), self.mu_)), n_columns))

    def decision_function(self, X):
        """Class scores ``v_y = Psi(x).mu_y``, shape ``(n, K)`` (``(n,)``: ``v_1 - v_0`` for two classes)."""
        check_is_fitted(self)
        if len(self.classes_) == 2:
            return self._per_row(X, lambda scores: scores[:, 1] - scores[:, 0])
        return self._per_row(X, lambda scores: scores, len(self.classes_))

    def predict(self, X):
        """``classes_[argmax_y Psi(x).mu_y]``."""
        return self._per_row(X, lambda scores: self.classes_[np.argmax(scores, axis=1)])

    def predict_proba(self, X):
        """``p(y | x) = max(v_y - psi(x), 0)``, columns in the order of ``classes_``; rows sum to 1."""
        check_is_fitted(self)
        return self._per_row(X, class_probabilities, len(self.classes_))
