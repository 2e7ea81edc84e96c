"""The rounding bounds of the certificate's sums (:mod:`mrc_pyomo.oracles.rounding`): ``u = 2^-53``, Higham's
``gamma(n) = n u / (1 - n u)`` bounds the rounding of a sum of ``n`` products computed in float64 in any order
(checked against the exact value of random and cancelling sums in rational arithmetic, ``fractions.Fraction``),
and :func:`round_up` / :func:`round_down` give floats strictly beyond ``value +- error`` that enclose the exact
sum."""

from fractions import Fraction

import numpy as np
import pytest

from mrc_pyomo.oracles.rounding import SLACK, UNIT_ROUNDOFF, gamma, round_down, round_up


def exact(x):
    """A float as the rational number it is."""
    return Fraction(float(x))


def test_the_unit_roundoff_is_half_the_gap_above_one():
    assert UNIT_ROUNDOFF == 2.0 ** -53
    assert 1.0 + 2 * UNIT_ROUNDOFF > 1.0 and 1.0 + UNIT_ROUNDOFF == 1.0   # ties to even: 1 + u rounds to 1


@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000, 10 ** 9])
def test_gamma_is_higham_s_n_u_over_one_minus_n_u(n):
    u = Fraction(1, 2 ** 53)
    expected = n * u / (1 - n * u)
    assert gamma(n) == pytest.approx(float(expected), rel=4 * UNIT_ROUNDOFF, abs=0.0)
    assert gamma(n) >= n * UNIT_ROUNDOFF   # never below the first-order term


def sums_of_products(a, b, rng):
    """The sum of the products ``a_k b_k`` as float64 computes it in several orders: BLAS's dot (with or without
    fused multiply-adds), left to right, right to left, NumPy's pairwise sum, a random order."""
    products = a * b
    order = rng.permutation(len(a))
    left = 0.0
    for p in products:
        left += float(p)
    right = 0.0
    for p in products[::-1]:
        right += float(p)
    shuffled = 0.0
    for k in order:
        shuffled += float(a[k]) * float(b[k])
    return [float(np.dot(a, b)), float(a @ b), left, right, float(np.sum(products)), shuffled]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n", [1, 2, 7, 64, 500])
def test_gamma_bounds_the_rounding_of_a_sum_of_n_products(seed, n):
    """``|computed - exact| <= gamma(n) sum_k |a_k b_k|`` in exact arithmetic, for random sums over many scales
    and for sums that nearly cancel (the exact value tiny, every partial sum large)."""
    rng = np.random.default_rng(1000 * seed + n)
    a = rng.normal(size=n) * 10.0 ** rng.integers(-8, 9, n)
    b = rng.normal(size=n)
    if seed % 2:   # cancelling: each product followed by (nearly) its opposite
        a = np.repeat(a[: (n + 1) // 2], 2)[:n]
        b = np.repeat(b[: (n + 1) // 2], 2)[:n] * np.resize([1.0, -1.0 + 1e-12], n)
    exact_sum = sum((exact(x) * exact(y) for x, y in zip(a, b)), Fraction(0))
    magnitude = sum((abs(exact(x) * exact(y)) for x, y in zip(a, b)), Fraction(0))
    u = Fraction(1, 2 ** 53)
    bound = n * u / (1 - n * u) * magnitude
    for computed in sums_of_products(a, b, rng):
        assert abs(exact(computed) - exact_sum) <= bound


@pytest.mark.parametrize("seed", range(5))
def test_round_up_and_down_enclose_the_exact_sum(seed):
    """With ``error = gamma(n) sum |products|`` (as computed in float64), ``round_down(value, error) <= exact <=
    round_up(value, error)``; each end is strictly beyond ``value -+ error`` in exact arithmetic."""
    rng = np.random.default_rng(seed)
    n = 200
    a, b = rng.normal(size=n) * 1e3, rng.normal(size=n)
    value = float(np.dot(a, b))
    error = gamma(n) * float(np.abs(a * b).sum())
    exact_sum = sum((exact(x) * exact(y) for x, y in zip(a, b)), Fraction(0))
    up, down = round_up(value, error), round_down(value, error)
    assert isinstance(up, float) and isinstance(down, float)
    assert exact(down) <= exact_sum <= exact(up)
    assert exact(up) > exact(value) + exact(error) and exact(down) < exact(value) - exact(error)


@pytest.mark.parametrize("value", [0.0, 1.0, -1.0, 0.1, 1e-300, 1e300, 5e-324])
def test_rounding_outward_moves_to_the_next_float_even_with_no_error(value):
    """With ``error = 0`` the ends are the floats next to ``value``: strictly outside it, by one step."""
    assert round_up(value, 0.0) == np.nextafter(value, np.inf) > value
    assert round_down(value, 0.0) == np.nextafter(value, -np.inf) < value


def test_the_slack_raises_the_error_by_one_percent():
    """``round_up(v, e)`` is beyond ``v + e`` by the slack's 1% of ``e`` (less than a float's step otherwise)."""
    assert SLACK == pytest.approx(1.01)
    assert round_up(1.0, 0.5) == np.nextafter(1.0 + SLACK * 0.5, np.inf)
    assert round_down(1.0, 0.5) == np.nextafter(1.0 - SLACK * 0.5, -np.inf)
    assert round_up(1.0, 0.5) > 1.5 + 0.004 and round_down(1.0, 0.5) < 0.5 - 0.004
