"""mrc_pyomo: minimax risk classifiers learned at scale by constraint and column generation on Pyomo.

The public names load on first use (PEP 562): ``import mrc_pyomo`` imports neither Pyomo, scikit-learn nor pandas.
"""

import importlib

__version__ = "0.2.0.dev0"

#: each public name and the module that defines it
_PUBLIC = {
    "MRCClassifier": "estimator.classifier", "MRCClassifierCV": "estimator.cv", "mrc_path": "estimator.path",
    "RegularizationPath": "estimator.path", "FeatureMap": "feature_maps", "LinearFeatures": "feature_maps",
    "RandomFourierFeatures": "feature_maps", "MasterSolveError": "master", "RestrictedMaster": "master",
    "plot_history": "display.plotting", "plot_steps": "display.plotting", "FitResult": "methods.result",
    "Status": "methods.result", "MRCProblem": "problem", "prepare": "problem",
}

__all__ = ["MRCClassifier", "FeatureMap", "LinearFeatures", "RandomFourierFeatures", "MasterSolveError",
           "RestrictedMaster", "plot_history", "plot_steps", "mrc_path", "MRCClassifierCV", "RegularizationPath",
           "FitResult", "Status", "MRCProblem", "prepare"]


def __getattr__(name):
    """A public name or a subpackage (``mrc_pyomo.methods``), imported on first use and kept in the namespace."""
    if name in _PUBLIC:
        value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
    elif not name.startswith("_"):
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
