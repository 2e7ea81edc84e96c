"""The planner: how a fit runs, decided in one place.  A :class:`Plan` holds the first-order phases with their
typed configs (:class:`Phase`), the method that certifies after them and its config, the path's stages, the
certificate's start, and the hand-over rules between them; :func:`~mrc_pyomo.methods.pathwise.fit_steps` runs any
plan in three plain steps (the phases, the start, the stages).  A single fit, a path (:func:`mrc_pyomo.mrc_path`),
a fold of :class:`~mrc_pyomo.MRCClassifierCV` and a warm start are plans (:func:`plan_fit`), as are
``method="pdhg"``, ``method="fom"`` (:func:`first_order_plan`) and ``first_order=True``/``False``.

**The route of MRC-CCG** (``first_order="auto"``, :func:`route`).  A first-order phase (FISTA,
:mod:`mrc_pyomo.methods.fista`; MRC-PDHG's iterations, :mod:`mrc_pyomo.methods.pdhg`) costs passes over the data and
saves masters; it pays where masters are dear and many: many classes (``2^K - 1`` rows a sample) and dense, wide
masters (random Fourier features, images: ``|C| D`` nonzeros a row).  So, on the problem's shape:

* sparse text (the regime ``"auto"`` chooses ``"full"`` or ``"nm"``,
  :func:`~mrc_pyomo.methods.ccg.config.choose_regime`): the full LP where it fits and certifies sooner than any
  generation (:func:`takes_full_lp`): on two classes, where the smallest master that certifies holds most of its
  rows, and on more classes up to :data:`TEXT_LP_ROWS` rows; but with a larger LP of more classes, or a time limit
  it is not expected to meet, FISTA's phase, whose rule is the best early, then the loop of the regime ``"n"``,
  whose masters raise the lower end;
* two classes, or masters cheap against the passes (fewer than :data:`MANY_CLASSES` classes with ``K D <``
  :data:`WIDE`, ``n K D <`` :data:`ENTRIES` or, but on images, more than :data:`SAMPLES_PER_COLUMN` samples a
  column; many classes with ``n K <`` :data:`MANY_ROWS`): the loop alone;
* ``K D >=`` :data:`IMAGES` on a linear map of fewer than :data:`MANY_CLASSES` classes (images) over ``n K D >=``
  :data:`IMAGE_ENTRIES` entries (fewer: the loop alone, which certifies sooner): FISTA, whose rule is the better one
  early, then MRC-PDHG's iterations from its point until they stall (:data:`UNTIL_STALL`), then the loop from the
  master of PDHG's support (on another array library's data, MRC-PDHG's alone: FISTA runs on NumPy's arrays);
* otherwise (many classes, random Fourier features): MRC-PDHG's iterations, then the loop from the master of its
  support (on many classes FISTA's rule barely moves); over at most :data:`NARROW` columns, whose rows are cheap,
  that master also holds every sample's most violated row within :data:`NARROW_NEAR` of ``varphi`` at their rule,
  the rows the next masters would add one master at a time (over more columns those rows make the first master
  dearer than the masters they save); with ``K D >=`` :data:`IMAGES` over more columns, the iterations go on until
  they stall (:data:`PDHG_UNTIL_STALL`), as on images: such masters are dear, a warm one as dear as the first, and
  a support handed over once settled still missed rows that each cost one.

**What the route measures: the time.**  The loop's rule stays poor until its masters certify, while a phase's rule
is good within seconds.  So with a time limit, a route of the loop alone on a problem where a phase can run gives the
loop :data:`LOOP_SHARE` of the time, then watches its checks: at the first master past it whose check still picks a
full block of ``n_max`` violated samples (every sample where there are fewer: the loop's rows still growing at a
block a master, far from certifying: its masters proved dear), MRC-PDHG's iterations take the rest
(:attr:`Plan.fallback`), the loop's rule a candidate and its lower end kept; a loop whose checks pick fewer (its last
rows) goes on to the deadline.  The measurements behind
each boundary and share: docs/benchmarks.md, "The route of the default fit" and "The route's time limit".
``first_order=True`` runs the phases of the route, or MRC-PDHG's where the route has none; ``False`` none.
"""

import math
from dataclasses import dataclass, replace

import numpy as np

from ..problem.scaling import column_means
from .ccg.config import choose_regime, feature_density, multi_class_text
from .full_lp import default_form
from .registry import get_method

#: each stage's lambda0 is this many times the next one's
FACTOR = 3.0
#: the continuation of a single fit starts at most this many stages above the user's lambda0
MAX_STAGES = 3
#: the certified gap at which a stage before the last stops (the last stops at the user's eps_1)
STAGE_EPS = 1e-2

