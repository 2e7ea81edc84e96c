"""Every setting of MRC-PDHG (:class:`PDHGConfig`); the estimator's parameters make one as they make every
first-order method's (:func:`mrc_pyomo.methods.first_order.configure`)."""

from dataclasses import dataclass, field
from typing import ClassVar

from ..ccg.config import CCGConfig


@dataclass(frozen=True)
class PDHGConfig:
    """Every setting of MRC-PDHG (their measurements: docs/benchmarks.md, "The library's choices", "MRC-PDHG's
    settings"; ``python -m benchmarks.experiments.pdhg_phase CASE --set NAME=VALUE``).

    ``eps_1``: the certified gap it stops at (its own bound's, or its certificate's loop's); ``max_iter``:
    iterations at most (and masters of the certificate's loop).  ``eta``: the step scale, divided by the
    preconditioned operator's norm found by ``power_iterations`` steps of the power method (the norm is at most
    1).  ``adaptive``: PDLP's adaptive step (a step is retried with a smaller ``eta`` when it exceeds its local
    limit; the limit is mostly far above ``1 / norm``).  ``reflection``: None for plain PDHG, else the reflection
    of a Halpern iteration anchored at the last restart point (1: reflected, as cuPDLP+).
    ``restart_sufficient``, ``restart_necessary``, ``restart_artificial``: PDLP's restart rule on the fixed-point
    residual.  ``weight_scale``: the primal weight ``omega`` at the start over PDLP's ratio of the scales
    (:func:`~mrc_pyomo.methods.pdhg.restarted.primal_weight`).  ``weight_smoothing``: the weight of the new estimate
    of ``log omega`` at a restart (PDLP: 0.5); 0 keeps the primal weight of the start.  ``bound_every``: the dual's
    bound is evaluated every this many iterations (it reads ``Psi^T W`` back to the host: on a GPU, every 10 or so).

    The iterations hand over to the certificate once the ends of the certified interval moved by less than
    ``tolerance`` of the upper end, together, over the last ``stall_window`` iterations (the best R of PDHG's
    iterates stays flat for a hundred iterations at times), or, looked at every ``window`` iterations, once the
    support of ``W`` (its entries above ``support_floor``) settled, sharing ``settled`` of its union with the
    support ``window`` iterations before, or once the passes' multiply-adds reach ``handover`` times the
    nonzeros of the master that support makes (:class:`~mrc_pyomo.methods.pdhg.restarted.Support`: iterations are
    worth what the masters they save cost, and a master's cost grows with its nonzeros).  With a time limit, a
    hand-over waits until the time left is at least ``room`` times the time spent
    (:func:`~mrc_pyomo.methods.pdhg.restarted.room_for_masters`): masters that cannot certify in the time left would
    leave the rule as it is, while the iterations go on improving it.  ``certify=False`` ends the fit there (its
    lower end the iterations' bound).  The certificate's first master holds the rows of the last ``W`` with
    weight above ``support_floor`` and the rows within ``near`` of the largest at the best rule; its loop runs
    with ``certificate``'s settings (regime ``"n"``), keeping every row.  The measurements behind ``settled``,
    ``handover``, ``room`` and ``near``: docs/benchmarks.md, "The route of the default fit"."""

    eps_1: float = 1e-3
    max_iter: int = 100_000
    eta: float = 0.95
    power_iterations: int = 12
    reflection: float = None
    adaptive: bool = True
    restart_sufficient: float = 0.2
    restart_necessary: float = 0.8
    restart_artificial: float = 0.36
    weight_smoothing: float = 0.0
    weight_scale: float = 3.0
    tolerance: float = 1e-3
    stall_window: int = 500
    window: int = 100
    settled: float = 0.9
    handover: float = 3e4
    room: float = 1.5
    bound_every: int = 1
    certify: bool = True
    support_floor: float = 1e-9
    near: float = 1e-2
    certificate: CCGConfig = field(default_factory=lambda: CCGConfig(regime="n"))
    #: the regime of every master it solves (all features), a constant of the method, not a setting
    regime: ClassVar[str] = "n"

    def __post_init__(self):
        if self.reflection is not None and not 0.0 <= self.reflection <= 1.0:
            raise ValueError(f"reflection must be in [0, 1], got {self.reflection}")
        if self.bound_every < 1:
            raise ValueError(f"bound_every must be at least 1, got {self.bound_every}")
        if not 0.0 < self.eta < 1.0:
            raise ValueError(f"eta must be in (0, 1), got {self.eta}")

