#!/usr/bin/env python3
"""All-pairs paired bootstrap with NumPy in its best formulation, for the benchmarks to compare with.

Per block of resamples: the multiplicity of every pair in every resample (np.bincount over the
drawn indices: the same counts as np.add.at on zeros, about 10x faster), then ONE batched GEMM of
those counts against the per-run sufficient statistics [x, x^2, x g] of every stratum (and [g, g^2]
for the gold), from which every run's Pearson per stratum per resample follows; the aggregate is
the unweighted or weighted mean over strata. Then every pair of runs: the shift-method p-value
(|d* - delta| >= |delta| - 1e-12, +1 smoothing) and the type 7 95% percentile interval of d*
(np.quantile, which partitions rather than sorts), in chunks of pairs. BLAS threads come from
OPENBLAS_NUM_THREADS.

Modes (prints one JSON object):
  synthetic [--resamples B]                     the two synthetic jobs of significance.bench.ts
  sick GOLD RUN...                              SICK relatedness runs (tab-separated, matched by pair_ID)
  sts2017 GOLD_DIR RUN_DIR...                   STS 2017: 7 tracks (STS.gs.* / STS.output.*), mean of tracks
  stsb GOLD RUN...                              STS Benchmark test csv gold, one score per line runs
The file modes read the files themselves, so a timed process does the whole job, start to end.
"""
import argparse
import glob
import json
import os
import sys
import time

import numpy as np

TIE = 1e-12


def draws_counts(rng, sizes, c):
    """(c, N) multiplicities: per resample, within each stratum of `sizes`, m draws with replacement."""
    N = int(sum(sizes))
    idx = np.empty((c, N), dtype=np.int64)
    at = 0
    for m in sizes:
        idx[:, at:at + m] = rng.integers(0, m, size=(c, m)) + at
        at += m
    flat = (idx + (np.arange(c, dtype=np.int64) * N)[:, None]).ravel()
    return np.bincount(flat, minlength=c * N).reshape(c, N).astype(np.float64)


def resample(gold, x, sizes, aggregate, B, block, rng):
    """gold (N,), x (K, N) aligned; sizes: pairs per stratum (in order). Returns (estimates (K,), samples (K, B))."""
    K, N = x.shape
    S = len(sizes)
    equal = len(set(sizes)) == 1
    m = sizes[0]
    weights = np.asarray(sizes, dtype=np.float64) / N if aggregate == "weighted" else np.full(S, 1.0 / S)
    # sufficient statistics per stratum: columns [x_1..x_K, x^2, x g, g, g^2]
    def stats(rows):
        g = gold[rows]
        xs = x[:, rows].T  # (m, K)
        return np.hstack([xs, xs * xs, xs * g[:, None], g[:, None], (g * g)[:, None]])

    def pearson_from(sums, msum):
        sx, sxx, sxg = sums[..., :K], sums[..., K:2 * K], sums[..., 2 * K:3 * K]
        sg, sgg = sums[..., 3 * K:3 * K + 1], sums[..., 3 * K + 1:3 * K + 2]
        with np.errstate(invalid="ignore", divide="ignore"):
            return (msum * sxg - sx * sg) / np.sqrt((msum * sxx - sx * sx) * (msum * sgg - sg * sg))

    starts = np.cumsum([0] + list(sizes))
    if equal:
        X = np.stack([stats(slice(starts[s], starts[s + 1])) for s in range(S)])  # (S, m, 3K+2)
    else:
        X = [stats(slice(starts[s], starts[s + 1])) for s in range(S)]
    # estimates: all weights 1
    est = np.zeros(K)
    for s in range(S):
        Xs = X[s]
        est += weights[s] * pearson_from(Xs.sum(axis=0), float(sizes[s]))
    samples = np.empty((K, B))
    for b0 in range(0, B, block):
        c = min(block, B - b0)
        W = draws_counts(rng, sizes, c)
        if equal:
            Wb = W.reshape(c, S, m).transpose(1, 0, 2)  # (S, c, m)
            sums = np.matmul(Wb, X)  # ONE batched GEMM: (S, c, 3K+2)
            r = pearson_from(sums, float(m))  # (S, c, K)
            samples[:, b0:b0 + c] = np.tensordot(weights, r, axes=(0, 0)).T
        else:
            acc = np.zeros((c, K))
            for s in range(S):
                acc += weights[s] * pearson_from(W[:, starts[s]:starts[s + 1]] @ X[s], float(sizes[s]))
            samples[:, b0:b0 + c] = acc.T
    return est, samples


