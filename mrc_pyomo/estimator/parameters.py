"""The parameters of the estimators, specified once: :data:`PARAMETERS` gives each name its default and scikit-learn's
constraints, from which the estimators take their ``__init__`` and ``_parameter_constraints``; :func:`check_parameters`
checks what the constraints cannot express; :class:`Settings`, the entries marked ``setting``, is what the parameters
say to a method's ``configure``, so a new parameter is one entry here.  The ``method`` constraint reads the registry
(:mod:`mrc_pyomo.methods.registry`) when it checks, so a method registered later is valid.
"""

import copy
import inspect
from dataclasses import dataclass, field, make_dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import (HasMethods, Interval, InvalidParameterError, StrOptions,
                                            validate_parameter_constraints)

from ..display.words import suggestion
from ..formulations import Formulation, get_formulation
from ..master.pyomo_solve import make_solver
from ..methods.registry import METHODS


#: the user guide's page of the estimators (docs/api.rst, built by Sphinx), relative to the guide's root, where the HTML
#: repr's "?" and parameter names link: Sphinx's anchor of a class is its dotted name; a copy of the guide hosted
#: elsewhere sets the estimators' ``_doc_link_template`` to its address
API_PAGE = "api.html"


class DocLinkMixin:
    """The link of an estimator's HTML repr (a notebook's) to its entry in the guide's :data:`API_PAGE`, given by
    scikit-learn's ``_doc_link_module`` and ``_doc_link_template``: the anchor is the class's dotted name in the
    module that defines and documents it.  With the link, the repr shows each parameter's help, its entry in the
    numpydoc "Parameters" section of the class docstring (one entry per parameter)."""

    _doc_link_module = "mrc_pyomo"
    _doc_link_template = API_PAGE + "#{estimator_module}.{estimator_name}"


def parameter_entries(docstring):
    """``{name: lines}``: each entry of the numpydoc "Parameters" section of ``docstring`` (its ``name : type`` line
    and description, as indented there), for a class that documents parameters it takes from another."""
    lines = docstring.splitlines()
    start = [line.strip() for line in lines].index("Parameters") + 2
    indent = len(lines[start]) - len(lines[start].lstrip())
    entries, name = {}, None
    for line in lines[start:]:
        if not line.strip():
            break
        if len(line) - len(line.lstrip()) == indent:
            name = line.split(" : ")[0].strip()
            entries[name] = []
        entries[name].append(line)
    return entries


class SolverCloneMixin:
    """``sklearn.base.clone`` of an estimator whose ``solver`` is a Pyomo solver instance that cannot be deep-copied
    (``SolverFactory("highs")``, the persistent interfaces: they hold a module or a lock): the clone gets a solver made
    like it (:func:`~mrc_pyomo.master.pyomo_solve.make_solver`); other estimators clone as scikit-learn clones them."""

    def __sklearn_clone__(self):
        solver = self.solver
        if isinstance(solver, str) or copyable(solver):
            return super().__sklearn_clone__()
        named = copy.copy(self)
        named.solver = "highs"   # any valid name: replaced below, so that clone copies nothing of Pyomo's
        made = super(SolverCloneMixin, named).__sklearn_clone__()
        made.solver = make_solver(solver)
        return made


def copyable(value):
    """Whether ``copy.deepcopy(value)`` works."""
    try:
        copy.deepcopy(value)
    except Exception:  # noqa: BLE001 - Pyomo's objects fail with TypeError, AttributeError, PicklingError, ...
        return False
    return True


@dataclass(frozen=True)
class Parameter:
    """An estimator parameter: its ``name``, its ``default`` and scikit-learn's ``constraints`` on it; ``setting``:
    a method's ``configure`` may read it (a field of :class:`Settings`)."""

    name: str
    default: object
    constraints: list
    setting: bool = False


#: every parameter of MRCClassifier, in its signature's order (MRCClassifierCV takes those of :data:`SHARED`)
PARAMETERS = (
    Parameter("phi", "linear", [StrOptions({"linear", "fourier"}), HasMethods(["fit", "transform"])]),
    Parameter("lambda0", 0.01, [Interval(Real, 0, np.inf, closed="left")], setting=True),
    Parameter("fit_intercept", True, ["boolean"], setting=True),
    Parameter("method", "ccg", [StrOptions(METHODS.keys())]),   # the registry's names, as they are when checked
    Parameter("solver", "highs", [str, HasMethods(["solve", "available"])], setting=True),   # or a solver instance
    Parameter("eps_1", 1e-3, [Interval(Real, 0, np.inf, closed="left")], setting=True),
    Parameter("eps_2", 1e-5, [Interval(Real, 0, np.inf, closed="left")], setting=True),
    Parameter("n_max", 400, [Interval(Integral, 1, None, closed="left")], setting=True),
    Parameter("m_max", 400, [Interval(Integral, 1, None, closed="left")], setting=True),
    Parameter("max_iter", None, [Interval(Integral, 1, None, closed="left"), None], setting=True),
    Parameter("regime", "auto", [StrOptions({"auto", "n", "nm"})], setting=True),
    Parameter("time_limit", None, [Interval(Real, 0, np.inf, closed="left"), None], setting=True),
    Parameter("solver_options", None, [dict, None], setting=True),
    Parameter("random_state", None, ["random_state"]),
    Parameter("verbose", False, [Interval(Integral, 0, 3, closed="both"), "boolean"]),   # 0 / False, 1 / True, 2, 3
    Parameter("callback", None, [callable, None]),
    Parameter("continuation", False, ["boolean"], setting=True),
    Parameter("formulation", "paper", [str, Formulation], setting=True),   # a name: check_parameters
    Parameter("first_order", "auto", [StrOptions({"auto"}), "boolean"], setting=True),
    Parameter("class_weight", None, [dict, StrOptions({"balanced"}), None]),   # values checked: check_parameters
    Parameter("warm_start", False, ["boolean"]),
)
#: the parameters MRCClassifierCV shares with MRCClassifier (its folds' paths and its refit take them)
SHARED = ("phi", "fit_intercept", "solver", "eps_1", "eps_2", "n_max", "m_max", "max_iter", "regime", "time_limit",
          "solver_options", "random_state", "verbose", "formulation", "first_order", "class_weight")
