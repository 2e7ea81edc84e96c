"""The folds of :class:`~mrc_pyomo.MRCClassifierCV`: each fold's path and scores, and where the folds run.

**Where the folds run.**  ``n_jobs`` asks for joblib's processes (loky, as in scikit-learn's ``*CV`` estimators), each
of which starts, imports the library and is sent the data, which takes longer than a whole small cross-validation.  So
the first fold runs here, timed, and the others go to the workers only where that pays (:func:`workers_pay`), else run
here too (docs/benchmarks.md, "The library's choices", "Where the folds run").  Not threads: Pyomo, which holds each
master's model, is not thread-safe, nor is ``warnings.catch_warnings``, and the GIL is held outside HiGHS's solves.
"""

import difflib
import inspect
import math
import time
import warnings

import numpy as np
from joblib import Parallel, effective_n_jobs
from sklearn import get_config
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, _raise_for_params, process_routing
from sklearn.utils.validation import _check_method_params

from .path import mrc_path

#: the seconds joblib's processes take to start and import the library before the first fold runs in them
WORKER_START_SECONDS = 2.0


def fold_scores(k, X, y, train, test, lambda0s, params, scorer, train_weight=None, score_params=None):
    """``(k, table, scores, coefs, classes)`` of fold ``k``: the path of :func:`mrc_path` on the samples ``train`` (its
    limits' warnings silenced), the score by ``scorer`` of each stage on ``test`` with ``score_params`` (of all the
    samples, the held-out ones' taken: ``sample_weight``, any metadata routed to the scorer; NaN where not reached),
    each stage's ``mu`` and the fold's classes.  A function of its arguments alone, for joblib's processes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        path = mrc_path(X[train], y[train], lambda0s, sample_weight=train_weight,
                        **{**params, "verbose": False, "first_order": False})
    held_out = _check_method_params(X, score_params or {}, indices=test)
    scores = [np.nan if estimator is None else scorer(estimator, X[test], y[test], **held_out)
              for estimator in path.estimators]
    classes = next(estimator.classes_ for estimator in path.estimators if estimator is not None)
    return k, path.table, scores, path.coefs, classes


def fold_scorer(scoring, estimator):
    """``(scorer, takes_weight)``: ``check_scoring``'s scorer of ``scoring`` and whether it takes ``sample_weight``; a
    ValueError naming MRCClassifierCV's ``scoring`` if it is not a scorer."""
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


def routing_enabled():
    """Whether scikit-learn's metadata routing is on (``sklearn.set_config(enable_metadata_routing=True)``)."""
    return bool(get_config().get("enable_metadata_routing", False))


def fold_router(estimator, scorer):
    """The metadata router of the cross-validation ``estimator`` (MRCClassifierCV) whose folds ``scorer`` scores,
    as ``LogisticRegressionCV``'s: its own requests (``sample_weight`` for its fits), its ``cv``'s ``split`` and the
    scorer's ``score``, both from its ``fit``."""
    return (MetadataRouter(owner=type(estimator).__name__).add_self_request(estimator)
            .add(splitter=estimator.cv, method_mapping=MethodMapping().add(caller="fit", callee="split"))
            .add(scorer=scorer, method_mapping=MethodMapping().add(caller="fit", callee="score")))


def routed_fit_params(estimator, sample_weight, params):
    """``(split, score)``: the keyword arguments of the cross-validation ``estimator``'s ``fit`` (``params``, and
    ``sample_weight``) for its splitter's ``split`` and for its scorer.  With metadata routing on, scikit-learn routes
    them by the requests of :func:`fold_router` (so a scorer that did not request ``sample_weight`` refuses it with
    ``UnsetMetadataPassedError``, as in ``LogisticRegressionCV``); without, ``groups`` goes to the splitter (as
    ``GridSearchCV`` takes it), any other name is refused (scikit-learn's ``ValueError``), and ``score`` is None:
    the weights reach the scorer as its signature allows (:func:`fold_scorer`)."""
    if routing_enabled():
        routed = process_routing(estimator, "fit", sample_weight=sample_weight, **params)
        return dict(routed.splitter.split), dict(routed.scorer.score)
    _raise_for_params({name: value for name, value in params.items() if name != "groups"}, estimator, "fit")
    return ({"groups": params["groups"]} if "groups" in params else {}), None


def check_fold_weights(splits, train_weight, test_weight, cv):
    """A ValueError, before any path runs, naming the first fold (0-based, as ``split<k>_test_score``) whose training or
    held-out samples all weigh 0 (``train_weight``, ``test_weight``; None: no weights)."""
    empty = [(k, part) for k, rows in enumerate(splits)
             for part, part_rows, weight in zip(("training", "held-out"), rows, (train_weight, test_weight))
             if weight is not None and not np.any(weight[part_rows])]
    if not empty:
        return
    k, part = empty[0]
    role = "nothing to fit its path on" if part == "training" else "no weighted sample to score"
    others = "".join(f"; fold {j}: its {p} samples too" for j, p in empty[1:])
    raise ValueError(f"MRCClassifierCV: fold {k} (split{k}_test_score) of cv={cv!r} has only zero sample "
                     f"weights in its {part} samples ({role}){others}.  The weights gather in some folds: use a "
                     f"splitter that spreads the weighted samples over every fold (e.g. StratifiedKFold when the "
                     f"weights follow the classes, or a shuffled one), or fewer folds")


def workers_pay(first_seconds, n_left, n_jobs, start_seconds=None):
    """Whether ``n_left`` folds of ``first_seconds`` each end sooner in ``n_jobs`` workers that take ``start_seconds``
    (default :data:`WORKER_START_SECONDS`) to start than one after the other here."""
    start_seconds = WORKER_START_SECONDS if start_seconds is None else start_seconds
    workers = min(n_jobs, n_left)
    if workers <= 1:
        return False
    return start_seconds + math.ceil(n_left / workers) * first_seconds < n_left * first_seconds


def run_folds(calls, n_jobs):
    """The results of ``calls`` (joblib's ``delayed`` calls, one per fold) as they end: the first here, timed, the
    others in ``n_jobs`` workers (:func:`joblib.effective_n_jobs`) where :func:`workers_pay`, else here too."""
    calls = list(calls)
    if not calls:
        return
    function, args, kwargs = calls[0]
    tic = time.perf_counter()
    yield function(*args, **kwargs)
    if workers_pay(time.perf_counter() - tic, len(calls) - 1, effective_n_jobs(n_jobs)):
        yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls[1:])
        return
    for function, args, kwargs in calls[1:]:
        yield function(*args, **kwargs)
