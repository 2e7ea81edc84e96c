"""Two benchmark runs side by side: each run of both, its time before and after, and the ratio.

    python -m benchmarks.harness.compare --pair 52d7c81..f4ed399   # a recorded pair (benchmarks/results/pairs.jsonl)
    python -m benchmarks.harness.compare --pairs                   # the recorded pairs: id, runs, commits, dates
    python -m benchmarks.harness.compare BEFORE.jsonl AFTER.jsonl  # two records files

    # record a new pair: each clone ran `python -m benchmarks.harness.run --quick` (into its benchmarks/runs/)
    python -m benchmarks.harness.compare --import abc1234..def5678 ../before/benchmarks/runs/quick.jsonl \\
        ../after/benchmarks/runs/quick.jsonl --record

Runs are matched by (case, method, experiment, n, K), the newest record of each on each side.  Prints the
fit times, their ratio (after / before), ``R`` and the status of both, then the number of runs, the median and
the largest ratio.  The two sides should come from runs made at the same time on the same machine (two clones
side by side), so that the ratios are fair.

The paired runs kept with the code are in one file, ``benchmarks/results/pairs.jsonl`` (:data:`PAIRS`): every
record carries ``pair`` (its id, ``BEFORE..AFTER`` after the two commits, or the branch of code not in the
repository; a second run of a pair adds ``/NAME``, e.g. ``e10840f..be0b6fe/rerun``), ``side`` (``before`` or
``after``) and ``commit`` (that of its run, ``versions.commit``, where the record has it, else the side's from
the id).  ``--import ID BEFORE AFTER`` appends two runs' records files to it with those fields
(:func:`import_pair`), into ``benchmarks/runs/pairs.jsonl`` (ignored by git) unless ``--record``; an id already
there is refused.  What each pair measured and the command that made it: ``benchmarks/results/README.md``,
keyed by the pair's id.  ``--records FILE`` reads (or imports into) another pairs file.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

from benchmarks.harness.record_files import RESULTS, append, read, records_path, run_key

PAIRS = RESULTS / "pairs.jsonl"   # the recorded pairs
SIDES = ("before", "after")


def newest_runs(records):
    """The newest record of each run among ``records``, keyed by :func:`benchmarks.harness.record_files.run_key`."""
    return {run_key(r): r for r in records}


def side_commits(pair):
    """The commits (or branch names) a pair's id ``BEFORE..AFTER[/NAME]`` names for its two sides."""
    before, sep, after = pair.split("/", 1)[0].partition("..")
    if not sep or not before or not after:
        raise ValueError(f"a pair's id is BEFORE..AFTER (the commits), optionally followed by /NAME: {pair!r}")
    return before, after


def pair_sides(records, pair):
    """The records of the pair ``pair`` among ``records`` (those of a pairs file): (before, after)."""
    return tuple([r for r in records if r.get("pair") == pair and r.get("side") == side] for side in SIDES)


def pairs_summary(records):
    """One line per pair of ``records`` (those of a pairs file), in the file's order: its id, then for each
    side its number of records, its commits and the days of its records."""
    lines = []
    for pair in dict.fromkeys(r["pair"] for r in records):
        cells = []
        for side, rows in zip(SIDES, pair_sides(records, pair)):
            commits = ", ".join(dict.fromkeys(str(r.get("commit")) for r in rows))
            days = sorted({r["timestamp"][:10] for r in rows if r.get("timestamp")})
            when = f", {days[0]}" + (f" to {days[-1]}" if days[-1] != days[0] else "") if days else ""
            cells.append(f"{side} {len(rows)} records ({commits}{when})")
        lines.append(f"{pair:24s} " + "; ".join(cells))
    return lines


def compare(before, after):
    """Print each run of both sides (lists of records) with its ratio, then the summary line, which is also
    returned (None if no run is on both sides)."""
    before, after = newest_runs(before), newest_runs(after)
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
    if not ratios:
        return None
    values = np.array([r for r, _ in ratios])
    worst = max(ratios)
    summary = (f"{len(ratios)} runs: median ratio {np.median(values):.2f}, largest {worst[0]:.2f} ({worst[1][0]}, "
               f"{worst[1][1]}, {worst[1][2]})")
    print(summary)
    return summary


def import_pair(pair, before, after, path):
    """Append the records of the files ``before`` and ``after`` (two runs side by side) to the pairs file
    ``path`` as the pair ``pair``: each record with ``pair``, ``side`` and ``commit`` added.  Refuses (ValueError)
    an id that ``path`` already holds or a side without records; returns the number of records of each side."""
    commits = side_commits(pair)
    if path.exists() and any(r.get("pair") == pair for r in read(path)):
        raise ValueError(f"{path} already holds the pair {pair!r}: give the new run another id (e.g. {pair}/rerun)")
    sides = [read(before), read(after)]
    for side, records, source in zip(SIDES, sides, (before, after)):
        if not records:
            raise ValueError(f"no records in {source} (the {side} side)")
    path.parent.mkdir(exist_ok=True)
    for side, records, commit in zip(SIDES, sides, commits):
        for record in records:
            record.update(pair=pair, side=side, commit=(record.get("versions") or {}).get("commit") or commit)
            append(path, record)
    return tuple(len(records) for records in sides)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", metavar="BEFORE.jsonl AFTER.jsonl",
                        help="two records files (with --import: the two sides of the new pair)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--pair", metavar="ID", help="compare the recorded pair ID (see --pairs)")
    action.add_argument("--pairs", action="store_true", help="list the recorded pairs")
    action.add_argument("--import", dest="import_id", metavar="ID",
                        help="append BEFORE.jsonl and AFTER.jsonl to the pairs file as the pair ID")
    parser.add_argument("--record", action="store_true",
                        help="--import into the tracked benchmarks/results/pairs.jsonl (default: benchmarks/runs/)")
    parser.add_argument("--records", metavar="FILE",
                        help="the pairs file (default: benchmarks/results/pairs.jsonl; --import: see --record)")
    args = parser.parse_args(argv)
    if len(args.files) != (0 if args.pair or args.pairs else 2):
        parser.error("give BEFORE.jsonl AFTER.jsonl, --pair ID, --pairs or --import ID BEFORE.jsonl AFTER.jsonl")
    if args.record and not args.import_id:
        parser.error("--record goes with --import (it chooses the tracked pairs file to import into)")

    if args.import_id:
        path = records_path("pairs.jsonl", args.record) if args.records is None else Path(args.records)
        try:
            counts = import_pair(args.import_id, *args.files, path)
        except ValueError as error:
            parser.error(str(error))
        print(f"pair {args.import_id}: {counts[0]} records before, {counts[1]} after, appended to {path}")
        return
    if not (args.pair or args.pairs):
        compare(read(args.files[0]), read(args.files[1]))
        return
    path = PAIRS if args.records is None else Path(args.records)
    records = read(path)
    if args.pairs:
        print("\n".join(pairs_summary(records)))
        return
    before, after = pair_sides(records, args.pair)
    if not before or not after:
        known = ", ".join(dict.fromkeys(r["pair"] for r in records))
        sys.exit(f"no pair {args.pair!r} with both sides in {path} (pairs: {known})")
    print(f"pair {args.pair}: before {', '.join(dict.fromkeys(str(r.get('commit')) for r in before))}, "
          f"after {', '.join(dict.fromkeys(str(r.get('commit')) for r in after))}")
    compare(before, after)


if __name__ == "__main__":
    main()