#: a fit of at least this many classes runs MRC-PDHG's phase
MANY_CLASSES = 20
#: a master of at least this many columns per sign (``K D``) is wide: a phase pays
WIDE = 2000
#: ... over at least this many entries of the scores ``Psi mu^T`` (``n K D``; fewer: the loop is quick) ...
ENTRIES = 5e6
#: ... and at most this many samples per column of ``Psi`` (``n / D``): with more, the loop's masters stay small
#: against the data while a phase's passes grow with it
SAMPLES_PER_COLUMN = 20
#: many classes take a phase over at least this many pairs ``(i, y)`` (``n K``)
MANY_ROWS = 20_000
#: a master of at least this many columns per sign (``K D``) over more than NARROW columns is dear: MRC-PDHG's
#: iterations run until they stall; on a linear map of fewer than MANY_CLASSES classes (images) FISTA's phase comes
#: first ...
IMAGES = 4000
#: ... over at least this many entries of the scores (``n K D``): with fewer the loop certifies sooner
IMAGE_ENTRIES = 1.6e7
#: with a time limit, the share of it a route of the loop alone gives the loop before MRC-PDHG's iterations may take
#: over
LOOP_SHARE = 0.25

#: sparse text's full LP takes about this many seconds times its rows squared (HiGHS's interior point method, one
#: core; an upper end of the measured: docs/benchmarks.md, "Sparse text"): with a time limit, the text route takes
#: the full LP when that is within LOOP_SHARE of it
FULL_LP_SECONDS = 2e-7
#: a two-class LP that HiGHS's PDLP solves (:func:`~mrc_pyomo.methods.full_lp.default_form`) certifies in about
#: this many seconds a nonzero (one core; an upper end of the measured: docs/benchmarks.md, "Sparse text") ...
PDLP_SECONDS = 4e-5
#: ... and, stopped by the time limit, its last point is certified as any rule: stopped at this share of that time
#: it was certified within 11% of R*, where FISTA's phase had no lower end; with a time limit the text route takes
#: the LP by PDLP where the limit is at least this share of its expected time
PDLP_SHARE = 0.4
#: sparse text of more than two classes takes its full LP only up to this many rows: with more, FISTA's phase then
#: the loop certify sooner, the LP's time growing faster than its rows (docs/benchmarks.md, "Sparse text")
TEXT_LP_ROWS = 50_000

#: FISTA's phase before MRC-PDHG's ends once its best R improved by less than this (relative) over a smoothing
#: stage: FISTA gives the better rule early, PDHG's iterations the better rule after it
FISTA_HANDOVER = 0.05
#: MRC-PDHG's iterations that hand over to the masters only once they stall: where a master is dear (``K D >=``
#: IMAGES: images, random Fourier features of ten classes and more) and leaves the rule as it is until the masters
#: certify, while the iterations go on improving it; and after a loop that gave up, where no master follows
UNTIL_STALL = {"handover": math.inf, "settled": math.inf}

#: a problem of at most this many columns of ``Psi`` (``D``) has cheap rows, of ``|C| D`` nonzeros each ...
NARROW = 64
#: ... whose certificate's first master after MRC-PDHG's iterations holds the rows within this of ``varphi`` at
#: their rule (the method's own ``near`` elsewhere): they are the rows the next masters would add, one master each
#: (measured: docs/benchmarks.md, "The library's choices", "The first master of narrow problems")
NARROW_NEAR = 3e-2

#: the routes: the registered first-order methods whose phases run, in order, each with the settings it changes
LOOP = ()
PDHG = (("pdhg", {}),)
PDHG_NARROW = (("pdhg", {"near": NARROW_NEAR}),)
PDHG_UNTIL_STALL = (("pdhg", UNTIL_STALL),)
FISTA = (("fom", {}),)
FISTA_THEN_PDHG = (("fom", {"tolerance": FISTA_HANDOVER}), ("pdhg", UNTIL_STALL))
#: the phases after a loop that gave up (:attr:`Plan.fallback`): no master follows, the iterations run to the stall
FALLBACK = PDHG_UNTIL_STALL


def zero_rule_lambda0(problem):
    """A ``lambda0`` at and above which ``mu = 0`` minimises ``R``: the uniform weights on the rows ``(i, Y)``
    give ``varphi``'s subgradient ``g_yj = mean_i Psi_ij / K``, and 0 is optimal once ``|g_yj - tau_yj| <=
    lambda0 s_yj`` for every feature (``inf`` if one with ``s_yj = 0`` has ``g_yj != tau_yj``).  One pass."""
    mean = column_means(problem.data) / problem.n_classes
    excess = np.abs(mean[None, :] - problem.tau)
    std = problem.std
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(std > 0, excess / std, np.where(excess > 1e-12, np.inf, 0.0))
    return float(ratio.max())


