"""The sections "The route of the default fit", "The route's time limit" and "Certificate masters" of
docs/benchmarks.md: the default fit before and after the route (then ``mrc_pyomo/methods/route.py``, now ``route``
of ``mrc_pyomo/methods/plan.py``), case by case, side by side (the records of the experiment ``default_route`` of
``experiments.jsonl``: ``python -m benchmarks.experiments.default_route``); the default fit against each fixed route on
small images with and without a time limit (the experiment ``route_grid``); and the masters of the certificate after
a first-order phase, each against a cold solve of it (the experiment ``certificate_masters``: ``python -m
benchmarks.experiments.certificate_masters``)."""

from benchmarks.report.records import experiment_records

#: the route each case takes after the change, as ``mrc_pyomo.methods.plan.route`` names it on its shape
INTRO = [
    "", "## The route of the default fit", "",
    "The default fit (`first_order=\"auto\"`) before and after it took the route of `mrc_pyomo/methods/route.py`",
    "(now `route` of `mrc_pyomo/methods/plan.py`),",
    "each case's two fits side by side, one core each (`python -m benchmarks.experiments.default_route`; records",
    "of the experiment `default_route` in `benchmarks/results/experiments.jsonl`). The rule the table backs:",
    "no phase where masters are cheap (two classes, few columns, more than 20 samples a column, sparse text);",
    "MRC-PDHG's phase for many classes (K >= 20 over n K >= 20,000 pairs) and wide dense masters (K D >= 2,000",
    "over n K D >= 5e6 entries, n <= 20 D);",
    "FISTA's first seconds, then MRC-PDHG's from FISTA's point, on linear maps with K D >= 4,000 (images) over",
    "n K D >= 1.6e7 entries (mnist_8000's training set cut to n samples, `run_case mnist_8000 ccg --fraction F",
    "--first-order {auto,off} --time-limit 150`, side by side: at n = 640 the loop certifies in 16.1 s against",
    "31.8 s through the phases, at n = 1,600 in 98.9 s against 122.7 s; at n = 2,560 neither certifies in 150 s",
    "and the phases' rule is 0.323 against the loop's 0.896; records of the experiment `route_images`). After a",
    "phase, the loop starts from the master of PDHG's dual's and primal's supports and keeps its rows. Since, the",
    "planner gives sparse text FISTA's phase then the loop with a time limit or, of more than two classes, beyond",
    "`TEXT_LP_ROWS` rows of LP (else its full LP), and with a",
    "time limit a loop alone on more than two classes hands over to MRC-PDHG's iterations at a quarter of it",
    "(`LOOP_SHARE`): this table does not measure those. The limit",
    "ratio is the fit time over the best cold solve of the fit's own final master (capped by the run's",
    "`--cold-time-limit`: `<=` marks a bound); a fit stopped by its time limit is shown with its rule's R.", "",
    "| case | route after | before: fit s | status | [lower, R] | masters | limit ratio | after: fit s | status "
    "| [lower, R] | phase s | masters | limit ratio |",
    "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |",
]


def route_of(record):
    """The route the record's fit took: its phases (``route``, run_case's, from the columns of the phases' records),
    or the loop alone; a record written before run_case kept them took FISTA's first on the images only."""
    if not record.get("first_order_iterations"):
        return "loop"
    names = record.get("route") or (["FISTA", "PDHG"] if record["case"].startswith("mnist") else ["PDHG"])
    return ", then ".join(names)


def cells(record):
    """The five cells of one side: fit seconds, status, interval, masters, limit ratio."""
    if record is None:
        return ["-"] * 5
    ratio = record.get("limit_ratio")
    bound = record.get("limit_ratio_bound")
    shown = f"{ratio:.1f}" if ratio else (f"<= {bound:.1f}" if bound else "-")
    return [f"{record['seconds']:.1f}", record["status"], f"[{record['lower']:.4f}, {record['R']:.4f}]",
            str(record.get("waste", {}).get("masters", "-")), shown]


def route_section(path):
    """The section's lines from the records of ``path`` (``experiments.jsonl``); none if it has none."""
    records = experiment_records(path, "default_route")
    if not records:
        return []
    newest = {(r["tag"], r["side"]): r for r in records}
    lines = list(INTRO)
    for tag in dict.fromkeys(r["tag"] for r in records):
        before, after = newest.get((tag, "before")), newest.get((tag, "after"))
        case = (after or before)["case"] + (f", {tag}" if tag.startswith("mnist") else "")
        route = route_of(after) if after else "-"
        phase = f"{after.get('first_order_seconds', 0.0):.1f}" if after else "-"
        line = [case, route, *cells(before)] + cells(after)[:3] + [phase] + cells(after)[3:]
        lines.append("| " + " | ".join(line) + " |")
    return lines


MASTERS_INTRO = [
    "", "## Certificate masters", "",
    "The masters of the certificate after a first-order phase, summed per fit, against a cold solve of the fit's",
    "final master by the dual simplex and by the interior point method (`python -m",
    "benchmarks.experiments.certificate_masters CASE [--method pdhg] --cold-time-limit 60`, one core; records of the",
    "experiment `certificate_masters` in `benchmarks/results/experiments.jsonl`, with each master's own line).",
    "Before: `method=\"pdhg\"` before the default route (its rounds removed rows and added them back); after: the",
    "default fit, whose loop after the phase keeps its rows. A cold solve stopped by the cap is shown as `>=`.", "",
    "| case | side | fit s | phase s (iterations) | masters | masters s | rows added / removed / re-added "
    "| simplex iterations | final rows | cold dual simplex s | cold IPM s | masters s / cold s |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
]


