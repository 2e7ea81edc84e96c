"""The parameters of :class:`~mrc_pyomo.MRCClassifier`: scikit-learn's constraints on each, the checks they
cannot express (numbers that are not booleans, a formulation known by name), and the settings of MRC-CCG they
make (:func:`ccg_config`)."""

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
    "max_iter": [Interval(Integral, 1, None, closed="left")],
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


def ccg_config(estimator, regime):
    """The :class:`~mrc_pyomo.methods.ccg.config.CCGConfig` of an :class:`~mrc_pyomo.MRCClassifier`'s parameters
    in the regime ``regime`` (``"n"`` or ``"nm"``; what :func:`~mrc_pyomo.methods.ccg.config.problem_regime`
    chose)."""
    return CCGConfig(
        regime=regime, fit_intercept=estimator.fit_intercept, eps_1=estimator.eps_1, eps_2=estimator.eps_2,
        n_max=estimator.n_max, m_max=estimator.m_max, max_iter=estimator.max_iter, time_limit=estimator.time_limit,
        solver=estimator.solver, solver_options=estimator.solver_options, row_age=row_age(estimator.lambda0),
        formulation=estimator.formulation)
