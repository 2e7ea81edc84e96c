"""The loop's configuration (:mod:`mrc_pyomo.methods.ccg.config`): the simplex's time budget, and the regime "auto"
(the full LP for sparse text that the exact reduction makes small, the regime "n" for dense features with many
classes)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from helpers import R_star_of, zipf_words
from mrc_pyomo import MRCClassifier
from mrc_pyomo.problem.reduction import find_reduction


def test_simplex_budget_is_relative_to_the_largest_solve():
    """Stall protection is on by default: the warm simplex gets stall_factor (3) times the largest solve so
    far, at least stall_floor (1 s), and nothing on the first master; a config without a factor has none."""
    from mrc_pyomo.methods.ccg import CCGConfig, simplex_budget
    assert simplex_budget([]) is None
    assert simplex_budget([2.0, 5.0, 1.0]) == pytest.approx(15.0)
    assert simplex_budget([0.01, 0.02]) == pytest.approx(1.0)
    assert simplex_budget([2.0], CCGConfig(stall_factor=2.0, stall_floor=0.0)) == pytest.approx(4.0)
    assert simplex_budget([2.0], CCGConfig(stall_factor=None)) is None


def many_words(n=200, d=6000, seed=0):
    """Two classes of sparse nonnegative 'documents' with more than LARGE_M features and class-specific words."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = sp.random(n, d, density=0.003, random_state=seed, format="lil")
    X[np.flatnonzero(y == 0)[:, None], np.arange(3000, 6000)[None, :]] = 0.0   # words of class 1 only
    X[np.arange(n), rng.integers(0, 6000, n)] = 1.0
    return X.tocsr(), y


def test_auto_solves_the_full_lp_of_sparse_text():
    from mrc_pyomo.methods import ccg, full_lp
    from mrc_pyomo.problem import prepare

    X, y = many_words()
    reduction = find_reduction(sp.hstack([np.ones((X.shape[0], 1)), X]).tocsr(), y, 2)
    problem = prepare(X, y)
    assert problem.reduction.blocked.tolist() == reduction.blocked.tolist()
    rows, nonzeros = problem.full_lp_size()
    assert rows == int(np.sum(2 ** (2 - reduction.blocked.sum(axis=1)) - 1))
    assert rows < 3 * X.shape[0]   # samples of class 0 with a word of class 1 keep a single row
    assert ccg.choose_regime(2, 6001, (rows, nonzeros)) == "full"
    # the full LP while it is within its limits, of rows and of nonzeros (exact, with the reduction)
    assert ccg.choose_regime(2, 6001, (full_lp.MAX_ROWS, full_lp.MAX_NONZEROS)) == "full"
    assert ccg.choose_regime(2, 6001, (full_lp.MAX_ROWS + 1, nonzeros)) == "nm"
    assert ccg.choose_regime(2, 6001, (rows, full_lp.MAX_NONZEROS + 1)) == "nm"
    assert ccg.choose_regime(2, 100, (10, 100)) == "n"
    # many classes: the full LP is out of reach; column generation for sparse features only
    assert ccg.feature_density(problem) < 0.01
    assert ccg.feature_density(prepare(np.ones((3, 2)), [0, 1, 1], fit_intercept=False)) == 1.0
    assert ccg.choose_regime(26, 417, None, density=1.0) == "n"
    assert ccg.choose_regime(26, 6001, None, density=ccg.feature_density(problem)) == "nm"
    assert full_lp.choose_method(2, 6001, problem.nonzeros, int(rows)) == "primal_ipm"
    clf = MRCClassifier(eps_1=0.0).fit(X, y)
    assert clf.regime_ == "full" and clf.master_.full_lp_method == "primal_ipm" and clf.n_iter_ == 0
    assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= 1e-8
    ccg_fit = MRCClassifier(regime="nm", eps_1=0.0).fit(X, y)
    assert ccg_fit.status_ == "converged"
    R_star = R_star_of(clf, X, y)
    assert clf.upper_ == pytest.approx(R_star, abs=1e-7) and ccg_fit.upper_ == pytest.approx(R_star, abs=1e-7)


