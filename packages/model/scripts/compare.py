"""Library comparison on the very folds of `model:eval` (not part of npm test).

Needs Python with lightgbm, scikit-learn and pandas, e.g.
    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install lightgbm scikit-learn pandas

For every outer fold of the held-out rows written by `model:eval --held-out FILE` (repeat, fold,
row, prediction, scoreIfSits), trains on the same fold's training rows (plus, with --extra, the
other subject's rows minus the test fold's students, as `model:eval --extra` does):
  - on the students who sat (G3 > 0), scored on the held-out students who sat:
      forest      a 500-tree random forest (scikit-learn defaults otherwise),
      lgbm        LightGBM with the package's monotone constraints, default hyperparameters,
      lgbm_tuned  the same, leaves, rows per leaf and number of trees chosen by a 5-fold CV
                  inside the training rows (nested, as this package's own choice is; GRID),
      lgbm_free   LightGBM, default hyperparameters, without constraints (what they cost),
  - on all rows (the paper's protocol, the artefact included), scored on every held-out row:
      forest_all, lgbm_all (monotone) and lgbm_free_all,
beside this package's scoreIfSits (students who sat) and headline prediction (all rows).
Prints one JSON object: per model the mean RMSE over the repeats and each repeat's.

usage: compare.py --data student-mat.csv --held held.json --setup A|B|C [--extra student-por.csv]
"""

import argparse
import itertools
import json
import re

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold

FEATURES = (
    "school sex age address famsize Pstatus Medu Fedu Mjob Fjob reason guardian traveltime "
    "studytime failures schoolsup famsup paid activities nursery higher internet romantic "
    "famrel freetime goout health absences G1 G2"
).split()
NOMINAL = ["Mjob", "Fjob", "reason", "guardian"]
# the score's constraints (packages/model/src/data.ts MONOTONE); yes/no coded no=0 < yes=1
MONOTONE = {"G1": 1, "G2": 1, "failures": -1, "absences": -1, "studytime": 1, "higher": 1,
            "goout": -1, "schoolsup": 1}
# UCI's student-merge.R attributes (data.ts MERGE_KEYS): the same student in both files
MERGE_KEYS = FEATURES[: FEATURES.index("reason") + 1] + ["nursery", "internet"]
# the nested grid for lgbm_tuned (learning rate 0.05); each point is trained once with the
# largest tree count and scored at every count of TREES (a prefix of a booster is a booster)
GRID = {"num_leaves": [2, 4, 8, 16], "min_child_samples": [5, 10, 20]}
TREES = [25, 50, 100, 200, 400]
LGBM_BASE = {"verbose": -1, "n_jobs": 1, "deterministic": True, "force_row_wise": True}


def read(path):
    df = pd.read_csv(path, sep=";")
    m = re.search(r"student-([a-z]+)\.csv$", path)
    df["subject"] = m.group(1) if m else "mat"
    return df


def design(df, setup):
    """Numeric inputs as numbers, two-valued ones 0/1 (yes = 1), nominal ones as categories."""
    drop = {"A": [], "B": ["G2"], "C": ["G1", "G2"]}[setup]
    used = [f for f in FEATURES + ["subject"] if f not in drop]
    x = df[used].copy()
    for f in used:
        if f in NOMINAL:
            x[f] = pd.Categorical(x[f])
        elif x[f].dtype == object or isinstance(x[f].dtype, pd.StringDtype):
            values = sorted(x[f].unique())
            one = "yes" if "yes" in values else values[-1]
            x[f] = (x[f] == one).astype(int)
    onehot = pd.get_dummies(x, columns=NOMINAL, dtype=int)
    cst = [MONOTONE.get(c, 0) for c in x.columns]
    return x, onehot.to_numpy(dtype=float), cst


def lgbm(params, cst):
    return lgb.LGBMRegressor(**LGBM_BASE, **params, monotone_constraints=cst)


