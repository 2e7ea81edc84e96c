"""The route of the default fit (:mod:`mrc_pyomo.methods.route`): which first-order phases run before MRC-CCG's
loop, by the problem's shape, and what ``True`` and ``False`` ask for."""

from types import SimpleNamespace

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.methods.route import FISTA_THEN_PDHG, LOOP, PDHG, route


def shape(n, K, D):
    return SimpleNamespace(n_samples=n, n_classes=K, n_features=D)


def test_the_route_follows_the_problem_s_shape():
    # the harness's cases (training samples, classes, columns of Psi with the intercept)
    assert route(shape(5148, 6, 437), "n", linear=False) == PDHG            # satellite + 400 RFF
    assert route(shape(8000, 50, 21), "n") == PDHG                          # 50 Gaussian classes
    assert route(shape(2000, 26, 17), "n") == PDHG                          # 26 classes, 16 columns
    assert route(shape(6400, 10, 785), "n") == FISTA_THEN_PDHG              # mnist_8000: images
    assert route(shape(14318, 2, 409), "n", linear=False) == LOOP           # pulsar + RFF: two classes
    assert route(shape(10888, 7, 417), "n", linear=False) == LOOP           # dry bean + RFF: 26 samples a column
    assert route(shape(1437, 10, 465), "n", linear=False) == PDHG           # digits + RFF
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
    assert route(shape(6400, 10, 785), "n", host=False) == PDHG             # images on a GPU: PDHG's phase alone


def test_the_routes_name_registered_phases():
    from dataclasses import fields

    from mrc_pyomo.methods import get_method
    from mrc_pyomo.methods.fista import FOMConfig
    from mrc_pyomo.methods.pdhg import PDHGConfig
    configs = {"fom": FOMConfig, "pdhg": PDHGConfig}
    for path in (PDHG, FISTA_THEN_PDHG):
        for name, changes in path:
            assert get_method(name).iterations is not None and get_method(name).active_rows is not None
            assert set(changes) <= {field.name for field in fields(configs[name])}


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
