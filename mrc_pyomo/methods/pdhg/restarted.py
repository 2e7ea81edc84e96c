"""MRC-PDHG's iterations: its steps (:mod:`~mrc_pyomo.methods.pdhg.step`) with PDLP's adaptive step scale
(:class:`StepScale`), restarts and primal weight (:class:`Restarts`) and their stops (:func:`iterations`); and the
rows they name active (:func:`active_rows`), where the certificate's loop starts."""

import math
from dataclasses import dataclass

import numpy as np

from ...data import array_namespace, as_source, to_numpy
from ...oracles.incumbent import Incumbent
from ...oracles.passes import backward, forward
from ...oracles.primal import near_active_rows
from ...problem.scaling import column_peaks
from ..deadline import deadline_of
from ..history import FIRST_ORDER
from ..result import Outcome, Status, reported, status_of
from .bound import dual_bound
from .config import PDHGConfig
from .saddle import empirical_weights, nested_rows, nested_size
from .step import (Arrays, Iterate, data_namespace, movement, operator_norm, pdhg_step, preconditioner, residual,
                   risk_of, step_limit)


@dataclass
class Restarts:
    """PDLP's restarts on the fixed-point residual, and the primal weight ``omega``: the restart point (the
    Halpern iteration's anchor), the residual after it and the last one, the iteration it was made at."""

    omega: float
    point: Iterate
    first: float = None
    last: float = None
    since: int = 0

    def update(self, new, value, k, config, scales):
        """Count the step to ``new`` (iteration ``k``) of residual ``value``; restart at ``new`` when PDLP's rule
        says so, moving ``log omega`` by ``config.weight_smoothing`` towards ``log(dy / dx)``, the dual's and the
        primal's moves since the last restart (``scales``: ``(T0, S0)``); return whether it restarted."""
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
class StepScale:
    """The step scale ``eta`` (``T = eta T0 / omega``, ``S = eta omega S0``): fixed, or PDLP's adaptive rule: a
    step is taken if ``eta`` is at most its :func:`~mrc_pyomo.methods.pdhg.step.step_limit`, else tried again;
    the next ``eta`` is ``min((1 - (j+1)^-0.3) limit, (1 + (j+1)^-0.6) eta)``, ``j`` the steps tried."""

    eta: float
    adaptive: bool = False
    tried: int = 0

    def take(self, z, problem, arrays, scales, omega):
        """``(P(z), eta, movement)``: a step from ``z`` that the rule accepts, the step scale it was taken with and
        its :func:`~mrc_pyomo.methods.pdhg.step.movement`."""
        xp, (T0, S0) = array_namespace(z.mu), scales
        while True:
            eta = self.eta
            T, S = (eta / omega) * xp.broadcast_to(T0[None, :], problem.tau.shape), eta * omega * S0
            new = pdhg_step(z, problem, arrays, T, S)
            moved = movement(z, new, scales)
            self.tried += 1
            if not self.adaptive:
                return new, eta, moved
            limit = step_limit(moved, omega)
            self.eta = min((1.0 - (self.tried + 1) ** -0.3) * limit, (1.0 + (self.tried + 1) ** -0.6) * eta)
            if eta <= limit:
                return new, eta, moved


@dataclass
class Support:
    """The support of the dual iterates, ``{(i, y): W_iy > floor}``, looked at every ``every`` iterations, and when
    the iterations hand it over to the masters: once it settled (the last two share at least ``settled`` of their
    union: the active rows are named), or once the passes did ``handover`` times the work of the master it makes
    (:attr:`ratio`: ``pass_work`` multiply-adds a step against its rows' nonzeros, ``row_nonzeros`` per sample
    and label, :func:`~mrc_pyomo.methods.pdhg.saddle.nested_size`): iterations are worth what the masters they
    save cost."""

    floor: float
    every: int
    settled: float
    handover: float = math.inf
    pass_work: float = 0.0
    row_nonzeros: float = 1.0
    last: object = None
    ratio: float = 0.0

    def hands_over(self, W, k, steps):
        """Whether the iterations hand over at iteration ``k`` (looked at every ``every``), ``steps`` steps tried."""
        if k % self.every:
            return False
        xp = array_namespace(W)
        master = 2.0 * self.row_nonzeros * nested_size(W, self.floor) + 1.0
        self.ratio = steps * self.pass_work / master
        mask, last = W > self.floor, self.last
        self.last = mask
        if self.ratio >= self.handover:
            return True
        if last is None:
            return False
        union = float(xp.sum(xp.astype(mask | last, xp.float64)))
        return union > 0 and float(xp.sum(xp.astype(mask & last, xp.float64))) >= self.settled * union


def work_of(problem):
    """``(pass_work, row_nonzeros)``: the multiply-adds of a step's two passes (``2 n D K`` dense, ``2 nnz(Psi)
    K`` sparse) and the mean nonzeros of a row of ``Psi`` (a master's row ``(i, C)``'s, per label of ``C``)."""
    n, K, D = problem.n_samples, problem.n_classes, problem.n_features
    nonzeros = problem.nonzeros
    dense = not as_source(problem.data).sparse
    return 2.0 * K * (n * D if dense else nonzeros), nonzeros / max(n, 1)


def primal_weight(problem, T0, S0):
    """PDLP's first primal weight, the ratio of the primal and dual scales in the preconditioned space:
    ``||T0^(1/2) tau|| / ||S0^(1/2)||`` (the dual's term a subgradient of ``h``, a 1 per sample); 1 if ``tau = 0``."""
    omega = float(np.linalg.norm(np.sqrt(T0)[None, :] * problem.tau)) / math.sqrt(float(np.sum(S0)))
    return omega if omega > 0 else 1.0


