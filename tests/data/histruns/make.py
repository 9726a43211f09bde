#!/usr/bin/python3
"""Writes base.json and new.json: latency histogram runs for the CLI cases of the pooled and
per-run levels (docs/statistics.md, "Histogram runs"). Each run: 2000 requests, lognormal
(sigma 0.5) around 100 us times the run's own factor exp(N(0, 0.2)) (runs differ, so a run's
requests are not independent of each other), rounded to whole microseconds (resolution 1 us).
'new' is 20 % slower. 'get' has 12 runs a side, 'put' 3 (too few for a cluster bootstrap).
Run: /usr/bin/python3 make.py"""
import json
import numpy as np


def runs(rng, count, scale):
    out = []
    for _ in range(count):
        x = np.rint(scale * 100 * np.exp(rng.normal(0, 0.2) + rng.normal(0, 0.5, 2000)))
        v, c = np.unique(np.maximum(x, 1), return_counts=True)
        out.append({"resolution": 1, "values": [int(a) for a in v], "counts": [int(a) for a in c]})
    return out


for label, seed, scale in (("base", 1, 1.0), ("new", 2, 1.2)):
    rng = np.random.default_rng(seed)
    doc = {"format": "tally-results", "version": 1, "results": [{
        "label": label, "benchmarks": [{
            "name": "latency", "unit": "us", "better": "lower",
            "cases": [{"name": "get", "histograms": runs(rng, 12, scale)},
                      {"name": "put", "histograms": runs(rng, 3, scale)}]}]}]}
    with open(label + ".json", "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
