"""The planner (:mod:`mrc_pyomo.methods.plan`): which first-order phases run before MRC-CCG's loop, by the problem's
shape, and what ``True`` and ``False`` ask for (:func:`route`); the plan of every kind of fit (:func:`plan_fit`):
sparse text's full LP, or FISTA's phase with a time limit it would not meet or, on more than two classes, beyond
``TEXT_LP_ROWS`` rows; a loop that gives way to MRC-PDHG's iterations past a share of the time limit while far from
certifying; phases in place of continuation's stages; a path's stages; a warm start; ``method="pdhg"``."""

from dataclasses import fields, replace
from types import SimpleNamespace

import numpy as np
import scipy.sparse as sp

from helpers import random_problem, zipf_words
from mrc_pyomo import MRCClassifier
from mrc_pyomo.estimator.parameters import Settings
from mrc_pyomo.methods import get_method, pathwise
from mrc_pyomo.methods import plan as plan_module
from mrc_pyomo.methods.ccg.config import CCGConfig
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.fista import FOMConfig
from mrc_pyomo.methods.pdhg import PDHGConfig
from mrc_pyomo.methods.plan import (FALLBACK, FISTA_THEN_PDHG, IMAGES, LOOP, LOOP_SHARE, NARROW_NEAR, PDHG,
                                    PDHG_NARROW, PDHG_UNTIL_STALL, STAGE_EPS, UNTIL_STALL, Phase, Plan,
                                    first_order_plan, plan_fit, route, schedule, zero_rule_lambda0)
from mrc_pyomo.methods.result import Start, finish
from mrc_pyomo.problem import prepare


def shape(n, K, D):
    return SimpleNamespace(n_samples=n, n_classes=K, n_features=D)


def test_the_route_follows_the_problem_s_shape():
    # the harness's cases (training samples, classes, columns of Psi with the intercept)
    assert route(shape(5148, 6, 437), "n", linear=False) == PDHG            # satellite + 400 RFF
    assert route(shape(8000, 50, 21), "n") == PDHG_NARROW                   # 50 Gaussian classes: cheap rows
    assert route(shape(2000, 26, 17), "n") == PDHG_NARROW                   # 26 classes, 16 columns
    assert route(shape(3200, 26, 417), "n", linear=False) == PDHG_UNTIL_STALL   # 26 classes + 400 RFF: dear
    assert route(shape(6400, 10, 785), "n") == FISTA_THEN_PDHG              # mnist_8000: images
    assert route(shape(14318, 2, 409), "n", linear=False) == LOOP           # pulsar + RFF: two classes
    assert route(shape(10888, 7, 417), "n", linear=False) == LOOP           # dry bean + RFF: 26 samples a column
    assert route(shape(1437, 10, 465), "n", linear=False) == PDHG_UNTIL_STALL   # digits + RFF: K D = 4,650
    assert route(shape(56000, 10, 785), "n") == FISTA_THEN_PDHG             # all of mnist: images, 71 a column
    assert route(shape(1600, 6, 37), "n") == LOOP                           # satellite: a small master
    assert route(shape(2400, 7, 17), "n") == LOOP                           # dry bean, linear
    assert route(shape(16612, 2, 173335), "full") == LOOP                   # sparse text: its own regime
    assert route(shape(200, 10, 785), "n") == LOOP                          # n K D = 1.6e6: the loop is quick
    assert route(shape(800, 10, 785), "n") == LOOP                          # mnist_8000 in the quick harness
    assert route(shape(1600, 10, 785), "n") == LOOP                         # images: the loop certifies sooner
    assert route(shape(2560, 10, 785), "n") == FISTA_THEN_PDHG              # ... here the phases' rule is better
    assert route(shape(300, 26, 17), "n") == LOOP                           # many classes, few samples
    assert route(shape(6400, 10, 785), "nm") == LOOP                        # sparse features: columns come later
    assert route(shape(6400, 10, 785), "n", host=False) == PDHG_UNTIL_STALL     # images on a GPU: PDHG alone