def first_point(problem, config, xp, origin=None):
    """``(z_0, restarts, (T0, S0), norm)``: the first point (``mu = 0`` and the empirical ``W_0``, or ``origin``'s
    rule and its ``W`` if it has one), the restarts anchored there with PDLP's first primal weight, the
    preconditioner (in ``xp``) and the preconditioned operator's norm."""
    T0, S0 = preconditioner(problem)
    norm = operator_norm(problem, T0, S0, config.power_iterations, xp)
    omega = config.weight_scale * primal_weight(problem, T0, S0)
    W = empirical_weights(problem, xp) if origin is None or origin.W is None else xp.asarray(origin.W)
    mu = xp.zeros(problem.tau.shape, dtype=W.dtype) if origin is None else xp.asarray(origin.mu)
    V = xp.zeros(W.shape, dtype=W.dtype) if origin is None else forward(problem.data, mu)
    z = Iterate(mu, V, W, backward(problem.data, W))
    return z, Restarts(omega=omega, point=z), (xp.asarray(T0), xp.asarray(S0)), norm


def iterations(problem, config=None, *, start=None, deadline=None, log=None, iterations_before=0):
    """MRC-PDHG's iterations on ``problem`` from ``mu = 0`` and the empirical ``W`` (or ``start``), as every
    first-order method's (:mod:`mrc_pyomo.methods.first_order`), until ``config.max_iter``, the ``deadline``, a
    stop sent, the gap within ``config.eps_1`` (``"converged"``), a stall (:func:`stalled`) or a hand-over
    (:class:`Support`; both: status None).  The next point is the step's, or with ``config.reflection``
    Halpern's anchored at the last restart."""
    config, deadline = PDHGConfig() if config is None else config, deadline_of(deadline)
    xp = data_namespace(problem)
    arrays, peaks = Arrays.of(problem, xp), column_peaks(problem.data)
    z, restarts, (T0, S0), norm = first_point(problem, config, xp, start)
    risk, top = risk_of(z, arrays)
    best, lower, history, status = Incumbent(to_numpy(z.mu), float(risk), float(top) + 1.0), 0.0, [], Status.MAX_ITER
    support = Support(config.support_floor, config.window, config.settled, config.handover, *work_of(problem))
    steps = StepScale(config.eta / norm, config.adaptive)
    for k in range(1, config.max_iter + 1):
        new, eta, moved = steps.take(z, problem, arrays, (T0, S0), restarts.omega)
        value = residual(moved, eta, restarts.omega)
        risk, top = risk_of(new, arrays)
        risk = float(risk)
        if risk < best.risk:
            best = Incumbent(to_numpy(new.mu), risk, float(top) + 1.0)
        if k % config.bound_every == 0 or k == config.max_iter:
            lower = max(lower, dual_bound(new.W, new.G, problem, problem.radius(best.risk), peaks))
        restarted = restarts.update(new, value, k, config, (T0, S0))
        z = new if restarted or config.reflection is None else restarts.anchored(z, new, k, config.reflection)
        handing_over = support.hands_over(new.W, k, steps.tried) and room_for_masters(deadline, config.room)
        history.append({"iteration": iterations_before + k, "lambda0": problem.lambda0, "phase": FIRST_ORDER,
                        "R_mu": risk, "lower": lower, "upper": best.risk, "omega": restarts.omega, "residual": value,
                        "work": support.ratio, "seconds_elapsed": deadline.elapsed()})
        status = yield from stop_of(history, log, config, deadline, handing_over)
        if status != Status.MAX_ITER:
            break
    return Outcome(best.mu, best.risk, best.nu, lower, new.W if history else z.W), history, status


def room_for_masters(deadline, room):
    """Whether the time left is at least ``room`` times the time spent (or there is no limit): masters that
    cannot certify in the time left leave the rule as it is, while the iterations go on improving it."""
    left = deadline.remaining()
    return left is None or left >= room * deadline.elapsed()


def stop_of(history, log, config, deadline, settled=False):
    """Show the last record to ``log`` and yield it (:func:`~mrc_pyomo.methods.result.reported`); return the
    status it ends the iterations with (None: a stall or ``settled``), or ``"max_iter"`` to go on."""
    record = history[-1]
    status = yield from reported(record, log, deadline)
    if status != Status.CALLBACK and status_of(record["lower"], record["upper"], config.eps_1) == Status.CONVERGED:
        return Status.CONVERGED
    if status is not None:
        return status
    if settled or (len(history) > config.stall_window and stalled(history, config)):
        return None
    return Status.MAX_ITER


def stalled(history, config):
    """Whether the two ends of the certified interval moved by less than ``config.tolerance`` of the upper end
    (not of the gap, whose lower end can stay near 0 long while the rule improves), together, over the last
    ``config.stall_window`` iterations."""
    last, before = history[-1], history[-1 - config.stall_window]
    moved = (before["upper"] - last["upper"]) + (last["lower"] - before["lower"])
    return moved < config.tolerance * last["upper"]


def active_rows(problem, found, config):
    """The row blocks ``(samples, subsets)`` the iterations name active: the dual's support, the rows of the
    nested decomposition of ``found.W`` above ``config.support_floor``
    (:func:`~mrc_pyomo.methods.pdhg.saddle.nested_rows`), and the primal's, the most violated row of each sample
    whose ``psi`` is within ``config.near`` of ``varphi`` at ``found.mu``
    (:func:`~mrc_pyomo.oracles.primal.near_active_rows`), which keeps the master's optimum near the rule."""
    return [nested_rows(found.W, config.support_floor),
            near_active_rows(problem.data, found.mu, config.near, problem.blocked)]
