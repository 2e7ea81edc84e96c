"""MRC-PDHG as a method (:mod:`mrc_pyomo.methods.registry`): its phase, then, where its own bound has not closed
the gap, its certificate from its dual, and its entry in the registry.

**The certificate from the dual.**  The support of the last dual iterate ``W`` names the active rows: the rows
``(i, C_k)`` of its nested decomposition with positive weight (:func:`~mrc_pyomo.methods.pdhg.saddle.nested_rows`;
about the size of the loop's final master) and the class centroids' rows are the first master of MRC-CCG in the
regime ``"n"``, the phase's best rule a candidate (:func:`certificate_master`, :func:`steps`).
"""

from dataclasses import replace

from ...display.log import LOG_HEADER, format_record
from ...oracles.certificate import gap_tolerance
from ...oracles.primal import near_active_rows
from .. import ccg
from ..deadline import deadline_of
from ..phased import Phase, keeping_rows, phase_result, phased_steps
from ..registry import Method, register_method
from ..result import Status
from .tuning import PDHGConfig, configure
from .phase import phase_steps
from .saddle import nested_rows

#: the columns of the history of a fit: those of MRC-CCG's records, then the iterations' own
FIT_COLUMNS = ccg.HISTORY_COLUMNS + ["omega", "residual", "work"]
#: the iteration log shows every this many iterations
LOG_EVERY = 10


def certificate_master(problem, found, config):
    """The first master of the certificate: the rows of the nested decomposition of the last dual iterate
    ``found.W`` above ``config.support_floor`` (the dual's support), the rows active or nearly active at the best
    rule ``found.mu`` (the most violated row of each sample whose ``psi`` is within ``config.near`` of
    ``varphi``, :func:`~mrc_pyomo.oracles.primal.near_active_rows`: the primal's support, which keeps the master's
    optimum near the rule), each class centroid's row of its own label (which keep the master bounded) and all
    features (MRC-CCG's first master in the regime ``"n"``, :func:`~mrc_pyomo.methods.ccg.initial_master`),
    marked a large change: its first solve is cold, by the interior point method where the solver has one."""
    master = ccg.initial_master(problem, config.certificate, own_labels_only=True)
    master.add_rows(*nested_rows(found.W, config.support_floor))
    master.add_rows(*near_active_rows(problem.data, found.mu, config.near, problem.blocked))
    master.large_change()
    return master


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """MRC-PDHG on ``problem``, a generator of its iterations (:mod:`mrc_pyomo.methods.result`): its phase
    (:func:`~mrc_pyomo.methods.pdhg.phase.phase_steps`); done if its bound closed the gap (no master), else, with
    ``config.certify`` and time left, MRC-CCG from the master of its dual's and its primal's supports
    (:func:`certificate_master`), its best rule a candidate, ``config.max_iter`` masters at most: the runner of a
    phase and its certificate that the default fit runs too (:func:`~mrc_pyomo.methods.pathwise.phased_steps`).
    Returns a :class:`~mrc_pyomo.methods.result.FitResult` whose lower end is the better of the phase's bound and
    the loop's; ``start`` is not used."""
    config, deadline = PDHGConfig() if config is None else config, deadline_of(deadline)
    if not config.certify:
        found, history, status = yield from phase_steps(problem, config, deadline=deadline, log=log)
        result = phase_result(found, history, status or Status.MAX_ITER, config.eps_1, FIT_COLUMNS)
        return replace(result, lower=found.lower, status=ended(found, status, config))
    certificate = keeping_rows(replace(config.certificate, eps_1=config.eps_1, max_iter=config.max_iter))
    return (yield from phased_steps(problem, (Phase(METHOD, config),), lambda start, log: ccg.steps(
        problem, certificate, start=start, deadline=deadline, log=log), config.eps_1, deadline=deadline, log=log,
        columns=FIT_COLUMNS))


def ended(found, status, config):
    """The status of a fit that ends with its phase: ``"converged"`` when the phase's interval is within
    ``eps_1``, else its stop (a stall: ``"max_iter"``)."""
    if found.risk - found.lower <= gap_tolerance(config.eps_1):
        return Status.CONVERGED
    return status or Status.MAX_ITER




def log_line(record):
    """A record's line in the iteration log: an iteration's every :data:`LOG_EVERY`, a master of the certificate
    as MRC-CCG words it."""
    if record.get("phase") != "first-order":
        return format_record(record)
    if record["iteration"] % LOG_EVERY:
        return None
    return (f"{record['iteration']:6d} PDHG  R(mu_k) = {record['R_mu']:.6f}  "
            f"[{record['lower']:.6f}, {record['upper']:.6f}]  {record['seconds_elapsed']:7.1f} s")


METHOD = register_method(Method(
    name="pdhg", title="MRC-PDHG", configure=configure, steps=steps,
    summary="MRC-PDHG: restarted primal-dual hybrid gradient on the saddle form, its dual the certificate's "
            "first master", columns=tuple(FIT_COLUMNS), phase=phase_steps,
    certificate_master=certificate_master, log_line=log_line, log_header=LOG_HEADER))
