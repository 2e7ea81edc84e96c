"""Which rows and features enter or leave the restricted master (paper, Section 3.1).

CONSTR adds the ``n_max`` most violated rows whose violation exceeds ``eps_1`` and removes over-satisfied rows
(violation ``< 0``); FEAT adds the ``m_max`` features whose dual violation exceeds ``eps_2``.  A violation must also
exceed ``NUMERICAL_FLOOR``, so that ``eps = 0`` does not chase round-off; nothing already in the master is added twice.
"""

import numpy as np

NUMERICAL_FLOOR = 1e-9


def most_violated(violations, eps, limit, eligible=None):
    """Indices of at most ``limit`` entries with violation ``> max(eps, NUMERICAL_FLOOR)``, most violated first;
    ``eligible`` (boolean mask) restricts the candidates, e.g. to the features not yet in the master."""
    candidates = violations > max(eps, NUMERICAL_FLOOR)
    if eligible is not None:
        candidates &= eligible
    index = np.flatnonzero(candidates)
    if len(index) > limit:
        index = index[np.argpartition(-violations[index], limit - 1)[:limit]]
    return index[np.argsort(-violations[index], kind="stable")]


def over_satisfied(violations, alpha):
    """Mask of the master's rows with violation ``< -NUMERICAL_FLOOR`` and dual value ``<= NUMERICAL_FLOOR``.

    A row with positive slack has a zero dual (complementary slackness); asking for both keeps a binding row when the
    solver's solution is only accurate to a few digits.  Removing rows with zero dual leaves the current solution
    optimal, so the next master stays bounded and ``R^k`` cannot decrease (Theorem 1)."""
    return (violations < -NUMERICAL_FLOOR) & (alpha <= NUMERICAL_FLOOR)