def test_the_routes_name_registered_phases():
    configs = {"fom": FOMConfig, "pdhg": PDHGConfig}
    for path in (PDHG, PDHG_NARROW, PDHG_UNTIL_STALL, FISTA_THEN_PDHG):
        for name, changes in path:
            assert get_method(name).iterations is not None and get_method(name).active_rows is not None
            assert set(changes) <= {field.name for field in fields(configs[name])}


def test_the_first_master_of_a_narrow_problem_holds_the_rows_near_the_phase_s_rule():
    """Many classes over few columns (``D <= NARROW``): MRC-PDHG's phase hands the loop a first master of the rows
    within ``NARROW_NEAR`` of ``varphi`` at its rule, more than its own ``near`` gives; over many columns, its own."""
    X, y = random_problem(1000, 4, 20, seed=0)   # n K = 20,000 pairs of 20 classes, D = 5
    narrow = plan_fit(prepare(X, y), Settings(), get_method("ccg"))
    assert [phase.method.name for phase in narrow.phases] == ["pdhg"]
    assert narrow.phases[0].config.near == NARROW_NEAR > PDHGConfig().near
    wide = plan_fit(prepare(X, y, phi="fourier", random_state=0), Settings(), get_method("ccg"))
    assert [phase.method.name for phase in wide.phases] == ["pdhg"]
    assert wide.phases[0].config.near == PDHGConfig().near


def test_dear_masters_take_pdhg_s_iterations_until_they_stall():
    """Random Fourier features of ten classes (``K D >= IMAGES``): MRC-PDHG's iterations hand over to the masters only
    once they stall, neither once their support settled nor at a share of the master's work; of six classes they
    keep both hand-overs."""
    X, y = random_problem(1300, 4, 10, seed=0)
    dear = prepare(X, y, phi="fourier", random_state=0)
    assert dear.n_classes * dear.n_features >= IMAGES
    config = plan_fit(dear, Settings(), get_method("ccg"), linear=False).phases[0].config
    assert (config.settled, config.handover) == (np.inf, np.inf) == tuple(UNTIL_STALL.values())
    X, y = random_problem(2100, 4, 6, seed=0)
    wide = prepare(X, y, phi="fourier", random_state=0)
    assert wide.n_classes * wide.n_features < IMAGES
    config = plan_fit(wide, Settings(), get_method("ccg"), linear=False).phases[0].config
    assert (config.settled, config.handover) == (PDHGConfig().settled, PDHGConfig().handover)


def test_pdhg_s_iterations_until_they_stall_then_the_loop_certify_the_loop_s_r_star():
    """The route of dear masters, on a small problem: the iterations run until they stall, then the loop from the
    master of their support closes its certified interval on the loop alone's R* at ``eps_1 = 0``."""
    X, y = random_problem(300, 4, 3, seed=2)
    problem = prepare(X, y)
    loop = MRCClassifier(first_order=False, eps_1=0.0).fit(X, y)
    phase = Phase(get_method("pdhg"), PDHGConfig(eps_1=0.0, **UNTIL_STALL))
    plan = Plan(get_method("ccg"), pathwise.keeping_rows(CCGConfig(eps_1=0.0)), phases=(phase,),
                stages=(problem.lambda0,))
    result = finish(pathwise.fit_steps(problem, plan))
    first_order = [record for record in result.history if record["phase"] == "first-order"]
    assert first_order and len(first_order) < len(result.history) and result.status == "converged"
    assert result.upper - result.lower <= 1e-9
    assert result.lower <= loop.upper_ + 1e-12 and loop.lower_ <= result.upper + 1e-12


def test_the_narrow_route_certifies_the_loop_s_r_star_at_eps_zero_and_at_the_defaults():
    """The narrow route's larger first master changes only which rows the loop starts from: at ``eps_1 = 0`` its
    certified interval closes on the same R* as the loop alone's, and at the defaults it holds it."""
    X, y = random_problem(1000, 4, 20, seed=0)
    loop = MRCClassifier(first_order=False, eps_1=0.0).fit(X, y)
    for eps_1 in (0.0, MRCClassifier().eps_1):
        fit = MRCClassifier(eps_1=eps_1).fit(X, y)
        assert "first-order" in set(fit.history_.phase) and fit.status_ == "converged"
        assert fit.lower_ <= loop.upper_ + 1e-12 and loop.lower_ <= fit.upper_ + 1e-12
        assert fit.upper_ - fit.lower_ <= max(eps_1, 1e-9)