def continuation_stages(problem):
    """The stages of a single fit of ``problem`` with ``continuation``: :func:`schedule`'s values below
    :func:`zero_rule_lambda0`'s."""
    return tuple(schedule(problem.lambda0, zero_rule_lambda0(problem)))


def schedule(lambda0, zero_rule=np.inf, factor=FACTOR, max_stages=MAX_STAGES):
    """The ``lambda0`` values a single fit passes through with ``continuation``, largest first, ``lambda0`` last: up
    to ``max_stages`` values ``lambda0 * factor^k`` below ``zero_rule`` (at or above it the rule is 0 and teaches
    nothing); ``lambda0 = 0`` passes through ``factor^k * 1e-3``.  Each stage warm-starts the next: a larger
    ``lambda0`` makes a better posed LP (a sparser ``mu``, fewer active rows), solved in few masters, whose final
    master holds most of the rows the next stage needs."""
    base = lambda0 if lambda0 > 0 else 1e-3 / factor
    stages = [base * factor ** k for k in range(max_stages, 0, -1) if base * factor ** k < zero_rule]
    return stages + [lambda0]


@dataclass(frozen=True)
class Phase:
    """A first-order phase: the registered ``method`` whose ``iterations`` run, with ``config`` (a
    :class:`~mrc_pyomo.methods.first_order.FirstOrderConfig`)."""

    method: object
    config: object


@dataclass(frozen=True)
class Plan:
    """How a fit runs (module docstring), in the order :func:`~mrc_pyomo.methods.pathwise.fit_steps` runs it.

    ``phases``: the first-order phases (:class:`Phase`), each from the one before.  Then ``method`` (a registered
    method; None: the phases alone, ``config`` the last one's) with ``config`` over ``stages``, the ``lambda0``
    values, largest first, the last the problem's, each from the one before; the stages before the last stop at the
    gap ``stage_eps`` (None: the config's), and ``config.max_iter`` bounds all stages together (``shared_budget``, a
    single fit) or each (a path).  The first stage starts from ``start`` (a :class:`~mrc_pyomo.methods.result.Start`:
    a warm start), or after phases from the master of the rows the last phase names active, keeping them if its
    config's ``keep_rows``.  ``give_up``:
    seconds into the fit after which stages still far from certifying (a master's check picking a full block of
    ``n_max`` samples: :func:`~mrc_pyomo.methods.pathwise.giving_up`) hand over to the ``fallback`` phases, which run
    to the deadline (None: never)."""

    method: object
    config: object
    phases: tuple = ()
    stages: tuple = ()
    stage_eps: float = None
    shared_budget: bool = True
    start: object = None
    give_up: float = None
    fallback: tuple = ()

    @property
    def keeps_rows(self):
        """Whether the loop after the phases keeps every row (the last phase's config says)."""
        return bool(self.phases) and self.phases[-1].config.keep_rows

    @property
    def eps_1(self):
        """The certified gap the fit stops at."""
        return self.config.eps_1

    @property
    def names(self):
        """The registered names of the phases, then of the method (for the displays and the records)."""
        return tuple(phase.method.name for phase in self.phases) + ((self.method.name,) if self.method else ())


def route(problem, regime, first_order="auto", linear=True, host=True):
    """The first-order phases before MRC-CCG's loop on ``problem`` in ``regime`` by the problem's shape (module
    docstring), as pairs of a registered method's name and the config settings the route changes: :data:`LOOP`,
    :data:`PDHG`, :data:`PDHG_NARROW`, :data:`PDHG_UNTIL_STALL`, :data:`FISTA` or :data:`FISTA_THEN_PDHG`.
    ``first_order``: ``"auto"``, ``True`` or ``False``; ``linear``: the feature map is linear; ``host``: the data are
    NumPy's, SciPy's or Dask's."""
    if first_order is False:
        return LOOP
    n, K, D = problem.n_samples, problem.n_classes, problem.n_features
    if first_order != "auto":
        return route(problem, "n", "auto", linear, host) or PDHG
    many_classes = K >= MANY_CLASSES and n * K >= MANY_ROWS
    wide = K * D >= WIDE and n * K * D >= ENTRIES and (n <= SAMPLES_PER_COLUMN * D or linear and K * D >= IMAGES)
    if regime != "n" or K <= 2 or not (many_classes or wide):
        return LOOP
    if linear and host and K < MANY_CLASSES and K * D >= IMAGES:
        return FISTA_THEN_PDHG if n * K * D >= IMAGE_ENTRIES else LOOP
    if D <= NARROW:
        return PDHG_NARROW
    return PDHG_UNTIL_STALL if K * D >= IMAGES else PDHG


