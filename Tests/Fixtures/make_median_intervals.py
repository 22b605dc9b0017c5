#!/usr/bin/env python3
"""Writes median-intervals.json: distribution-free 95% intervals of the median computed by SciPy
(`scipy.stats.quantile_test(x, q=0.5).confidence_interval(0.95)`), with the exact coverage of the chosen order
statistics (`1 - 2 * binom.cdf(l - 1, n, 0.5)`). storebench's Swift implementation is tested against it.
Run: python3 -m pip install scipy numpy; python3 Tests/Fixtures/make_median_intervals.py"""
import json
import os

import numpy as np
import scipy
from scipy import stats

rng = np.random.default_rng(20261123)
cases = []
for n in list(range(1, 41)) + [60, 100, 250]:
    x = [float(v) for v in np.round(rng.lognormal(-4, 0.6, n), 9)]
    ci = stats.quantile_test(np.array(x), q=0.5).confidence_interval(0.95)
    low = None if np.isnan(ci.low) else float(ci.low)
    high = None if np.isnan(ci.high) else float(ci.high)
    coverage = None
    if low is not None:
        ranks = [r for r in range(1, n + 1) if stats.binom.cdf(r - 1, n, 0.5) <= 0.025]
        coverage = float(1 - 2 * stats.binom.cdf(max(ranks) - 1, n, 0.5))
    cases.append({"values": x, "low": low, "high": high, "coverage": coverage})
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "median-intervals.json")
with open(path, "w", encoding="utf-8") as handle:
    json.dump({"scipy": scipy.__version__, "level": 0.95, "cases": cases}, handle, indent=1)
    handle.write("\n")
print(path)
