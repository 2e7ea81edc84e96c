"""The benchmark report: ``python -m benchmarks.report.report`` turns a records file of the harness into
docs/benchmarks.md (or docs/benchmarks_quick.md) and its plots (``report`` assembles the sections of the other
modules)."""
