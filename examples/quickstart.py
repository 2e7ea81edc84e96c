"""
Fit an MRC on scikit-learn's breast-cancer data and look at what the generation loop did
========================================================================================
"""

from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)

model = make_pipeline(StandardScaler(), MRCClassifier(phi="fourier", random_state=0))
model.fit(X_train, y_train)
clf = model[-1]

print(clf.history_[["iteration", "R_master", "R_mu", "max_primal_violation", "n_rows", "n_features"]])
print(f"certified worst-case error R(mu) = {clf.upper_:.4f}, test error = {1 - model.score(X_test, y_test):.4f}")
print(f"the last restricted master has {clf.master_.n_rows} rows and {len(clf.master_.features)} features")
