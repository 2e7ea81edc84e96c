"""The checks of a model file's arrays (:mod:`mrc_pyomo.cli.model_arrays`), on arrays made here: the rule against
its certificate and the bound that keeps its scores finite, distinct feature names, one-line errors.  The files
that break them, crafted from real fitted models, are in ``tests/cli/test_models.py``."""

import numpy as np
import pytest

from mrc_pyomo.cli.model_arrays import MU_BOUND, ModelFormatError, check_names, check_rule, numbers, shown

LAM = np.array([[0.5, 0.25], [0.0, 1.0]])


def test_the_rule_is_bounded_by_its_certificate_up_to_rounding():
    """``lambda_ . |mu_| <= upper_``: on the bound it passes, and within the relative slack; above it it is refused
    naming the largest term; a sum that overflows is refused."""
    mu = np.array([[1.0, -2.0], [1e6, 0.5]])          # lambda_ . |mu_| = 0.5 + 0.5 + 0 + 0.5 = 1.5
    check_rule(mu, LAM, 1.5)
    check_rule(mu, LAM, 1.5 * (1 - 1e-10))            # within the relative slack 1e-9
    with pytest.raises(ModelFormatError, match=r"lambda_ \. \|mu_\| = 1\.5 is above upper_ = 1\.4.*mu_\[0, 0\]"):
        check_rule(mu, LAM, 1.4)
    with pytest.raises(ModelFormatError, match=r"= inf .*mu_\[1, 1\] = -1e\+308"):
        check_rule(np.array([[0.0, 0.0], [0.0, -1e308]]), LAM * 10, 0.5)


def test_mu_where_lambda_is_zero_stays_below_the_bound_of_finite_scores():
    """An entry of ``lambda_ = 0`` is bounded by no certificate: ``|mu_| < MU_BOUND`` keeps a class score of
    features below 1e150 finite."""
    check_rule(np.array([[0.0, 0.0], [-0.99 * MU_BOUND, 0.0]]), LAM, 0.5)
    assert np.isfinite(np.full(1000, 1e150) @ np.full(1000, 0.99 * MU_BOUND))
    with pytest.raises(ModelFormatError, match=r"too large .*mu_\[1, 0\] = 1e\+150 \(\|mu_\| must be below 1e\+150\)"):
        check_rule(np.array([[0.0, 0.0], [MU_BOUND, 0.0]]), LAM, 0.5)


def test_feature_names_are_distinct():
    check_names({"names": np.array(["a", "b", "c"])}, "names", 3)
    with pytest.raises(ModelFormatError, match=r"names a feature twice: names\[2\] = 'a' is names\[0\]"):
        check_names({"names": np.array(["a", "b", "a"])}, "names", 3)
    with pytest.raises(ModelFormatError, match=r"shape \(2,\), not \(3,\)"):
        check_names({"names": np.array(["a", "b"])}, "names", 3)


def test_errors_are_one_line_and_numbers_become_float64():
    assert str(ModelFormatError("a\nb\r\nc")) == "a b c"
    assert shown("x" * 100, 10) == "'xxxxxx..." and shown(np.float64(0.5)) == "0.5"
    arrays = {"v": np.array([1, 2], dtype=np.int32)}
    assert numbers(arrays, "v", (2,), "", sign=">").dtype == np.float64 and arrays["v"].dtype == np.float64
    with pytest.raises(ModelFormatError, match=r"must be non-negative: v\[1\] = -1.0"):
        numbers({"v": np.array([0.0, -1.0])}, "v", (2,), "", sign=">=")