def all_pairs(est, samples, conf=0.95, chunk=512):
    K, B = samples.shape
    a, b = np.triu_indices(K, 1)
    P = a.shape[0]
    p = np.empty(P)
    ci = np.empty((P, 2))
    alpha = 1 - conf
    for i0 in range(0, P, chunk):
        ai, bi = a[i0:i0 + chunk], b[i0:i0 + chunk]
        d = samples[ai] - samples[bi]
        delta = (est[ai] - est[bi])[:, None]
        extreme = (np.abs(d - delta) >= np.abs(delta) - TIE).sum(axis=1)
        p[i0:i0 + chunk] = (extreme + 1) / (B + 1)
        ci[i0:i0 + chunk] = np.quantile(d, [alpha / 2, 1 - alpha / 2], axis=1).T
    return p, ci


# ------------------------------------------------------------------------------------------------
# reading the files (what the timed process also does)

def read_sick(path):
    """pair_ID -> relatedness_score of a SICK file (gold or run: columns found by the header)."""
    scores = {}
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\r\n").split("\t")
        i_id, i_rel = header.index("pair_ID"), header.index("relatedness_score")
        for line in f:
            cols = line.rstrip("\r\n").split("\t")
            if len(cols) > i_rel:
                scores[cols[i_id]] = float(cols[i_rel])
    return scores


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f]


def job_sick(args):
    gold_by_id = read_sick(args.files[0])
    ids = sorted(gold_by_id)
    gold = np.array([gold_by_id[i] for i in ids])
    x = np.stack([np.array([run[i] for i in ids]) for run in map(read_sick, args.files[1:])])
    return gold, x, [len(ids)], "weighted"


def job_sts2017(args):
    gold_dir, run_dirs = args.files[0], args.files[1:]
    tracks = sorted(os.path.basename(p)[len("STS.gs."):] for p in glob.glob(os.path.join(gold_dir, "STS.gs.*.txt")))
    golds, keep, sizes = [], [], []
    for t in tracks:
        lines = read_lines(os.path.join(gold_dir, "STS.gs." + t))
        k = [i for i, s in enumerate(lines) if s != ""]
        keep.append(k)
        golds.append(np.array([float(lines[i]) for i in k]))
        sizes.append(len(k))
    x = np.stack([
        np.concatenate([
            np.array([float(v) for v in read_lines(os.path.join(d, "STS.output." + t))])[keep[j]]
            for j, t in enumerate(tracks)
        ])
        for d in run_dirs
    ])
    return np.concatenate(golds), x, sizes, "unweighted"


def job_stsb(args):
    gold = np.array([float(line.split("\t")[4]) for line in read_lines(args.files[0]) if line != ""])
    x = np.stack([np.array([float(v) for v in read_lines(r) if v != ""]) for r in args.files[1:]])
    return gold, x, [gold.shape[0]], "weighted"


def synthetic(pairs, runs, seed):
    rng = np.random.default_rng(seed)
    gold = 5 * rng.random(pairs)
    noise = 0.5 + 2 * (np.arange(runs) / runs)
    return gold, gold[None, :] + noise[:, None] * rng.standard_normal((runs, pairs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["synthetic", "sick", "sts2017", "stsb"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--block", type=int, default=100)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args()
    B = args.resamples
    if args.mode == "synthetic":
        results = []
        for name, (gold, x), sizes, agg in (
            ("numpy-counts-sts2017-44runs-7tracks-250pairs-allpairs", synthetic(7 * 250, 44, 1), [250] * 7, "unweighted"),
            ("numpy-counts-sick2014-20runs-4927pairs-allpairs", synthetic(4927, 20, 2), [4927], "weighted"),
        ):
            t0 = time.perf_counter()
            est, samples = resample(gold, x, sizes, agg, B, args.block, np.random.default_rng(args.seed))
            all_pairs(est, samples)
            results.append({"name": name, "seconds": time.perf_counter() - t0, "resamples": B, "runs": x.shape[0], "pairs": gold.shape[0]})
        print(json.dumps({"numpy": np.__version__, "results": results}))
        return
    t0 = time.perf_counter()
    gold, x, sizes, agg = {"sick": job_sick, "sts2017": job_sts2017, "stsb": job_stsb}[args.mode](args)
    t1 = time.perf_counter()
    est, samples = resample(gold, x, sizes, agg, B, args.block, np.random.default_rng(args.seed))
    t2 = time.perf_counter()
    p, ci = all_pairs(est, samples)
    t3 = time.perf_counter()
    print(json.dumps({
        "numpy": np.__version__, "runs": int(x.shape[0]), "pairs": int(gold.shape[0]), "resamples": B,
        "estimates": est.tolist(), "comparisons": int(p.shape[0]),
        "seconds": {"read": t1 - t0, "resample": t2 - t1, "allPairs": t3 - t2},
    }))


if __name__ == "__main__":
    sys.exit(main())
