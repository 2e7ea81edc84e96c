"""Cross-validation of ``lambda0`` over a regularisation path (:func:`mrc_pyomo.mrc_path` on each training fold), as
scikit-learn's ``LassoCV`` does for the lasso: :class:`MRCClassifierCV`."""

import warnings

from numbers import Integral

import numpy as np
from joblib import delayed
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import check_cv
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ..display.progress import FoldsDisplay
from .callbacks import FitCallbacks, callback_metadata, end_root, fold_tasks, refit_task
from .classifier import MRCClassifier
from .fitted import caller_stacklevel, fit_transaction, fitted_names
from .fitting import class_sample_weight
from .folds import check_fold_weights, fold_router, fold_scorer, fold_scores, routed_fit_params, run_folds
from .parameters import (SHARED, DocLinkMixin, Parameter, SolverCloneMixin, constraints_of, make_init,
                         parameter_entries, parameters, validate_parameters)
from .path import lambda0_grid


#: MRCClassifierCV's parameters: its own, and those it shares with MRCClassifier
CV_PARAMETERS = (Parameter("lambda0s", None, ["array-like", Interval(Integral, 1, None, closed="left"), None]),
                 Parameter("cv", 5, ["cv_object"]), Parameter("scoring", None, [str, callable, None]),
                 *parameters(*SHARED), Parameter("n_jobs", None, [Integral, None]),
                 Parameter("refit", True, ["boolean"]))

#: what the folds' paths and the refit make of a parameter of :data:`SHARED` beyond MRCClassifier's meaning of it
SHARED_NOTES = {"time_limit": "; each path and the refit has its own",
                "class_weight": "; it weights the fits, not the validation scores, by all of ``y``"}


def shared_parameters_doc():
    """The entries of the class docstring of :class:`MRCClassifierCV` for the parameters it passes on to
    :class:`~mrc_pyomo.MRCClassifier` (:data:`SHARED` but ``first_order`` and ``verbose``, which it documents
    itself): MRCClassifier's own, said once there, each as the folds' paths and the refit take it
    (:data:`SHARED_NOTES`), so that each has its help in the HTML repr."""
    entries = parameter_entries(MRCClassifier.__doc__)
    indent = entries["phi"][1][:len(entries["phi"][1]) - len(entries["phi"][1].lstrip())]
    return "\n".join(line for name in SHARED if name not in ("first_order", "verbose") for line in (
        *entries[name], f"{indent}For the folds' paths and the refit, as :class:`~mrc_pyomo.MRCClassifier`'s"
                        f"{SHARED_NOTES.get(name, '')}.")) + "\n"


def coefs_paths(folds, classes):
    """The folds' ``mu`` as one array ``(n_folds, n_lambda0s, K, D)`` over the ``classes`` of all the data (NaN where a
    fold's path did not reach or lacks the class); None if the folds' feature maps differ in width."""
    widths = {coef.shape[1] for _, coefs, _ in folds for coef in coefs if coef is not None}
    if len(widths) != 1:
        return None
    paths = np.full((len(folds), len(folds[0][1]), len(classes), widths.pop()), np.nan)
    for k, (_, coefs, fold_classes) in enumerate(folds):
        rows = np.searchsorted(classes, fold_classes)
        for stage, coef in enumerate(coefs):
            if coef is not None:
                paths[k, stage, rows] = coef
    return paths


