"""The benchmarks of mrc_pyomo (not part of the installed package), each command run from the repository's root
with ``python -m`` (benchmarks/results/README.md lists the records they wrote):

- :mod:`benchmarks.harness`: the benchmark: its cases and plan, every (case, method) fitted in a process of its
  own (``python -m benchmarks.harness.run [--quick]``, one run: ``benchmarks.harness.run_case``), the records
  files and two runs compared, or a recorded pair of ``benchmarks/results/pairs.jsonl`` by its id
  (``benchmarks.harness.compare``);
- :mod:`benchmarks.report`: the records turned into docs/benchmarks.md (``python -m benchmarks.report.report``);
- :mod:`benchmarks.experiments`: measurements behind single choices of the library (loop variants, the full
  LP's forms, the backends, data beyond memory on Dask, the Fourier map), each a command of its own;
- :mod:`benchmarks.data`: the data sets, read one way for all three and for the tests, and checked before a
  command starts (README.md, section "Benchmarks", says where they come from).

A command writes its records (and the harness its report) to ``benchmarks/runs/``, which git ignores; the tracked
``benchmarks/results/`` and docs/ only with ``--record`` (:mod:`benchmarks.harness.record_files`).

Imports go one way: the report and the experiments import from the harness, the harness from :mod:`benchmarks.data`
only (it runs the report as a process of its own, as it runs the cases).
"""
