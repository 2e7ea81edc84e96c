"""mrc_pyomo: minimax risk classifiers learned at scale by constraint and column generation on Pyomo."""

from .classifier import MRCClassifier
from .feature_maps import FeatureMap, LinearFeatures, RandomFourierFeatures
from .master import MasterSolveError, RestrictedMaster
from .path import MRCClassifierCV, RegularizationPath, mrc_path
from .plotting import plot_history  # matplotlib is imported when it is called, not here

__all__ = ["MRCClassifier", "FeatureMap", "LinearFeatures", "RandomFourierFeatures", "MasterSolveError",
           "RestrictedMaster", "plot_history", "mrc_path", "MRCClassifierCV", "RegularizationPath"]
__version__ = "0.1.0"
