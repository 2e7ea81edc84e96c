"""Every setting of MRC-PDHG (:class:`PDHGConfig`) and how the estimator's parameters make one
(:func:`configure`)."""

from dataclasses import dataclass, field, replace

from .. import ccg
from ..ccg.config import CCGConfig


@dataclass(frozen=True)
class PDHGConfig:
    """Every setting of MRC-PDHG, its tuning with its measurements (one core, single-threaded BLAS).

    ``eps_1``: the certified gap it stops at (its own bound's, or its certificate's loop's); ``max_iter``:
    iterations at most (and masters of the certificate's loop).  ``eta``: the step scale, divided by the
    preconditioned operator's norm found by ``power_iterations`` steps of the power method (the norm is at most 1:
    1.0 on mnist_8000, 0.61 on satellite + RFF, 0.39 on 50 classes).  ``reflection``: the reflection of the
    Halpern iteration (1: reflected, as cuPDLP+; 0: averaged), anchored at the last restart point, which cut
    mnist_8000's R at 60 s from 0.401 to 0.396.  ``restart_sufficient``, ``restart_necessary``,
    ``restart_artificial``: PDLP's restart rule on the fixed-point residual.  ``primal_weight``: the primal weight ``omega`` at the start (None: PDLP's ratio of the scales,
    :mod:`~mrc_pyomo.methods.pdhg.iteration`); ``weight_smoothing``: the weight of
    the new estimate of ``log omega`` at a restart (PDLP: 0.5); 0 keeps the primal weight at its start, which
    measured better on mnist_8000 (0.396 against 0.404 at 60 s) and on 26 classes.  The iterations stop once
    neither end of the certified interval moved by more than ``tolerance`` of the gap over the last ``window``
    iterations; ``certify=False`` ends the fit there (its lower end the iterations' bound).  The certificate's
    first master holds the rows of the last ``W`` with weight above ``support_floor``; its loop runs with
    ``certificate``'s settings (regime ``"n"``)."""

    eps_1: float = 1e-3
    max_iter: int = 100_000
    eta: float = 0.95
    power_iterations: int = 12
    reflection: float = 1.0
    restart_sufficient: float = 0.2
    restart_necessary: float = 0.8
    restart_artificial: float = 0.36
    weight_smoothing: float = 0.0
    primal_weight: float = None
    tolerance: float = 1e-2
    window: int = 200
    certify: bool = True
    support_floor: float = 1e-9
    certificate: CCGConfig = field(default_factory=lambda: CCGConfig(regime="n"))
    regime = "n"

    def __post_init__(self):
        if not 0.0 <= self.reflection <= 1.0:
            raise ValueError(f"reflection must be in [0, 1], got {self.reflection}")
        if not 0.0 < self.eta < 1.0:
            raise ValueError(f"eta must be in (0, 1), got {self.eta}")


def configure(settings, problem):
    """The :class:`PDHGConfig` of the estimator's :class:`~mrc_pyomo.methods.registry.Settings`: its ``eps_1``,
    its ``max_iter`` (None: the default), its certificate's loop in the regime ``"n"``."""
    certificate = ccg.configure(replace(settings, regime="n"), problem)
    return PDHGConfig(eps_1=settings.eps_1, max_iter=PDHGConfig.max_iter if settings.max_iter is None
                      else settings.max_iter, certificate=certificate)
