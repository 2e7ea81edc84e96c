"""The fitted attributes of an :class:`~mrc_pyomo.MRCClassifier`, made from a prepared problem and a method's result,
and written into an estimator in one step.

Every fit, and every stage of a path (:func:`mrc_pyomo.mrc_path`), makes its attributes here: the rule in the
user's units with ``upper_ = R(mu_)`` by one exact pass over the training samples and ``lower_`` from the
method's duals (both safe in floating point, :meth:`~mrc_pyomo.problem.MRCProblem.rule`), its status, its history and
its last master.  :func:`set_fitted` writes them all at once, after everything was computed, and a fit runs
inside :func:`fit_transaction`: one that raises (an error, ``KeyboardInterrupt``) leaves the estimator as it was.
"""

import warnings
from contextlib import contextmanager

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from ..methods.result import Status
from ..oracles.certificate import gap_tolerance

#: the attributes the validation of the training data sets (scikit-learn's ``validate_data``)
INPUT_ATTRIBUTES = ("n_features_in_", "feature_names_in_")
#: the end of the warning of a fit that stopped "stalled"
STALLED_ADVICE = ("; every solve was optimal, but the solver's precision cannot narrow the gap further (ask for "
                  "a larger eps_1, or a solver with more digits)")


def certified_status(status, lower, upper, eps_1):
    """The status of a fit whose method stopped with ``status`` and whose certified interval is ``[lower, upper]``:
    ``"converged"`` exactly when ``upper - lower <= max(eps_1, GAP_FLOOR)``, whatever the method or the solver
    said; a method's "converged" that the interval in the user's units (rounded outward) no longer supports is
    ``"stalled"`` (the arithmetic's precision, not the method, stopped it)."""
    if upper - lower <= gap_tolerance(eps_1):
        return Status.CONVERGED
    return Status.STALLED if status == Status.CONVERGED else status


def fitted_attributes(problem, result, regime, eps_1):
    """``(attributes, rule)``: the fitted attributes (a dict of names ending in ``_``) of the
    :class:`~mrc_pyomo.methods.result.FitResult` ``result`` of a method on ``problem`` (at ``problem.lambda0``),
    fitted in ``regime`` with the target gap ``eps_1`` (:func:`certified_status`), and the
    :class:`~mrc_pyomo.problem.problem.Rule` they were made of (its training predictions)."""
    rule = problem.rule(result.mu, float(result.lower))
    history = pd.DataFrame(result.history, columns=list(result.columns))
    if "lambda0" not in history:
        history.insert(1, "lambda0", float(problem.lambda0))
    return {
        "classes_": problem.classes, "feature_map_": problem.feature_map, "column_scale_": problem.scale,
        "regime_": regime, "tau_": rule.tau, "lambda_": rule.lam, "mu_": rule.mu, "nu_": rule.nu,
        "upper_": rule.upper, "lower_": rule.lower, "objective_": float(result.objective),
        "status_": certified_status(result.status, rule.lower, rule.upper, eps_1), "n_iter_": len(result.history),
        "history_": history,
        "master_": None if result.master is None else result.master.compact(),
    }, rule


def unpredicted_classes_message(classes, rule, phi):
    """The warning for a rule that never predicts some classes of its training data (None if it predicts them
    all): the classes, the training accuracy, and what to try."""
    missing = [classes[k] for k in np.flatnonzero(rule.predicted == 0)]
    if not missing:
        return None
    names = ", ".join(repr(c.item() if isinstance(c, np.generic) else c) for c in missing)
    advice = ('try phi="fourier" (random Fourier features), whose rules are not linear in x'
              if isinstance(phi, str) and phi == "linear" else "try a richer feature map or a smaller lambda0")
    return (f"the rule never predicts class{'es' if len(missing) > 1 else ''} {names} on its training data "
            f"(training accuracy {rule.accuracy:.3f}): the feature map may be too poor to tell "
            f"{'these classes' if len(missing) > 1 else 'this class'} apart; {advice} (the guide's page "
            f"\"Choosing a feature map\")")


def input_attributes(estimator):
    """The attributes the validation of the training data set on ``estimator`` (:data:`INPUT_ATTRIBUTES`)."""
    return {name: getattr(estimator, name) for name in INPUT_ATTRIBUTES if hasattr(estimator, name)}


def set_fitted(estimator, attributes):
    """Write ``attributes`` (names ending in ``_``) into ``estimator``; return it."""
    for name, value in attributes.items():
        setattr(estimator, name, value)
    return estimator


def fitted_names(estimator):
    """The names of ``estimator``'s fitted attributes (scikit-learn's convention: ending in ``_``, not ``__``)."""
    return [name for name in vars(estimator) if name.endswith("_") and not name.startswith("__")]


@contextmanager
def fit_transaction(estimator):
    """Run a fit of ``estimator`` as a transaction: if the block raises (an error, ``KeyboardInterrupt``), the
    estimator's fitted attributes are put back as they were before it (none, for a first fit: ``predict`` then
    raises ``NotFittedError``), including those the validation of the data set first (``n_features_in_``)."""
    before = {name: getattr(estimator, name) for name in fitted_names(estimator)}
    try:
        yield estimator
    except BaseException:
        for name in fitted_names(estimator):
            delattr(estimator, name)
        set_fitted(estimator, before)
        raise


def warn_about_fit(estimator, unpredicted):
    """The warnings of a fitted estimator: ``unpredicted`` (:func:`unpredicted_classes_message`, a
    ``UserWarning``) if not None, and a ``ConvergenceWarning`` that gives the certified gap if it is above
    ``eps_1`` (with :data:`STALLED_ADVICE` for the status ``"stalled"``)."""
    if unpredicted is not None:
        warnings.warn(unpredicted, UserWarning, stacklevel=5)
    gap = estimator.upper_ - estimator.lower_
    if gap > gap_tolerance(estimator.eps_1):
        warnings.warn(
            f"the fit stopped ({estimator.status_}) with a certified gap upper_ - lower_ = {gap:.3g} above "
            f"eps_1 = {estimator.eps_1:g}: R* is in [{estimator.lower_:.6g}, {estimator.upper_:.6g}]; the rule "
            f"returned is the best certified one found" + (STALLED_ADVICE if estimator.status_ == Status.STALLED
                                                            else ""), ConvergenceWarning, stacklevel=5)