Settings = make_dataclass("Settings", [(p.name, object, field(default=p.default)) for p in PARAMETERS if p.setting],
                          frozen=True, namespace={"__module__": __name__, "__doc__": (
                              "What the estimator's parameters say to a method (the ``settings`` of its registry "
                              "entry's ``configure(settings, problem)``): a frozen dataclass of the parameters of "
                              ":data:`PARAMETERS` marked ``setting``, with their defaults.")})
#: MRCClassifier's constraints, by name (scikit-learn's ``_parameter_constraints``)
PARAMETER_CONSTRAINTS = {parameter.name: parameter.constraints for parameter in PARAMETERS}


def parameters(*names):
    """The :class:`Parameter` entries of :data:`PARAMETERS` with these names, in the order given."""
    by_name = {parameter.name: parameter for parameter in PARAMETERS}
    return tuple(by_name[name] for name in names)


def constraints_of(specification):
    """scikit-learn's ``_parameter_constraints`` of a sequence of :class:`Parameter`."""
    return {parameter.name: parameter.constraints for parameter in specification}


def make_init(specification):
    """An ``__init__`` that sets each :class:`Parameter` of ``specification`` from its argument or default, and nothing
    else, with the signature scikit-learn reads (``get_params``, ``clone``) and the docs show."""
    signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(parameter.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=parameter.default)
           for parameter in specification])

    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{type(self).__name__}(): {error}{meant(kwargs, specification)}") from None
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            setattr(self, name, value)

    __init__.__signature__ = signature
    return __init__


def meant(given, specification):
    """``"; did you mean 'lambda0'?"`` for the first name of ``given`` that is no parameter of ``specification`` but
    close to one (as a misspelt solver name gets), else ``""``."""
    names = [parameter.name for parameter in specification]
    for name in given:
        close = suggestion(name, names, 0.7) if name not in names else None
        if close:
            return f"; did you mean {close!r}?"
    return ""


def check_parameters(estimator):
    """Raise scikit-learn's ``InvalidParameterError`` (a ``ValueError``) naming the parameter: a number given as a
    boolean, a formulation not in :data:`mrc_pyomo.formulations.FORMULATIONS`, or a ``class_weight`` dict's weight that
    is not a finite non-negative number (its labels are checked in ``fit``)."""
    name_of = type(estimator).__name__
    try:
        get_formulation(estimator.formulation)
    except ValueError as error:
        raise InvalidParameterError(f"The 'formulation' parameter of {name_of}: {error}") from None
    for name in ("lambda0", "eps_1", "eps_2", "n_max", "m_max", "max_iter", "time_limit"):
        value = getattr(estimator, name, None)
        if isinstance(value, (bool, np.bool_)):
            raise InvalidParameterError(f"The {name!r} parameter of {name_of} must be a number, not a boolean. "
                                        f"Got {value!r} instead.")
    weights = getattr(estimator, "class_weight", None)
    bad = {label: weight for label, weight in (weights.items() if isinstance(weights, dict) else ())
           if isinstance(weight, (bool, np.bool_)) or not isinstance(weight, (Real, np.number))
           or not np.isfinite(weight) or weight < 0}
    if bad:
        raise InvalidParameterError(f"The 'class_weight' parameter of {name_of} must map labels to finite "
                                    f"non-negative numbers; got {bad!r} in {weights!r}.")


def validate_parameters(estimator, constraints=PARAMETER_CONSTRAINTS):
    """Check the parameters of ``estimator`` against ``constraints`` (default MRCClassifier's), then
    :func:`check_parameters`: a fit's ``_validate_params``, and the check of callers that fit no estimator
    (:func:`mrc_pyomo.mrc_path`, the command line)."""
    validate_parameter_constraints(constraints, estimator.get_params(deep=False),
                                   caller_name=type(estimator).__name__)
    check_parameters(estimator)


def settings_of(params):
    """The :class:`Settings` that the parameters ``params`` (an estimator, or anything with the parameters as
    attributes) give a method; a parameter ``params`` lacks (``lambda0`` of a path's template) has its default."""
    return Settings(**{name: getattr(params, name, entry.default)
                       for name, entry in Settings.__dataclass_fields__.items()})
