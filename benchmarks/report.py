"""Turn benchmark records (``results/*.jsonl``) into ``docs/benchmarks.md`` and plots in ``docs/img/``.

    python -m benchmarks.report [benchmarks/results/full.jsonl]
"""

import json
import os
import platform
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LABELS = {"ccg": "MRC-CCG (eps_1=1e-3)", "ccg_precise": "MRC-CCG (eps_1=1e-4)", "lp": "MRC-LP",
          "subgradient": "MRC-SUB"}


def load(path):
    latest = {}
    for line in Path(path).read_text().splitlines():
        r = json.loads(line)
        key = (r.get("experiment", "speed"), r["case"], r["method"], r.get("fraction") or 1.0, r.get("K")
               if r.get("experiment") == "scaling_K" else None)
        latest[key] = r
    return list(latest.values())


def versions():
    import highspy
    import numpy
    import pyomo
    import scipy
    import sklearn
    h = highspy.Highs()
    return (f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"NumPy {numpy.__version__}, SciPy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
            f"Pyomo {pyomo.__version__}, HiGHS {h.version()}")


def slope(x, y):
    x, y = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(x, y, 1)[0])


def certified_gap(record):
    """``, certified R - R* <= upper - lower = ...``: the library's certified interval (older records: none)."""
    if record.get("lower") is None:
        return ""
    return f", certified R - R* <= upper - lower = {record['R'] - record['lower']:.1e}"


COLD_LABELS = {"dual_simplex": "dual simplex", "ipm": "IPM", "ipm_no_crossover": "IPM, no crossover"}


def gap_cell(record):
    """The certified gap ``upper - lower`` for a table cell (older records: none)."""
    return "-" if record.get("lower") is None else f"{record['R'] - record['lower']:.1e}"


def limit_ratio_cell(record):
    """The limit ratio (fit seconds / the best cold solve of the final master) for a table cell: ``<= x`` when
    every cold solve hit its cap (then only bounded), ``-`` for records without it (not MRC-CCG, or older)."""
    if record.get("limit_ratio") is not None:
        return f"{record['limit_ratio']:.1f}"
    if record.get("limit_ratio_bound") is not None:
        return f"<= {record['limit_ratio_bound']:.1f}"
    return "-"


def cold_cell(record, method):
    """A method's cold-solve seconds; ``>= s`` when the solve stopped without an optimum (its cap)."""
    seconds = (record.get("cold_seconds") or {}).get(method)
    if seconds is None:
        return "-"
    optimal = (record.get("cold_objective") or {}).get(method) is not None
    return f"{seconds:.2f}" if optimal else f">= {seconds:.2f} ({record['cold_status'][method]})"


def time_to_reach(trace, target):
    """First time at which a (time, R) trace is at or below ``target``; None if never."""
    for t, r in trace or []:
        if r <= target + 1e-12:
            return t
    return None


def fmt(v, spec):
    return "-" if v is None or (isinstance(v, float) and not np.isfinite(v)) else format(v, spec)


def limit_ratio_table(records):
    """The section "Limit ratio": every MRC-CCG run's cold solves of its final master, per HiGHS method."""
    from benchmarks.run import QUICK_COLD_TIME_LIMIT
    runs = [r for r in records if "cold_seconds" in r and "error" not in r]
    if not runs:
        return []
    methods = list(dict.fromkeys(m for r in runs for m in r["cold_seconds"]))
    lines = ["", "## Limit ratio", "",
             "Right after each MRC-CCG fit, in the same process, fresh copies of the fit's final restricted master",
             "(`copy.deepcopy(clf.master_)`: a new HiGHS instance loaded from the master's arrays, no basis) are",
             f"solved once per HiGHS method, each capped at the fit time (and at {QUICK_COLD_TIME_LIMIT:.0f} s in the "
             "quick run; `>=`",
             "marks a capped solve); solves well under a second are repeated on fresh copies and the fastest kept.",
             "The limit ratio is the fit time over the best of them: what generating the rows and features cost",
             "against an oracle that knew them from the start. Cold solves",
             "run at HiGHS's default tolerances (not the tighter ones `refine()` may have set during the fit).",
             "A run stopped inside a solve (time limit) leaves a final master the fit never solved: its cold",
             "objective then differs from the last R^k (last column).", "",
             "| experiment | case | method | n | K | fit s | status | "
             + " | ".join(f"{COLD_LABELS.get(m, m)} s" for m in methods)
             + " | best | limit ratio | certified gap | cold objective - R^k |",
             "| --- | --- | --- | ---: | ---: | ---: | --- | " + " | ".join("---:" for _ in methods)
             + " | --- | ---: | ---: | ---: |"]
    order = {"speed": 0, "scaling_n": 1, "scaling_K": 2}
    for r in sorted(runs, key=lambda r: (order.get(r.get("experiment"), 3), r["case"], r["method"], r["n"], r["K"])):
        objectives = [v for v in (r.get("cold_objective") or {}).values() if v is not None]
        drift = max(objectives, key=lambda v: abs(v - r["R_master"])) - r["R_master"] if objectives else None
        lines.append(f"| {r.get('experiment', 'speed')} | {r['case']} | {LABELS[r['method']]} | {r['n']} | {r['K']} "
                     f"| {r['seconds']:.2f} | {r['status']} | "
                     + " | ".join(cold_cell(r, m) for m in methods)
                     + f" | {COLD_LABELS.get(r.get('cold_best'), r.get('cold_best') or '-')} | {limit_ratio_cell(r)} "
                     f"| {gap_cell(r)} | {fmt(drift, '.1e')} |")
    return lines