def test_auto_keeps_dense_features_with_many_classes_in_the_regime_n():
    """26 classes and 400 random Fourier features (K D > LARGE_M, every feature nonzero): "auto" gives the
    regime "n", whose certificate moves (the regime "nm" cannot close while dense features lie outside J)."""
    rng = np.random.default_rng(26)
    y = np.repeat(np.arange(26), 4)
    X = rng.normal(size=(26, 5))[y] + rng.normal(size=(len(y), 5))
    with pytest.warns(ConvergenceWarning):
        clf = MRCClassifier(phi="fourier", max_iter=2, random_state=0).fit(X, y)
    assert clf.tau_.size > 10_000 and clf.regime_ == "n"


def test_rows_never_leave_the_loop_on_sparse_text():
    """On sparse text (K D > LARGE_M, at most SPARSE_DENSITY nonzeros) of more than two classes the loop keeps every
    row it added (row_age None), where two classes and dense features of the same width keep the paper's rule; the
    regime "n" then never removes a row (the paper's rule removes some on the same documents) and still reaches the
    full LP's R* with a closed certificate."""
    from dataclasses import replace

    from mrc_pyomo.estimator.parameters import settings_of
    from mrc_pyomo.methods import ccg
    from mrc_pyomo.methods.result import finish
    from mrc_pyomo.problem import prepare

    assert ccg.row_age(0.01) == 1 and ccg.row_age(0.0) == ccg.UNREGULARISED_ROW_AGE
    assert ccg.row_age(0.01, text=True) is None and ccg.row_age(0.0, text=True) is None
    assert ccg.sparse_text(2, 6001, 0.01) and not ccg.sparse_text(2, 6001, 1.0)
    assert not ccg.sparse_text(2, 100, 0.01)   # K D within LARGE_M: not text to the rules, however sparse
    X, y = zipf_words(n_classes=3)
    problem = prepare(X, y)
    clf = MRCClassifier(regime="n", eps_1=0.0, n_max=20)
    config = ccg.configure(settings_of(clf), problem)
    assert config.row_age is None
    assert ccg.configure(settings_of(clf), prepare(*zipf_words())).row_age == 1   # two classes
    dense = prepare(np.random.default_rng(0).normal(size=(30, 2001)), np.arange(30) % 3)
    assert ccg.configure(settings_of(clf), dense).row_age == 1
    paper = finish(ccg.steps(problem, replace(config, row_age=1)))
    assert sum(record["rows_removed"] for record in paper.history) > 0
    clf.fit(X, y)
    assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= 1e-7
    assert clf.history_.rows_removed.sum() == 0 and len(clf.history_) > 1
    R_star = R_star_of(MRCClassifier(eps_1=0.0).fit(X, y), X, y)
    assert clf.upper_ == pytest.approx(R_star, abs=1e-7) and paper.upper == pytest.approx(R_star, abs=1e-7)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_loop_takes_its_masters_in_their_dual_form_where_the_built_in_solver_has_no_floor_row():
    """master_form: the dual form (eq. 8, kept warm) for the built-in solver on the paper's rows in the regime "n"
    with at most MAX_CLASSES_ALL_SUBSETS classes (no row objective >= 0) and DUAL_FORM_COLUMNS columns per sign,
    else the primal form; configure passes it on, and a fit's masters are on the backend it names."""
    from mrc_pyomo.master.dual_lp import WarmDualBackend
    from mrc_pyomo.master.highs_backend import HighsBackend
    from mrc_pyomo.methods.ccg import configure
    from mrc_pyomo.methods.ccg.config import DUAL_FORM_COLUMNS, master_form
    from mrc_pyomo.problem import MRCProblem
    from mrc_pyomo.problem.initialization import MAX_CLASSES_ALL_SUBSETS
    few, many = (MRCProblem.from_arrays(np.ones((4, 2)), None, np.zeros((K, 2)), np.zeros((K, 2)))
                 for K in (MAX_CLASSES_ALL_SUBSETS, MAX_CLASSES_ALL_SUBSETS + 1))
    D = DUAL_FORM_COLUMNS // 2
    narrow, wide = (MRCProblem.from_arrays(np.ones((4, d)), None, np.zeros((2, d)), np.zeros((2, d)))
                    for d in (D, D + 1))
    assert master_form(few, "n", "highs", "paper") == master_form(narrow, "n", "highs", "paper") == "dual"
    assert master_form(many, "n", "highs", "paper") == master_form(wide, "n", "highs", "paper") == "primal"
    assert master_form(few, "nm", "highs", "paper") == "primal"
    assert master_form(few, "n", "glpk", "paper") == "primal"
    assert master_form(few, "n", "highs", "compact") == "primal"
    from helpers import random_problem
    for K, backend in ((3, WarmDualBackend), (MAX_CLASSES_ALL_SUBSETS + 1, HighsBackend)):
        X, y = random_problem(120, 3, K, seed=K)
        clf = MRCClassifier(first_order=False).fit(X, y)
        assert type(clf.master_.backend) is backend


