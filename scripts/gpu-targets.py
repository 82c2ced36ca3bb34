#!/usr/bin/env python3
# scripts/gpu-targets.py: the GPU targets from the benchmark's rows, as geometric means of
# time (or working set) relative to cuSPARSE's in the same row, over every graph, the real
# graphs of the data folder, and the large generated ones (grid, web-like, R-MAT).
#   scripts/gpu-targets.py [docs/data/bench-gpu-h200-all.csv]
# A graph whose row lacks a value (nan: not measured, or a batch skipped) is left out of that
# mean; each mean says over how many graphs it runs.
# SPDX-License-Identifier: Apache-2.0
import csv
import math
import sys

LARGE = ("grid", "web", "rmat")


def num(row, col):
    try:
        v = float(row[col])
    except (KeyError, ValueError):
        return None
    return None if math.isnan(v) or v <= 0 else v


def geomean(rows, num_col, den_col):
    logs = []
    for r in rows:
        a, b = num(r, num_col), num(r, den_col)
        if a is not None and b is not None:
            logs.append(math.log(a / b))
    return (math.exp(sum(logs) / len(logs)), len(logs)) if logs else (None, 0)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "docs/data/bench-gpu-h200-all.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    large = [r for r in rows if r["graph"].startswith(LARGE)]
    real = [r for r in rows if not r["graph"].startswith(LARGE)]
    subsets = (("all", rows), ("real", real), ("large", large))
    targets = (
        ("k2+B right <= 2.0x SpMV", "right_k2F_ms", "right_cusparse_ms"),
        ("k2 right <= 4x SpMV", "right_k2_ms", "right_cusparse_ms"),
        ("k2+B left <= 1.3x transposed SpMV", "left_k2F_ms", "left_cusparse_ms"),
        ("batched k2+R <= 2.5x SpMM", "batch_k2R_ms", "batch_cusparse_ms"),
        ("batched k2+B", "batch_k2F_ms", "batch_cusparse_ms"),
        ("batched k2 (tree only)", "batch_k2_ms", "batch_cusparse_ms"),
        ("k2+R right", "right_k2R_ms", "right_cusparse_ms"),
        ("k2+R left", "left_k2R_ms", "left_cusparse_ms"),
        ("k2 left", "left_k2_ms", "left_cusparse_ms"),
        ("k2 working set", "ws_k2_B", "ws_cusparse_B"),
    )
    print("%-36s" % "ratio (geometric mean)" + "".join("%16s" % s for s, _ in subsets))
    for name, a, b in targets:
        cells = []
        for _, sub in subsets:
            g, n = geomean(sub, a, b)
            cells.append("%16s" % ("-" if g is None else "%.2fx (%d)" % (g, n)))
        print("%-36s" % name + "".join(cells))
    # the working-set target names graphs: the web-like ones and the unpermuted R-MAT
    print("k2 working set / cuSPARSE's, web-like and unpermuted R-MAT:")
    for r in large:
        g = r["graph"]
        if g.startswith("web") or (g.startswith("rmat") and not g.endswith("p")):
            print("  %-10s %.3f" % (g, num(r, "ws_k2_B") / num(r, "ws_cusparse_B")))


if __name__ == "__main__":
    main()
