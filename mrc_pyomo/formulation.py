"""The paper's formulation of the MRC LP: the documented name of :mod:`mrc_pyomo.formulations.paper`, whose
names it holds (the formulations themselves are in :mod:`mrc_pyomo.formulations`)."""

from .formulations.paper import *  # noqa: F401,F403
from .formulations.paper import __all__  # noqa: F401
