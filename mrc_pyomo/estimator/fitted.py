"""The fitted attributes of an :class:`~mrc_pyomo.MRCClassifier` and of each stage of a path
(:func:`mrc_pyomo.mrc_path`), made from a prepared problem and a method's result: the rule in the user's units with its
certified interval (:meth:`~mrc_pyomo.problem.MRCProblem.rule`), status, history and last master, and the fit's warnings
(:func:`fit_warnings`).

A fit validates its data against an :func:`unfitted_copy`, and :func:`commit` replaces the fitted attributes as a whole
at the end, so a fit that raises or is abandoned leaves the estimator as it was and two fits never mix;
:func:`fit_transaction` does the same for a fit that writes as it goes (:class:`~mrc_pyomo.MRCClassifierCV`).
"""

import copyreg
import inspect
import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from ..methods.plan import zero_rule_lambda0
from ..methods.result import Status, status_of

#: the library's types in a skops file of a fitted model (``skops.io.get_untrusted_types`` lists them, skops trusting
#: NumPy's, SciPy's and scikit-learn's estimators itself); a user's own feature map, scorer or splitter adds its own
SKOPS_TYPES = ("mrc_pyomo.estimator.classifier.MRCClassifier", "mrc_pyomo.estimator.cv.MRCClassifierCV",
               "mrc_pyomo.estimator.path.PathStage", "mrc_pyomo.feature_maps.FeatureMap",
               "mrc_pyomo.feature_maps.LinearFeatures", "mrc_pyomo.feature_maps.RandomFourierFeatures")
#: the attributes the validation of the training data sets (scikit-learn's ``validate_data``)
INPUT_ATTRIBUTES = ("n_features_in_", "feature_names_in_")
#: the end of the warning of a fit that stopped "stalled"
STALLED_ADVICE = ("; every solve was optimal, but the solver's precision cannot narrow the gap further (ask for "
                  "a larger eps_1, or a solver with more digits)")
#: the share of the sample weight below which classes a rule never predicts are blamed on their weight
LIGHT_CLASSES = 1e-2
#: what lets a fit stopped by a limit go on
STOP_ADVICE = {Status.MAX_ITER: "a larger max_iter", Status.TIME_LIMIT: "a larger time_limit"}


def fitted_attributes(problem, result, regime, eps_1):
    """``(attributes, rule)``: the fitted attributes (names ending in ``_``) of the method's
    :class:`~mrc_pyomo.methods.result.FitResult` ``result`` on ``problem``, fitted in ``regime`` with the target gap
    ``eps_1``, and the :class:`~mrc_pyomo.problem.problem.Rule` they were made of."""
    rule = problem.rule(result.mu, float(result.lower))
    history = pd.DataFrame(result.history, columns=list(result.columns))
    if "lambda0" not in history:
        history.insert(1, "lambda0", float(problem.lambda0))
    return {
        "classes_": problem.classes, "feature_map_": problem.feature_map, "column_scale_": problem.scale,
        "regime_": regime, "tau_": rule.tau, "lambda_": rule.lam, "mu_": rule.mu, "nu_": rule.nu,
        "upper_": rule.upper, "lower_": rule.lower, "objective_": float(result.objective),
        "status_": status_of(rule.lower, rule.upper, eps_1, result.status), "n_iter_": len(result.history),
        "history_": history,
        "master_": None if result.master is None else result.master.compact(),
    }, rule


def iteration_attributes(problem, inputs, item):
    """The fitted attributes that predict (``classes_``, ``feature_map_``, ``mu_`` and the data's ``inputs``) of the
    rule a fit on ``problem`` returns if it stops at the iteration ``item`` (an MRC-CCG state: its best certified rule,
    in the user's units); None for an item without one (a first-order iteration's record)."""
    check = getattr(item, "check", None)
    if check is None:
        return None
    return {**inputs, "classes_": problem.classes, "feature_map_": problem.feature_map,
            "mu_": problem.rule(check.best.mu).mu}


