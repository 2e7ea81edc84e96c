"""The section "Sparse text" of docs/benchmarks.md: the paper's second regime on Debian's package index, each fit
beside the full LP and LinearSVC of its task, and the smallest master that certifies beside each certified fit (the
records of the experiment ``sparse_text`` of ``experiments.jsonl``: ``python -m benchmarks.experiments.sparse_text``).
"""

from benchmarks.report.records import experiment_records

INTRO = [
    "", "## Sparse text", "",
    "Debian's package index (one-line descriptions and debtags, `debian_packages.csv.gz`), TF-IDF of words and word",
    "pairs seen in two training documents at least (sublinear term frequencies), 80% of the documents for training",
    "(stratified, seed 0; `--n`: that many of them drawn at random): `python` against the other sections (two",
    "classes) and the K largest sections (`topK`). Each fit ran in one process on one core, one after the other",
    "(`python -m benchmarks.experiments.sparse_text TASK [--n N] [--lambda0 L] --fits ... --minimal --record`;",
    "records of the experiment `sparse_text` in `benchmarks/results/experiments.jsonl`). `default` is",
    "`MRCClassifier()`, `lp` `method=\"lp\"` (the full LP by its HiGHS route, `choose_method`), `fom` and `pdhg` the",
    "first-order methods, `loop` the regime \"n\" without a phase; `@S` a time limit of S seconds. The minimal",
    "master is the fit's final master without its rows of zero dual, solved cold by each HiGHS method (the best",
    "shown; `>=`: none ended within the fit's own time): no generation method can certify in less, and its rows",
    "name the documents that pin the rule. The",
    "test error is on the other 20%, beside LinearSVC's (its fit seconds in brackets). The full LP's rows are those",
    "of the reduced LP (`MRCProblem.full_lp_size`); for a fit of the full LP (regime `full`), its seconds over its",
    "rows squared back `FULL_LP_SECONDS` of `mrc_pyomo/methods/plan.py` (2e-7, an upper end of these): with a time",
    "limit, the default takes the full LP where that many seconds times its rows squared is within `LOOP_SHARE`",
    "(a quarter) of the limit, or, on two classes from 20,000 rows (HiGHS's PDLP, whose last point at the limit is",
    "certified), where `PDLP_SECONDS` (4e-5, an upper end of its fits' seconds over their LP's nonzeros) times its",
    "nonzeros is within 2.5 times the limit (`PDLP_SHARE`), else FISTA's phase then the loop of the regime",
    "\"n\"; on more than two classes it",
    "takes that route whatever the limit beyond `TEXT_LP_ROWS` (50,000) rows of LP. The commit is the library's",
    "at the fit (the rows of one task and size in the order recorded).", "",
    "| task | documents x columns, K | full LP rows | lambda0 | LinearSVC error (s) | fit | s | status | [lower, R] "
    "| regime | test error | LP s / rows^2 | minimal master: rows of final (documents) | minimal cold s "
    "| fit / minimal | commit |",
    "| --- | --- | ---: | ---: | --- | --- | ---: | --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- |",
]


def row(r):
    """The table's line of the record ``r``."""
    rows = r.get("minimal_rows")
    minimal = f"{rows:,} of {r['final_rows']:,} ({r['minimal_samples']:,})" if rows else "-"
    cold = ratio = "-"
    if r.get("minimal_best_seconds"):
        cold, ratio = f"{r['minimal_best_seconds']:.1f}", f"{r['seconds'] / r['minimal_best_seconds']:.1f}"
    elif rows and r.get("minimal_time_limit"):   # no cold solve ended within the fit's own time
        cold, ratio = f">= {r['minimal_time_limit']:.1f}", f"<= {r['seconds'] / r['minimal_time_limit']:.1f}"
    lp_rows = r.get("full_lp_rows")
    per_row2 = f"{r['seconds'] / lp_rows ** 2:.1e}" if lp_rows and r["regime"] == "full" else "-"
    return "| " + " | ".join([
        r["task"], f"{r['n']:,} x {r['D']:,}, {r['K']}", f"{lp_rows:,}" if lp_rows else "-",
        f"{r.get('lambda0', 0.01):g}", f"{r['linear_svc_error']:.3f} ({r['linear_svc_seconds']:.1f})", r["fit"],
        f"{r['seconds']:.1f}", r["status"], f"[{r['lower']:.4f}, {r['upper']:.4f}]", r["regime"],
        f"{r['test_error']:.3f}", per_row2, minimal, cold, ratio, (r.get("commit") or "-")[:7]]) + " |"


def sparse_text_section(path):
    """The section's lines from the records of ``path`` (``experiments.jsonl``), one line a fit, grouped by task,
    size and ``lambda0`` in the order first recorded; none without them."""
    records = experiment_records(path, "sparse_text")
    if not records:
        return []
    key = lambda r: (r["task"], r["n"], r.get("lambda0", 0.01))   # noqa: E731
    order = list(dict.fromkeys(key(r) for r in records))
    return INTRO + [row(r) for group in order for r in records if key(r) == group]
