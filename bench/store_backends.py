#!/usr/bin/python3
"""The results store on both back ends, side by side (docs/store.md, "Speed").

Runs build/bench/bench_store on a new SQLite file and on a new database of a throwaway
PostgreSQL cluster (tests/pg_cluster.sh: a temporary directory, a Unix socket only, stopped and
deleted at the end), with the same N result sets, and prints one table: recording rate, the
series fetch (wall and CPU time; for PostgreSQL the client's CPU plus the server process's), and
the ratio PostgreSQL / SQLite of each (above 1: PostgreSQL takes longer). Then both query plans.

    /usr/bin/python3 bench/store_backends.py [N]      # N result sets, default 10000
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = os.path.join(ROOT, "build", "bench", "bench_store")
CLUSTER = os.path.join(ROOT, "tests", "pg_cluster.sh")


def run_bench(store, n):
    out = subprocess.run([BENCH, store, str(n)], check=True, capture_output=True, text=True).stdout
    rec = re.search(r"record: \d+ result sets .*: ([\d.]+) s \(([\d.]+) sets/s\)", out)
    ser = re.search(r"series: .* over (\d+) commits .*: ([\d.]+) ms wall, ([\d.]+) ms CPU"
                    r"(?: \+ ([\d.]+) ms server CPU)?", out)
    if not rec or not ser:
        raise RuntimeError("unexpected bench_store output:\n" + out)
    plan = out[out.index("plan of the series query:"):].splitlines()[1:]
    return {
        "record_s": float(rec.group(1)), "sets_per_s": float(rec.group(2)),
        "commits": int(ser.group(1)), "wall_ms": float(ser.group(2)),
        "cpu_ms": float(ser.group(3)) + float(ser.group(4) or 0.0),
        "server_ms": float(ser.group(4)) if ser.group(4) else None, "plan": plan,
    }


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    if not os.access(BENCH, os.X_OK):
        sys.exit("store_backends: build bench_store first (cmake --build build --target bench_store)")
    started = subprocess.run(["bash", CLUSTER, "start"], check=True, capture_output=True,
                             text=True).stdout
    env = dict(re.findall(r"export (\w+)='([^']*)'", started))
    try:
        url = env["TALLY_TEST_PG_URL"]
        subprocess.run(["psql", url, "-qX", "-v", "ON_ERROR_STOP=1", "-c",
                        "CREATE DATABASE store_bench"], check=True, capture_output=True)
        pg_url = re.sub(r"^(postgres[a-z]*://[^/?]*)/[^?]*", r"\1/store_bench", url)
        with tempfile.TemporaryDirectory() as tmp:
            lite = run_bench(os.path.join(tmp, "bench.db"), n)
        pg = run_bench(pg_url, n)
    finally:
        subprocess.run(["bash", CLUSTER, "stop", env.get("TALLY_PG_CLUSTER", "")], check=False)
    rows = [
        ("record N sets, one transaction each (s)", "record_s"),
        ("series fetch, wall (ms, median of 11)", "wall_ms"),
        ("series fetch, CPU (ms, median of 11; PostgreSQL: client+server)", "cpu_ms"),
    ]
    print(f"results store, {n} result sets of 100 samples; series of one case over "
          f"{lite['commits']} commits\n")
    print(f"| {'':<64} | {'SQLite':>9} | {'PostgreSQL':>10} | {'PG / SQLite':>11} |")
    print(f"| {'-' * 64} | {'-' * 8}: | {'-' * 9}: | {'-' * 10}: |")
    for title, key in rows:
        print(f"| {title:<64} | {lite[key]:>9.1f} | {pg[key]:>10.1f} | {pg[key] / lite[key]:>11.2f} |")
    print(f"\nPostgreSQL server CPU within its figure: {pg['server_ms']:.1f} ms")
    for name, r in (("SQLite", lite), ("PostgreSQL", pg)):
        print(f"\nplan of the series query, {name}:")
        print("\n".join(r["plan"]))


if __name__ == "__main__":
    main()
