"""The incumbent: the best certified rule a method has found, which every method returns.

``R(mu) >= R*`` for every ``mu`` (eq. 3): the smallest exact ``R`` found is the certified upper end; :class:`Incumbent`
holds its rule with ``nu = varphi(mu) + 1``, the smallest ``nu`` for which ``(mu, nu)`` satisfies every row (eq. 4).
"""

from dataclasses import dataclass

import numpy as np

from .primal import risk, risk_on_segment, varphi


@dataclass(frozen=True)
class Incumbent:
    """The best rule so far: ``mu`` with the smallest ``R(mu)`` (``risk``) and ``nu = varphi(mu) + 1``."""

    mu: np.ndarray
    risk: float
    nu: float

    @classmethod
    def evaluate(cls, problem, mu):
        """``mu`` with ``R(mu)`` evaluated over all samples of ``problem`` (a :class:`~mrc_pyomo.problem.MRCProblem`),
        one pass (``R'`` of :mod:`mrc_pyomo.problem.reduction` if ``blocked``)."""
        value = varphi(problem.data, mu, problem.blocked)
        return cls(mu, risk(mu, value, problem.tau, problem.lam), value + 1.0)

    @classmethod
    def best_of(cls, problem, mus):
        """The best of ``mu = 0`` and the rules ``mus``, each evaluated by :meth:`evaluate` (the first of equals)."""
        best = cls.evaluate(problem, np.zeros_like(problem.tau))
        for mu in mus:
            candidate = cls.evaluate(problem, mu)
            best = candidate if candidate.risk < best.risk else best
        return best


def improve_on_segments(problem, best, mu):
    """The best rule of ``problem`` on the segments from ``best.mu`` to ``mu`` and ``c(mu)``, and from 0 to ``c(mu)``.

    ``c(mu) = mu - mean_y mu_y`` has the scores of ``mu`` shifted alike for all classes, hence its predictions.  At
    ``mu = 0`` every row ``(i, Y)`` is active, so the slope of ``R`` towards ``mu`` holds
    ``max_i mean_y Psi(x_i).mu_y``, which can make every ``t mu`` worse than 0; towards ``c(mu)`` that term is 0 and the
    slope ``-tau.c(mu) + lambda.|c(mu)|`` is negative for a rule that scores the true class above the mean: an early
    stop keeps the masters' predictions more often than not."""
    centred = mu - mu.mean(axis=0)
    for start, end in ((best.mu, mu), (best.mu, centred), (np.zeros_like(mu), centred)):
        candidate, value = risk_on_segment(problem.data, start, end, problem.tau, problem.lam,
                                           blocked=problem.blocked)
        if value < best.risk:
            best = Incumbent.evaluate(problem, candidate)
    return best