def phases_of(pairs, settings, problem):
    """The :class:`Phase` of each ``(name, changes)`` pair of a route: the registered method's config from the
    estimator's ``settings``, with the route's changes."""
    return tuple(Phase(get_method(name), replace(get_method(name).configure(settings, problem), **changes))
                 for name, changes in pairs)


def first_order_plan(method, config, lambda0):
    """The plan of a fit by the registered first-order ``method`` (``method="pdhg"``, ``"fom"``) with ``config``: its
    phase, then MRC-CCG from the rows it names active with its config's ``certificate`` at its ``eps_1`` and
    ``max_iter`` (none with ``certify=False``)."""
    phase = (Phase(method, config),)
    if not config.certify:
        return Plan(None, config, phases=phase, stages=(lambda0,))
    certificate = replace(config.certificate, eps_1=config.eps_1, max_iter=config.max_iter)
    return Plan(get_method("ccg"), certificate, phases=phase, stages=(lambda0,))


def takes_full_lp(problem, config, time_limit):
    """Whether the default fit of ``problem``, whose regime ``"auto"`` chose the full LP (``config``'s regime
    ``"full"``), solves it: but on sparse text of more than two classes
    (:func:`~mrc_pyomo.methods.ccg.config.multi_class_text`) beyond :data:`TEXT_LP_ROWS` rows; and with a
    ``time_limit`` (None: none), where it is expected within :data:`LOOP_SHARE` of it, :data:`FULL_LP_SECONDS` times
    its rows squared, or, solved by HiGHS's PDLP, where the limit is at least :data:`PDLP_SHARE` of its expected
    time, :data:`PDLP_SECONDS` times its nonzeros (its last point is certified at the limit)."""
    if config.regime != "full":
        return False
    rows, nonzeros = problem.full_lp_size(config.formulation)
    if multi_class_text(problem) and rows > TEXT_LP_ROWS:
        return False
    if time_limit is None:
        return True
    if default_form(problem, config.solver, config.formulation) == "primal_pdlp":
        return PDLP_SECONDS * nonzeros <= time_limit / PDLP_SHARE
    return FULL_LP_SECONDS * rows ** 2 <= LOOP_SHARE * time_limit


def plan_fit(problem, settings, method, *, linear=True, host=True, stages=None, start=None):
    """The :class:`Plan` of a fit of ``problem`` by the registered ``method`` with the estimator's ``settings``
    (:class:`~mrc_pyomo.estimator.parameters.Settings`: ``first_order``, ``time_limit``, ``continuation``, the
    regime).  ``stages``: a
    path's ``lambda0`` values (each stage its own ``max_iter``, no phase, no full LP: the stages warm-start one
    another); None: a single fit at ``problem.lambda0`` (through :func:`schedule`'s
    values with ``continuation``).  ``start``: a warm start's (no phase: the fit starts from the previous one).
    ``linear``: the feature map is linear; ``host``: the data are NumPy's, SciPy's or Dask's (:func:`route`)."""
    config = method.configure(settings, problem)
    if method.iterations is not None:
        return first_order_plan(method, config, problem.lambda0)
    if stages is not None:
        if getattr(config, "regime", None) == "full" and method.warm_starts:   # stages warm-start: no full LP
            config = replace(config, regime=choose_regime(problem.n_classes, problem.n_features, None,
                                                          feature_density(problem)))
        return Plan(method, config, stages=tuple(stages), shared_budget=False)
    single = (problem.lambda0,)
    if start is not None or not method.routed:
        continued = settings.continuation and method.warm_starts and start is None
        return Plan(method, config, stages=continuation_stages(problem) if continued else single,
                    stage_eps=STAGE_EPS, start=start)
    text = settings.regime == "auto" and config.regime != "n"
    if (text and settings.first_order is not False and (settings.time_limit is not None or config.regime == "full")
            and not takes_full_lp(problem, config, settings.time_limit)):
        phases = phases_of(FISTA, settings, problem)   # FISTA's rule, the best early, then masters for the lower end
        return first_order_plan(phases[0].method, phases[0].config, problem.lambda0)
    pairs = route(problem, config.regime, settings.first_order, linear, host)
    if pairs:   # the phases bring the loop near the user's lambda0: no continuation stages; its masters hold every
        # feature (the regime "n"), as a first-order method's certificate's
        return Plan(method, replace(config, regime="n"), phases=phases_of(pairs, settings, problem), stages=single)
    plan = Plan(method, config, stages=continuation_stages(problem) if settings.continuation else single,
                stage_eps=STAGE_EPS)
    if settings.time_limit is None or settings.first_order is False or config.regime != "n" or problem.n_classes <= 2:
        return plan
    return replace(plan, give_up=LOOP_SHARE * settings.time_limit, fallback=phases_of(FALLBACK, settings, problem))
