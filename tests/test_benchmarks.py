"""The benchmark harness runs a case in its own process and turns records into a report."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_run_case_and_report(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    records = []
    for method in ("ccg", "subgradient"):
        out = subprocess.run([sys.executable, "-m", "benchmarks.run_case", "many_classes", method, "--quick",
                              "--classes", "4", "--subgradient-iterations", "300"],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        record = json.loads(out.stdout.strip().splitlines()[-1])
        assert record["K"] == 4 and record["R"] > 0 and record["peak_mb"] > 0 and record["seconds"] > 0
        record["experiment"] = "speed"
        records.append(record)
    assert records[0]["status"] == "converged" and records[0]["R"] <= records[1]["R"] + 1e-9
    assert records[0]["seconds_update"] + records[0]["seconds_solve"] <= records[0]["seconds"]
    # the limit ratio: cold solves of the final master, one per HiGHS method, timed in the fit's process
    ccg = records[0]
    from benchmarks.run_case import COLD_METHODS
    assert set(ccg["cold_seconds"]) == set(COLD_METHODS) == set(ccg["cold_status"]) == set(ccg["cold_objective"])
    assert all(t > 0 for t in ccg["cold_seconds"].values())
    assert all(status == "Optimal" for status in ccg["cold_status"].values())
    # a cold solve of the master the fit solved last has the fit's last R^k (IPM without crossover: to its tolerance)
    assert all(abs(v - ccg["R_master"]) <= 1e-6 for v in ccg["cold_objective"].values())
    assert ccg["cold_best_seconds"] == min(ccg["cold_seconds"].values()) == ccg["cold_seconds"][ccg["cold_best"]]
    assert ccg["limit_ratio"] > 0 and ccg["limit_ratio"] == pytest.approx(ccg["seconds"] / ccg["cold_best_seconds"])
    assert "cold_seconds" not in records[1] and "limit_ratio" not in records[1]   # MRC-SUB has no master
    path = tmp_path / "quick.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    import benchmarks.report as report
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
    assert (tmp_path / "img" / "convergence_quick.png").exists()


def test_report_cells_for_capped_cold_solves():
    """A cold solve stopped by its cap shows as a lower bound; with every method capped, the ratio as a bound."""
    from benchmarks.report import cold_cell, gap_cell, limit_ratio_cell
    record = {"R": 0.5, "lower": 0.4999, "cold_seconds": {"dual_simplex": 2.0, "ipm": 1.0},
              "cold_objective": {"dual_simplex": None, "ipm": None},
              "cold_status": {"dual_simplex": "Time limit reached", "ipm": "Time limit reached"},
              "limit_ratio": None, "limit_ratio_bound": 1.0}
    assert cold_cell(record, "dual_simplex") == ">= 2.00 (Time limit reached)"
    assert cold_cell(record, "ipm_no_crossover") == "-"
    assert limit_ratio_cell(record) == "<= 1.0" and gap_cell(record) == "1.0e-04"
    assert limit_ratio_cell({"limit_ratio": 12.34}) == "12.3" and limit_ratio_cell({}) == "-"
