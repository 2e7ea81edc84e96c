"""The benchmark harness: the cases (``cases``) and the plan of the experiments (``plan``), a run of the plan with
every (case, method) in a process of its own (``run``, ``run_case``), the environment each record keeps
(``environment``), the records files (``record_files``) and two runs side by side (``compare``)."""
