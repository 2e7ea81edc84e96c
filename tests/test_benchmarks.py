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
    path = tmp_path / "quick.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    import benchmarks.report as report
    monkeypatch.setattr(report, "DOCS", tmp_path)
    out = report.write_report(path)
    text = out.read_text()
    assert "| many_classes | MRC-CCG (eps_1=1e-3) | " in text and "MRC-SUB" in text
    assert (tmp_path / "img" / "convergence_quick.png").exists()
