"""Input files in the number shapes users have (bench/run.py --numbers): one number per line,
long-form CSV, hyperfine and Google Benchmark JSON, all with seeded random values.

    number_shapes.py plain SHAPE OUT N SEED   SHAPE: repr (Python repr, up to 17 digits), g17
                                              (%.17g), dec6 (%.6f), int (whole numbers, as go
                                              test's ns/op), exp (%.7e, 1.2345678e-05)
    number_shapes.py csv OUT CONFIGS CASES RUNS SEED     long form, repr values
    number_shapes.py hyperfine OUT COMMANDS RUNS SEED    --export-json layout, repr times
    number_shapes.py gbench OUT NAMES REPS SEED          iteration rows, repr times
"""
import json
import random
import sys


def value(rng):
    # Benchmark-like: a few ms with a few per cent of noise.
    return rng.lognormvariate(-5.0, 0.05)


FORMATS = {
    "repr": repr,
    "g17": lambda x: "%.17g" % x,
    "dec6": lambda x: "%.6f" % (x * 1000),
    "int": lambda x: "%d" % int(x * 1e6),
    "exp": lambda x: "%.7e" % (x * 1e-3),
}


def main():
    kind = sys.argv[1]
    if kind == "plain":
        shape, out, n, seed = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        rng = random.Random(seed)
        fmt = FORMATS[shape]
        with open(out, "w") as f:
            f.write("\n".join(fmt(value(rng)) for _ in range(n)) + "\n")
    elif kind == "csv":
        out, configs, cases, runs, seed = sys.argv[2], *map(int, sys.argv[3:7])
        rng = random.Random(seed)
        with open(out, "w") as f:
            f.write("benchmark,case,config,value\n")
            for j in range(configs):
                for c in range(cases):
                    prefix = "bench,case-%d,config-%d," % (c, j)
                    f.write("".join(prefix + repr(value(rng)) + "\n" for _ in range(runs)))
    elif kind == "hyperfine":
        out, commands, runs, seed = sys.argv[2], *map(int, sys.argv[3:6])
        rng = random.Random(seed)
        results = []
        for k in range(commands):
            times = [value(rng) for _ in range(runs)]
            results.append({"command": "cmd %d" % k, "mean": sum(times) / runs, "stddev": 0.0,
                            "median": sorted(times)[runs // 2], "user": 0.001, "system": 0.001,
                            "min": min(times), "max": max(times), "times": times,
                            "exit_codes": [0] * runs})
        with open(out, "w") as f:
            json.dump({"results": results}, f, indent=2)
    elif kind == "gbench":
        out, names, reps, seed = sys.argv[2], *map(int, sys.argv[3:6])
        rng = random.Random(seed)
        rows = []
        for k in range(names):
            for i in range(reps):
                rows.append({"name": "BM_x/%d" % k, "family_index": 0, "per_family_instance_index": k,
                             "run_name": "BM_x/%d" % k, "run_type": "iteration",
                             "repetitions": reps, "repetition_index": i, "threads": 1,
                             "iterations": 1000, "real_time": value(rng) * 1e9,
                             "cpu_time": value(rng) * 1e9, "time_unit": "ns"})
        with open(out, "w") as f:
            json.dump({"context": {"date": "2026-12-01", "host_name": "bench",
                                   "num_cpus": 2, "library_build_type": "release"},
                       "benchmarks": rows}, f, indent=2)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