def unpredicted_classes_message(problem, rule, status, estimator):
    """The warning for a rule that never predicts some classes of its training data (None if it predicts them all), with
    the cause: a fit stopped before it converged; missing classes lighter than :data:`LIGHT_CLASSES` of the sample
    weight; a ``lambda0`` from :func:`~mrc_pyomo.methods.plan.zero_rule_lambda0` on, where ``mu = 0`` is minimax;
    else a feature map too poor, or ``lambda0`` too large."""
    classes = problem.classes
    missing = [classes[k] for k in np.flatnonzero(rule.predicted == 0)]
    if not missing:
        return None
    names = ", ".join(repr(c.item() if isinstance(c, np.generic) else c) for c in missing)
    these = "these classes" if len(missing) > 1 else "this class"
    head = (f"the rule never predicts class{'es' if len(missing) > 1 else ''} {names} on its training data "
            f"(training accuracy {rule.accuracy:.3f})")
    if status != Status.CONVERGED:
        return (f"{head}: the fit stopped ({status}) with a certified gap upper_ - lower_ = "
                f"{rule.upper - rule.lower:.3g}, so its rule is not yet the minimax rule; let it go on "
                f"({STOP_ADVICE.get(status, 'see the ConvergenceWarning')}) before judging the feature map or "
                f"lambda0")
    if problem.weights is not None:
        share = problem.weights[np.isin(problem.y, np.flatnonzero(rule.predicted == 0))].sum() / problem.weights.sum()
        if share < LIGHT_CLASSES:
            return (f"{head}: {these} carr{'y' if len(missing) > 1 else 'ies'} {share:.2g} of the sample weight, "
                    f"so the minimax rule may rightly give up on {'them' if len(missing) > 1 else 'it'}")
    zero_rule = zero_rule_lambda0(problem)
    if estimator.lambda0 >= zero_rule:
        return (f"{head}: lambda0 = {estimator.lambda0:g} is so large that the constant rule mu = 0 is a minimax "
                f"rule (it is from lambda0 = {zero_rule:.3g} on), which predicts one class everywhere; use a "
                f"smaller lambda0 (MRCClassifierCV chooses one)")
    phi = estimator.phi
    advice = ('try phi="fourier" (random Fourier features), whose rules are not linear in x'
              if isinstance(phi, str) and phi == "linear" else "try a richer feature map")
    smaller = f", or a smaller lambda0 than {estimator.lambda0:g}" if estimator.lambda0 > 0 else ""
    return (f"{head}: the feature map may be too poor to tell {these} apart; {advice}{smaller} (the guide's page "
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
    """Run a fit of ``estimator`` as a transaction: if the block raises, its fitted attributes, those the data's
    validation set included, are put back as they were (none, for a first fit)."""
    before = {name: getattr(estimator, name) for name in fitted_names(estimator)}
    try:
        yield estimator
    except BaseException:
        for name in fitted_names(estimator):
            delattr(estimator, name)
        set_fitted(estimator, before)
        raise


def convergence_message(status, lower, upper, estimator, max_iter=None):
    """The ``ConvergenceWarning`` of a fit whose certified gap is above ``estimator.eps_1`` (None otherwise): the stop,
    the gap, the interval and what lets the fit go on (``max_iter``: the method's)."""
    gap = upper - lower
    if status_of(lower, upper, estimator.eps_1) == Status.CONVERGED:
        return None
    cause = {Status.MAX_ITER: f"; max_iter = {max_iter} was reached: a larger max_iter lets it go on",
             Status.TIME_LIMIT: f"; time_limit = {estimator.time_limit:g} s was reached: a larger time_limit lets it "
                                f"go on" if estimator.time_limit is not None else "",
             Status.STALLED: STALLED_ADVICE,
             Status.SOLVER_ERROR: "; the solver failed (the last record of history_ says why)"}.get(status, "")
    return (f"the fit stopped ({status}) with a certified gap upper_ - lower_ = {gap:.3g} above eps_1 = "
            f"{estimator.eps_1:g}: R* is in [{lower:.6g}, {upper:.6g}]; the rule returned is the best certified "
            f"one found{cause}")


def fit_warnings(problem, attributes, rule, estimator, max_iter=None):
    """The warnings of a finished fit (its ``attributes`` and ``rule``, of :func:`fitted_attributes`) as ``(message,
    category)`` pairs: :func:`unpredicted_classes_message` (``UserWarning``) and :func:`convergence_message`
    (``ConvergenceWarning``)."""
    status, lower, upper = attributes["status_"], attributes["lower_"], attributes["upper_"]
    messages = ((unpredicted_classes_message(problem, rule, status, estimator), UserWarning),
                (convergence_message(status, lower, upper, estimator, max_iter), ConvergenceWarning))
    return tuple((message, category) for message, category in messages if message is not None)


def history_data(history):
    """The fit's ``history_`` (a DataFrame) as data: ``{"columns": {name: list of values}, "dtypes": {name: dtype
    name}}``, Python's numbers and strings, which :func:`history_frame` makes a DataFrame again."""
    return {"columns": history.to_dict(orient="list"),
            "dtypes": {name: str(dtype) for name, dtype in history.dtypes.items()}}


def history_frame(data):
    """The ``history_`` DataFrame of its :func:`history_data`, each column of its dtype."""
    return pd.DataFrame(data["columns"], columns=list(data["dtypes"])).astype(data["dtypes"])


class FittedStateMixin:
    """The state of a fitted MRC for the formats that store an object's ``__getstate__``, such as skops, the format
    scikit-learn recommends for sharing models without trusting pickles (``skops.io.dumps``): data only, as the
    library's ``.npz`` model file holds it (:mod:`mrc_pyomo.cli.model_format`).  ``history_`` is stored as its
    columns (:func:`history_data`) and is a DataFrame again once loaded; ``master_``, a Pyomo model (a program's
    objects, not data), is not stored and is None once loaded: fit again to inspect or write the last master.
    ``status_`` comes back a :class:`~mrc_pyomo.methods.result.Status`.  Pickle and :mod:`copy` keep everything,
    the master too (``__reduce_ex__``), as before."""

    def __getstate__(self):
        state = dict(super().__getstate__())   # scikit-learn's may be the estimator's own __dict__: left as it is
        if isinstance(state.get("history_"), pd.DataFrame):
            state["history_"] = history_data(state["history_"])
        if state.get("master_") is not None:
            state["master_"] = None
        return state

    def __setstate__(self, state):
        state = dict(state)
        if isinstance(state.get("history_"), dict):
            state["history_"] = history_frame(state["history_"])
        if isinstance(state.get("status_"), str):
            state["status_"] = Status(state["status_"])
        super().__setstate__(state)

    def __reduce_ex__(self, protocol):
        # pickle and copy: the whole state (scikit-learn's), master_ and the history's DataFrame as they are
        return copyreg.__newobj__, (type(self),), super().__getstate__()


@dataclass(frozen=True)
class Fitted:
    """A finished fit, not yet written into its estimator: its fitted ``attributes`` (names ending in ``_``) and
    its ``warnings`` (``(message, category)`` pairs, :func:`fit_warnings`)."""

    attributes: dict
    warnings: tuple = ()


def unfitted_copy(estimator):
    """A shallow copy of ``estimator`` without its fitted attributes, to validate a fit's data against (scikit-learn's
    ``validate_data`` sets attributes on it), so that nothing is written into ``estimator`` before :func:`commit`."""
    copy = object.__new__(type(estimator))
    fitted = set(fitted_names(estimator))
    copy.__dict__.update({name: value for name, value in vars(estimator).items() if name not in fitted})
    return copy


def commit(estimator, fitted):
    """Write the finished fit ``fitted`` (a :class:`Fitted`) into ``estimator`` by a single assignment an interruption
    cannot split, replacing its fitted attributes as a whole; then raise its warnings at the caller's line outside this
    package.  Returns ``estimator``."""
    fitted_before = set(fitted_names(estimator))
    state = {name: value for name, value in vars(estimator).items() if name not in fitted_before}
    state.update(fitted.attributes)
    estimator.__dict__ = state
    level = caller_stacklevel()
    for message, category in fitted.warnings:
        warnings.warn(message, category, stacklevel=level)
    return estimator


#: the frames a fit's warning skips to point at the user's line: this package's, and scikit-learn's ``base.py``
_SKIPPED_FILES = (str(Path(__file__).resolve().parents[1]) + os.sep, os.path.join("sklearn", "base.py"))


def caller_stacklevel():
    """The ``stacklevel`` for ``warnings.warn`` called by the caller of this function that points at the first
    frame outside this package (and outside scikit-learn's wrapper of ``fit``): the user's line that fitted."""
    frame, level = inspect.currentframe().f_back.f_back, 2
    while frame is not None and (frame.f_code.co_filename.startswith(_SKIPPED_FILES[0])
                                 or frame.f_code.co_filename.endswith(_SKIPPED_FILES[1])):
        frame, level = frame.f_back, level + 1
    return level