def masters_section(path, cap=60.0):
    """The section "Certificate masters" from the records of ``path`` (``experiments.jsonl``); none without them.
    ``cap``: the cold solves' time limit, at or over which a cold time is a bound."""
    records = experiment_records(path, "certificate_masters")
    lines = list(MASTERS_INTRO) if records else []
    for r in records:
        masters = r["masters"]
        seconds = sum(m["seconds_solve"] for m in masters)
        last = masters[-1]
        colds = [last["cold_dual_simplex"], last["cold_ipm"]]
        shown = [(">= " if t >= cap - 0.5 else "") + f"{t:.1f}" for t in colds]
        moved = " / ".join(str(sum(m[k] for m in masters)) for k in ("added", "removed", "readded"))
        lines.append("| " + " | ".join([
            r["case"], r.get("side", "-"), f"{r['fit_seconds']:.1f}",
            f"{r['phase_seconds']:.1f} ({r['phase_iterations']})", str(len(masters)), f"{seconds:.1f}", moved,
            str(sum(m["simplex_iterations"] for m in masters)), str(last["rows"]), *shown,
            f"{seconds / min(colds):.1f}"]) + " |")
    return lines


GRID_ROUTES = ("default", "loop", "phases", "pdhg")
GRID_INTRO = [
    "", "## The route's time limit", "",
    "The default fit against each fixed route on the first n images of mnist (pixels over 255, ten classes, all",
    "for training), with a time limit of 10 s, 60 s or none (`none`: capped at the record's `cap`), one fit after",
    "the other on one core (`python -m benchmarks.experiments.route_grid --sizes ... --limits ... --record`;",
    "records of the experiment `route_grid` in `benchmarks/results/experiments.jsonl`, each with the trace of its",
    "certified interval). The routes: `loop` (`first_order=False`), `phases` (`first_order=True`: FISTA's then",
    "MRC-PDHG's on images), `pdhg` (`method=\"pdhg\"`). A cell is the fit's seconds where it certified, else R",
    "(`upper_`) at the limit with its lower end. The last column: where some route certified, the default's time",
    "over the best certified time (`-`: the default did not certify); where none did, the default's R less the best",
    "R. Without a limit the default's route is one of the fixed ones (`route` of `mrc_pyomo/methods/plan.py`).",
    "With a limit, the default's route of the loop alone gives up past `LOOP_SHARE` (a quarter) of the limit at the",
    "first master whose check still picks a full block of `n_max` samples, MRC-PDHG's iterations taking the rest;",
    "a loop whose checks pick fewer goes on (the loop alone on mnist's first 500 and 1,000 images and on the",
    "harness's quick dry_bean_rff and mnist_8000 first picked fewer at 1.4, 16.8, 14.0 and 15.4 s and certified at",
    "10.8, 96.8, 21.6 and 58.8 s, three fits sharing two cores, each fit's `history_.rows_added`). No share alone",
    "serves every cell: the loop certified 1,000 images in 58.9 s of a 60-s limit, while at 10 s MRC-PDHG's rule is",
    "the best from 1,000 images up.", "",
    "| n | limit | " + " | ".join(GRID_ROUTES) + " | default against the best |",
    "| ---: | ---: | " + " | ".join("---" for _ in GRID_ROUTES) + " | ---: |",
]


def grid_cell(record):
    """A route's cell: its seconds where it certified, else its R and lower end."""
    if record is None:
        return "-"
    if record["status"] == "converged":
        return f"{record['seconds']:.1f} s"
    return f"{record['upper']:.4f} [{record['lower']:.4f}]"


def grid_verdict(fits):
    """The last column of a line whose routes' records are ``fits`` (route -> record)."""
    default = fits.get("default")
    certified = [r["seconds"] for r in fits.values() if r["status"] == "converged"]
    if default is None:
        return "-"
    if certified:
        return f"{default['seconds'] / min(certified):.2f}x" if default["status"] == "converged" else "-"
    return f"{default['upper'] - min(r['upper'] for r in fits.values()):+.4f}"


def route_grid_section(path):
    """The section "The route's time limit" from the records of ``path`` (``experiments.jsonl``), the newest record
    of each size, limit and route; none without them."""
    records = experiment_records(path, "route_grid")
    if not records:
        return []
    newest = {(r["n"], r["limit"], r["route"]): r for r in records}
    lines = list(GRID_INTRO)
    for n, limit in sorted({(n, limit) for n, limit, _ in newest}, key=lambda k: (k[0], k[1] or float("inf"))):
        fits = {route: newest[(n, limit, route)] for route in GRID_ROUTES if (n, limit, route) in newest}
        shown_limit = f"{limit:g} s" if limit else f"none ({max(r['cap'] for r in fits.values()):g} s)"
        lines.append("| " + " | ".join([str(n), shown_limit, *(grid_cell(fits.get(route)) for route in GRID_ROUTES),
                                        grid_verdict(fits)]) + " |")
    return lines
