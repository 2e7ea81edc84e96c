"""The master's interface (:mod:`mrc_pyomo.master.interface`): the restricted master implements every member of the
protocol the methods are written against, and the methods use nothing of a master beyond it."""

import ast
import re

import numpy as np

from helpers import ROOT, random_problem
from mrc_pyomo.master import Master
from mrc_pyomo.methods.ccg import CCGConfig, initial_master
from mrc_pyomo.problem import prepare


def test_the_restricted_master_implements_the_protocol():
    X, y = random_problem(40, 3, 3, seed=0)
    master = initial_master(prepare(X, y), CCGConfig())
    assert isinstance(master, Master)
    members = {name for name in vars(Master) if not name.startswith("_")} | set(Master.__annotations__)
    assert all(hasattr(master, name) for name in members)
    changes = master.update(np.zeros(master.n_rows, dtype=bool), np.array([0]), np.eye(3, dtype=bool)[[y[0]]],
                            np.zeros(0, dtype=np.int64))
    assert changes.rows_added[0].tolist() == [0] and len(changes.features) == 0 and not changes.removed_mask.any()
    solution = master.solve()
    assert set(solution.seconds) >= {"solve"} and master.solution is solution


def test_the_methods_use_nothing_of_a_master_beyond_the_protocol():
    """Every ``master.<name>`` in mrc_pyomo/methods is a member of the protocol (or the full LP's own record)."""
    members = {name for name in vars(Master) if not name.startswith("_")} | set(Master.__annotations__)
    # beyond it: the user's view of a master, the full LP's record of its form, a previous result's master
    allowed = members | {"model", "write", "full_lp_method", "master"}
    used = set()
    for path in (ROOT / "mrc_pyomo" / "methods").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            owner = getattr(node, "value", None)
            name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
            if isinstance(node, ast.Attribute) and re.fullmatch(r"(live_)?master|warm|previous|cold", name):
                used.add(node.attr)
    assert used <= allowed, used - allowed
    assert {"solve", "update", "certificate_rows"} <= used