def tuned(x, y, cst, seed):
    """The grid point with the lowest 5-fold CV RMSE inside the training rows, refitted."""
    inner = list(KFold(5, shuffle=True, random_state=seed).split(x))
    best, best_rmse = None, np.inf
    for values in itertools.product(*GRID.values()):
        params = dict(zip(GRID.keys(), values), learning_rate=0.05, n_estimators=max(TREES))
        se = np.zeros(len(TREES))
        for tr, te in inner:
            m = lgbm(params, cst).fit(x.iloc[tr], y[tr])
            for t, k in enumerate(TREES):
                pred = np.clip(m.predict(x.iloc[te], num_iteration=k), 0, 20)
                se[t] += float(((pred - y[te]) ** 2).sum())
        for t, k in enumerate(TREES):
            rmse = (se[t] / len(y)) ** 0.5
            if rmse < best_rmse:
                best, best_rmse = {**params, "n_estimators": k}, rmse
    return lgbm(best, cst).fit(x, y), best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--held", required=True)
    ap.add_argument("--setup", required=True, choices=["A", "B", "C"])
    ap.add_argument("--extra")
    ap.add_argument("--no-tuning", action="store_true")
    args = ap.parse_args()
    df = read(args.data)
    n = len(df)
    other = read(args.extra) if args.extra else df.iloc[0:0]
    both = pd.concat([df, other], ignore_index=True)
    y = both["G3"].to_numpy(dtype=float)
    keys = both[MERGE_KEYS].astype(str).agg("|".join, axis=1).to_numpy()
    x, x1h, cst = design(both, args.setup)
    free = [0] * len(cst)
    held = pd.DataFrame(json.load(open(args.held)))
    sat_models = ["ours", "forest", "lgbm", "lgbm_free"] + ([] if args.no_tuning else ["lgbm_tuned"])
    all_models = ["ours_all", "forest_all", "lgbm_all", "lgbm_free_all"]
    out = {k: [] for k in sat_models + all_models}
    chosen = []
    for r in sorted(held.repeat.unique()):
        h = held[held.repeat == r]
        se = {k: 0.0 for k in out}
        n_sat = n_all = 0
        for j in sorted(h.fold.unique()):
            test = h[h.fold == j]
            test_rows = test.row.to_numpy()
            train = np.setdiff1d(np.arange(n), test_rows)
            if args.extra:
                test_keys = set(keys[test_rows])
                extra = [i for i in range(n, len(both)) if keys[i] not in test_keys]
                train = np.concatenate([train, np.array(extra, dtype=int)])
            seed = int(r * 100 + j)
            sat_train = train[y[train] > 0]
            sat = test[test.y > 0]
            rows = sat.row.to_numpy()
            all_rows = test.row.to_numpy()

            def sq(pred, rs):
                return float(((np.clip(pred, 0, 20) - y[rs]) ** 2).sum())

            forest = RandomForestRegressor(n_estimators=500, random_state=seed, n_jobs=1)
            se["forest"] += sq(forest.fit(x1h[sat_train], y[sat_train]).predict(x1h[rows]), rows)
            for name, c in (("lgbm", cst), ("lgbm_free", free)):
                m = lgbm({}, c).fit(x.iloc[sat_train], y[sat_train])
                se[name] += sq(m.predict(x.iloc[rows]), rows)
                m = lgbm({}, c).fit(x.iloc[train], y[train])
                se[f"{name}_all"] += sq(m.predict(x.iloc[all_rows]), all_rows)
            if not args.no_tuning:
                m, params = tuned(x.iloc[sat_train], y[sat_train], cst, seed)
                chosen.append(params)
                se["lgbm_tuned"] += sq(m.predict(x.iloc[rows]), rows)
            forest = RandomForestRegressor(n_estimators=500, random_state=seed, n_jobs=1)
            se["forest_all"] += sq(forest.fit(x1h[train], y[train]).predict(x1h[all_rows]), all_rows)
            se["ours"] += float(((sat.scoreIfSits.to_numpy() - y[rows]) ** 2).sum())
            se["ours_all"] += float(((test.prediction.to_numpy() - y[all_rows]) ** 2).sum())
            n_sat += len(rows)
            n_all += len(all_rows)
        for k in out:
            out[k].append((se[k] / (n_all if k.endswith("_all") else n_sat)) ** 0.5)
    result = {k: {"mean": float(np.mean(v)), "perRepeat": v} for k, v in out.items()}
    if chosen:
        result["lgbm_tuned_chosen"] = chosen
    print(json.dumps(result))


if __name__ == "__main__":
    main()
