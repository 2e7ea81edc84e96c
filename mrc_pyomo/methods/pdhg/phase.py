"""MRC-PDHG's first-order phase: its iterations (:mod:`~mrc_pyomo.methods.pdhg.iteration`) sequenced with
PDLP's adaptive steps (:class:`Steps`), restarts and primal weight (:class:`Restarts`), every iterate's exact
``R`` and its dual's certified bound, until the gap closes, a limit, a stop sent, a stall or the dual's support
settled (:func:`phase_steps`)."""

import math
from dataclasses import dataclass

import numpy as np

from ...data import array_namespace, to_numpy
from ...oracles.certificate import gap_tolerance
from ...oracles.incumbent import Incumbent
from ...problem.scaling import column_peaks
from ..deadline import deadline_of
from ..first_order import backward
from ..result import Status, finish
from .bound import dual_bound
from .tuning import PDHGConfig
from .iteration import (Arrays, Iterate, data_namespace, movement, operator_norm, pdhg_step, preconditioner,
                        residual, risk_of, step_limit)
from .saddle import empirical_weights


@dataclass
class Restarts:
    """PDLP's restarts on the fixed-point residual, and the primal weight ``omega``
    (:mod:`~mrc_pyomo.methods.pdhg.iteration`): the restart point (the anchor of the Halpern iteration), the
    residual after it and the last one, the iteration it was made at."""

    omega: float
    point: Iterate
    first: float = None
    last: float = None
    since: int = 0

    def update(self, new, value, k, config, scales):
        """Count the step to ``new`` (iteration ``k``) of residual ``value``; restart at ``new`` when PDLP's rule
        says so, moving ``log omega`` by ``config.weight_smoothing`` towards ``log(dy / dx)``, the distances the
        dual and the primal moved since the last restart in the preconditioned space (``scales``: ``(T0, S0)``);
        return whether it restarted."""
        if self.first is None:
            self.first = self.last = value
            return False
        restart = (value <= config.restart_sufficient * self.first
                   or (value <= config.restart_necessary * self.first and value > self.last)
                   or k - self.since >= config.restart_artificial * k)
        self.last = value
        if not restart:
            return False
        if config.weight_smoothing > 0:
            self.omega = self.weighted(new, config.weight_smoothing, scales)
        self.point, self.first, self.last, self.since = new, None, None, k
        return True

    def weighted(self, new, smoothing, scales):
        """The primal weight after a restart at ``new`` (:meth:`update`)."""
        xp, (T0, S0) = array_namespace(new.mu), scales
        dx = math.sqrt(float(xp.sum((new.mu - self.point.mu) ** 2 / T0[None, :])))
        dy = math.sqrt(float(xp.sum((new.W - self.point.W) ** 2 / S0[:, None])))
        if dx <= 1e-12 or dy <= 1e-12:
            return self.omega
        return math.exp(smoothing * math.log(dy / dx) + (1.0 - smoothing) * math.log(self.omega))

    def anchored(self, z, new, k, reflection):
        """Halpern's next point from ``z`` and ``new = P(z)``: ``(j+1)/(j+2) ((1 + r) new - r z) + 1/(j+2)
        anchor``, ``j`` the steps since the restart."""
        a = (k - self.since + 1.0) / (k - self.since + 2.0)
        return new.combined(a * (1.0 + reflection), z, -a * reflection, self.point, 1.0 - a)


@dataclass
class Steps:
    """The step scale ``eta`` (``T = eta T0 / omega``, ``S = eta omega S0``): fixed, or PDLP's adaptive rule
    (``adaptive``): a step is taken if ``eta`` is at most its :func:`~mrc_pyomo.methods.pdhg.iteration.
    step_limit`, else tried again, and the next ``eta`` is ``min((1 - (j+1)^-0.3) limit, (1 + (j+1)^-0.6)
    eta)``, ``j`` the steps tried."""

    eta: float
    adaptive: bool = False
    tried: int = 0

    def take(self, z, problem, arrays, scales, omega):
        """``(P(z), eta, movement)``: a step from ``z`` that the rule accepts, the step scale it was taken with and
        its :func:`~mrc_pyomo.methods.pdhg.iteration.movement`."""
        xp, (T0, S0) = array_namespace(z.mu), scales
        while True:
            eta = self.eta
            T, S = (eta / omega) * xp.broadcast_to(T0[None, :], problem.tau.shape), eta * omega * S0
            new = pdhg_step(z, problem, arrays, T, S)
            moved = movement(z, new, scales)
            if not self.adaptive:
                return new, eta, moved
            self.tried += 1
            limit = step_limit(moved, omega)
            self.eta = min((1.0 - (self.tried + 1) ** -0.3) * limit, (1.0 + (self.tried + 1) ** -0.6) * eta)
            if eta <= limit:
                return new, eta, moved


@dataclass
class Support:
    """The support of the dual iterates, ``{(i, y): W_iy > floor}``, compared every ``every`` iterations: it has
    settled when the last two share at least ``settled`` of their union (Jaccard).  The active rows are then
    named (the certificate's first master is made of them) and more iterations mostly polish the rule."""

    floor: float
    every: int
    settled: float
    last: object = None

    def has_settled(self, W, k):
        """Whether the support settled at iteration ``k`` (compared on the iterations that are multiples of
        ``every``)."""
        if k % self.every:
            return False
        xp = array_namespace(W)
        mask, last = W > self.floor, self.last
        self.last = mask
        if last is None:
            return False
        union = float(xp.sum(xp.astype(mask | last, xp.float64)))
        return union > 0 and float(xp.sum(xp.astype(mask & last, xp.float64))) >= self.settled * union


