"""Time HiGHS on the full MRC LP in its primal and explicit dual forms, and certify every answer.

    python -m benchmarks.experiments.full_lp_forms CASE [CONFIG ...] [--record]

One case per process; one JSON line per config appended to ``benchmarks/runs/full_lp_forms.jsonl`` (ignored by
git), or with ``--record`` to the tracked ``benchmarks/results/full_lp_forms.jsonl``.  A case's data set that is
missing stops it before anything runs (:func:`benchmarks.data.require`).

Cases: pulsar500, pulsar1000, pulsar2000 (400 RFF), satelliteN, optdigitsN, small (n=60, d=4, K=3).
Configs: primal_default, primal_ipm, primal_ipm_nox, dual_simplex, dual_psimplex, dual_ipm, dual_ipm_nox.
"""

import argparse
import json
import os
import sys
from pathlib import Path
import time

import highspy
import numpy as np
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from benchmarks.data import require  # noqa: E402
from benchmarks.harness.cases import tabular  # noqa: E402
from benchmarks.harness.environment import versions  # noqa: E402
from benchmarks.harness.record_files import records_file  # noqa: E402
from mrc_pyomo.feature_maps import make_feature_map  # noqa: E402
from mrc_pyomo.master import RestrictedMaster  # noqa: E402
from mrc_pyomo.master.highs_backend import quiet_highs  # noqa: E402
from mrc_pyomo.methods.full_lp import MAX_NONZEROS, MAX_ROWS  # noqa: E402
from mrc_pyomo.oracles.certificate import lower_bound  # noqa: E402
from mrc_pyomo.oracles.primal import worst_case_risk  # noqa: E402
from mrc_pyomo.oracles.rows import all_subsets, constraint_block, right_hand_sides  # noqa: E402
from mrc_pyomo.problem import MRCProblem  # noqa: E402
from mrc_pyomo.problem.estimates import mean_and_confidence  # noqa: E402
from mrc_pyomo.problem.scaling import column_scales, scale_columns  # noqa: E402

INF = highspy.kHighsInf
TIME_LIMIT = float(os.environ.get("LP_TIME_LIMIT", 400))


def load(name, n):
    """``n`` samples of a benchmark data set (seed 0), standardised, as :mod:`benchmarks.harness.cases` loads them."""
    X, y, _ = tabular(name, quick=True, n_quick=n, fourier=False)
    return X, y


def data_set(case):
    """The data sets of :mod:`benchmarks.data` that ``case`` reads (none for the random problems)."""
    if case.startswith(("small", "rand:")):
        return []
    if ":" in case:
        return [case.split(":")[0]]
    return [name for name in ("pulsar", "satellite", "optdigits") if case.startswith(name)]


def case_data(case):
    if case == "small":
        from helpers import random_problem
        X, y = random_problem(60, 4, 3, seed=0)
        phi = "linear"
    elif case.startswith("smallsparse"):
        from helpers import random_problem
        X, y = random_problem(60, 4, 3, sparse=True, seed=0)
        phi = "linear"
    elif case.startswith("rand:"):
        from helpers import random_problem
        _, n, d, K = case.split(":")
        X, y = random_problem(int(n), int(d), int(K), seed=0)
        phi = "linear"
    elif ":" in case:
        name, phi, n = case.split(":")
        X, y = load(name, int(n))
        if phi.startswith("fourier") and phi != "fourier":
            from mrc_pyomo.feature_maps import RandomFourierFeatures
            phi = RandomFourierFeatures(n_components=int(phi[len("fourier"):]), random_state=0)
    elif case.startswith("pulsar"):
        X, y = load("pulsar", int(case[len("pulsar"):]))
        phi = "fourier"
    elif case.startswith("satellite"):
        X, y = load("satellite", int(case[len("satellite"):]))
        phi = "linear"
    elif case.startswith("optdigits"):
        X, y = load("optdigits", int(case[len("optdigits"):]))
        phi = "linear"
    else:
        raise ValueError(case)
    classes, y_idx = np.unique(y, return_inverse=True)
    K = len(classes)
    Psi = make_feature_map(phi, True, 0).fit(X).transform(X)
    Psi = scale_columns(Psi, column_scales(Psi))
    tau, lam = mean_and_confidence(Psi, y_idx, K, 0.01)
    return Psi, tau, lam, K


def full_rows(Psi, K):
    subsets = all_subsets(K)
    n = Psi.shape[0]
    samples = np.repeat(np.arange(n), len(subsets))
    subs = np.tile(subsets, (n, 1))
    return samples, subs


def lp_of(num_col, num_row, cost, col_lo, col_hi, row_lo, row_hi, A_csc, offset=0.0, sense=None):
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = num_col, num_row
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = cost, col_lo, col_hi
    lp.row_lower_, lp.row_upper_ = row_lo, row_hi
    lp.offset_ = offset
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A_csc.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A_csc.indices.astype(np.int32)
    lp.a_matrix_.value_ = A_csc.data.astype(float)
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = num_col, num_row
    return lp


def primal_lp(F, b, tau, lam):
    """Columns [nu, mu1 (m), mu2 (m)]; rows F(mu1 - mu2) - nu <= b."""
    R, m = F.shape
    t, l = tau.ravel(), lam.ravel()
    A = sp.hstack([sp.csc_matrix(-np.ones((R, 1))), F.tocsc(), -F.tocsc()], format="csc")
    cost = np.concatenate([[1.0], -(t - l), t + l])
    lo = np.concatenate([[-INF], np.zeros(2 * m)])
    hi = np.full(2 * m + 1, INF)
    return lp_of(2 * m + 1, R, cost, lo, hi, np.full(R, -INF), np.asarray(b, float), A)


