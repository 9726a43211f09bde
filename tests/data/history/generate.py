#!/usr/bin/python3
"""Writes the test data of tally history (tests/cli/cases/history/): commits.csv, 30 commits of
4 runs each of two series, noise CV 1 %, a +6 % step of hackbench/1-groups at commit c18 (the
first slow one) and a +40 % single-commit spike of hackbench/8-groups at c09; and p1..p6.json,
one result set per file with `time` and `commit` metadata, an -8 % drop (a regression of a
higher-is-better rate) from p4 on. Seeded: the files are
reproducible with /usr/bin/python3 generate.py."""
import json
import random

random.seed(30)
rows = ["benchmark,case,config,value,unit,better"]
for i in range(1, 31):
    for case, base in (("1-groups", 0.5), ("8-groups", 2.0)):
        level = base * (1.06 if case == "1-groups" and i >= 18 else 1.0)
        level *= 1.4 if case == "8-groups" and i == 9 else 1.0
        for _ in range(4):
            rows.append(f"hackbench,{case},c{i:02d},{level * random.gauss(1, 0.01):.5f},s,lower")
with open("commits.csv", "w") as f:
    f.write("\n".join(rows) + "\n")

times = ["2026-01-0%dT10:00:00Z" % d for d in range(1, 7)]
for k, order in enumerate([3, 1, 5, 2, 6, 4]):
    level = 1000.0 * (0.92 if order >= 4 else 1.0)
    samples = [round(level * random.gauss(1, 0.002), 3) for _ in range(5)]
    doc = {"format": "tally-results", "version": 1, "results": [{
        "label": f"p{order}", "metadata": {"time": times[order - 1], "commit": f"{order:04x}abcd"},
        "benchmarks": [{"name": "stream", "unit": "MB/s", "better": "higher",
                        "cases": [{"name": "Triad", "samples": samples}]}]}]}
    with open(f"p{order}.json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
