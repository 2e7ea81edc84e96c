"""From an estimator's parameters and data to the core's fit, the part :class:`~mrc_pyomo.MRCClassifier`'s ``fit``
and :func:`~mrc_pyomo.mrc_path` share: the data validated (against an unfitted copy of the estimator, so that
nothing is written into it) and prepared (:func:`mrc_pyomo.problem.prepare`), the registered method with its
config, and the first-order phase where it pays (:func:`prepared`, :func:`planned`).  What runs them is the path
at the core (:mod:`mrc_pyomo.methods.pathwise`).
"""

from ..data.validation import validate_sample_weight, validate_training_data
from ..master import check_solver
from ..methods.pathwise import Phase, runs_phase
from ..methods.registry import phase_method
from ..problem import prepare
from .fitted import input_attributes, unfitted_copy
from .parameters import settings_of


def prepared(holder, X, y, sample_weight, lambda0, method, **options):
    """``(problem, inputs)``: the training data ``X``, ``y`` and ``sample_weight`` validated and prepared at
    ``lambda0`` for the registered ``method`` (its exact reduction if it takes one; ``options`` for
    :func:`~mrc_pyomo.problem.prepare`), with the parameters of ``holder`` (an estimator: its feature map, intercept,
    random state and solver); ``inputs``: the attributes scikit-learn's validation sets (``n_features_in_``,
    ``feature_names_in_``), set on an unfitted copy of ``holder``, not on it."""
    # the solver is checked on every fit, even with scikit-learn's parameter validation switched off:
    # whether it is usable depends on the machine, not only on the name
    check_solver(holder.solver)
    shadow = unfitted_copy(holder)
    X, y = validate_training_data(shadow, X, y)
    X, y, weights = validate_sample_weight(X, y, sample_weight)
    problem = prepare(X, y, holder.phi, holder.fit_intercept, holder.random_state, lambda0, reduce=method.reduces,
                      weights=weights, **options)
    return problem, input_attributes(shadow)


def planned(holder, method, problem):
    """``(config, phase)``: the config of the registered ``method`` on ``problem`` from the parameters of
    ``holder`` (:func:`~mrc_pyomo.estimator.parameters.settings_of`), and the first-order phase before it
    (a :class:`~mrc_pyomo.methods.pathwise.Phase` of the registry's first-order method; None where the method runs
    none or :func:`~mrc_pyomo.methods.pathwise.runs_phase` says it does not pay)."""
    settings = settings_of(holder)
    config = method.configure(settings, problem)
    if not (method.after_phase and runs_phase(problem, config.regime, holder.first_order)):
        return config, None
    provider = phase_method()
    return config, Phase(provider, provider.configure(settings, problem))
