"""The report's section "Data beyond memory": the records of ``python -m benchmarks.experiments.dask_scale``
(``results/dask.jsonl``): fits of a data set on disk on a Dask cluster, with the peak resident memory of the
client and the workers together, and the time of one oracle pass against the number of workers."""

from benchmarks.harness.record_files import read


def dask_section(path):
    """The section's lines from the records in ``path`` (none if the file does not exist or is empty)."""
    if not path.exists():
        return []
    records = read(path)
    fits = [r for r in records if r.get("experiment") == "dask_fit"]
    passes = [r for r in records if r.get("experiment") == "dask_pass"]
    if not (fits or passes):
        return []
    lines = ["", "## Data beyond memory", "",
             "`python -m benchmarks.experiments.dask_scale` (records in `benchmarks/results/dask.jsonl`): "
             "synthetic classes",
             "generated chunk by chunk to a `.npy` file on disk and read by Dask chunk by chunk; MRC-CCG fitted",
             "on a `distributed.LocalCluster` of worker processes with the default settings. Peak memory is the",
             "largest sum of the resident memory of the client and all workers, sampled every 0.2 s."]
    if fits:
        lines += ["", "| data GiB | samples | features | workers | memory limit per worker | fit s | status "
                  "| certified gap | masters | peak resident GiB (client + workers) | commit |",
                  "| ---: | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | --- |"]
        for r in fits:
            lines.append(f"| {r['gib']:.1f} | {r['samples']:,} | {r['features']} | {r['workers']} "
                         f"| {r['memory_limit']} | {r['seconds']:.0f} | {r['status']} | {r['gap']:.1e} "
                         f"| {r['masters']} | {r['peak_rss_gib']:.2f} | {r['versions'].get('commit')} |")
    if passes:
        lines += ["", "One oracle pass (`varphi` of a rule: every chunk read, mapped and scored), after a first "
                  "pass that warms the workers and the operating system's page cache (which held the whole file "
                  "on the 24 GiB machine of these runs: the times are those of reading from memory and "
                  "computing, not of the disk; the page cache is not in any process's resident memory):", "",
                  "| data GiB | workers | pass s | commit |", "| ---: | ---: | ---: | --- |"]
        for r in passes:
            lines.append(f"| {r['gib']:.1f} | {r['workers']} | {r['seconds']:.1f} | {r['versions'].get('commit')} |")
    return lines
