"""Experiments behind single choices of the library, each a command of its own (``python -m
benchmarks.experiments.NAME``): variants of the generation loop (``loop_variants``), the full LP's primal and dual
forms (``full_lp_forms``), the master's backends (``backends``), data beyond memory on Dask (``dask_scale``) and
the random Fourier features (``fourier_map``)."""