def test_true_and_false_decide_alone():
    assert route(shape(6400, 10, 785), "n", False) == LOOP
    assert route(shape(10, 2, 3), "n", True) == PDHG                        # no phase in the route: PDHG's
    assert route(shape(6400, 10, 785), "nm", True) == FISTA_THEN_PDHG


def test_a_small_fit_runs_the_loop_alone_and_a_fit_asked_for_one_runs_pdhg_s_phase():
    X, y = random_problem(300, 4, 3, seed=2)
    assert "first-order" not in set(MRCClassifier().fit(X, y).history_.phase)
    clf = MRCClassifier(first_order=True).fit(X, y)
    assert clf.status_ == "converged" and "first-order" in set(clf.history_.phase)
    assert "omega" in clf.history_   # the records of MRC-PDHG's iterations


def text_problem(n=400, words=12_000, seed=0):
    """Sparse text of two classes: each document a few words, most of them seen in one class only."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    rows = np.repeat(np.arange(n), 4)
    columns = rng.integers(0, words // 2, 4 * n) + (words // 2) * np.repeat(y, 4) * (rng.random(4 * n) < 0.8)
    X = sp.csr_matrix((np.ones(4 * n), (rows, columns)), shape=(n, words))
    X.sum_duplicates()
    return X, y


def test_sparse_text_is_planned_its_full_lp_and_fista_s_phase_with_a_time_limit_it_would_not_meet(monkeypatch):
    """The regime "auto" solves sparse text's full LP (its smallest master that certifies holds most of its rows):
    no phase, also with a time limit the LP is expected to meet (``FULL_LP_SECONDS`` times its rows squared within
    ``LOOP_SHARE`` of it); with a shorter one, FISTA's phase then the loop of the regime "n", whose rule is the best
    early and whose masters raise the lower end; a regime asked for is kept."""
    X, y = text_problem()
    problem, ccg = prepare(X, y), get_method("ccg")
    plan = plan_fit(problem, Settings(), ccg)
    assert plan.config.regime == "full" and plan.phases == () and plan.stages == (problem.lambda0,)
    rows, _ = problem.full_lp_size()
    expected = plan_module.FULL_LP_SECONDS * rows ** 2
    met = plan_fit(problem, replace(Settings(), time_limit=1.01 * expected / LOOP_SHARE), ccg)
    assert met.config.regime == "full" and met.phases == ()
    limited = plan_fit(problem, replace(Settings(), time_limit=0.99 * expected / LOOP_SHARE), ccg)
    assert [phase.method.name for phase in limited.phases] == ["fom"] and limited.method is ccg
    assert limited.config.regime == "n" and not limited.keeps_rows
    assert plan_fit(problem, replace(Settings(), time_limit=1e-6, first_order=False), ccg).phases == ()
    assert plan_fit(problem, replace(Settings(), regime="nm", time_limit=1e-6), ccg).config.regime == "nm"
    monkeypatch.setattr(plan_module, "FULL_LP_SECONDS", 1.0)   # the LP taken for one beyond any limit below
    clf = MRCClassifier(time_limit=60.0, eps_1=1e-6).fit(X, y)
    assert clf.status_ == "converged" and clf.history_.phase.iloc[0] == "first-order"


def test_two_class_text_whose_lp_pdlp_solves_takes_it_with_a_limit_of_at_least_pdlp_share_of_its_time(monkeypatch):
    """A two-class LP that HiGHS's PDLP solves (here from one row on) is taken with a time limit of at least
    ``PDLP_SHARE`` of its expected seconds (``PDLP_SECONDS`` times its nonzeros; stopped at the limit, its last
    point is certified), FISTA's phase below; another solver's LP (no last point) keeps the rule of its rows
    squared; the fit by PDLP certifies."""
    from mrc_pyomo.methods import full_lp
    X, y = text_problem()
    problem, ccg = prepare(X, y), get_method("ccg")
    _, nonzeros = problem.full_lp_size()
    monkeypatch.setattr(full_lp, "PDLP_MIN_ROWS", 1)
    expected = plan_module.PDLP_SECONDS * nonzeros
    met = plan_fit(problem, replace(Settings(), time_limit=1.01 * plan_module.PDLP_SHARE * expected), ccg)
    assert met.config.regime == "full" and met.phases == ()
    short = plan_fit(problem, replace(Settings(), time_limit=0.99 * plan_module.PDLP_SHARE * expected), ccg)
    assert [phase.method.name for phase in short.phases] == ["fom"]
    rows_rule = plan_module.FULL_LP_SECONDS * problem.full_lp_size()[0] ** 2 / LOOP_SHARE
    glpk = replace(Settings(), solver="glpk", time_limit=1.01 * plan_module.PDLP_SHARE * expected)
    assert (plan_fit(problem, glpk, ccg).phases == ()) == (glpk.time_limit >= rows_rule)
    monkeypatch.setattr(plan_module, "PDLP_SECONDS", 1e-12)
    clf = MRCClassifier(time_limit=60.0).fit(X, y)
    assert clf.status_ == "converged" and clf.master_.full_lp_method == "primal_pdlp"


def test_sparse_text_of_more_classes_beyond_text_lp_rows_is_planned_fista_s_phase_without_a_time_limit(monkeypatch):
    """Without a time limit, sparse text of more than two classes whose full LP has more than ``TEXT_LP_ROWS`` rows
    runs FISTA's phase then the loop of the regime "n" (the LP's time grows faster than its rows); within them, two
    classes or ``first_order=False``: the full LP; the fit through the phase certifies the full LP's ``R*``."""
    X, y = zipf_words(n=300, n_classes=3, seed=1)
    problem, ccg = prepare(X, y), get_method("ccg")
    rows, _ = problem.full_lp_size()
    assert plan_fit(problem, Settings(), ccg).config.regime == "full"
    monkeypatch.setattr(plan_module, "TEXT_LP_ROWS", rows)
    assert plan_fit(problem, Settings(), ccg).phases == ()
    monkeypatch.setattr(plan_module, "TEXT_LP_ROWS", rows - 1)
    plan = plan_fit(problem, Settings(), ccg)
    assert [phase.method.name for phase in plan.phases] == ["fom"] and plan.config.regime == "n"
    assert plan_fit(problem, replace(Settings(), first_order=False), ccg).config.regime == "full"
    binary = prepare(*zipf_words(n=300, n_classes=2, seed=1))
    monkeypatch.setattr(plan_module, "TEXT_LP_ROWS", 0)
    assert plan_fit(binary, Settings(), ccg).config.regime == "full"
    reference = MRCClassifier(method="lp").fit(X, y)
    clf = MRCClassifier(eps_1=1e-6).fit(X, y)
    assert clf.status_ == "converged" and clf.history_.phase.iloc[0] == "first-order"
    assert clf.lower_ - 1e-6 <= reference.upper_ and reference.lower_ - 1e-6 <= clf.upper_


