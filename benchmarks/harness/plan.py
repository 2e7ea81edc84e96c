"""The plan of the benchmark: which cases and methods each experiment runs, and with what time limits.

:mod:`benchmarks.harness.run` runs it; the report (:mod:`benchmarks.report`) reads it too, for the anytime cases, the
quick run's cap on cold solves, and the runs of the plan that have no record.
"""

SPEED_CASES = {
    # case: methods
    "pulsar_rff": ["ccg", "ccg_precise", "lp", "subgradient"],
    "dry_bean_rff": ["ccg", "ccg_precise", "subgradient"],
    "satellite": ["ccg", "ccg_precise", "subgradient"],
    "optdigits": ["ccg", "ccg_precise", "subgradient"],
    "satellite_rff": ["ccg", "ccg_precise"],   # the paper's settings (400 random Fourier features)
    "optdigits_rff": ["ccg", "ccg_precise", "subgradient"],
    "digits_rff": ["ccg", "ccg_precise"],
    "tweets": ["ccg", "ccg_precise", "lp"],   # the target: faster than the full LP
    "many_classes_50": ["ccg", "ccg_precise"],   # K = 50, n = 8000
    "many_classes": ["ccg", "ccg_precise", "subgradient"],   # K = 100, n = 16 000
    "mnist_8000": ["ccg", "ccg_precise"],
    "mnist": ["ccg_precise"],   # the target is R - R* < 1e-3, certified
    "many_classes_26_rff": ["ccg"],   # dense features and many classes: certified gap <= 1e-3 within 600 s
    "satellite_unregularised": ["ccg"],   # lambda0 = 0: certified gap <= 1e-3 within 30 s
}
QUICK_LP = {"pulsar_rff"}   # small enough for the full LP in quick mode (the target's baseline)
# quick mode runs only these methods of these cases, to stay about 10 minutes: tweets' two runs both stop at
# the time limit on the same path (eps_1 only decides when a closed gap stops the loop); the other cases
# are there for their limit ratio, which MRC-CCG at eps_1 = 1e-3 shows
QUICK_METHODS = {"tweets": ["ccg"], "satellite_rff": ["ccg"], "optdigits_rff": ["ccg"], "digits_rff": ["ccg"],
                 "many_classes_50": ["ccg"], "mnist_8000": ["ccg"]}
QUICK_COLD_TIME_LIMIT = 30.0   # seconds per cold solve of a final master in quick mode (else: the fit time)
ANYTIME_CASES = ["mnist_8000", "mnist"]   # these methods stopped at each of ANYTIME_LIMITS, against a reference R*
# the default fit (its first-order phase where first_order="auto" runs it), MRC-CCG alone, MRC-FOM
ANYTIME_METHODS = ["ccg", "ccg_no_first_order", "fom"]
ANYTIME_LIMITS = [10.0, 60.0, 120.0, 300.0]   # seconds (quick mode: those within its time limit)
REFERENCE_LIMIT = 86400.0   # "without a time limit": a day
PATH_CASES = ["satellite_rff"]   # the path of mrc_path's default grid, against the speed run at lambda0 = 0.01
FRACTIONS = [0.1, 0.2, 0.4, 0.7, 1.0]
CLASSES = [5, 10, 20, 50, 100]
# the experiment "formulations" (python -m benchmarks.harness.run --formulations): these methods of these cases in the
# paper's and in the compact formulation (mrc_pyomo.formulations), one run after the other; the full LP too,
# which the compact formulation makes n (K + 1) rows instead of n (2^K - 1) (the paper's is refused beyond
# mrc_pyomo.methods.full_lp.MAX_ROWS / MAX_NONZEROS: the record says so)
FORMULATION_CASES = {case: ["ccg", "lp"] for case in SPEED_CASES if case != "mnist"}
