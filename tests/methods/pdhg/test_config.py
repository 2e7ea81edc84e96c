"""MRC-PDHG's settings (:mod:`mrc_pyomo.methods.pdhg.config`): checked where made (made from the estimator's as
every first-order method's are: ``tests/methods/test_first_order.py``)."""

import pytest

from mrc_pyomo.methods.pdhg.config import PDHGConfig


def test_settings_out_of_range_are_refused():
    with pytest.raises(ValueError, match="reflection"):
        PDHGConfig(reflection=1.5)
    with pytest.raises(ValueError, match="eta"):
        PDHGConfig(eta=1.0)

