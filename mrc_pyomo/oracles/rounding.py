"""Bounds on the rounding errors of the certificate's own sums, so that each end of the certified interval is rigorous
to the digits it reports (Neumaier and Shcherbina, "Safe bounds in linear and mixed-integer programming", Mathematical
Programming, 2004).  A sum of ``n`` products computed in float64, in any order, with or without fused multiply-adds
(BLAS), is off from its exact value by at most ``gamma(n) * sum |products|``, where ``gamma(n) = n u / (1 - n u)`` and
``u = 2^-53`` is the unit roundoff (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, Section 3.1).  The
upper end (:func:`~mrc_pyomo.oracles.primal.risk_upper_bound`) is raised, the lower end
(:func:`~mrc_pyomo.oracles.certificate.lagrangian_bound`) lowered, by such a bound, then rounded outward.
"""

import numpy as np

#: the unit roundoff of float64, ``u = 2^-53``
UNIT_ROUNDOFF = np.finfo(np.float64).eps / 2

# a margin over the first-order bounds for the second-order terms (products of errors): 1%, far above them
SLACK = 1.01


def gamma(n):
    """Higham's ``gamma_n = n u / (1 - n u)``: the relative bound on the rounding of a sum of ``n`` products."""
    return n * UNIT_ROUNDOFF / (1.0 - n * UNIT_ROUNDOFF)


def round_up(value, error):
    """``value + error`` (``error >= 0``, raised by :data:`SLACK`), rounded up to the next float: above ``value``'s
    exact counterpart whenever ``error`` bounds the rounding of ``value``."""
    return float(np.nextafter(value + SLACK * error, np.inf))


def round_down(value, error):
    """``value - error`` (``error >= 0``, raised by :data:`SLACK`), rounded down to the next float."""
    return float(np.nextafter(value - SLACK * error, -np.inf))
