"""mrc_pyomo: minimax risk classifiers learned at scale by constraint and column generation on Pyomo."""

from .classifier import MRCClassifier
from .feature_maps import FeatureMap, LinearFeatures, RandomFourierFeatures
from .master import MasterSolveError, RestrictedMaster

__all__ = ["MRCClassifier", "FeatureMap", "LinearFeatures", "RandomFourierFeatures", "MasterSolveError",
           "RestrictedMaster"]
__version__ = "0.1.0"