def test_with_a_time_limit_the_loop_alone_gives_way_to_pdhg_at_a_share_of_it():
    """A route of the loop alone on a problem where a phase runs (more than two classes, the regime "n") gives the
    loop a share of the time limit, then MRC-PDHG's iterations until they stall (no master follows them); two
    classes, no limit, or ``first_order=False``: none."""
    problem, ccg = prepare(*random_problem(300, 4, 3, seed=2)), get_method("ccg")
    plan = plan_fit(problem, replace(Settings(), time_limit=40.0), ccg)
    assert plan.phases == () and plan.give_up == LOOP_SHARE * 40.0
    assert [phase.method.name for phase in plan.fallback] == [name for name, _ in FALLBACK]
    assert plan.fallback[0].config.handover == np.inf and plan.fallback[0].config.settled == np.inf
    assert plan_fit(problem, Settings(), ccg).give_up is None
    assert plan_fit(problem, replace(Settings(), time_limit=40.0, first_order=False), ccg).fallback == ()
    binary = prepare(*random_problem(300, 4, 2, seed=2))
    assert plan_fit(binary, replace(Settings(), time_limit=40.0), ccg).fallback == ()


def test_a_loop_that_gives_up_hands_its_rule_to_pdhg_and_keeps_its_lower_end():
    """The loop stopped at the give-up time (status "time_limit" of its part), MRC-PDHG's iterations run from its rule
    to the deadline: the fit's rule is the better of the two, its lower end the better, every record kept, numbered
    on, and the status decided by the interval."""
    problem, ccg = prepare(*random_problem(600, 6, 4, seed=5)), get_method("ccg")
    plan = replace(plan_fit(problem, replace(Settings(), time_limit=3.0, n_max=2), ccg), give_up=0.0)
    result = finish(pathwise.fit_steps(problem, plan, deadline=Deadline(3.0)))
    phases = [record["phase"] for record in result.history]
    assert phases[0] == "generation" and phases[-1] == "first-order"
    assert [record["iteration"] for record in result.history] == list(range(1, len(phases) + 1))
    loop_upper = min(record["upper"] for record in result.history if record["phase"] == "generation")
    assert result.upper <= loop_upper + 1e-12 and result.lower >= result.history[0]["lower"]


