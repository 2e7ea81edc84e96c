"""mrc_pyomo: minimax risk classifiers learned at scale by constraint and column generation on Pyomo."""

from .display.plotting import plot_history, plot_steps  # matplotlib is imported when it is called, not here
from .estimator.classifier import MRCClassifier
from .estimator.cv import MRCClassifierCV
from .estimator.path import RegularizationPath, mrc_path
from .feature_maps import FeatureMap, LinearFeatures, RandomFourierFeatures
from .master import MasterSolveError, RestrictedMaster
from .methods.result import FitResult, Status
from .problem import MRCProblem, prepare

__all__ = ["MRCClassifier", "FeatureMap", "LinearFeatures", "RandomFourierFeatures", "MasterSolveError",
           "RestrictedMaster", "plot_history", "plot_steps", "mrc_path", "MRCClassifierCV", "RegularizationPath", "FitResult",
           "Status", "MRCProblem", "prepare"]
__version__ = "0.2.0.dev0"
