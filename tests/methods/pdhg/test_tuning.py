"""MRC-PDHG's settings (:mod:`mrc_pyomo.methods.pdhg.tuning`): checked where made, made from the estimator's."""

import pytest

from helpers import random_problem
from mrc_pyomo.methods.pdhg.tuning import PDHGConfig, configure
from mrc_pyomo.methods.registry import Settings
from mrc_pyomo.problem import prepare


def test_settings_out_of_range_are_refused():
    with pytest.raises(ValueError, match="reflection"):
        PDHGConfig(reflection=1.5)
    with pytest.raises(ValueError, match="eta"):
        PDHGConfig(eta=1.0)


def test_the_estimator_s_settings_make_the_config():
    X, y = random_problem(40, 3, 3, seed=0)
    problem = prepare(X, y)
    config = configure(Settings(eps_1=1e-4, max_iter=None, regime="nm"), problem)
    assert config.eps_1 == 1e-4 and config.max_iter == PDHGConfig.max_iter and config.certificate.regime == "n"
    assert configure(Settings(max_iter=17), problem).max_iter == 17