def test_phases_replace_continuation_s_stages_and_the_certificate_starts_at_its_costs():
    """With phases the loop starts from the master of their rows at the user's lambda0, whose costs its master has:
    no larger stage (continuation's stages warm-start the loop where no phase does)."""
    problem, ccg = prepare(*random_problem(300, 4, 3, seed=2)), get_method("ccg")
    phased = plan_fit(problem, replace(Settings(), first_order=True, continuation=True), ccg)
    assert phased.phases and phased.stages == (problem.lambda0,)
    continued = plan_fit(problem, replace(Settings(), continuation=True), ccg)
    assert continued.phases == () and continued.stages == tuple(schedule(problem.lambda0, zero_rule_lambda0(problem)))
    assert continued.stage_eps == STAGE_EPS


def test_a_path_a_warm_start_and_a_first_order_method_are_plans():
    """A path: its stages, each its own max_iter, no phase and no full LP; a warm start: its start, no phase;
    ``method="pdhg"``: its phase, then MRC-CCG with its certificate's settings at its eps_1 and max_iter, or no
    method with ``certify=False``."""
    X, y = text_problem()
    problem, ccg = prepare(X, y), get_method("ccg")
    path = plan_fit(problem, Settings(), ccg, stages=(0.1, 0.01))
    assert path.stages == (0.1, 0.01) and not path.shared_budget and path.phases == ()
    assert path.config.regime == "nm"
    start = Start(candidates=(np.zeros_like(problem.tau),))
    warm = plan_fit(prepare(*random_problem(300, 4, 3, seed=2)), replace(Settings(), first_order=True), ccg,
                    start=start)
    assert warm.start is start and warm.phases == ()
    pdhg = get_method("pdhg")
    config = replace(pdhg.configure(Settings(), problem), eps_1=1e-4, max_iter=77)
    plan = first_order_plan(pdhg, config, problem.lambda0)
    assert plan.method is ccg and plan.config.eps_1 == 1e-4 and plan.config.max_iter == 77 and plan.keeps_rows
    alone = first_order_plan(pdhg, replace(config, certify=False), problem.lambda0)
    assert alone.method is None and alone.eps_1 == 1e-4
    assert plan_fit(problem, Settings(), pdhg).phases[0].method is pdhg


def test_a_loop_whose_checks_pick_less_than_a_block_does_not_give_up():
    """Past the give-up time, a loop whose checks pick fewer than ``n_max`` samples (its last rows) goes on to
    certify: the fallback runs only after a master whose check still picked a full block."""
    problem, ccg = prepare(*random_problem(300, 4, 3, seed=2)), get_method("ccg")
    plan = replace(plan_fit(problem, replace(Settings(), time_limit=60.0, n_max=1000), ccg), give_up=0.0)
    result = finish(pathwise.fit_steps(problem, plan, deadline=Deadline(60.0)))
    assert result.status == "converged"
    assert {record["phase"] for record in result.history} == {"generation"}
