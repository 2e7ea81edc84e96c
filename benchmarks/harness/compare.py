"""Two benchmark runs side by side: each run of both, its time before and after, and the ratio.

    python -m benchmarks.harness.compare BEFORE.jsonl AFTER.jsonl

Runs are matched by (case, method, experiment, n, K), the newest record of each in each file.  Prints the
fit times, their ratio (after / before), ``R`` and the status of both, then the median and the largest ratio.
The two files should come from runs made at the same time on the same machine (two clones side by side), so
that the ratios are fair.
"""

import argparse

import numpy as np

from benchmarks.harness.record_files import read, run_key


def records(path):
    """The newest record of each run of a records file, keyed by :func:`benchmarks.harness.record_files.run_key`."""
    return {run_key(r): r for r in read(path)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    args = parser.parse_args(argv)
    before, after = records(args.before), records(args.after)
    print(f"{'case':16s} {'method':12s} {'experiment':10s} {'n':>6s} {'K':>4s} {'before s':>9s} {'after s':>9s} "
          f"{'ratio':>6s} {'R before':>10s} {'R after':>10s}  status")
    ratios = []
    for key, old in before.items():
        new = after.get(key)
        if new is None or "seconds" not in old or "seconds" not in new:
            continue
        ratio = new["seconds"] / old["seconds"]
        ratios.append((ratio, key))
        print(f"{key[0]:16s} {key[1]:12s} {key[2]!s:10s} {key[3]!s:>6s} {key[4]!s:>4s} {old['seconds']:9.2f} "
              f"{new['seconds']:9.2f} {ratio:6.2f} {old.get('R', np.nan):10.6f} {new.get('R', np.nan):10.6f}  "
              f"{old['status']} -> {new['status']}")
    if ratios:
        values = np.array([r for r, _ in ratios])
        worst = max(ratios)
        print(f"{len(ratios)} runs: median ratio {np.median(values):.2f}, largest {worst[0]:.2f} ({worst[1][0]}, "
              f"{worst[1][1]}, {worst[1][2]})")


if __name__ == "__main__":
    main()
