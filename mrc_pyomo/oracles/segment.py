"""The best rule on a segment: ``R`` (eq. 3) is convex, so along ``mu = (1 - t) mu_a + t mu_b`` a golden-section search
on ``t`` finds its least value, and the values seen bound that least value from below (:func:`convex_floor`), which
stops the search once its best point is within a tolerance of the segment's best.

Every point the search returns is only a candidate: its caller evaluates its ``R`` exactly
(:class:`~mrc_pyomo.oracles.incumbent.Incumbent`) before it can be an upper end, so the floor decides when the search
stops, never a bound of the certified interval.
"""

import math

import numpy as np

from ..data import as_source
from .primal import block_part, class_scores, per_sample, psi_values, risk

#: the golden section's ratio
RATIO = (math.sqrt(5.0) - 1.0) / 2.0


def convex_floor(points):
    """The least value a convex function ``f`` on ``[min t, max t]`` can take, given its values ``points`` (pairs
    ``(f(t), t)``): ``-inf`` from fewer than three.

    On each interval ``[t_k, t_{k+1}]`` between consecutive points, ``f`` lies above the line through the two points
    left of it (``t_{k-1}``, ``t_k``), extended right, and above the line through the two right of it, extended left
    (a convex function lies above every secant outside the secant's interval).  The maximum of those lines is convex,
    so its least value on the interval is at an end or where the lines cross; the floor is the least over the
    intervals.  Equal ``t`` are merged (their values are equal)."""
    ordered = sorted({t: value for value, t in points}.items())
    if len(ordered) < 3:
        return -math.inf
    t, f = np.array([p[0] for p in ordered]), np.array([p[1] for p in ordered])
    slopes = np.diff(f) / np.diff(t)
    floor = math.inf
    for k in range(len(t) - 1):
        lines = []   # (slope, value at t_k)
        if k >= 1:
            lines.append((slopes[k - 1], f[k]))
        if k + 2 < len(t):
            lines.append((slopes[k + 1], f[k + 1] - slopes[k + 1] * (t[k + 1] - t[k])))
        where = [t[k], t[k + 1]]
        if len(lines) == 2 and lines[0][0] != lines[1][0]:
            cross = t[k] + (lines[1][1] - lines[0][1]) / (lines[0][0] - lines[1][0])
            where.append(min(max(cross, t[k]), t[k + 1]))
        floor = min(floor, min(max(value + slope * (x - t[k]) for slope, value in lines) for x in where))
    return float(floor)


def risk_on_segment(data, mu_a, mu_b, tau, lam, iterations=30, blocked=None, tolerance=0.0):
    """``(mu, R(mu))`` minimising ``R`` on the segment ``mu = (1 - t) mu_a + t mu_b``, ``t in [0, 1]`` (``blocked``:
    :func:`~mrc_pyomo.oracles.primal.most_violated_subsets`).

    A golden-section search on ``t``, both ends candidates, for ``iterations`` steps at most, stopped once the best
    value seen is within ``tolerance`` of the :func:`convex_floor` of the values seen (0: never before
    ``iterations``).  The scores ``[V_a, V_b]``, kept (:meth:`~mrc_pyomo.data.DataSource.persist`), make each
    ``varphi(t) = max_i psi_i((1 - t) V_a + t V_b)`` one pass."""
    both = np.concatenate([mu_a, mu_b])
    n_classes = mu_a.shape[0]
    scores = as_source(data).map_blocks(lambda block: class_scores(block, both)).persist()

    def value(t):
        mu = (1.0 - t) * mu_a + t * mu_b
        top = scores.map_reduce(lambda block, start, *b: psi_values(
            (1.0 - t) * block[:, :n_classes] + t * block[:, n_classes:], block_part(b)).max(initial=-np.inf), max,
            *per_sample(blocked))
        return risk(mu, float(top), tau, lam), t

    lo, hi = 0.0, 1.0
    x1, x2 = hi - RATIO * (hi - lo), lo + RATIO * (hi - lo)
    f1, f2 = value(x1), value(x2)
    candidates = [value(0.0), value(1.0), f1, f2]
    for _ in range(iterations):
        if tolerance > 0.0 and min(candidates)[0] - convex_floor(candidates) <= tolerance:
            break
        if f1[0] <= f2[0]:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - RATIO * (hi - lo)
            f1 = value(x1)
            candidates.append(f1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + RATIO * (hi - lo)
            f2 = value(x2)
            candidates.append(f2)
    best, t = min(candidates)
    return (1.0 - t) * mu_a + t * mu_b, best