def write_report(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = load(path)
    mode = "quick" if Path(path).stem == "quick" else "full"
    img = DOCS / "img"
    img.mkdir(parents=True, exist_ok=True)
    speed = [r for r in records if r.get("experiment") == "speed"]
    cases = list(dict.fromkeys(r["case"] for r in speed))
    best = {c: min((r["R"] for r in speed if r["case"] == c and "R" in r), default=None) for c in cases}

    lines = [f"# Benchmarks ({mode} run)", "",
             f"Produced by `python -m benchmarks.run{' --quick' if mode == 'quick' else ''}` "
             f"(records in `benchmarks/results/{Path(path).name}`, report by `benchmarks/report.py`).", "",
             f"Machine and versions: {versions()}.", "",
             "Each case and method ran in its own process on 80% of the samples (stratified, seed 0); the test",
             "error is on the other 20%. R is the certified worst-case error `upper_` = R(mu) over the training",
             "samples, and its distance is to the best R any method found for the case; the certified gap is",
             "`upper_ - lower_` (so R* is within it of R). The limit ratio (MRC-CCG only) is the fit time over",
             "the time of one cold solve of the fit's final restricted master with the best HiGHS method (see",
             "\"Limit ratio\" below). Peak memory is the process's maximum resident set during the fit.",
             "For MRC-CCG the time is split into oracles, model updates",
             "(building blocks and loading them into the solver) and the solver. Two runs at most shared the",
             "2-core machine at a time; the fit times include that contention.", "",
             "## Speed and precision", "",
             "| case | method | n | d | K | m | fit s | peak MB | R | R - best | certified gap | limit ratio "
             "| test error | iter. | oracle | update | solver | status |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: | ---: | --- |"]
    for c in cases:
        for r in [r for r in speed if r["case"] == c]:
            if "error" in r:
                lines.append(f"| {c} | {LABELS[r['method']]} | | | | | {r['seconds']:.0f} | | | | | | | | | | | "
                             f"{r['error']} |")
                continue
            share = (lambda k: f"{r[k] / r['seconds']:.0%}") if "seconds_update" in r else (lambda k: "-")
            lines.append(
                f"| {c} | {LABELS[r['method']]} | {r['n']} | {r['d']} | {r['K']} | {r['m']} | {r['seconds']:.2f} "
                f"| {r['peak_mb']:.0f} | {r['R']:.6f} | {r['R'] - best[c]:.1e} | {gap_cell(r)} "
                f"| {limit_ratio_cell(r)} | {r['test_error']:.4f} "
                f"| {r['iterations']} | {share('seconds_oracle')} | {share('seconds_update')} "
                f"| {share('seconds_solve')} | {r['status']} |")

    lines += limit_ratio_table(records)

    # targets
    get = {(r["case"], r["method"]): r for r in speed if "error" not in r}
    lines += ["", "## Targets", "", "| target | measured | met |", "| --- | --- | --- |"]
    lp, precise = get.get(("pulsar_rff", "lp")), get.get(("pulsar_rff", "ccg_precise"))
    if lp and precise:
        ratio = lp["seconds"] / precise["seconds"]
        dist = precise["R"] - lp["R"]
        lines.append(f"| pulsar + RFF: CCG >= 10x faster than the full LP, R - R* < 1e-4 | {ratio:.1f}x, "
                     f"R - R*(LP) = {dist:.1e}{certified_gap(precise)} | "
                     f"{'yes' if ratio >= 10 and dist < 1e-4 else 'no'} |")
    for c in ("dry_bean_rff", "optdigits", "satellite", "many_classes"):
        sub = get.get((c, "subgradient"))
        for m in ("ccg", "ccg_precise"):
            ccg = get.get((c, m))
            if not (sub and ccg):
                continue
            reach = time_to_reach(sub.get("trace"), ccg["R"])
            if reach is None:
                bound = sub["seconds"] / ccg["seconds"]
                text = (f"MRC-SUB did not reach CCG's R = {ccg['R']:.6f} in {sub['iterations']} steps, "
                        f"{sub['seconds']:.1f} s (its best {sub['R']:.6f}): ratio > {bound:.1f}x")
                met = "yes" if bound >= 30 else "not shown: MRC-SUB's budget was too short"
            else:
                text = f"MRC-SUB needs {reach:.1f} s to reach CCG's R: {reach / ccg['seconds']:.1f}x"
                met = "yes" if reach / ccg["seconds"] >= 30 else "no"
            lines.append(f"| {c} ({ccg['K']} classes), {LABELS[m]}: >= 30x faster than MRC-SUB at equal or "
                         f"better R | {text} | {met} |")
    mn = get.get(("mnist", "ccg_precise")) or get.get(("mnist", "ccg"))
    if mn:
        gap = mn["R"] - mn.get("lower", np.nan)  # certified: lower <= R* <= R
        lines.append(f"| mnist ({mn['n']} samples): finishes, R - R* < 1e-3 | {mn['seconds']:.0f} s, "
                     f"{mn['status']}, R = {mn['R']:.6f}{certified_gap(mn)} | "
                     f"{'yes' if mn['status'] == 'converged' and gap < 1e-3 else 'no'} |")
    shares = [(r["case"], r["method"], r["seconds_update"] / r["seconds"]) for r in records
              if "seconds_update" in r and "error" not in r]
    if shares:
        worst = max(shares, key=lambda s: s[2])
        lines.append(f"| model updates < 15% of the fit time in every CCG run | largest {worst[2]:.1%} "
                     f"({worst[0]}, {LABELS[worst[1]]}) | {'yes' if worst[2] < 0.15 else 'no'} |")

    dense = [r for r in speed if "seconds_update" in r and "error" not in r and r["case"] != "tweets"]
    if dense:
        psi_mb = {id(r): r["n"] * r["m"] / r["K"] * 8 / 2**20 for r in dense}  # Psi: n x D doubles
        big = [r for r in dense if psi_mb[id(r)] >= 20]
        small_growth = max((r["peak_mb"] - r["data_mb"] for r in dense if psi_mb[id(r)] < 20), default=0.0)
        text = f"runs with Psi under 20 MB grow the resident set by at most {small_growth:.0f} MB"
        if big:
            worst_ratio, r = max((((r["peak_mb"] - r["data_mb"]) / psi_mb[id(r)], r) for r in big),
                                 key=lambda x: x[0])
            text = (f"growth of the resident set during the fit at most {worst_ratio:.1f}x the size of Psi "
                    f"({r['case']}: {psi_mb[id(r)]:.0f} MB); " + text)
        lp_run, ccg_run = get.get(("pulsar_rff", "lp")), get.get(("pulsar_rff", "ccg"))
        if lp_run and ccg_run:
            text += (f"; pulsar + RFF: MRC-LP peaks at {lp_run['peak_mb']:.0f} MB, "
                     f"MRC-CCG at {ccg_run['peak_mb']:.0f} MB")
        lines.append(f"| memory: the full F is never formed, peak within a small multiple of the data | {text} | "
                     f"{'yes' if not big or worst_ratio <= 10 else 'no'} |")

    # scaling
    sn = sorted([r for r in records if r.get("experiment") == "scaling_n" and "error" not in r], key=lambda r: r["n"])
    sk = sorted([r for r in records if r.get("experiment") == "scaling_K" and "error" not in r], key=lambda r: r["K"])
    if len(sn) >= 2:
        s = slope([r["n"] for r in sn], [r["seconds"] for r in sn])
        lines.append(f"| fit time grows no faster than n^1.1 (pulsar + RFF, fixed features) | slope {s:.2f} | "
                     f"{'yes' if s <= 1.1 else 'no'} |")
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.loglog([r["n"] for r in sn], [r["seconds"] for r in sn], "o-", label=f"MRC-CCG (slope {s:.2f})")
        ax.set_xlabel("training samples n")
        ax.set_ylabel("fit seconds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(img / f"time_vs_n_{mode}.png", dpi=110)
        plt.close(fig)
    if len(sk) >= 2:
        Ks = np.array([r["K"] for r in sk], float)
        s = slope(Ks, [r["seconds"] for r in sk])
        s_klogk = slope(Ks, Ks * np.log(Ks))
        per_iteration = [r["seconds_oracle"] / r["iterations"] for r in sk]
        s_oracle = slope(Ks, per_iteration)
        timed_out = [r["K"] for r in sk if r["status"] != "converged"]
        lines.append(f"| fit time about K log K in the number of classes (synthetic, n = {sk[-1]['n']}) "
                     f"| slope {s:.2f} (K log K: {s_klogk:.2f} over this range); the oracles' time per "
                     f"iteration: slope {s_oracle:.2f}"
                     + (f"; not converged within the time limit at K = {timed_out}" if timed_out else "")
                     + f" | {'yes' if s <= s_klogk + 0.25 and not timed_out else 'no'} |")
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.loglog(Ks, [r["seconds"] for r in sk], "o-", label=f"MRC-CCG fit (slope {s:.2f})")
        ax.loglog(Ks, per_iteration, "s--", label=f"oracles per iteration (slope {s_oracle:.2f})")
        ref = Ks * np.log(Ks)
        ax.loglog(Ks, ref / ref[0] * sk[0]["seconds"], "k:", label="K log K")
        ax.set_xlabel("classes K")
        ax.set_ylabel("fit seconds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(img / f"time_vs_K_{mode}.png", dpi=110)
        plt.close(fig)

    # convergence plot
    conv = [c for c in cases if any("trace" in r for r in speed if r["case"] == c)]
    if conv:
        cols = min(3, len(conv))
        rows = int(np.ceil(len(conv) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
        for ax, c in zip(axes.ravel(), conv):
            for r in [r for r in speed if r["case"] == c and "trace" in r]:
                t, R = np.array(r["trace"]).T
                # the certified value of the rule a stop at time t returns: the best R(mu) so far
                ax.plot(t, np.minimum(np.minimum.accumulate(R), 1.0), label=f"{LABELS[r['method']]}: best R(mu)")
                if "trace_master" in r:
                    t, R = np.array(r["trace_master"]).T
                    ax.plot(t, R, "--", label=f"{LABELS[r['method']]}: R^k")
            lp_run = get.get((c, "lp"))
            if lp_run:
                ax.axhline(lp_run["R"], color="k", lw=0.8, label=f"MRC-LP ({lp_run['seconds']:.0f} s)")
            ax.set_xscale("log")
            ax.set_title(c)
            ax.set_xlabel("seconds")
            ax.set_ylabel("worst-case error")
            ax.legend(fontsize=7)
        for ax in axes.ravel()[len(conv):]:
            ax.axis("off")
        fig.tight_layout()
        fig.savefig(img / f"convergence_{mode}.png", dpi=100)
        plt.close(fig)

    from benchmarks.run import SPEED_CASES
    present = {(r["case"], r["method"]) for r in speed}
    missing = [f"{c} / {LABELS[m]}" for c, ms in SPEED_CASES.items() for m in ms if (c, m) not in present]
    if missing and mode == "full":
        lines += ["", "Runs of the plan with no record in this file (not run, or stopped before they wrote one): "
                  + ", ".join(missing) + "."]

    lines += ["", "## Plots", ""]
    for name, caption in [("convergence", "R^k and the best certified R(mu) so far against time, per method (as "
                                          "the paper's convergence figure)"),
                          ("time_vs_n", "fit time against the number of samples (log-log, fitted slope)"),
                          ("time_vs_K", "fit time against the number of classes (log-log, fitted slope)")]:
        if (img / f"{name}_{mode}.png").exists():
            lines += [f"![{caption}](img/{name}_{mode}.png)", "", f"*{caption}.*", ""]
    out = DOCS / ("benchmarks.md" if mode == "full" else "benchmarks_quick.md")
    out.write_text("\n".join(lines) + "\n")
    print(f"report written to {out}")
    return out


if __name__ == "__main__":
    write_report(sys.argv[1] if len(sys.argv) > 1 else ROOT / "benchmarks" / "results" / "full.jsonl")
