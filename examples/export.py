"""
Export the restricted master of any iteration and re-solve it outside mrc_pyomo
===============================================================================

A callback writes the master of iteration 2 and the last master to .lp and .mps files; HiGHS reads each file
back and its optimal value is the master's R^k.  Names say what each row and column is: in the files,
``c_u_batch_3_row(x17_C0_2)_`` is the row (a <= row, ``c_u_``) of sample 17 with label subset {0, 2}, added in
the third batch of rows (``batch_3.row[x17,C0_2]`` in the Pyomo model), ``c_u_batch_1_row(centroid1_C1)_`` a
class-centroid row, ``mu_pos(2_5)`` / ``mu_neg(2_5)`` the positive / negative part of the coefficient of class
2, feature 5.  GLPK reads the MPS file as free MPS (``glpsol --freemps master.mps``).

::

    python examples/export.py [--fast] [--out DIR]
"""

import argparse
import tempfile
from pathlib import Path

from sklearn.datasets import load_iris
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier
from mrc_pyomo.master.highs_backend import quiet_highs


def solve_file(path):
    h = quiet_highs()   # a highspy.Highs that prints no banner (highspy >= 1.16 prints one when made)
    h.readModel(str(path))
    h.run()
    return h.getInfo().objective_function_value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--out", help="folder for the files (default: a temporary one)")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)

    X, y = load_iris(return_X_y=True)
    if args.fast:
        X, y = X[::2], y[::2]
    X = StandardScaler().fit_transform(X)
    written = {}

    def export_second(state):
        if state.iteration == 2:
            written[2] = (state.master.write(out / "master_it2.lp"), state.record["R_master"])
        return False

    clf = MRCClassifier(n_max=10, callback=export_second).fit(X, y)
    written[clf.n_iter_] = (clf.master_.write(out / "master_last.mps"), clf.objective_)
    for iteration, (path, R_k) in sorted(written.items()):
        print(f"iteration {iteration}: {path.name}: R^k = {R_k:.10f}, HiGHS on the file: {solve_file(path):.10f}")
    lp_text = (out / "master_it2.lp").read_text().splitlines()
    names = [line.rstrip(":") for line in lp_text if line.startswith("c_u_batch_")]
    assert names, "the .lp file has no named rows"
    print("some row names in the .lp file:", ", ".join(names[:3]), "...")


if __name__ == "__main__":
    main()
