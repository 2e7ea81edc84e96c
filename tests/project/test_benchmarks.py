"""The benchmark harness runs a case in its own process and turns records into a report."""

import importlib.metadata
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import mrc_pyomo
from conftest import harness_process

ROOT = Path(__file__).resolve().parents[2]


def test_run_case_and_report(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    records = []
    cwd, env = harness_process(tmp_path)
    for method in ("ccg", "subgradient"):
        out = subprocess.run([sys.executable, "-m", "benchmarks.harness.run_case", "many_classes", method, "--quick",
                              "--classes", "4", "--subgradient-iterations", "300"],
                             capture_output=True, text=True, cwd=cwd, env=env, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        record = json.loads(out.stdout.strip().splitlines()[-1])
        assert record["K"] == 4 and record["R"] > 0 and record["peak_mb"] > 0 and record["seconds"] > 0
        # each record keeps the versions it ran with: the installed package's, not the source tree's
        v = record["versions"]
        assert {"python", "numpy", "scipy", "pandas", "pyomo", "highspy", "scikit-learn", "tqdm"} <= set(v)
        assert v["highspy"] == importlib.metadata.version("highspy") and v["mrc_pyomo"] == mrc_pyomo.__version__
        record["experiment"] = "speed"
        records.append(record)
    assert records[0]["status"] == "converged" and records[0]["R"] <= records[1]["R"] + 1e-9
    assert records[0]["seconds_update"] + records[0]["seconds_solve"] <= records[0]["seconds"]
    # the limit ratio: cold solves of the final master, one per HiGHS method, timed in the fit's process
    ccg = records[0]
    from benchmarks.harness.run_case import COLD_METHODS
    # four classes: the fit's masters in their dual form (form "dual"), solved cold in both forms
    methods = set(COLD_METHODS) | {f"dual_lp_{name}" for name in COLD_METHODS}
    assert set(ccg["cold_seconds"]) == methods == set(ccg["cold_status"]) == set(ccg["cold_objective"])
    assert all(t > 0 for t in ccg["cold_seconds"].values())
    assert all(status == "Optimal" for status in ccg["cold_status"].values())
    # a cold solve of the master the fit solved last has the fit's last R^k (IPM without crossover: to its tolerance)
    assert all(abs(v - ccg["R_master"]) <= 1e-6 for v in ccg["cold_objective"].values())
    assert ccg["cold_best_seconds"] == min(ccg["cold_seconds"].values()) == ccg["cold_seconds"][ccg["cold_best"]]
    assert ccg["limit_ratio"] > 0 and ccg["limit_ratio"] == pytest.approx(ccg["seconds"] / ccg["cold_best_seconds"])
    assert "cold_seconds" not in records[1] and "limit_ratio" not in records[1]   # MRC-SUB has no master
    # the minimal master: the final one without its rows of zero dual, its value the final master's, no larger
    assert 0 < ccg["minimal_rows"] <= ccg["final_rows"] and ccg["minimal_objective_matches"]
    assert ccg["minimal_ratio"] == pytest.approx(ccg["seconds"] / ccg["minimal_best_seconds"])
    assert set(ccg["minimal_seconds"]) == methods
    # the waste decomposition: the masters and rows of the history, the solver's seconds split by phase
    w = ccg["waste"]
    assert w["masters"] == ccg["iterations"] and w["final_rows"] <= w["rows_added"] - w["rows_dropped"]
    assert 0 <= w["rows_readded"] <= w["rows_dropped"] and "first master" in w["solve_by_phase"]
    assert sum(w["solve_by_phase"].values()) == pytest.approx(w["seconds_solve"]) == ccg["seconds_solve"]
    assert 0 <= w["slower_than_cold"] <= w["masters"]
    path = tmp_path / "quick.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    import benchmarks.report.report as report
    monkeypatch.setattr(report, "DOCS", tmp_path)
    out = report.write_report(path)
    text = out.read_text()
    assert "| many_classes | MRC-CCG (eps_1=1e-3) | " in text and "MRC-SUB" in text
    # the speed table has the limit ratio next to the certified gap, and a section lists the cold solves
    header = next(line for line in text.splitlines() if line.startswith("| case | method |"))
    assert "| certified gap | limit ratio |" in header
    row = next(line for line in text.splitlines() if line.startswith("| many_classes | MRC-CCG"))
    cells = [c.strip() for c in row.split("|")]
    column = [c.strip() for c in header.split("|")].index("limit ratio")
    assert float(cells[column]) == pytest.approx(ccg["limit_ratio"], rel=0.05)
    assert "## Limit ratio" in text and "| dual simplex s | IPM s | IPM, no crossover s |" in text
    assert "| minimal master: rows, ratio |" in text and f"{ccg['minimal_rows']} rows, " in text
    assert (tmp_path / "img" / "convergence_quick.png").exists()


def test_run_case_solves_the_minimal_master_alone_or_no_master_cold(tmp_path):
    """``--cold minimal``: the floor (the minimal master's cold solves) without the final master's; ``--cold none``:
    neither, the fit's record otherwise whole."""
    cwd, env = harness_process(tmp_path)
    records = {}
    for cold in ("minimal", "none"):
        out = subprocess.run([sys.executable, "-m", "benchmarks.harness.run_case", "many_classes", "ccg", "--quick",
                              "--classes", "3", "--cold", cold], capture_output=True, text=True, cwd=cwd, env=env,
                             timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        records[cold] = json.loads(out.stdout.strip().splitlines()[-1])
    minimal, none = records["minimal"], records["none"]
    assert minimal["status"] == none["status"] == "converged" and minimal["R"] == pytest.approx(none["R"], abs=1e-3)
    assert "cold_seconds" not in minimal and "limit_ratio" not in minimal
    assert minimal["minimal_objective_matches"] and 0 < minimal["minimal_rows"] <= minimal["final_rows"]
    assert minimal["minimal_ratio"] == pytest.approx(minimal["seconds"] / minimal["minimal_best_seconds"])
    assert not any(name.startswith(("cold_", "minimal_", "limit_")) for name in none) and "peak_mb_cold" not in none
    assert none["waste"]["masters"] == none["iterations"] and "slower_than_cold" not in none["waste"]


def test_report_cells_for_capped_cold_solves():
    """A cold solve stopped by its cap shows as a lower bound; with every method capped, the ratio as a bound."""
    from benchmarks.report.cells import cold_cell, gap_cell, limit_ratio_cell
    record = {"R": 0.5, "lower": 0.4999, "cold_seconds": {"dual_simplex": 2.0, "ipm": 1.0},
              "cold_objective": {"dual_simplex": None, "ipm": None},
              "cold_status": {"dual_simplex": "Time limit reached", "ipm": "Time limit reached"},
              "limit_ratio": None, "limit_ratio_bound": 1.0}
    assert cold_cell(record, "dual_simplex") == ">= 2.00 (Time limit reached)"
    assert cold_cell(record, "ipm_no_crossover") == "-"
    assert limit_ratio_cell(record) == "<= 1.0" and gap_cell(record) == "1.0e-04"
    assert limit_ratio_cell({"limit_ratio": 12.34}) == "12.3" and limit_ratio_cell({}) == "-"


# ---------------------------------------------------------------------------------------------------------------
# The section "Targets" of the report, on fixture records: made-up numbers chosen to put each target on a known
# side of its bound.  They are not measurements.

NEW, OLD = "2026-11-23 10:00:00", "2026-11-21 10:00:00"   # after and before the previous run's cut-off


def fixture_record(case, method, seconds, R, lower=None, status="converged", experiment="speed", timestamp=NEW,
                   n=1000, K=2, **fields):
    """A FIXTURE record (made-up numbers) with the fields the report reads."""
    record = {"case": case, "method": method, "quick": False, "fraction": 1.0, "n": n, "d": 10, "K": K,
              "m": 11 * K, "seconds": seconds, "R": R, "lower": lower, "R_master": R, "test_error": 0.1,
              "iterations": 10, "status": status, "peak_mb": 300.0, "data_mb": 200.0,
              "eps_1": {"ccg": 1e-3, "ccg_precise": 1e-4}.get(method), "regime": "n",
              "experiment": experiment, "timestamp": timestamp}
    if method.startswith("ccg"):
        record.update(seconds_oracle=0.1 * seconds, seconds_update=0.05 * seconds, seconds_solve=0.8 * seconds,
                      trace=[[seconds / 2, R + 0.01], [seconds, R]])
    record.update(fields)
    return record


def fixture_cold(seconds, ratio=None, bound=None):
    """FIXTURE cold-solve fields of an MRC-CCG record: a limit ratio, or (every solve capped) only its bound."""
    if ratio is not None:
        return {"cold_seconds": {"dual_simplex": seconds / ratio}, "cold_status": {"dual_simplex": "Optimal"},
                "cold_objective": {"dual_simplex": 0.3}, "cold_time_limit": seconds, "cold_best": "dual_simplex",
                "cold_best_seconds": seconds / ratio, "limit_ratio": ratio}
    return {"cold_seconds": {"dual_simplex": seconds}, "cold_status": {"dual_simplex": "Time limit reached"},
            "cold_objective": {"dual_simplex": None}, "cold_time_limit": seconds, "cold_best": None,
            "cold_best_seconds": None, "limit_ratio": None, "limit_ratio_bound": bound}


def fixture_records():
    """FIXTURE records for every target, in the order a run appends them; expected outcomes in the comments."""
    r = fixture_record
    return [
        # the previous run (before 2026-11-22)
        r("mnist", "ccg_precise", 4086.0, 0.4718, timestamp=OLD, n=56000, K=10),
        r("pulsar_rff", "ccg_precise", 7.1, 0.04453, timestamp=OLD),
        r("many_classes", "ccg", 600.0, 0.64, status="time_limit", timestamp=OLD, n=16000, K=100),
        *(r("many_classes", "ccg", 0.2 * K ** 2.4, 0.5, experiment="scaling_K", timestamp=OLD, n=8000, K=K)
          for K in (5, 10, 20, 50, 100)),                                                  # slope 2.40
        # this run
        r("many_classes_50", "ccg", 20.0, 0.47, 0.4699, K=50, **fixture_cold(20.0, ratio=2.0)),       # 1: yes
        r("mnist_8000", "ccg", 50.0, 0.30, 0.299, K=10, **fixture_cold(50.0, ratio=5.0)),             # 1: no
        r("satellite_rff", "ccg", 8.0, 0.49, 0.4899, K=6, **fixture_cold(8.0, bound=1.0)),            # 1: yes; 5: no
        r("optdigits_rff", "ccg", 20.0, 0.35, 0.3499, K=10),                  # 1: no cold solves; 5: yes
        r("mnist", "ccg_precise", 800.0, 0.4718, 0.4713, n=56000, K=10),                  # 2: yes (gap 5e-4)
        r("many_classes", "ccg", 150.0, 0.55, 0.5499, n=16000, K=100),                    # 3: no (> 120 s)
        *(r("many_classes", "ccg", K ** 1.2, 0.5, 0.4999, experiment="scaling_K", n=8000, K=K)
          for K in (5, 10, 20, 50, 100)),                                                  # 3: slope 1.20, yes
        r("tweets", "ccg", 10.0, 0.228, 0.2279),                                           # 4: no LP record
        r("digits_rff", "ccg", 25.0, 0.10, 0.0999, K=10),                                  # 5: yes
        r("pulsar_rff", "ccg_precise", 10.0, 0.04453, 0.04440),                  # 6: 114.5x, R - R* <= 4.4e-5
        r("pulsar_rff", "lp", 1145.0, 0.044487, 0.044486, status="optimal"),
        r("dry_bean_rff", "ccg", 10.0, 0.244, 0.2439, K=7),                                # 7: 40x, yes
        r("dry_bean_rff", "subgradient", 600.0, 0.2430, K=7, status="time_limit",
          trace=[[100.0, 0.25], [400.0, 0.2435], [600.0, 0.2430]]),
        r("optdigits_rff", "subgradient", 300.0, 0.36, K=10, status="time_limit",         # 7: > 15x, no
          trace=[[100.0, 0.40], [300.0, 0.36]]),
    ]


def target_cells(text, target, section="Targets"):
    """The (measured, met) cells of the row of a targets table (the section ``section``) whose target starts
    with ``target``."""
    section = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith(f"| {target}")]
    assert len(rows) == 1, (target, rows)
    cells = [c.strip() for c in rows[0].split("|")[1:-1]]
    return cells[1], cells[2]


def test_report_targets_on_fixture_records(tmp_path):
    pytest.importorskip("matplotlib")
    from benchmarks.report.report import write_report
    path = tmp_path / "full.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in fixture_records()))
    out = write_report(path, tmp_path / "benchmarks.md")
    assert out == tmp_path / "benchmarks.md" and (tmp_path / "img" / "convergence_full.png").exists()
    text = out.read_text()

    expected = {   # target (start of its cell) -> met
        "limit ratio <= 3: many_classes_50": "yes",
        "limit ratio <= 3: mnist_8000": "no",
        "limit ratio <= 3: satellite_rff": "yes",
        "limit ratio <= 3: optdigits_rff": "not measured",
        "mnist (all samples)": "yes",
        "many_classes (K = 100": "no",
        "fit-time slope in K": "yes",
        "tweets (all samples)": "not measured",
        "digits_rff: converged": "yes",
        "satellite_rff: converged": "no",
        "optdigits_rff: converged": "yes",
        "pulsar + RFF": "yes",
        "dry_bean_rff: >= 30x": "yes",
        "optdigits_rff: >= 30x": "no",
        "no master takes more than 3x": "yes",
        "no run slower than in the previous run": "no",
    }
    cells = {target: target_cells(text, target, "Earlier targets") for target in expected}
    assert {target: met for target, (_, met) in cells.items()} == expected
    measured = {target: m for target, (m, _) in cells.items()}
    assert measured["limit ratio <= 3: many_classes_50"].startswith("2.00 (fit 20.0 s")
    assert measured["limit ratio <= 3: satellite_rff"].startswith("<= 1.00")
    assert measured["limit ratio <= 3: optdigits_rff"].startswith("not measured")
    assert "certified gap 5.0e-04" in measured["mnist (all samples)"]
    assert "previous run: 4086.0 s, converged" in measured["mnist (all samples)"]
    assert "slope 1.20" in measured["fit-time slope in K"] and "previous run: slope 2.40" in measured[
        "fit-time slope in K"]
    assert "not measured: no record of tweets / MRC-LP" in measured["tweets (all samples)"]
    assert measured["pulsar + RFF"].startswith("114.5x") and "R - R* <= 4.4e-05" in measured["pulsar + RFF"]
    assert "MRC-SUB needs 400.0 s to reach it: 40.0x" in measured["dry_bean_rff: >= 30x"]
    assert "ratio > 15.0x" in measured["optdigits_rff: >= 30x"]
    # mnist_8000: masters 25 s apart, its final master cold in 10 s
    assert measured["no master takes more than 3x"].startswith(
        "largest 2.50: mnist_8000 / MRC-CCG (eps_1=1e-3), master 2 of 2 took 25.0 s against a cold solve of 10.0 s; over 2 runs")
    regression = measured["no run slower than in the previous run"]
    assert regression.startswith("largest ratio 1.41: pulsar_rff / MRC-CCG (eps_1=1e-4)")
    assert "many_classes / MRC-CCG (eps_1=1e-3), n = 16000, K = 100: time_limit -> converged" in regression
    # the older targets stay, after the issue's
    assert target_cells(text, "model updates", "Earlier targets")[1] == "yes"
    assert target_cells(text, "memory", "Earlier targets")[1] == "yes"
    section = text.split("## Earlier targets", 1)[1]
    assert section.index("| no run slower") < section.index("| model updates") < section.index("| memory")


def test_report_issue_targets_on_fixture_records(tmp_path):
    """The section "Targets" (the issue "A useful rule in seconds") on FIXTURE records: anytime rules against a
    reference, certified gaps within a time, limit ratios <= 5, the path against the single fit."""
    pytest.importorskip("matplotlib")
    from benchmarks.report.report import write_report
    r, waste = fixture_record, {"masters": 10, "rows_added": 900, "rows_dropped": 500, "rows_readded": 40,
                                "final_rows": 400, "seconds_solve": 8.0, "seconds_other": 1.0,
                                "solve_by_phase": {"first master": 0.5, "ccg": 7.5}, "slower_than_cold": 2,
                                "seconds_slower_than_cold": 3.0}
    stages = [{"lambda0": v, "lower": 0.5, "upper": 0.5, "gap": 0.0, "status": "converged", "n_iter": 3,
               "seconds": 1.0} for v in np.geomspace(1, 1e-3, 8)]
    records = [
        r("mnist_8000", "ccg_precise", 5000.0, 0.4705, 0.4700, experiment="reference", K=10),
        r("mnist_8000", "ccg", 10.5, 0.52, 0.0, "time_limit", "anytime", K=10, time_limit=10.0),     # yes
        r("mnist_8000", "ccg", 60.5, 0.51, 0.30, "time_limit", "anytime", K=10, time_limit=60.0),    # no
        r("mnist_8000", "ccg", 300.5, 0.49, 0.40, "time_limit", "anytime", K=10, time_limit=300.0),  # no
        r("mnist_8000", "ccg", 500.0, 0.4709, 0.4701, K=10, waste=waste, **fixture_cold(500.0, ratio=6.0)),
        r("satellite_rff", "ccg", 30.0, 0.49, 0.4899, K=6, **fixture_cold(30.0, ratio=4.0)),
        r("satellite_rff", "path", 50.0, 0.50, 0.4999, experiment="path", K=6, stages=stages),         # 1.67x
        r("many_classes_26_rff", "ccg", 600.5, 0.6, 0.5, "time_limit", K=26),
        r("satellite_unregularised", "ccg", 4.0, 0.4, 0.3995, K=6),
    ]
    path = tmp_path / "full.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    text = write_report(path, tmp_path / "benchmarks.md").read_text()
    expected = {
        "mnist_8000: rule within 0.08 of R* with time_limit = 10": "yes",
        "mnist_8000: rule within 0.02 of R* with time_limit = 60": "no",
        "mnist_8000: certified gap <= 1e-3 within 120 s": "no",
        "mnist_8000: rule within 0.01 of R* with time_limit = 300": "no",
        "mnist_8000: certified gap <= 1e-3 within 600 s": "yes",
        "mnist (all samples)": "not measured",
        "limit ratio <= 5: mnist_8000": "no",
        "limit ratio <= 5: satellite_rff": "yes",
        "satellite_rff: converged in <= 37 s": "yes",
        "many_classes_26_rff": "no",
        "satellite at lambda0 = 0": "yes",
        "path of np.geomspace(1, 1e-3, 8) on satellite_rff": "yes",
    }
    cells = {target: target_cells(text, target) for target in expected}
    assert {target: met for target, (_, met) in cells.items()} == expected
    assert "R - R* in 0.0395 .. 0.0400" in cells["mnist_8000: rule within 0.02 of R* with time_limit = 60"][0]
    assert "50.0 s (8 of the 8 stages converged, 8 fitted; stage seconds" in cells["path of np.geomspace(1, 1e-3, 8) on satellite_rff"][0]
    assert "1.67x" in cells["path of np.geomspace(1, 1e-3, 8) on satellite_rff"][0]
    # the anytime table (against the reference) and the waste decomposition
    assert "| mnist_8000 | MRC-CCG (eps_1=1e-3) | 60 | 60.5 | 0.5100 | 0.3000 | time_limit | 0.0395 .. 0.0400 |" in text
    assert "| speed | mnist_8000 | MRC-CCG (eps_1=1e-3) | 500.0 | converged | 10 | 900 | 500 | 40 | 400 | 8.0 | 0.5 | 2 (3.0) |" in text


def test_report_targets_without_records(tmp_path):
    """With only a record of another case every target says "not measured" (none is invented)."""
    pytest.importorskip("matplotlib")
    from benchmarks.report.report import write_report
    path = tmp_path / "full.jsonl"
    path.write_text(json.dumps(fixture_record("satellite", "ccg", 1.0, 0.5, 0.4999, K=6)) + "\n")
    text = write_report(path, tmp_path / "benchmarks.md").read_text()
    for name, count in (("Targets", 18), ("Earlier targets", 16)):
        section = text.split(f"## {name}\n", 1)[1].split("\n## ", 1)[0]
        rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
        issue_rows = [line for line in rows if not line.startswith(("| model updates", "| memory"))]
        assert len(issue_rows) == count
        assert all(line.endswith("| not measured |") for line in issue_rows), issue_rows


def test_run_plan_halves(tmp_path, monkeypatch):
    """``--cases ... --skip-scaling`` runs those speed cases and their anytime runs, ``--only-scaling`` only the
    scaling experiments; both append to the same file (``run`` replaced by a FIXTURE that runs nothing)."""
    import benchmarks.harness.run as run

    calls = []

    def fake_run(case, method, quick, time_limit, extra=(), subgradient_iterations=None, cold_time_limit=None):
        calls.append((case, method, time_limit, tuple(extra)))
        return {"case": case, "method": method, "seconds": 20.0, "status": "converged"}

    checked = []   # the data sets checked before the runs: those of the planned cases only
    monkeypatch.setattr(run, "run", fake_run)
    monkeypatch.setattr(run, "require", checked.append)
    monkeypatch.setattr(run, "records_path", lambda name, record: tmp_path / name)
    monkeypatch.setattr(run, "write_report", lambda path: None)
    monkeypatch.setattr(sys, "argv", ["run", "--cases", "digits_rff", "tweets", "--skip-scaling"])
    run.main()
    assert checked == [["tweets"]]
    assert calls == [("digits_rff", "ccg", 3600.0, ()), ("digits_rff", "ccg_precise", 3600.0, ()),
                     ("tweets", "ccg", 3600.0, ()), ("tweets", "ccg_precise", 3600.0, ()),
                     ("tweets", "lp", 3600.0, ())]
    calls.clear()
    monkeypatch.setattr(sys, "argv", ["run", "--only-scaling"])
    run.main()
    assert checked[-1] == ["pulsar"]
    assert [c[0] for c in calls] == ["pulsar_rff"] * len(run.FRACTIONS) + ["many_classes"] * len(run.CLASSES)
    # an anytime case: its speed runs, its reference (asked for), a fit per time limit; the path case's path
    calls.clear()
    monkeypatch.setattr(sys, "argv", ["run", "--cases", "mnist_8000", "satellite_rff", "--skip-scaling",
                                      "--reference"])
    run.main()
    assert calls == [("satellite_rff", "ccg", 3600.0, ()), ("satellite_rff", "ccg_precise", 3600.0, ()),
                     ("mnist_8000", "ccg", 3600.0, ()), ("mnist_8000", "ccg_precise", 3600.0, ()),
                     ("mnist_8000", "ccg_precise", run.REFERENCE_LIMIT, ()),
                     *(("mnist_8000", method, limit, ()) for limit in run.ANYTIME_LIMITS
                       for method in run.ANYTIME_METHODS),
                     ("satellite_rff", "path", 3600.0, ())]
    records = [json.loads(line) for line in (tmp_path / "full.jsonl").read_text().splitlines()]
    assert [r["experiment"] for r in records] == (["speed"] * 5 + ["scaling_n"] * 5 + ["scaling_K"] * 5
                                                  + ["speed"] * 4 + ["reference"]
                                                  + ["anytime"] * len(run.ANYTIME_LIMITS) * len(run.ANYTIME_METHODS)
                                                  + ["path"])


def test_backends_counts_the_terms_a_pyomo_backend_would_take(capsys):
    """benchmarks.experiments.backends on wine: each backend's line, and after the built-in one the rows the loop added, its
    masters, the final master's rows and their terms (at least two per row: a nonzero and nu)."""
    from benchmarks.experiments.backends import main
    main(["--cases", "wine", "--solvers", "highs", "appsi_highs"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[1:4:2]] == ["highs", "appsi_highs"]
    words = lines[2].replace(",", "").replace(":", "").split()
    rows, masters, final, terms = int(words[0]), int(words[4]), int(words[11]), int(words[12])
    assert rows > final > 0 and masters == int(lines[1].split()[5]) and terms > 2 * rows


def test_pyomo_share_times_pyomo_s_calls_inside_an_appsi_fit(capsys):
    """benchmarks.experiments.pyomo_share on wine: the two fits' line, then a line per timed call of Pyomo's, in
    the order of CALLS (a part under its whole), each a number of seconds, the parts no more than their whole."""
    from benchmarks.experiments.pyomo_share import CALLS, main
    main(["--cases", "wine"])
    title, *lines = capsys.readouterr().out.splitlines()
    assert title.startswith("wine: built-in ") and "ratio" in title
    assert [line[:54].strip() for line in lines] == [label.strip() for _, _, label in CALLS]
    seconds = [float(line.split()[-2]) for line in lines]
    assert all(s >= 0 for s in seconds) and seconds[0] > 0 and seconds[1] <= seconds[0] + 1e-9


def test_estimator_costs_times_the_cross_validation_in_fresh_interpreters(capsys):
    """benchmarks.experiments.estimator_costs --part cv: a line per fit (n_jobs 1 then 2), then their medians."""
    from benchmarks.experiments.estimator_costs import main
    main(["--part", "cv", "--repeat", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["iris, cv=5, n_jobs=1", "iris, cv=5, n_jobs=2"]
    assert lines[2].startswith("medians: n_jobs=1 ") and lines[2].endswith(" s")


def test_pdhg_phase_runs_the_iterations_and_the_certificate(capsys):
    """benchmarks.experiments.pdhg_phase on the generated 26-class case: a setting changed by --set, the
    iterations' line (their rate, the ends by the marks), then with --certify each master and the certified end."""
    from benchmarks.experiments.pdhg_phase import main
    main(["many_classes_26", "--time-limit", "1.5", "--set", "weight_scale=1.0"])
    title, line = capsys.readouterr().out.splitlines()
    assert title == "many_classes_26 weight_scale=1.0" and "iterations" in line and "per s" in line
    main(["many_classes_26", "--certify", "--time-limit", "60"])
    lines = capsys.readouterr().out.splitlines()
    masters = [line for line in lines[1:] if not line.startswith("iteration ")]   # the phase's lines first
    assert masters[0].startswith("master ") and lines[-1].startswith("converged: [")


def test_oracle_kernels_times_each_function_against_its_earlier_form(capsys, monkeypatch):
    """benchmarks.experiments.oracle_kernels on two small shapes: a row per function and shape, after checking that the
    two earlier forms give the same numbers bit for bit; and an earlier form that differs is an error, not a row."""
    from benchmarks.experiments import oracle_kernels
    oracle_kernels.main(["--shapes", "300:7", "50:1", "--repeats", "2"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row.split(" | ")[2] for row in rows] == ["most_violated_subsets", "psi_values", "row_thresholds"] * 2
    assert all(float(row.split(" | ")[k].rstrip(" |")) > 0 for row in rows for k in (-2, -1))
    for form in ("earlier_psi", "prefix_psi"):
        with monkeypatch.context() as patch:
            patch.setattr(oracle_kernels, form, lambda scores: scores[:, 0])
            with pytest.raises(AssertionError, match="psi_values on 300 x 7"):
                oracle_kernels.main(["--shapes", "300:7", "--repeats", "1"])


def test_proximal_centre_variant_keeps_the_certificate():
    """The loop variant prox=KAPPA (an L1 proximal term through the loop's callback) reaches the LP's R* with a
    closed certified gap: its last masters are the LP's own, and any alpha >= 0 bounds R* from below."""
    from helpers import random_problem
    from benchmarks.experiments.loop_variants import ProximalCentre, fit_variant
    from mrc_pyomo import MRCClassifier
    X, y = random_problem(400, 6, 4, seed=3)
    lp = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    clf = fit_variant(X, y, eps_1=1e-6, n_max=20, callback=ProximalCentre(9.0))
    assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= 1e-6
    assert clf.lower_ <= lp.upper_ + 1e-9 and clf.upper_ == pytest.approx(lp.upper_, abs=1e-6)


def test_scale_variant_sets_every_master_s_simplex_scaling():
    """The loop variant scale=S passes HiGHS's simplex_scale_strategy S to every master of the loop (alone: HiGHS's
    own, 2, by default), and combines with the others."""
    from helpers import random_problem
    from benchmarks.experiments.loop_variants import apply, fit_variant
    assert apply("scale=2,form=dual") == ({"solver_options": {"simplex_scale_strategy": 2}}, {"form": "dual"})
    X, y = random_problem(200, 4, 7, seed=1)
    for variant, scaling in (("default", 2), ("scale=4", 4)):
        params, loop = apply(variant)
        clf = fit_variant(X, y, loop, eps_1=1e-6, **params)
        assert clf.status_ == "converged"
        assert clf.master_.backend.highs.getOptionValue("simplex_scale_strategy")[1] == scaling


def test_report_dask_section(tmp_path):
    """The section "Data beyond memory" shows the records of benchmarks/experiments/dask_scale.py, and nothing without them."""
    from benchmarks.report import dask as report_dask
    path = tmp_path / "dask.jsonl"
    assert report_dask.dask_section(path) == []
    versions = {"commit": "abc1234"}
    records = [{"experiment": "dask_fit", "gib": 12.0, "samples": 25165824, "features": 64, "workers": 2,
                "memory_limit": "1.5GiB", "seconds": 1234.5, "status": "converged", "gap": 4e-4, "masters": 40,
                "peak_rss_gib": 2.5, "versions": versions},
               {"experiment": "dask_pass", "gib": 12.0, "workers": 4, "seconds": 31.25, "versions": versions}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    text = "\n".join(report_dask.dask_section(path))
    assert "## Data beyond memory" in text
    assert "| 12.0 | 25,165,824 | 64 | 2 | 1.5GiB | 1234 | converged | 4.0e-04 | 40 | 2.50 | abc1234 |" in text
    assert "| 12.0 | 4 | 31.2 | abc1234 |" in text


def test_report_route_and_certificate_masters_sections(tmp_path):
    """"The route of the default fit" pairs each tag's before and after records; "Certificate masters" sums each
    fit's masters (seconds, rows moved, simplex iterations) and sets them against the cold solves of its last
    master, a cold time at the cap shown as a bound; neither section without its records."""
    from benchmarks.report.route import masters_section, route_section
    path = tmp_path / "experiments.jsonl"
    assert route_section(path) == [] and masters_section(path) == []
    side = {"case": "satellite_rff", "status": "converged", "lower": 0.2494, "R": 0.2495, "seconds": 40.0,
            "limit_ratio": 2.0, "waste": {"masters": 4}}
    master = {"rows": 10, "added": 10, "removed": 2, "readded": 1, "simplex_iterations": 7, "seconds_solve": 3.0,
              "cold_dual_simplex": 60.0, "cold_ipm": 2.0}
    records = [{"experiment": "default_route", "tag": "sat", "side": "before", **side, "seconds": 120.0},
               {"experiment": "default_route", "tag": "sat", "side": "after", **side, "first_order_seconds": 15.0,
                "first_order_iterations": 1100, "route": ["PDHG"]},
               {"experiment": "certificate_masters", "case": "satellite_rff", "side": "after", "fit_seconds": 20.0,
                "phase_seconds": 10.0, "phase_iterations": 1100, "masters": [master, {**master, "rows": 12}]}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    route = "\n".join(route_section(path))
    assert "| satellite_rff | PDHG | 120.0 | converged | [0.2494, 0.2495] | 4 | 2.0 | 40.0 |" in route
    masters = "\n".join(masters_section(path))
    assert "## Certificate masters" in masters
    assert "| satellite_rff | after | 20.0 | 10.0 (1100) | 2 | 6.0 | 20 / 4 / 2 | 14 | 12 | >= 60.0 | 2.0 | 3.0 |" in masters


def test_the_benchmarks_page_s_choices_are_those_of_choices_md():
    """docs/benchmarks.md's section "The library's choices" is ``benchmarks/report/choices.md`` as the report writes
    it: a measurement added to the page alone would be lost at the next report."""
    from benchmarks.report.report import choices_section
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    start, end = page.index("\n## The library's choices\n"), page.index("\n## Plots\n")
    assert choices_section()[1:] == page[start + 1:end].rstrip("\n").splitlines()


def test_report_route_grid_and_sparse_text_sections(tmp_path):
    """"The route's time limit" shows each route's seconds where it certified, else its R and lower end, and the
    default against the best: its time over the best certified time, or its R less the best R where none certified
    (the newest record of each cell); "Sparse text" shows each fit beside LinearSVC, the full LP's seconds over its
    rows squared for a fit of the full LP, and the minimal master, a cold solve that never ended shown as a bound;
    neither section without its records."""
    from benchmarks.report.route import route_grid_section
    from benchmarks.report.text import sparse_text_section
    path = tmp_path / "experiments.jsonl"
    assert route_grid_section(path) == [] and sparse_text_section(path) == []
    cell = {"experiment": "route_grid", "n": 500, "cap": 200.0, "lower": 0.08, "upper": 0.09}
    grid = [{**cell, "limit": 10.0, "route": "default", "status": "time_limit", "seconds": 10.0, "upper": 0.3},
            {**cell, "limit": 10.0, "route": "default", "status": "converged", "seconds": 6.0},
            {**cell, "limit": 10.0, "route": "loop", "status": "converged", "seconds": 4.0},
            {**cell, "limit": 60.0, "route": "default", "status": "time_limit", "seconds": 60.0, "upper": 0.25},
            {**cell, "limit": 60.0, "route": "pdhg", "status": "time_limit", "seconds": 60.0, "upper": 0.2}]
    task = {"experiment": "sparse_text", "task": "python", "n": 1000, "D": 2000, "K": 2, "full_lp_rows": 1000,
            "linear_svc_error": 0.02, "linear_svc_seconds": 0.1, "lambda0": 0.01, "status": "converged",
            "lower": 0.05, "upper": 0.05, "test_error": 0.05}
    text = [{**task, "fit": "lp", "seconds": 2.0, "regime": "full", "minimal_rows": 900, "final_rows": 1000,
             "minimal_samples": 890, "minimal_best_seconds": None, "minimal_time_limit": 2.0},
            {**task, "fit": "default@1", "seconds": 1.0, "regime": "n", "status": "time_limit", "lower": 0.0}]
    path.write_text("".join(json.dumps(r) + "\n" for r in grid + text))
    lines = route_grid_section(path)
    assert "| 500 | 10 s | 6.0 s | 4.0 s | - | - | 1.50x |" in lines
    assert "| 500 | 60 s | 0.2500 [0.0800] | - | - | 0.2000 [0.0800] | +0.0500 |" in lines
    lines = sparse_text_section(path)
    assert ("| python | 1,000 x 2,000, 2 | 1,000 | 0.01 | 0.020 (0.1) | lp | 2.0 | converged | [0.0500, 0.0500] "
            "| full | 0.050 | 2.0e-06 | 900 of 1,000 (890) | >= 2.0 | <= 1.0 | - |") in lines
    assert any(line.startswith("| python |") and "| default@1 |" in line and line.endswith("| - | - | - | - | - |")
               for line in lines)
    path.write_text("".join(json.dumps({**r, "commit": "0123456789abcdef"}) + "\n" for r in text))
    assert all(line.endswith("| 0123456 |") for line in sparse_text_section(path) if line.startswith("| python |"))


def test_formulations_experiment_and_section(tmp_path, monkeypatch):
    """``--formulations`` runs each planned (case, method) in the paper's and then in the compact formulation
    and nothing else; ``run`` passes ``--formulation compact`` for a ``*_compact`` method; the section pairs
    the two records of a case with the time ratio (``run`` replaced by a FIXTURE, then its command checked)."""
    import benchmarks.harness.run as run
    from benchmarks.report.formulations import formulations_section

    calls = []

    def fake_run(case, method, quick, time_limit, extra=(), subgradient_iterations=None, cold_time_limit=None):
        calls.append((case, method))
        seconds = 10.0 if method.endswith("_compact") else 20.0
        return {"case": case, "method": method, "seconds": seconds, "status": "converged", "R": 0.25,
                "lower": 0.2496, "iterations": 7, "n": 100, "K": 3, "waste": {"final_rows": 1234}}

    real_run = run.run
    monkeypatch.setattr(run, "run", fake_run)
    monkeypatch.setattr(run, "require", lambda names: None)   # no data needed: nothing is fitted
    monkeypatch.setattr(run, "records_path", lambda name, record: tmp_path / name)
    monkeypatch.setattr(run, "write_report", lambda path: None)
    monkeypatch.setattr(sys, "argv", ["run", "--formulations", "--cases", "pulsar_rff", "satellite"])
    run.main()
    assert calls == [("pulsar_rff", "ccg"), ("pulsar_rff", "ccg_compact"), ("pulsar_rff", "lp"),
                     ("pulsar_rff", "lp_compact"), ("satellite", "ccg"), ("satellite", "ccg_compact"),
                     ("satellite", "lp"), ("satellite", "lp_compact")]
    records = [json.loads(line) for line in (tmp_path / "full.jsonl").read_text().splitlines()]
    assert {r["experiment"] for r in records} == {"formulations"}
    text = "\n".join(formulations_section(records))
    assert "## Formulations" in text
    assert "| pulsar_rff | lp | 100 | 3 | 20.0 | 7 | 1,234 | 0.2500 | 4.0e-04 (converged) | 10.0 | 7 |" in text
    lp = dict(records[2], iterations=0, waste=None)
    assert "| pulsar_rff | lp | 100 | 3 | 20.0 | - | - |" in "\n".join(formulations_section([lp]))
    rows = [line for line in text.splitlines() if line.startswith(("| pulsar_rff", "| satellite"))]
    # compact against paper on each row; the compact full LP against the paper's MRC-CCG on the full LPs' rows
    assert [line.endswith("| 0.50 | 0.50 |") for line in rows] == [False, True, False, True]
    assert all(line.endswith("| 0.50 |  |") for line in rows[::2]) and formulations_section([]) == []
    calls.clear()
    monkeypatch.setattr(sys, "argv", ["run", "--formulations", "--cases", "satellite", "--methods", "lp"])
    run.main()
    assert calls == [("satellite", "lp"), ("satellite", "lp_compact")]

    commands = []

    def fake_subprocess(args, **kw):
        commands.append(args)
        return subprocess.CompletedProcess(args, 1, "", "stopped here")

    monkeypatch.setattr(run.subprocess, "run", fake_subprocess)
    real_run("satellite", "ccg_compact", False, 60.0)
    assert commands[0][3:5] == ["satellite", "ccg"] and commands[0][-2:] == ["--formulation", "compact"]


def test_the_benchmark_packages_import_one_way():
    """benchmarks/: the report and the experiments import from the harness, the harness from benchmarks.data only
    (it runs the report as a process of its own), and no package imports a private name of mrc_pyomo."""
    import ast
    allowed = {"harness": {"data", "harness"}, "report": {"data", "harness", "report"},
               "experiments": {"data", "harness", "experiments"}}
    found, private = {}, []
    for package in allowed:
        for path in sorted((ROOT / "benchmarks" / package).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                         else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                for name in names:
                    parts = name.split(".")
                    if parts[0] == "benchmarks" and len(parts) > 1:
                        found.setdefault(package, set()).add(parts[1])
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mrc_pyomo"):
                    private += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert set(found) == set(allowed) and all(found[p] <= allowed[p] for p in allowed), found
    assert "harness" in found["report"] and not private, private


def test_report_figures_colour_each_method_alike_and_caption_once(tmp_path, monkeypatch):
    """In the convergence figure a method has one colour in every panel and its R^k the same colour, dashed;
    log axes label their decades only (minor labels overlapped); each figure's caption appears once, in
    Markdown and in the docs' reStructuredText."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from benchmarks.report.figures import draw_figures, plots_section
    monkeypatch.syspath_prepend(str(ROOT / "docs"))
    from generate import markdown_to_rst
    trace = [[0.1, 0.9], [1.0, 0.5], [3.0, 0.4]]
    ccg = {"method": "ccg", "eps_1": 1e-3, "trace": trace, "trace_master": trace}
    speed = [{"case": "a", **ccg}, {"case": "a", "method": "subgradient", "trace": trace},
             {"case": "b", "method": "subgradient", "trace": trace}, {"case": "b", **ccg}]
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    draw_figures([], speed, ["a", "b"], tmp_path, "quick")
    (fig,) = figures
    colours = [{line.get_label(): (line.get_color(), line.get_linestyle()) for line in ax.get_lines()}
               for ax in fig.axes[:2]]
    assert colours[0] == colours[1]   # same methods, plotted in another order, same colours
    first = colours[0]
    assert first["MRC-CCG (eps_1=1e-3): R^k"] == (first["MRC-CCG (eps_1=1e-3): best R(mu)"][0], "--")
    assert first["MRC-SUB: best R(mu)"][0] != first["MRC-CCG (eps_1=1e-3): best R(mu)"][0]
    fig.canvas.draw()
    assert all(not tick.label1.get_visible() or not tick.label1.get_text()
               for tick in fig.axes[0].xaxis.get_minor_ticks())
    section = "\n".join(plots_section(tmp_path, "quick"))
    caption = "R^k and the best certified R(mu) so far against time"
    assert section.count(caption) == 1
    assert markdown_to_rst(section).count(caption) == 1
    monkeypatch.undo()
    plt.close(fig)


def test_report_figures_draw_a_fit_without_masters(tmp_path):
    """A fit whose first-order phase took all its time (the default route on images at 60 s) has an empty
    ``trace_master``: its panel shows its best R(mu) and no R^k (unpacking the empty trace failed the report)."""
    pytest.importorskip("matplotlib")
    from benchmarks.report.figures import draw_figures
    trace = [[0.1, 0.9], [1.0, 0.5]]
    draw_figures([], [{"case": "a", "method": "ccg", "eps_1": 1e-3, "trace": trace, "trace_master": []}], ["a"],
                 tmp_path, "quick")
    assert (tmp_path / "convergence_quick.png").is_file()


def test_report_log_axes_read_as_plain_numbers(tmp_path, monkeypatch):
    """time_vs_K and time_vs_n label their log axes with plain numbers: K at each K run ("5", "10", "20"), the
    seconds as "0.1", "1", "10" (matplotlib's minor labels read "6x10^0", its decades "10^1")."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from benchmarks.report.figures import draw_figures
    records = ([{"experiment": "scaling_K", "K": K, "seconds": s, "seconds_oracle": s / 2, "iterations": 10}
                for K, s in [(5, 2.0), (10, 4.0), (20, 9.0)]]
               + [{"experiment": "scaling_n", "n": n, "seconds": s} for n, s in [(1000, 0.5), (4000, 3.0)]])
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    draw_figures(records, [], [], tmp_path, "quick")
    assert (tmp_path / "time_vs_K_quick.png").exists() and len(figures) == 2
    for fig in figures:
        fig.canvas.draw()
        ax = fig.axes[0]
        texts = [tick.label1.get_text() for axis in (ax.xaxis, ax.yaxis)
                 for tick in axis.get_major_ticks() + axis.get_minor_ticks() if tick.label1.get_text()]
        assert texts and not [text for text in texts if "10^" in text or "times" in text or "$" in text], texts
    time_vs_K = figures[1].axes[0]
    assert [t.get_text() for t in time_vs_K.get_xticklabels()] == ["5", "10", "20"]
    assert {"0.1", "1", "10"} <= {t.get_text() for t in time_vs_K.get_yticklabels()}
    monkeypatch.undo()
    for fig in figures:
        plt.close(fig)


def git_status():
    """``git status --porcelain`` of the repository: what a run of the harness must leave as it found it."""
    return subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True, cwd=ROOT,
                          check=True).stdout


def test_harness_without_data_stops_at_once_and_writes_nothing(tmp_path):
    """A fresh clone has no benchmark data: the harness stops before any fit (status 2, within seconds, where it
    used to fail every case for minutes, appending error records to benchmarks/results/quick.jsonl) with the
    missing files, the folder searched, MRC_DATA_DIR and where the data come from, and writes no file."""
    empty = tmp_path / "no-data"
    empty.mkdir()
    cwd, env = harness_process(tmp_path)
    env["MRC_DATA_DIR"] = str(empty)
    before = git_status()
    untracked = [ROOT / "benchmarks" / "runs" / name for name in ("quick.jsonl", "benchmarks_quick.md")]
    stats = [path.stat().st_mtime_ns if path.exists() else None for path in untracked]
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "benchmarks.harness.run", "--quick"], capture_output=True,
                         text=True, cwd=cwd, env=env, timeout=20)
    seconds = time.perf_counter() - start
    assert out.returncode == 2, out.stderr[-2000:]
    assert seconds < 10
    for name in ("pulsar", "dry_bean", "satellite", "optdigits", "mnist", "tweets"):
        assert f"{name}.csv.gz" in out.stderr
    assert str(empty) in out.stderr and "MRC_DATA_DIR" in out.stderr and 'README.md, section "Benchmarks"' in out.stderr
    assert out.stdout == "" and git_status() == before
    assert [path.stat().st_mtime_ns if path.exists() else None for path in untracked] == stats


def test_require_names_only_the_missing_data(tmp_path, monkeypatch, capsys):
    """benchmarks.data.require: silent when every data set is there, else exit status 2 naming only the missing
    files; the cases that read no data set need none."""
    from benchmarks.data import require
    from benchmarks.harness.cases import CASES, DATA_SETS, data_sets
    monkeypatch.setenv("MRC_DATA_DIR", str(tmp_path))
    (tmp_path / "pulsar.csv.gz").write_bytes(b"")
    require(["pulsar"])
    require(data_sets(["pulsar_rff", "digits_rff", "many_classes"]))
    with pytest.raises(SystemExit) as stop:
        require(data_sets(["pulsar_rff", "mnist", "mnist_8000", "tweets"]))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "mnist.csv.gz" in err and "tweets.csv.gz" in err and "pulsar.csv.gz" not in err
    assert err.count("mnist.csv.gz") == 1 and str(tmp_path) in err
    assert set(DATA_SETS) <= set(CASES)


def git_ignored(path):
    """Whether git ignores ``path`` (a file need not exist for ``git check-ignore``)."""
    return subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT).returncode == 0


def test_runs_write_untracked_files_unless_recorded():
    """Without --record the harness's records and report, and the experiments' records, go where git ignores
    them, so that a run cannot dirty the working tree; with it, to the tracked records and docs/."""
    from benchmarks.experiments import dask_scale
    from benchmarks.harness.record_files import records_path
    from benchmarks.harness.run import records_file
    from benchmarks.report.report import DOCS, default_out
    for quick in (True, False):
        path = records_file(quick, record=False)
        assert git_ignored(path) and git_ignored(default_out(path)) and default_out(path).parent == path.parent
        recorded = records_file(quick, record=True)
        assert recorded.relative_to(ROOT).as_posix() == f"benchmarks/results/{'quick' if quick else 'full'}.jsonl"
        assert not git_ignored(recorded) and default_out(recorded).parent == DOCS
    assert git_ignored(dask_scale.RECORDS) and git_ignored(records_path("full_lp_forms.jsonl"))
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", "benchmarks/results/quick.jsonl",
                              "benchmarks/results/dask.jsonl", "benchmarks/results/full_lp_forms.jsonl"], cwd=ROOT)
    assert tracked.returncode == 0 and records_path("dask.jsonl", record=True) == ROOT / "benchmarks/results/dask.jsonl"


# ---------------------------------------------------------------------------------------------------------------
# The tracked records of benchmarks/results/: one file per kind of run, the paired runs in pairs.jsonl keyed by
# their id, the one-off experiments in experiments.jsonl (issue 36), each listed in its README.

RESULTS = ROOT / "benchmarks" / "results"


def readme_table(heading, first_column):
    """The rows of the table of benchmarks/results/README.md under ``## heading``, keyed by their first cell
    (without its backticks), each the list of its cells."""
    section = (RESULTS / "README.md").read_text().split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.split(" | ")] for line in section.splitlines() if line.startswith("| `")]
    header = next(line for line in section.splitlines() if line.startswith("| "))
    assert header.startswith(f"| {first_column} |"), header
    return {row[0].strip("| `"): row for row in rows}


def test_results_are_one_file_per_kind_of_run_each_in_the_readme():
    """No comparison has a file of its own any more (quick_pair_*, experiment_<commit>.jsonl): every records
    file of benchmarks/results/ is a kind of run listed in the README's table of files."""
    assert not list(RESULTS.glob("quick_pair_*")), "a paired run goes into pairs.jsonl (compare --import)"
    files = {path.name for path in RESULTS.glob("*.jsonl")}
    assert files == set(readme_table("Files", "file")) == {"quick.jsonl", "full.jsonl", "dask.jsonl",
                                                              "full_lp_forms.jsonl", "pairs.jsonl", "experiments.jsonl"}


def test_every_recorded_pair_has_both_sides_and_the_result_its_readme_row_states(capsys):
    """Every pair of pairs.jsonl has records on both sides, each with its commit, and a row in the README whose
    result is what ``compare --pair ID`` prints last: its number of runs, median and largest ratio."""
    from benchmarks.harness import compare
    records = [json.loads(line) for line in (RESULTS / "pairs.jsonl").read_text().splitlines()]
    assert all(r["side"] in compare.SIDES and r["commit"] and r["pair"] for r in records)
    assert all(r["commit"] == r["versions"]["commit"] for r in records if r.get("versions"))
    pairs = list(dict.fromkeys(r["pair"] for r in records))
    rows = readme_table("Pairs", "pair")
    assert pairs == list(rows) and len(pairs) >= 15
    for pair in pairs:
        before, after = compare.pair_sides(records, pair)
        assert before and after, pair
        assert {r["commit"].removesuffix("+changes") for r in before + after if not r.get("versions")} <= set(
            compare.side_commits(pair))
        summary = compare.compare(before, after)
        stated = rows[pair][2].split("`")[1]   # the result cell starts with compare's last line, in backticks
        assert summary == stated, (pair, summary, stated)
    # the command itself, on one pair: the median ratio the README states (issue 18's pair: 1.00)
    capsys.readouterr()
    compare.main(["--pair", "7c7c559..312deff"])
    out = capsys.readouterr().out
    readme_median = re.search(r"median ratio ([0-9.]+)", rows["7c7c559..312deff"][2]).group(1)
    assert readme_median == "1.00" and f"34 runs: median ratio {readme_median}," in out.splitlines()[-1]
    assert out.startswith("pair 7c7c559..312deff: before 7c7c559, after 312deff\n")
    compare.main(["--pairs"])
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == pairs
    assert "before 44 records (9bf4077, 2026-11-26)" in listed[pairs.index("9bf4077..7e96a80")]


def test_every_experiment_record_has_its_experiment_and_commit_in_the_readme():
    records = [json.loads(line) for line in (RESULTS / "experiments.jsonl").read_text().splitlines()]
    assert all(r["commit"] == r["versions"]["commit"] for r in records)
    counts = {}
    for r in records:
        counts[r["experiment"]] = counts.get(r["experiment"], 0) + 1
    rows = readme_table("Experiments", "experiment")
    assert list(counts) == list(rows) and all(int(rows[e][2]) == n for e, n in counts.items())


def test_compare_imports_a_pair_and_compares_it_or_two_files(tmp_path, capsys):
    """``compare --import ID BEFORE AFTER`` appends two runs' records to a pairs file with pair, side and commit
    (versions.commit, else the side's commit from the id), refuses an id it holds; ``--pair`` compares it as the
    two files compare; the records land in the ignored benchmarks/runs/ unless --record (FIXTURE records)."""
    from benchmarks.harness import compare
    from benchmarks.harness.record_files import RUNS, records_path

    def fixture(seconds, commit=None, **fields):
        record = {"case": "pulsar", "method": "ccg", "experiment": "speed", "n": 100, "K": 2, "seconds": seconds,
                  "R": 0.25, "status": "converged", **fields}
        return record if commit is None else {**record, "versions": {"commit": commit}}

    before, after, pairs = tmp_path / "before.jsonl", tmp_path / "after.jsonl", tmp_path / "pairs.jsonl"
    before.write_text(json.dumps(fixture(2.0, "abc1234")) + "\n" + json.dumps(fixture(4.0, method="lp")) + "\n")
    after.write_text(json.dumps(fixture(3.0, "def5678+changes")) + "\n" + json.dumps(fixture(2.0, method="lp")) + "\n")
    compare.main([str(before), str(after)])
    two_files = capsys.readouterr().out
    assert two_files.splitlines()[-1] == "2 runs: median ratio 1.00, largest 1.50 (pulsar, ccg, speed)"
    compare.main(["--import", "abc1234..def5678", str(before), str(after), "--records", str(pairs)])
    assert "2 records before, 2 after" in capsys.readouterr().out
    records = [json.loads(line) for line in pairs.read_text().splitlines()]
    assert [(r["side"], r["commit"]) for r in records] == [("before", "abc1234"), ("before", "abc1234"),
                                                          ("after", "def5678+changes"), ("after", "def5678")]
    assert all(r["pair"] == "abc1234..def5678" for r in records)
    assert [{k: v for k, v in r.items() if k not in ("pair", "side", "commit")} for r in records] == [
        json.loads(line) for path in (before, after) for line in path.read_text().splitlines()]
    with pytest.raises(SystemExit):   # the same id again
        compare.main(["--import", "abc1234..def5678", str(before), str(after), "--records", str(pairs)])
    assert "already holds the pair" in capsys.readouterr().err
    compare.main(["--import", "abc1234..def5678/rerun", str(before), str(after), "--records", str(pairs)])
    capsys.readouterr()
    compare.main(["--pair", "abc1234..def5678/rerun", "--records", str(pairs)])
    out = capsys.readouterr().out
    assert out.splitlines()[1:] == two_files.splitlines()
    with pytest.raises(SystemExit):
        compare.main(["--pair", "nothing..here", "--records", str(pairs)])
    with pytest.raises(ValueError):
        compare.side_commits("abc1234")
    assert compare.side_commits("c90d9f0..free-mu") == ("c90d9f0", "free-mu")
    assert compare.side_commits("e10840f..be0b6fe/rerun") == ("e10840f", "be0b6fe")
    # where --import writes unless told: the ignored benchmarks/runs/, the tracked file only with --record
    assert records_path("pairs.jsonl") == RUNS / "pairs.jsonl" and git_ignored(RUNS / "pairs.jsonl")
    assert compare.PAIRS == records_path("pairs.jsonl", record=True) and not git_ignored(compare.PAIRS)


def test_sparse_text_rows_count_the_phase_and_the_masters():
    """benchmarks.experiments.sparse_text's row of a fit: MRC-FOM's phase (its iterations, the second it ended, no
    later than the fit) and the masters of its certificate's loop; the full LP has neither."""
    from benchmarks.experiments.sparse_text import fit
    from helpers import zipf_words
    X, y = zipf_words(n=300, n_classes=3)
    fom, lp = fit("fom", X, y, X, y), fit("lp", X, y, X, y)
    assert fom["phase_iterations"] > 0 and 0 < fom["phase_seconds"] <= fom["seconds"] and fom["masters"] > 0
    assert fom["phase_iterations"] + fom["masters"] == fom["n_iter"]
    assert (lp["phase_iterations"], lp["phase_seconds"], lp["masters"]) == (0, 0.0, 0)
