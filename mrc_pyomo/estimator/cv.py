"""Cross-validation of ``lambda0`` over a regularisation path (:func:`mrc_pyomo.mrc_path` on each training fold), as
scikit-learn's ``LassoCV`` does for the lasso: :class:`MRCClassifierCV`."""

import difflib
import inspect
import warnings

from numbers import Integral

import numpy as np
from joblib import Parallel, delayed
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.model_selection import check_cv
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ..display.progress import FoldsDisplay
from .classifier import MRCClassifier
from .fitted import fit_transaction
from .parameters import SHARED, Parameter, constraints_of, make_init, parameters
from .path import lambda0_grid, mrc_path


#: MRCClassifierCV's parameters: its own, and those it shares with MRCClassifier
CV_PARAMETERS = (Parameter("lambda0s", None, ["array-like", None]), Parameter("cv", 5, ["cv_object"]),
                 Parameter("scoring", None, [str, callable, None]), *parameters(*SHARED),
                 Parameter("n_jobs", None, [Integral, None]))


def fold_scores(k, X, y, train, test, lambda0s, params, scorer, train_weight=None, test_weight=None):
    """``(k, table, scores)`` of fold ``k``: the path of :func:`mrc_path` on the training samples ``train`` (its
    limits' warnings silenced: a stage it did not reach scores NaN) and the validation score of each stage by
    ``scorer`` on the samples ``test`` (passed ``sample_weight=test_weight`` if given).  A function of its
    arguments alone, so that joblib runs it in another process."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        path = mrc_path(X[train], y[train], lambda0s, sample_weight=train_weight,
                        **{**params, "verbose": False, "first_order": False})
    weighted = {} if test_weight is None else {"sample_weight": test_weight}
    scores = [np.nan if estimator is None else scorer(estimator, X[test], y[test], **weighted)
              for estimator in path.estimators]
    return k, path.table, scores


def fold_scorer(scoring, estimator):
    """``(scorer, takes_weight)``: ``check_scoring``'s scorer of ``scoring`` and whether it takes ``sample_weight``
    (scikit-learn's scorers, a callable with that parameter or ``**kwargs``); a ValueError naming
    MRCClassifierCV's ``scoring`` if it is not a scorer."""
    if isinstance(scoring, str) and scoring not in get_scorer_names():
        close = difflib.get_close_matches(scoring, get_scorer_names(), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"MRCClassifierCV's scoring={scoring!r} is not the name of a scikit-learn scorer "
                         f"(sklearn.metrics.get_scorer_names() lists them){hint}")
    try:
        scorer = check_scoring(estimator, scoring=scoring)
    except (TypeError, ValueError) as error:
        raise ValueError(f"MRCClassifierCV's scoring={scoring!r} is not a scorer: {error}") from error
    try:
        parameters = inspect.signature(scorer).parameters.values()
    except (TypeError, ValueError):   # no signature to read: called without the weights
        parameters = ()
    takes = any(p.kind is p.VAR_KEYWORD or (p.name == "sample_weight" and p.kind is not p.POSITIONAL_ONLY)
                for p in parameters)
    return scorer, takes


def check_fold_weights(splits, sample_weight, cv):
    """A ValueError naming the first fold (0-based, as ``split<k>_test_score``) whose training or held-out
    samples all weigh 0, before any path runs: the weights as a whole are fine, the folds gather them."""
    if sample_weight is None:
        return
    empty = [(k, part) for k, rows in enumerate(splits) for part, part_rows in zip(("training", "held-out"), rows)
             if not np.any(sample_weight[part_rows])]
    if not empty:
        return
    k, part = empty[0]
    role = "nothing to fit its path on" if part == "training" else "no weighted sample to score"
    others = "".join(f"; fold {j}: its {p} samples too" for j, p in empty[1:])
    raise ValueError(f"MRCClassifierCV: fold {k} (split{k}_test_score) of cv={cv!r} has only zero sample "
                     f"weights in its {part} samples ({role}){others}.  The weights gather in some folds: use a "
                     f"splitter that spreads the weighted samples over every fold (e.g. StratifiedKFold when the "
                     f"weights follow the classes, or a shuffled one), or fewer folds")


class MRCClassifierCV(ClassifierMixin, BaseEstimator):
    """An :class:`~mrc_pyomo.MRCClassifier` whose ``lambda0`` is chosen by cross-validation over a regularisation
    path (:func:`mrc_path` on each training fold), then refitted on all the data at the chosen value (MRC-CCG).

    Parameters
    ----------
    lambda0s : array-like, optional
        The candidate values (default :data:`DEFAULT_LAMBDA0S`).
    cv : int, cross-validation generator or iterable, default=5
        As scikit-learn's ``check_cv`` takes it (stratified folds for an integer).
    scoring : str or callable, optional
        As scikit-learn's ``check_scoring`` takes it (checked when ``fit`` starts); default the accuracy.  With
        ``sample_weight``, a callable without a ``sample_weight`` parameter (or ``**kwargs``) scores unweighted,
        with a warning.
    phi, fit_intercept, solver, eps_1, eps_2, n_max, m_max, max_iter, regime, time_limit, solver_options, \
random_state, formulation
        As :class:`~mrc_pyomo.MRCClassifier`'s, for the paths of the folds and the refit (``time_limit`` bounds
        each path and the refit).
    first_order : "auto" or bool, default="auto"
        As :class:`~mrc_pyomo.MRCClassifier`'s, for the refit (the folds' paths run no first-order phase).
    n_jobs : int, optional
        The folds' paths run in parallel through joblib, as scikit-learn's ``*CV`` estimators do: None means 1
        unless in a ``joblib.parallel_backend`` context, -1 all processors.  Each path is the same as in one
        process; the refit runs after them.
    verbose : {0, 1, 2} or bool, default=False
        ``1``: one progress line over the folds' stages (folds x ``lambda0s``), then the refit's live line;
        ``2``: a line per stage of each fold (status, certified interval, masters, seconds, score), then the
        refit's iteration log.

    Attributes
    ----------
    lambda0_ : float
        The value with the best mean validation score (the largest of equal ones: the simpler rule).  As in
        scikit-learn's search estimators with ``error_score=np.nan``, a value with no score on some fold (a stage
        that fold's path did not reach within ``time_limit`` or ``max_iter``, or a scorer's NaN) has a NaN mean and
        is ranked last, with a warning.
    cv_results_ : dict of arrays
        ``lambda0``, ``mean_test_score``, ``std_test_score``, ``rank_test_score`` and ``split<k>_test_score``, a
        value per candidate.
    best_estimator_ : MRCClassifier
        Fitted on all the data at ``lambda0_``; ``predict``, ``predict_proba``, ``decision_function`` and the
        fitted attributes (``classes_``, ``mu_``, ``upper_``, ``lower_``, ``status_``, ...) are its.
    """

    _parameter_constraints = constraints_of(CV_PARAMETERS)
    __init__ = make_init(CV_PARAMETERS)   # one attribute per parameter (mrc_pyomo.estimator.parameters)

    def _estimator_params(self):
        """The :class:`~mrc_pyomo.MRCClassifier` parameters of the refit (and, but for ``first_order``, of the
        folds' paths): those of :data:`~mrc_pyomo.estimator.parameters.SHARED`."""
        return {name: getattr(self, name) for name in SHARED}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Score every ``lambda0`` on each fold, choose ``lambda0_``, refit on ``(X, y)``; a fit that raises (an
        error, ``KeyboardInterrupt``) leaves the estimator as it was before it.  ``sample_weight``: as in
        :meth:`MRCClassifier.fit <mrc_pyomo.MRCClassifier.fit>`, for every fold's path and the refit; the
        validation scores are weighted by the held-out samples' weights; a fold whose training or held-out
        samples all weigh 0 is refused before any path runs."""
        self._validate_params()
        with fit_transaction(self):
            self._fit(X, y, sample_weight)
        return self

    def _fit(self, X, y, sample_weight=None):
        """The fit's work: the folds' paths, their scores, the choice of ``lambda0_`` and the refit."""
        params = self._estimator_params()
        scorer, takes_weight = fold_scorer(self.scoring, MRCClassifier(**params))
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, reset=True)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        weight = lambda rows: None if sample_weight is None else sample_weight[rows]  # noqa: E731
        lambda0s = lambda0_grid(self.lambda0s)
        cv = check_cv(self.cv, y, classifier=True)
        splits = list(cv.split(X, y))
        check_fold_weights(splits, sample_weight, self.cv)
        if sample_weight is not None and not takes_weight:
            name = getattr(self.scoring, "__qualname__", type(self.scoring).__name__)
            warnings.warn(f"MRCClassifierCV's scoring ({name}) does not take sample_weight: the validation scores "
                          f"are unweighted (a scorer with a sample_weight parameter or **kwargs gets the held-out "
                          f"samples' weights)",
                          UserWarning, stacklevel=3)
        held_out = weight if takes_weight else (lambda rows: None)
        jobs = Parallel(n_jobs=self.n_jobs, return_as="generator_unordered")(
            delayed(fold_scores)(k, X, y, train, test, lambda0s, params, scorer, weight(train), held_out(test))
            for k, (train, test) in enumerate(splits))
        folds = [None] * len(splits)
        with FoldsDisplay(self.verbose, len(splits), lambda0s) as display:
            for k, table, scores in jobs:
                folds[k] = scores
                display.fold(k, table, scores)
        folds = np.asarray(folds, dtype=float)
        # as scikit-learn's search estimators with error_score=np.nan: a candidate with a NaN score on some fold
        # (a stage its path did not reach, or a scorer's NaN) has a NaN mean and is ranked last
        mean, std = folds.mean(axis=0), folds.std(axis=0)
        finite = np.isfinite(mean)
        if not finite.all():
            warnings.warn(f"{int((~finite).sum())} of {len(mean)} values of lambda0 have no score on some fold (a "
                          f"stage the fold's path did not reach, or a NaN score): they are ranked last", UserWarning,
                          stacklevel=3)
        rank = np.ones(len(mean), dtype=np.int32)
        if finite.any():
            rank = rankdata(-np.where(finite, mean, np.nanmin(mean) - 1), method="min").astype(np.int32)
        self.cv_results_ = {"lambda0": lambda0s, "mean_test_score": mean, "std_test_score": std,
                            "rank_test_score": rank, **{f"split{k}_test_score": folds[k] for k in range(len(folds))}}
        self.lambda0_ = float(lambda0s[int(np.argmin(rank))])   # the first (largest) of the best
        self.best_estimator_ = MRCClassifier(lambda0=self.lambda0_, **params).fit(X, y, sample_weight=sample_weight)
        self.classes_ = self.best_estimator_.classes_

    def __getattr__(self, name):
        # the fitted attributes of the refitted classifier (mu_, upper_, lower_, history_, ...)
        if name.endswith("_") and not name.startswith("__") and "best_estimator_" in self.__dict__:
            return getattr(self.__dict__["best_estimator_"], name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def predict_proba(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    def decision_function(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)