def dual_lp(F, b, tau, lam):
    """Columns alpha (R); rows tau - lam <= F^T alpha <= tau + lam (m rows), sum alpha = 1.  min b.alpha."""
    R, m = F.shape
    t, l = tau.ravel(), lam.ravel()
    # column r of A = [F_r ; 1]: CSR of [F | 1] read as CSC of A
    Fr = sp.hstack([F, sp.csr_matrix(np.ones((R, 1)))], format="csr")
    Fr.sort_indices()
    A = sp.csc_matrix((Fr.data, Fr.indices, Fr.indptr), shape=(m + 1, R))
    return lp_of(R, m + 1, np.asarray(b, float), np.zeros(R), np.full(R, INF),
                 np.concatenate([t - l, [1.0]]), np.concatenate([t + l, [1.0]]), A)


CONFIGS = {
    "primal_default": ("primal", {}),
    "primal_ipm": ("primal", {"solver": "ipm"}),
    "primal_ipm_nox": ("primal", {"solver": "ipm", "run_crossover": "off"}),
    "dual_simplex": ("dual", {}),
    "dual_psimplex": ("dual", {"solver": "simplex", "simplex_strategy": 4}),
    "dual_ipm": ("dual", {"solver": "ipm"}),
    "dual_ipm_nox": ("dual", {"solver": "ipm", "run_crossover": "off"}),
}


def run(case, configs, records):
    """Solve the full LP of ``case`` with each of ``configs`` (names of :data:`CONFIGS`), appending a record per
    config to the file ``records``."""
    t0 = time.perf_counter()
    Psi, tau, lam, K = case_data(case)
    rows, nnz = MRCProblem.from_arrays(Psi, None, tau, lam).full_lp_size()   # the paper's, no reduction
    guard = rows > MAX_ROWS or nnz > MAX_NONZEROS
    samples, subsets = full_rows(Psi, K)
    m = tau.size
    master = RestrictedMaster(Psi, tau, lam)  # only for points()
    t1 = time.perf_counter()
    F = constraint_block(master.points, samples, subsets, np.arange(m), tau.shape[1])
    b = right_hand_sides(subsets)
    t_F = time.perf_counter() - t1
    info = dict(case=case, n=int(Psi.shape[0]), D=int(tau.shape[1]), K=int(K), rows=int(rows), m=int(m), nnz_primal=int(nnz),
                nnz_F=int(F.nnz), guard_refuses=bool(guard), seconds_data=t1 - t0, seconds_F=t_F)
    print(json.dumps(info), flush=True)
    for name in configs:
        form, options = CONFIGS[name]
        t1 = time.perf_counter()
        lp = primal_lp(F, b, tau, lam) if form == "primal" else dual_lp(F, b, tau, lam)
        h = quiet_highs({"time_limit": TIME_LIMIT})
        for k, v in options.items():
            h.setOptionValue(k, v)
        h.passModel(lp)
        del lp
        t_build = time.perf_counter() - t1
        t1, c1 = time.perf_counter(), time.process_time()
        h.run()
        t_solve, c_solve = time.perf_counter() - t1, time.process_time() - c1
        status = h.modelStatusToString(h.getModelStatus())
        hinfo = h.getInfo()
        rec = dict(info, config=name, status=status, seconds_build=t_build, seconds_solve=t_solve, cpu_solve=c_solve,
                   simplex_iter=hinfo.simplex_iteration_count, ipm_iter=hinfo.ipm_iteration_count,
                   crossover_iter=hinfo.crossover_iteration_count, highs_objective=hinfo.objective_function_value)
        sol = h.getSolution()
        x, y = np.asarray(sol.col_value), np.asarray(sol.row_dual)
        if len(x) and status in ("Optimal", "Time limit reached", "Unknown"):
            if form == "primal":
                mu = (x[1:m + 1] - x[m + 1:]).reshape(tau.shape)
                alpha = -y
            else:
                mu_a, mu_b = y[:m].reshape(tau.shape), -y[:m].reshape(tau.shape)
                ra, rb = worst_case_risk(Psi, mu_a, tau, lam), worst_case_risk(Psi, mu_b, tau, lam)
                rec["dual_sign"] = "+" if ra <= rb else "-"
                mu = mu_a if ra <= rb else mu_b
                alpha = x
            t1 = time.perf_counter()
            upper = worst_case_risk(Psi, mu, tau, lam)
            lower = lower_bound(master.points, samples, subsets, alpha, tau, lam, rho=upper)
            rec.update(upper=upper, lower=lower, gap=upper - lower, seconds_certificate=time.perf_counter() - t1,
                       alpha_min=float(alpha.min()), alpha_sum=float(alpha.sum()))
        rec["versions"] = versions()
        print(json.dumps(rec), flush=True)
        with open(records, "a") as f:
            f.write(json.dumps(rec) + "\n")
        del h


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case")
    parser.add_argument("configs", nargs="*", metavar="CONFIG", help=f"of {', '.join(CONFIGS)} (default: all)")
    parser.add_argument("--record", action="store_true",
                        help="append to the tracked benchmarks/results/full_lp_forms.jsonl (default: benchmarks/runs/)")
    args = parser.parse_args(argv)
    if set(args.configs) - set(CONFIGS):
        parser.error(f"unknown CONFIG {sorted(set(args.configs) - set(CONFIGS))}")
    require(data_set(args.case))   # before any solve
    records = records_file("full_lp_forms.jsonl", args.record)
    run(args.case, args.configs or list(CONFIGS), records)


if __name__ == "__main__":
    main()