class MRCClassifierCV(FitCallbacks, DocLinkMixin, SolverCloneMixin, ClassifierMixin, BaseEstimator):
    """An :class:`~mrc_pyomo.MRCClassifier` whose ``lambda0`` is chosen by cross-validation over a regularisation
    path (:func:`mrc_path` on each training fold), then refitted on all the data at the chosen value (MRC-CCG).

    Parameters
    ----------
    lambda0s : array-like or int, optional
        The candidate values (default :data:`~mrc_pyomo.estimator.path.DEFAULT_LAMBDA0S`); an int ``n``: ``n`` values
        log-spaced over the default's range (:func:`~mrc_pyomo.estimator.path.lambda0_grid`).
    cv : int, cross-validation generator or iterable, default=5
        As scikit-learn's ``check_cv`` takes it (stratified folds for an integer).
    scoring : str or callable, optional
        As scikit-learn's ``check_scoring`` takes it; default the accuracy.  With ``sample_weight``, a callable without
        a ``sample_weight`` parameter (or ``**kwargs``) scores unweighted, with a warning; with scikit-learn's metadata
        routing on, the scorer's requests decide, as in ``LogisticRegressionCV`` (:meth:`fit`).
    {shared}
    first_order : "auto" or bool, default="auto"
        As :class:`~mrc_pyomo.MRCClassifier`'s, for the refit (the folds' paths run no first-order phase).
    n_jobs : int, optional
        The folds' paths may run in joblib's processes, as in scikit-learn's ``*CV`` estimators (None: 1 unless in a
        ``joblib.parallel_backend`` context; -1: all processors), where that pays for their start
        (:func:`~mrc_pyomo.estimator.folds.run_folds`).
    refit : bool, default=True
        Refit on all the data at ``lambda0_``.  ``False``: the fit sets the cross-validation's attributes only, and
        ``predict`` and the classifier's attributes raise ``NotFittedError``.
    verbose : {0, 1, 2, 3} or bool, default=False
        ``1``: one progress line over the folds' stages, then the refit's live line; ``2``: a line per stage of each
        fold, then the refit's iteration log; ``3``: the same, the refit's log wide.

    Attributes
    ----------
    lambda0_ : float
        The value with the best mean validation score (the largest of equal ones: the simpler rule).  A value with no
        score on some fold (not reached, or a scorer's NaN) is ranked last, with a warning, as with scikit-learn's
        ``error_score=np.nan``.
    best_index_ : int
        The index of ``lambda0_`` in ``cv_results_``'s arrays (the candidates sorted decreasing).
    best_score_ : float
        The mean validation score of ``lambda0_``, ``cv_results_["mean_test_score"][best_index_]``.
    cv_results_ : dict of arrays
        ``lambda0``, ``mean_test_score``, ``std_test_score``, ``rank_test_score`` and ``split<k>_test_score``.
    scores_ : ndarray of shape (n_folds, n_lambda0s)
        The validation score of each fold's path at each candidate (NaN where not reached), as
        ``LogisticRegressionCV``'s ``scores_``.
    coefs_paths_ : ndarray of shape (n_folds, n_lambda0s, n_classes, D) or None
        Each fold's ``mu`` at each candidate in the units of its feature map, as ``LogisticRegressionCV``'s
        ``coefs_paths_`` (NaN where not reached and on a class absent from the fold; None if the folds' feature maps
        differ in width).
    classes_ : ndarray of shape (n_classes,)
        The classes of the folds' fits, in the order of ``coefs_paths_``' class axis.
    n_features_in_ : int
        The number of columns of ``X`` seen in ``fit``.
    best_estimator_ : MRCClassifier
        With ``refit=True``: fitted on all the data at ``lambda0_``; ``predict``, ``predict_proba``,
        ``decision_function`` and the fitted attributes (``mu_``, ``upper_``, ...) are its.  Fitted on the data frame
        itself where ``X`` was one, so that its ``feature_names_in_`` refuse columns in another order, as
        scikit-learn's estimators do.
    """

    _parameter_constraints = constraints_of(CV_PARAMETERS)
    __init__ = make_init(CV_PARAMETERS)   # one attribute per parameter (mrc_pyomo.estimator.parameters)

    def _estimator_params(self):
        """The :class:`~mrc_pyomo.MRCClassifier` parameters of the refit and the folds' paths
        (:data:`~mrc_pyomo.estimator.parameters.SHARED`)."""
        return {name: getattr(self, name) for name in SHARED}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _validate_params(self):
        """scikit-learn's checks of the parameters, then :func:`~mrc_pyomo.estimator.parameters.check_parameters`."""
        validate_parameters(self, self._parameter_constraints)

    # nested validation on: the refit checks the parameters of a user's feature map (phi)
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None, **params):
        """Score every ``lambda0`` on each fold, choose ``lambda0_``, refit on ``(X, y)`` if ``refit``; a fit that
        raises leaves the estimator as it was.  ``sample_weight``: as in :meth:`MRCClassifier.fit
        <mrc_pyomo.MRCClassifier.fit>` for the paths and the refit, times ``class_weight``'s weights, and alone for the
        validation scores; a fold whose training or held-out samples all weigh 0 is refused before any path runs.
        ``params``: as ``LogisticRegressionCV.fit`` takes them, for the splitter (``groups``) and the scorer, routed by
        scikit-learn's metadata routing where it is on; without it, ``groups`` reaches the splitter
        (:func:`~mrc_pyomo.estimator.folds.routed_fit_params`).  scikit-learn's callbacks (``set_callbacks``) see
        the folds, their paths' stages and the refit (:mod:`mrc_pyomo.estimator.callbacks`)."""
        with fit_transaction(self):
            for name in fitted_names(self):
                delattr(self, name)
            self._fit(X, y, sample_weight, params)
        return self

    def get_metadata_routing(self):
        """scikit-learn's metadata routing of the fit: its own ``sample_weight``, the ``cv``'s ``split`` and the
        scorer's ``score`` (:func:`~mrc_pyomo.estimator.folds.fold_router`), as ``LogisticRegressionCV``'s."""
        return fold_router(self, fold_scorer(self.scoring, MRCClassifier(**self._estimator_params()))[0])

    def _score_params(self, sample_weight, routed, takes_weight):
        """The scorer's keyword arguments over all the samples: those routed to it (the validated ``sample_weight``
        for the one given); without routing (``routed`` None), ``sample_weight`` if the scorer ``takes_weight``,
        else a warning that the scores are unweighted."""
        if routed is not None:
            return {**routed, **({"sample_weight": sample_weight} if "sample_weight" in routed else {})}
        if sample_weight is not None and not takes_weight:
            name = getattr(self.scoring, "__qualname__", type(self.scoring).__name__)
            warnings.warn(f"MRCClassifierCV's scoring ({name}) does not take sample_weight: the validation scores "
                          f"are unweighted (a scorer with a sample_weight parameter or **kwargs gets the held-out "
                          f"samples' weights)", UserWarning, stacklevel=caller_stacklevel())
        return {} if sample_weight is None or not takes_weight else {"sample_weight": sample_weight}

    def _fit(self, X, y, sample_weight=None, params=None):
        """The fit's work: the folds' paths, their scores, the choice of ``lambda0_`` and the refit."""
        estimator_params = self._estimator_params()
        scorer, takes_weight = fold_scorer(self.scoring, MRCClassifier(**estimator_params))
        split_params, routed = routed_fit_params(self, sample_weight, params or {})
        given, (X, y) = X, validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, reset=True)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        train_weight = class_sample_weight(self.class_weight, y, sample_weight)
        lambda0s = lambda0_grid(self.lambda0s)
        splits = list(check_cv(self.cv, y, classifier=True).split(X, y, **split_params))
        score_params = self._score_params(sample_weight, routed, takes_weight)
        check_fold_weights(splits, train_weight, score_params.get("sample_weight"), self.cv)
        root = self._callback_root(X, y, sample_weight, max_subtasks=len(splits) + bool(self.refit))
        hook = {"X": X, "y": y, "metadata": callback_metadata(sample_weight)}
        calls = [delayed(fold_scores)(k, X, y, train, test, lambda0s, {**estimator_params, "class_weight": None},
                                      scorer, None if train_weight is None else train_weight[train], score_params)
                 for k, (train, test) in enumerate(splits)]
        folds = [None] * len(splits)
        with FoldsDisplay(self.verbose, len(splits), lambda0s) as display:
            for k, table, scores, coefs, classes in run_folds(calls, self.n_jobs):
                folds[k] = (scores, coefs, classes)
                display.fold(k, table, scores)
                fold_tasks(root, self, k, lambda0s, scores, hook)
        self._choose(lambda0s, folds)
        if self.refit:
            # a data frame's columns: the refit sees the frame, so that its predictions check the names as the fit's
            refit_X = given if "feature_names_in_" in vars(self) else X
            with refit_task(root, self, MRCClassifier(lambda0=self.lambda0_, **estimator_params), hook) as refitted:
                self.best_estimator_ = refitted.fit(refit_X, y, sample_weight=sample_weight)
            self.classes_ = self.best_estimator_.classes_
        end_root(root, self, X, y, sample_weight)

    def _choose(self, lambda0s, folds):
        """Set the attributes of the folds' results (``(scores, coefs, classes)`` per fold) over ``lambda0s``: scores,
        ranks, paths and the value chosen."""
        scores = np.asarray([fold[0] for fold in folds], dtype=float)
        # as scikit-learn's search estimators with error_score=np.nan: a candidate with a NaN score on some fold
        # (a stage its path did not reach, or a scorer's NaN) has a NaN mean and is ranked last
        mean, std = scores.mean(axis=0), scores.std(axis=0)
        finite = np.isfinite(mean)
        if not finite.all():
            warnings.warn(f"{int((~finite).sum())} of {len(mean)} values of lambda0 have no score on some fold (a "
                          f"stage the fold's path did not reach, or a NaN score): they are ranked last", UserWarning,
                          stacklevel=caller_stacklevel())
        rank = np.ones(len(mean), dtype=np.int32)
        if finite.any():
            rank = rankdata(-np.where(finite, mean, np.nanmin(mean) - 1), method="min").astype(np.int32)
        self.cv_results_ = {"lambda0": lambda0s, "mean_test_score": mean, "std_test_score": std,
                            "rank_test_score": rank, **{f"split{k}_test_score": scores[k] for k in range(len(scores))}}
        self.scores_ = scores
        self.classes_ = np.unique(np.concatenate([fold[2] for fold in folds]))
        self.coefs_paths_ = coefs_paths(folds, self.classes_)
        self.best_index_ = int(np.argmin(rank))   # the first (largest) of the best
        self.best_score_ = float(mean[self.best_index_])
        self.lambda0_ = float(lambda0s[self.best_index_])

    def _not_refitted(self, what):
        """The ``NotFittedError`` of a fit with ``refit=False``, which has no ``what``; None otherwise."""
        if "lambda0_" not in self.__dict__ or "best_estimator_" in self.__dict__:
            return None
        return NotFittedError(f"This MRCClassifierCV was fitted with refit=False: it chose lambda0_ = "
                              f"{self.__dict__['lambda0_']:g} but fitted no classifier on all the data, which {what} "
                              f"needs; fit it with refit=True, or fit MRCClassifier(lambda0=cv.lambda0_) yourself")

    def _refitted(self, what):
        """``best_estimator_``; ``NotFittedError`` before a fit, and one naming ``refit=False`` after such a fit."""
        error = self._not_refitted(what)
        if error is not None:
            raise error
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_

    def __getattr__(self, name):
        # the fitted attributes of the refitted classifier (mu_, upper_, lower_, history_, ...)
        if name.endswith("_") and not name.startswith("__") and "best_estimator_" in self.__dict__:
            return getattr(self.__dict__["best_estimator_"], name)
        if name.endswith("_") and not name.startswith("__") and self._not_refitted(name) is not None:
            raise AttributeError(str(self._not_refitted(name)))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def predict(self, X):
        return self._refitted("predict").predict(X)

    def predict_proba(self, X):
        return self._refitted("predict_proba").predict_proba(X)

    def decision_function(self, X):
        return self._refitted("decision_function").decision_function(X)


# the entries of the parameters the CV passes on to MRCClassifier, written once, in MRCClassifier's docstring
MRCClassifierCV.__doc__ = MRCClassifierCV.__doc__.replace("    {shared}\n", shared_parameters_doc())