@pytest.mark.parametrize("phi", ["linear", "fourier"])
def test_the_dual_form_s_loop_certifies_the_primal_form_s_r_star(phi):
    """The loop with its masters in the dual form and in the primal form (the same steps, another backend) ends at
    the same R*, the independent full LP's, each certified (eps_1 = 0)."""
    from dataclasses import replace

    from helpers import random_problem
    from mrc_pyomo.estimator.fitting import problem_of
    from mrc_pyomo.estimator.parameters import settings_of
    from mrc_pyomo.methods import get_method
    from mrc_pyomo.methods.result import finish
    X, y = random_problem(150, 4, 3, seed=11)
    clf = MRCClassifier(phi=phi, eps_1=0.0, first_order=False, random_state=0, n_max=10)
    method = get_method("ccg")
    problem, _ = problem_of(clf, X, y, None, clf.lambda0, method)
    config = method.configure(settings_of(clf), problem)
    assert config.form == "dual"
    results = {form: finish(method.steps(problem, replace(config, form=form))) for form in ("primal", "dual")}
    clf.fit(X, y)
    R_star = R_star_of(clf, X, y)
    for result in results.values():
        assert result.status == "converged" and result.lower - 1e-7 <= R_star <= result.upper + 1e-7
        assert result.upper - R_star <= 1e-6


@pytest.mark.filterwarnings("ignore:the rule never predicts")
def test_the_certificate_s_simplex_scales_by_largest_entries_unless_the_user_sets_its_scaling():
    """certificate_options: on the built-in solver the certificate's masters after a first-order phase, in their
    primal form, take CERTIFICATE_HIGHS_OPTIONS under the user's solver_options (which win, and are not modified);
    the dual form, another solver and the loop alone keep the options as given.  A fit's HiGHS instance holds them,
    and both scalings certify the independent full LP's R* (eps_1 = 0)."""
    from helpers import random_problem
    from mrc_pyomo.methods.ccg.config import CERTIFICATE_HIGHS_OPTIONS, CCGConfig, certificate_options
    assert CERTIFICATE_HIGHS_OPTIONS == {"simplex_scale_strategy": 4}
    assert certificate_options(CCGConfig()) == CERTIFICATE_HIGHS_OPTIONS
    mine = {"simplex_scale_strategy": 2, "output_flag": False}
    assert certificate_options(CCGConfig(solver_options=mine)) == mine
    assert certificate_options(CCGConfig(form="dual", solver_options=mine)) is mine
    assert certificate_options(CCGConfig(form="dual")) is None
    assert certificate_options(CCGConfig(solver="glpk", solver_options={"tmlim": 5})) == {"tmlim": 5}
    for K, first_order, scaling in ((3, True, 2), (7, False, 2), (7, True, 4)):
        X, y = random_problem(150, 4, K, seed=K)
        default = MRCClassifier(eps_1=0.0, first_order=first_order, random_state=0, n_max=10).fit(X, y)
        assert default.master_.backend.highs.getOptionValue("simplex_scale_strategy")[1] == scaling
        options = {"simplex_scale_strategy": 0}
        unscaled = MRCClassifier(eps_1=0.0, first_order=first_order, random_state=0, n_max=10,
                                 solver_options=options).fit(X, y)
        assert options == {"simplex_scale_strategy": 0}
        assert unscaled.master_.backend.highs.getOptionValue("simplex_scale_strategy")[1] == 0
        R_star = R_star_of(default, X, y)
        for clf in (default, unscaled):
            assert clf.status_ == "converged" and clf.lower_ - 1e-7 <= R_star <= clf.upper_ + 1e-7
            assert clf.upper_ - R_star <= 1e-6
