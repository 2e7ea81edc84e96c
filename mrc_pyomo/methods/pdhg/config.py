"""Every setting of MRC-PDHG (:class:`PDHGConfig`), made by :func:`mrc_pyomo.methods.first_order.configure`."""

from dataclasses import dataclass

from ..first_order import FirstOrderConfig


@dataclass(frozen=True)
class PDHGConfig(FirstOrderConfig):
    """Every setting of MRC-PDHG (measured: docs/benchmarks.md, "The library's choices", "MRC-PDHG's settings";
    ``python -m benchmarks.experiments.pdhg_phase CASE --set NAME=VALUE``): those of every first-order method
    (:class:`~mrc_pyomo.methods.first_order.FirstOrderConfig`; its certificate's loop keeps every row, ``keep_rows``:
    the support names nearly the final rows; ``certify=False``: lower end the iterations' bound), and its own.

    ``eta``: the step scale, over the preconditioned operator's norm (at most 1) found by ``power_iterations`` power
    steps.  ``adaptive``: PDLP's adaptive step (a step is retried with a smaller ``eta`` beyond its local limit).
    ``reflection``: None for plain PDHG, else the reflection of a Halpern iteration anchored at the last restart
    point (1: reflected, as cuPDLP+).  ``restart_sufficient``, ``restart_necessary``, ``restart_artificial``: PDLP's
    restart rule on the fixed-point residual.  ``weight_scale``: the first primal weight ``omega`` over PDLP's ratio
    of the scales (:func:`~mrc_pyomo.methods.pdhg.restarted.primal_weight`).  ``weight_smoothing``: the weight of the
    new estimate of ``log omega`` at a restart (PDLP: 0.5; 0 keeps the first).  ``bound_every``: the dual's bound is
    evaluated every this many iterations (it reads ``Psi^T W`` back to the host, which costs on a GPU).

    The iterations hand over to the certificate on a stall (:func:`~mrc_pyomo.methods.pdhg.restarted.stalled`:
    ``tolerance``, ``stall_window``) or, looked at every ``window`` iterations, once the support of ``W`` (above
    ``support_floor``) settled (``settled``) or the passes' work reached ``handover`` times its master's
    (:class:`~mrc_pyomo.methods.pdhg.restarted.Support`); with a time limit, only with ``room`` times the time
    spent left (:func:`~mrc_pyomo.methods.pdhg.restarted.room_for_masters`).  The certificate's first master holds
    the rows of :func:`~mrc_pyomo.methods.pdhg.restarted.active_rows` (``support_floor``, ``near``).  The
    measurements behind ``settled``, ``handover``, ``room`` and ``near``: docs/benchmarks.md, "The route of the
    default fit"."""

    max_iter: int = 100_000
    keep_rows: bool = True
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
    support_floor: float = 1e-9

    def __post_init__(self):
        if self.reflection is not None and not 0.0 <= self.reflection <= 1.0:
            raise ValueError(f"reflection must be in [0, 1], got {self.reflection}")
        if self.bound_every < 1:
            raise ValueError(f"bound_every must be at least 1, got {self.bound_every}")
        if not 0.0 < self.eta < 1.0:
            raise ValueError(f"eta must be in (0, 1), got {self.eta}")

