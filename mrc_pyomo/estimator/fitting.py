"""From an estimator's parameters and data to the core's fit, the part :class:`~mrc_pyomo.MRCClassifier`'s ``fit`` and
:func:`~mrc_pyomo.mrc_path` share: the data validated (against an unfitted copy), weighted (:func:`class_sample_weight`)
and prepared (:func:`mrc_pyomo.problem.prepare`), and the fit planned (:mod:`mrc_pyomo.methods.plan`).  The path at the
core runs the plan (:mod:`mrc_pyomo.methods.pathwise`).
"""

from dataclasses import replace

import numpy as np
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight

from ..data import is_numpy
from ..data.convert import is_dask_array
from ..data.validation import validate_sample_weight, validate_training_data
from ..master import check_solver
from ..methods.pdhg.step import data_namespace
from ..methods.plan import plan_fit
from ..problem import prepare
from .fitted import input_attributes, unfitted_copy
from .parameters import settings_of


def problem_of(estimator, X, y, sample_weight, lambda0, method, **options):
    """``(problem, inputs)``: ``X``, ``y`` and ``sample_weight`` validated and prepared at ``lambda0`` for the
    registered ``method`` (``options`` for :func:`~mrc_pyomo.problem.prepare`) with the parameters of ``estimator``;
    ``inputs``: the attributes scikit-learn's validation sets, on an unfitted copy of ``estimator``."""
    # checked on every fit, parameter validation on or off: whether a solver is usable depends on the machine
    check_solver(estimator.solver)
    shadow = unfitted_copy(estimator)
    X, y = validate_training_data(shadow, X, y)
    sample_weight = class_sample_weight(getattr(estimator, "class_weight", None), y, sample_weight)
    X, y, weights = validate_sample_weight(X, y, sample_weight)
    problem = prepare(X, y, estimator.phi, estimator.fit_intercept, estimator.random_state, lambda0,
                      reduce=method.reduces, weights=weights, **options)
    inputs = input_attributes(shadow)
    if "feature_names_in_" in inputs:   # a data frame's columns: the names a stepped fit shows its features by
        problem = replace(problem, feature_names=inputs["feature_names_in_"])
    return problem, inputs


def plan_of(estimator, method, problem, stages=None, start=None):
    """The :class:`~mrc_pyomo.methods.plan.Plan` of a fit of ``problem`` by the registered ``method`` with the
    parameters of ``estimator`` (:func:`~mrc_pyomo.estimator.parameters.settings_of`), the planner's
    (:func:`~mrc_pyomo.methods.plan.plan_fit`): ``stages``, a path's ``lambda0`` values (None: a single fit);
    ``start``, a warm start's."""
    linear = isinstance(estimator.phi, str) and estimator.phi == "linear"
    return plan_fit(problem, settings_of(estimator), method, linear=linear, host=is_numpy(data_namespace(problem)),
                    stages=stages, start=start)


def class_sample_weight(class_weight, y, sample_weight=None):
    """The weights of the samples of labels ``y`` under ``class_weight`` (None, ``"balanced"`` or ``{label: weight}``, a
    label left out weighing 1) times ``sample_weight``, as scikit-learn's ``LogisticRegression`` combines them
    (:func:`sklearn.utils.class_weight.compute_class_weight`: ``"balanced"`` gives class ``k`` the weight ``W / (K
    W_k)``, ``W_k`` its samples' weight).  Samples of weight 0 take no part, nor does a class that has only them.
    ``ValueError`` for a dict's label not in ``y``, and for weights that leave no sample."""
    if class_weight is None:
        return sample_weight
    y = np.asarray(y)
    check_classification_targets(y)   # continuous labels: scikit-learn's error, before any about class_weight
    classes = np.unique(y)
    asked = class_weight
    if isinstance(class_weight, dict):
        labels = set(classes.tolist())
        unknown = [label for label in class_weight if label not in labels]
        if unknown:
            raise ValueError(f"class_weight has weights for {unknown!r}, which are not labels of y: its labels are "
                             f"{classes.tolist()!r}")
    if is_dask_array(sample_weight):
        sample_weight = sample_weight.compute()
    given = None if sample_weight is None else _check_sample_weight(
        sample_weight, np.empty((len(y), 0)), dtype=np.float64, ensure_non_negative=True)
    kept = np.ones(len(y), dtype=bool) if given is None else given > 0
    present = np.unique(y[kept])
    if isinstance(class_weight, dict):   # the labels of samples that all weigh 0 are not classes of the fit
        labels = set(present.tolist())
        class_weight = {label: weight for label, weight in class_weight.items() if label in labels}
    weights = np.zeros(len(y))
    by_class = compute_class_weight(class_weight, classes=present, y=y[kept],
                                    sample_weight=None if given is None else given[kept])
    weights[kept] = by_class[np.searchsorted(present, y[kept])] * (1.0 if given is None else given[kept])
    if not np.any(weights > 0):
        given_too = "" if given is None else " (with sample_weight)"
        raise ValueError(f"class_weight={asked!r}{given_too} leaves no sample of positive weight")
    return weights