@dataclass(frozen=True)
class Outcome(Incumbent):
    """What the phase leaves: the best rule (an :class:`~mrc_pyomo.oracles.incumbent.Incumbent`, on the host),
    the best certified ``lower`` bound of the duals and the last dual iterate ``W``."""

    lower: float = 0.0
    W: object = None


def primal_weight(problem, T0, S0):
    """PDLP's first primal weight, the ratio of the primal and the dual scales in the preconditioned space:
    ``||T0^(1/2) tau|| / ||S0^(1/2)||`` (``tau`` the primal's linear term, and the dual's a subgradient of
    ``h``, one entry of 1 per sample); 1 where ``tau`` is 0."""
    omega = float(np.linalg.norm(np.sqrt(T0)[None, :] * problem.tau)) / math.sqrt(float(np.sum(S0)))
    return omega if omega > 0 else 1.0


def start(problem, config, xp):
    """``(z_0, restarts, (T0, S0), norm)``: ``mu = 0`` and the empirical ``W_0``, the restarts anchored there with
    PDLP's first primal weight, the preconditioner (in ``xp``) and the preconditioned operator's norm."""
    T0, S0 = preconditioner(problem)
    norm = operator_norm(problem, T0, S0, config.power_iterations, xp)
    omega = config.weight_scale * primal_weight(problem, T0, S0)
    W = empirical_weights(problem, xp)
    z = Iterate(xp.zeros(problem.tau.shape, dtype=W.dtype), xp.zeros(W.shape, dtype=W.dtype), W,
                backward(problem.data, W))
    return z, Restarts(omega=omega, point=z), (xp.asarray(T0), xp.asarray(S0)), norm


def phase_steps(problem, config=None, *, deadline=None, log=None):
    """The iterations of MRC-PDHG on ``problem`` from ``mu = 0`` and the empirical ``W`` until ``config.max_iter``,
    the ``deadline``, a stop sent to the generator (which yields each iteration's record), the certified gap
    within ``config.eps_1``, a stall (:func:`stalled`) or the dual's support settled (:class:`Support`).  Each
    step is taken by :class:`Steps` (fixed or adaptive), the next point is the step's (or, with
    ``config.reflection``, Halpern's point anchored at the last restart).  Returns ``(best, history, status)`` as
    a first-order phase does (:mod:`mrc_pyomo.methods.registry`): ``best`` an :class:`Outcome`, ``status``
    ``"converged"`` for a closed gap, None for a stall or a settled support."""
    config, deadline = PDHGConfig() if config is None else config, deadline_of(deadline)
    xp = data_namespace(problem)
    arrays, peaks = Arrays.of(problem, xp), column_peaks(problem.data)
    z, restarts, (T0, S0), norm = start(problem, config, xp)
    top = float(risk_of(z, arrays)[1])
    best, lower, history, status = Incumbent(problem.tau * 0.0, 1.0 + top, 1.0 + top), 0.0, [], Status.MAX_ITER
    support = Support(config.support_floor, config.window, config.settled)
    steps = Steps(config.eta / norm, config.adaptive)
    for k in range(1, config.max_iter + 1):
        new, eta, moved = steps.take(z, problem, arrays, (T0, S0), restarts.omega)
        value = residual(moved, eta, restarts.omega)
        risk, top = risk_of(new, arrays)
        risk = float(risk)
        if risk < best.risk:
            best = Incumbent(to_numpy(new.mu), risk, float(top) + 1.0)
        if k % config.bound_every == 0 or k == config.max_iter:
            lower = max(lower, dual_bound(new.W, new.G, problem, best.risk, peaks))
        restarted = restarts.update(new, value, k, config, (T0, S0))
        z = new if restarted or config.reflection is None else restarts.anchored(z, new, k, config.reflection)
        history.append({"iteration": k, "lambda0": problem.lambda0, "phase": "first-order", "R_mu": risk,
                        "lower": lower, "upper": best.risk, "omega": restarts.omega, "residual": value,
                        "seconds_elapsed": deadline.elapsed()})
        status = yield from stop_of(history, log, config, deadline, support.has_settled(new.W, k))
        if status != Status.MAX_ITER:
            break
    return Outcome(best.mu, best.risk, best.nu, lower, new.W if history else z.W), history, status


def stop_of(history, log, config, deadline, settled=False):
    """Show the last record to ``log`` and yield it; return the status it ends the phase with, or
    ``"max_iter"`` to go on (None: a stall, :func:`stalled`, or the dual's support ``settled``)."""
    record = history[-1]
    if log is not None:
        log(record)
    if (yield record):
        return Status.CALLBACK
    if record["upper"] - record["lower"] <= gap_tolerance(config.eps_1):
        return Status.CONVERGED
    if deadline.expired():
        return Status.TIME_LIMIT
    if settled or (len(history) > config.stall_window and stalled(history, config)):
        return None
    return Status.MAX_ITER


def stalled(history, config):
    """Whether the two ends of the certified interval moved by less than ``config.tolerance`` of the upper end,
    together, over the last ``config.stall_window`` iterations (relative to the upper end, not to the gap: on
    mnist the lower end stays near 0 for minutes, and a gap-relative rule over 100 iterations stopped the
    iterations at 10 s, R 0.450, where 28 s more of them reach 0.403)."""
    last, before = history[-1], history[-1 - config.stall_window]
    moved = (before["upper"] - last["upper"]) + (last["lower"] - before["lower"])
    return moved < config.tolerance * last["upper"]


def phase(problem, config=None, *, deadline=None, log=None, callback=None):
    """:func:`phase_steps` run to its end, each record shown to ``callback`` (if given), whose true return value
    stops it (:func:`~mrc_pyomo.methods.result.finish`): ``(best, history, status)``."""
    return finish(phase_steps(problem, config, deadline=deadline, log=log), callback)
