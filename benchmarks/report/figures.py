"""The report's figures (``img/*_{quick,full}.png`` next to it): fit time against n and against K (log-log, with
the fitted slope), and each case's convergence; and the section "Plots" that shows the figures there are."""

import numpy as np

from benchmarks.report.cells import label
from mrc_pyomo.display.plotting import plain_log_ticks
from benchmarks.report.records import find, slope, usable

CAPTIONS = [("convergence", "R^k and the best certified R(mu) so far against time, per method (as "
                            "the paper's convergence figure)"),
            ("time_vs_n", "fit time against the number of samples (log-log, fitted slope)"),
            ("time_vs_K", "fit time against the number of classes (log-log, fitted slope)")]


def draw_figures(records, speed, cases, img, mode):
    """Draw the figures of the newest ``records`` into the folder ``img``: time against n (experiment scaling_n)
    and against K (scaling_K), each with two records or more, and the convergence of the speed runs of ``cases``
    that have a trace."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    sn = sorted([r for r in records if r.get("experiment") == "scaling_n" and "error" not in r], key=lambda r: r["n"])
    sk = sorted([r for r in records if r.get("experiment") == "scaling_K" and "error" not in r], key=lambda r: r["K"])
    if len(sn) >= 2:
        s = slope([r["n"] for r in sn], [r["seconds"] for r in sn])
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.loglog([r["n"] for r in sn], [r["seconds"] for r in sn], "o-", label=f"MRC-CCG (slope {s:.2f})")
        plain_log_ticks(ax)   # "6", "0.5": not matplotlib's "6x10^0"
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("training samples n")
        ax.set_ylabel("fit seconds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(img / f"time_vs_n_{mode}.png", dpi=110)
        plt.close(fig)
    if len(sk) >= 2:
        Ks = np.array([r["K"] for r in sk], float)
        s = slope(Ks, [r["seconds"] for r in sk])
        per_iteration = [r["seconds_oracle"] / r["iterations"] for r in sk]
        s_oracle = slope(Ks, per_iteration)
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.loglog(Ks, [r["seconds"] for r in sk], "o-", label=f"MRC-CCG fit (slope {s:.2f})")
        ax.loglog(Ks, per_iteration, "s--", label=f"oracles per iteration (slope {s_oracle:.2f})")
        ref = Ks * np.log(Ks)
        ax.loglog(Ks, ref / ref[0] * sk[0]["seconds"], "k:", label="K log K")
        plain_log_ticks(ax)   # seconds as "6", "0.5": not matplotlib's "6x10^0"
        ax.set_xticks(Ks, [f"{K:g}" for K in Ks])   # a tick at each K run: "5", "10", "20"
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("classes K")
        ax.set_ylabel("fit seconds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(img / f"time_vs_K_{mode}.png", dpi=110)
        plt.close(fig)

    # convergence plot: one colour per method in every panel, its R^k dashed in the same colour
    conv = [c for c in cases if any(r.get("trace") for r in speed if r["case"] == c)]
    colour = {name: f"C{k % 10}" for k, name in
              enumerate(dict.fromkeys(label(r) for r in speed if r["case"] in conv and r.get("trace")))}
    if conv:
        cols = min(3, len(conv))
        rows = int(np.ceil(len(conv) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
        for ax, c in zip(axes.ravel(), conv):
            for r in [r for r in speed if r["case"] == c and r.get("trace")]:   # a full LP has no iterations
                t, R = np.array(r["trace"]).T
                # the certified value of the rule a stop at time t returns: the best R(mu) so far
                ax.plot(t, np.minimum(np.minimum.accumulate(R), 1.0), color=colour[label(r)],
                        label=f"{label(r)}: best R(mu)")
                if r.get("trace_master"):   # none where a first-order phase took all the time
                    t, R = np.array(r["trace_master"]).T
                    ax.plot(t, R, "--", color=colour[label(r)], label=f"{label(r)}: R^k")
            lp_run = find(speed, c, "lp")
            if usable(lp_run):
                ax.axhline(lp_run["R"], color="k", lw=0.8, label=f"MRC-LP ({lp_run['seconds']:.0f} s)")
            ax.set_xscale("log")
            plain_log_ticks(ax)   # "10", "0.1": not matplotlib's "10^1"
            ax.xaxis.set_minor_formatter(NullFormatter())   # labels on the decades only: none overlap
            ax.set_title(c)
            ax.set_xlabel("seconds")
            ax.set_ylabel("worst-case error")
            ax.legend(fontsize=7)
        for ax in axes.ravel()[len(conv):]:
            ax.axis("off")
        fig.tight_layout()
        fig.savefig(img / f"convergence_{mode}.png", dpi=100)
        plt.close(fig)


def plots_section(img, mode):
    """The section "Plots": each figure of ``mode`` in the folder ``img``, with its caption once (the image's
    alternative text is its name, not the caption again)."""
    lines = ["", "## Plots", ""]
    for name, caption in CAPTIONS:
        if (img / f"{name}_{mode}.png").exists():
            lines += [f"![{name.replace('_', ' ')}](img/{name}_{mode}.png)", "", f"*{caption}.*", ""]
    return lines
