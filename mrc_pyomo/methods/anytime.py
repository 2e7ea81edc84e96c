"""The default fit: MRC-CCG after a first-order phase where the phase pays (``first_order="auto"``).

On dense problems with wide masters (images: mnist, 6,400 images, ``K D = 7,850``) MRC-CCG spends minutes on
masters whose rules stay near the trivial one, while the first-order method of
:mod:`mrc_pyomo.methods.first_order` reaches a good rule in seconds.  So the default fit runs that method's
:func:`~mrc_pyomo.methods.first_order.phase` first, until its best ``R`` improves by less than 1% over a
smoothing stage (:data:`~mrc_pyomo.methods.first_order.PHASE_TOLERANCE`) or the time limit; then MRC-CCG
(through :mod:`mrc_pyomo.methods.continuation`) from its own first master, the phase's rule a candidate for
``mu_``: the returned rule is the best certified one of both, ``upper = R(mu)`` exact as always, and the lower
end and status are the loop's.  The loop starts from its own first master, not from the phase's active rows:
on mnist that seed made the masters slower (docs/theory.rst, "A first-order method").

The phase runs (:func:`runs_phase`) where the master is wide and the data large: regime ``"n"`` (all features
in every master), ``K D >= AUTO_COLUMNS`` and ``n K D >= AUTO_ENTRIES``.  Measured (docs/theory.rst): on those
cases the loop's rule at 10 s and 60 s is near ``R(0)`` and its certificate takes minutes, so the phase's
seconds are a few percent of the fit; the cases below them (the loop certifies in seconds) never run it.
"""

import time
from dataclasses import replace

from . import continuation, first_order
from .result import Status, finish

#: the phase runs when the masters have at least this many columns per sign (``K D``) ...
AUTO_COLUMNS = 4000
#: ... and the scores ``Psi mu^T`` of a pass this many products (``n K D``)
AUTO_ENTRIES = 5e6


def runs_phase(problem, regime, first_order_setting="auto"):
    """Whether the fit of ``problem`` in ``regime`` runs the first-order phase: always for ``True``, never for
    ``False``; for ``"auto"`` in the regime ``"n"`` when ``K D >= AUTO_COLUMNS`` and ``n K D >= AUTO_ENTRIES``."""
    if first_order_setting != "auto":
        return bool(first_order_setting)
    columns = problem.n_classes * problem.n_features
    return regime == "n" and columns >= AUTO_COLUMNS and problem.n_samples * columns >= AUTO_ENTRIES


def solve(problem, config, *, lambda0s=None, log=None, callback=None, phase=True):
    """:func:`steps` run to its end, each iteration shown to ``callback`` (if given), whose true return value
    stops the fit (:func:`~mrc_pyomo.methods.result.finish`)."""
    return finish(steps(problem, config, lambda0s=lambda0s, log=log, phase=phase), callback)


def steps(problem, config, *, lambda0s=None, log=None, phase=True):
    """The fit of ``problem`` by MRC-CCG (:func:`mrc_pyomo.methods.continuation.steps`, through ``lambda0s``),
    after the first-order phase if ``phase`` (module docstring), as a generator of its iterations
    (:mod:`mrc_pyomo.methods.result`).

    The phase and the loop share ``config.time_limit``; ``config.max_iter`` bounds each (first-order iterations,
    then masters).  It yields each of the phase's history records (a dict), then each of the loop's
    :class:`~mrc_pyomo.methods.ccg.record.IterationState`; a stop sent ends the fit.  A fit stopped in the
    phase (callback, time limit) or in the loop's first master by the time limit returns the phase's rule with
    ``lower = 0``.  ``history`` (columns :data:`mrc_pyomo.methods.first_order.COLUMNS`): the phase's records
    (``phase`` ``"first-order"``), then the loop's, numbered and timed on."""
    if not phase:
        return (yield from continuation.steps(problem, config, lambda0s=lambda0s, log=log))
    began = time.perf_counter()
    best, history, status = yield from first_order.phase_steps(problem, config, log=log)
    if status in (Status.CALLBACK, Status.TIME_LIMIT):
        return first_order.phase_result(best, history, status, config)
    return (yield from first_order.after_phase(
        lambda remaining, log: continuation.steps(problem, replace(config, time_limit=remaining), lambda0s=lambda0s,
                                                  log=log, candidates=(best.mu,)),
        best, history, began, config, log, problem.lambda0))
