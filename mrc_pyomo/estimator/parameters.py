"""The parameters of :class:`~mrc_pyomo.MRCClassifier`: scikit-learn's constraints on each, the checks they
cannot express (numbers that are not booleans, a formulation known by name), and the settings of MRC-CCG they
make (:func:`ccg_config`, :func:`method_and_regime`)."""

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import (HasMethods, Interval, InvalidParameterError, StrOptions,
                                            validate_parameter_constraints)

from ..formulations import Formulation, get_formulation
from ..methods.ccg.config import CCGConfig, row_age

PARAMETER_CONSTRAINTS = {
    "phi": [StrOptions({"linear", "fourier"}), HasMethods(["fit", "transform"])],
    "lambda0": [Interval(Real, 0, np.inf, closed="left")],
    "continuation": ["boolean"],
    "fit_intercept": ["boolean"],
    "method": [StrOptions({"ccg", "lp", "subgradient", "fom"})],
    "solver": [str],
    "eps_1": [Interval(Real, 0, np.inf, closed="left")],
    "eps_2": [Interval(Real, 0, np.inf, closed="left")],
    "n_max": [Interval(Integral, 1, None, closed="left")],
    "m_max": [Interval(Integral, 1, None, closed="left")],
    "max_iter": [Interval(Integral, 1, None, closed="left"), None],
    "regime": [StrOptions({"auto", "n", "nm"})],
    "time_limit": [Interval(Real, 0, np.inf, closed="left"), None],
    "solver_options": [dict, None],
    "formulation": [str, Formulation],   # a name of mrc_pyomo.formulations.FORMULATIONS: check_parameters
    "random_state": ["random_state"],
    "verbose": [Interval(Integral, 0, 2, closed="both"), "boolean"],   # 0 / False, 1 / True, 2
    "callback": [callable, None],
    "first_order": [StrOptions({"auto"}), "boolean"],
}


def check_parameters(estimator):
    """Raise scikit-learn's ``InvalidParameterError`` (a ``ValueError``) naming the parameter: a number given
    as a boolean, or a formulation name not in :data:`mrc_pyomo.formulations.FORMULATIONS`."""
    name_of = type(estimator).__name__
    try:
        get_formulation(estimator.formulation)
    except ValueError as error:
        raise InvalidParameterError(f"The 'formulation' parameter of {name_of}: {error}") from None
    for name in ("lambda0", "eps_1", "eps_2", "n_max", "m_max", "max_iter", "time_limit"):
        value = getattr(estimator, name)
        if isinstance(value, (bool, np.bool_)):
            raise InvalidParameterError(f"The {name!r} parameter of {name_of} must be a number, not a boolean. "
                                        f"Got {value!r} instead.")


def validate_parameters(estimator):
    """Check every parameter of ``estimator`` against :data:`PARAMETER_CONSTRAINTS` (its class's
    ``_parameter_constraints``, as scikit-learn's ``fit`` does), then :func:`check_parameters`: what a fit checks
    first (``MRCClassifier._validate_params``), and what the callers that do not fit the estimator check
    (:func:`mrc_pyomo.mrc_path`, the command line)."""
    validate_parameter_constraints(PARAMETER_CONSTRAINTS, estimator.get_params(deep=False),
                                   caller_name=type(estimator).__name__)
    check_parameters(estimator)


#: the iterations of a method at most when ``max_iter`` is None: MRC-SUB takes MRCpy's 10,000 steps (the paper's
#: baseline; its 1,000 gave the trivial rule on digits, ``upper_`` 0.90 against 0.61), every other method 1,000
DEFAULT_MAX_ITER = {"subgradient": 10_000}
#: the default of the methods not in DEFAULT_MAX_ITER: masters of MRC-CCG, iterations of a first-order phase
DEFAULT_ITERATIONS = 1000


def max_iterations(estimator):
    """The iterations ``estimator`` runs at most: its ``max_iter``, or for None its method's default
    (:data:`DEFAULT_MAX_ITER`)."""
    if estimator.max_iter is not None:
        return estimator.max_iter
    return DEFAULT_MAX_ITER.get(estimator.method, DEFAULT_ITERATIONS)


def ccg_config(estimator, regime):
    """The :class:`~mrc_pyomo.methods.ccg.config.CCGConfig` of an :class:`~mrc_pyomo.MRCClassifier`'s parameters
    in the regime ``regime`` (``"n"`` or ``"nm"``; what :func:`~mrc_pyomo.methods.ccg.config.problem_regime`
    chose)."""
    return CCGConfig(
        regime=regime, fit_intercept=estimator.fit_intercept, eps_1=estimator.eps_1, eps_2=estimator.eps_2,
        n_max=estimator.n_max, m_max=estimator.m_max, max_iter=max_iterations(estimator), time_limit=estimator.time_limit,
        solver=estimator.solver, solver_options=estimator.solver_options, row_age=row_age(estimator.lambda0),
        formulation=estimator.formulation)


def method_and_regime(method, regime):
    """The method a fit runs and the regime it runs in (``regime_``), from the ``method`` asked for and the
    ``regime`` :func:`~mrc_pyomo.methods.ccg.config.problem_regime` chose: the full LP (``"lp"``, or ``"ccg"`` in
    the regime ``"full"``) and MRC-SUB run on the whole problem (``"full"``); MRC-FOM certifies its rule by MRC-CCG
    in the regime ``"n"`` (all features: its first master holds the rows its rule makes active), whatever the
    regime asked for."""
    if method == "fom":
        return method, "n"
    if method in ("lp", "subgradient") or regime == "full":
        return ("subgradient" if method == "subgradient" else "lp"), "full"
    return method, regime
