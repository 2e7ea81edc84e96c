"""
Teaching with mrc_pyomo: one fit, one step at a time
====================================================

The loop of constraint and column generation (*Efficient Large-Scale Learning of Minimax Risk Classifiers*,
Algorithm 1) is a loop a class can watch: each step solves a small linear program, the restricted master
``P_IJ`` over a set ``I`` of rows and ``J`` of features; two oracles check its solution against every sample
(CONSTR) and every feature (FEAT); and a certificate turns the check into an interval that holds the minimax
risk ``R*``.  The loop adds what the oracles found violated and goes again, until the interval closes.

The fit is the tutorial's: 300 points in the plane, of the classes ``"blue"``, ``"green"`` and ``"red"``, in
the regime that generates rows and features, with at most 5 rows (``n_max``) and 2 features (``m_max``) per
step, so that every change can be followed.  Each cell below is one a class would run.
"""

# %%
# One step per cell
# -----------------
# ``clf.steps(X, y)`` fits as ``fit`` does, one iteration per ``next()``; nothing runs between two steps.
# ``repr(state)`` says the master's size (rows of ``I`` x features of ``J``), its value ``R^k``, the certified
# interval that holds ``R*``, and the changes that made this master.

import numpy as np
from sklearn.datasets import make_blobs

from mrc_pyomo import MRCClassifier, plot_steps

X, y = make_blobs(n_samples=300, centers=3, cluster_std=2.5, random_state=0)
y = np.array(["blue", "green", "red"])[y]   # the class labels the tables show
clf = MRCClassifier(regime="nm", n_max=5, m_max=2, eps_1=0.0, eps_2=0.0)
steps = clf.steps(X, y)
states = [next(steps)]   # the first master, solved and checked
print(states[-1])

# %%
# What made the first master
# --------------------------
# The first step lists the first master itself: the rows of the three class centroids (each with the 7
# non-empty subsets of 3 labels) and the three intercepts.  A row's ``violation`` is taken at this master's
# solution: at most 0 for the rows it holds, 0 for those that bind.

states[-1].describe()

# %%
# The fifth step
# --------------
# The first steps add features only (column generation on the centroids' rows): ``R^k`` falls, since a master
# with more columns can only do better.  Then rows enter, and ``R^k`` rises towards ``R*``.

for _ in range(4):
    states.append(next(steps))
state = states[-1]
print(state)

# %%
# ``describe()``: the changes that made this master, in the class labels.

state.describe()

# %%
# ``next_changes()``: what the oracles chose at this master for the next one, each with the violation that
# chose it (the largest).  Each row is its sample's most violated label subset, so its violation is
# ``psi(x_i) + 1 - nu^k``.

state.next_changes()

# %%
# ``summary()``: the step as a dict, with the most violated row over all samples (one more pass over the data)
# and the most violated feature.

state.summary()

# %%
# A notebook shows a state as a small table: its size and value, the interval, the changes, the largest
# violations.

state

# %%
# To the end
# ----------
# The interval closes at the step where nothing is violated: then ``R^k = R*``, certified.  The interval is
# computed by the library from the data, not read from the LP solver.

states.extend(steps)
for each in states[-3:]:
    print(each)
print(f"{clf.status_} after {clf.n_iter_} iterations: R* in [{clf.lower_:.6f}, {clf.upper_:.6f}]")

# %%
# The picture
# -----------
# Left, the certified interval closing (the upper end the exact worst-case error of the best rule found, the
# lower end the certificate's bound); middle, the rows of ``I`` and the features of ``J`` of each master;
# right, the rows and features added (and, in the regime ``"n"``, removed) to make each master.

plot_steps(states)
