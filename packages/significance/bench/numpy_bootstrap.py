#!/usr/bin/env python3
"""The same two all-pairs paired-bootstrap jobs as significance.bench.ts, with NumPy.

(a) 44 runs x 7 tracks x 250 pairs, indices drawn within each track, unweighted mean of the seven
    track Pearsons; (b) 20 runs on 4927 pairs. 10,000 resamples, then every pair of runs: percentile
    CI of the difference and the shift-method p-value with +1 smoothing (as Bootstrap.ts).

Two NumPy formulations are timed:
  gather: idx = rng.integers(...), gather gold and runs per chunk of resamples, vectorised Pearson
          (what the brief calls "a competent NumPy user");
  counts: multiplicities per resample via bincount, then the Pearson sums as matrix products
          (counts @ X), i.e. the same idea as the TypeScript kernel, handed to BLAS.
Prints JSON timings. Usage: python3 numpy_bootstrap.py [--resamples 10000] [--chunk 200]
"""
import argparse
import json
import time

import numpy as np


def synthetic(pairs, runs, seed):
    rng = np.random.default_rng(seed)
    gold = 5 * rng.random(pairs)
    noise = 0.5 + 2 * (np.arange(runs) / runs)
    x = gold[None, :] + noise[:, None] * rng.standard_normal((runs, pairs))
    return gold, x


def pearson_rows(g, x):
    """g: (c, m), x: (K, c, m) -> (K, c) Pearson of each run with the gold, per resample."""
    gc = g - g.mean(axis=-1, keepdims=True)
    xc = x - x.mean(axis=-1, keepdims=True)
    num = np.einsum("kcm,cm->kc", xc, gc)
    den = np.sqrt(np.einsum("kcm,kcm->kc", xc, xc) * np.einsum("cm,cm->c", gc, gc)[None, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den


def gather_samples(gold, x, strata_size, n_strata, B, chunk, rng):
    K = x.shape[0]
    out = np.empty((K, B))
    offsets = (np.arange(n_strata) * strata_size)[None, :, None]
    for b0 in range(0, B, chunk):
        c = min(chunk, B - b0)
        idx = rng.integers(0, strata_size, size=(c, n_strata, strata_size)) + offsets  # (c, S, m)
        g = gold[idx]  # (c, S, m)
        xs = x[:, idx]  # (K, c, S, m)
        r = pearson_rows(g.reshape(c * n_strata, strata_size), xs.reshape(K, c * n_strata, strata_size))
        out[:, b0:b0 + c] = r.reshape(K, c, n_strata).mean(axis=2)
    return out


def counts_samples(gold, x, strata_size, n_strata, B, chunk, rng):
    K, N = x.shape
    out = np.empty((K, B))
    offsets = (np.arange(n_strata) * strata_size)[None, :, None]
    m = float(strata_size)
    # per stratum blocks of the data
    xs = x.reshape(K, n_strata, strata_size)
    gs = gold.reshape(n_strata, strata_size)
    for b0 in range(0, B, chunk):
        c = min(chunk, B - b0)
        idx = rng.integers(0, strata_size, size=(c, n_strata, strata_size)) + offsets
        flat = (idx.reshape(c, N) + (np.arange(c) * N)[:, None]).ravel()
        w = np.bincount(flat, minlength=c * N).reshape(c, n_strata, strata_size).astype(np.float64)
        r = np.empty((K, c, n_strata))
        for s in range(n_strata):
            ws = w[:, s, :]  # (c, m)
            g = gs[s]
            xk = xs[:, s, :]  # (K, m)
            sg = ws @ g
            sgg = ws @ (g * g)
            sx = ws @ xk.T  # (c, K)
            sxx = ws @ (xk * xk).T
            sxg = ws @ (xk * g[None, :]).T
            vx = m * sxx - sx * sx
            vg = m * sgg - sg * sg
            with np.errstate(invalid="ignore", divide="ignore"):
                r[:, :, s] = ((m * sxg - sx * sg[:, None]) / np.sqrt(vx * vg[:, None])).T
        out[:, b0:b0 + c] = r.mean(axis=2)
    return out


def all_pairs(estimates, samples, conf=0.95):
    K = samples.shape[0]
    a, b = np.triu_indices(K, 1)
    d = samples[a] - samples[b]  # (P, B)
    delta = (estimates[a] - estimates[b])[:, None]
    valid = ~np.isnan(d)
    extreme = (np.abs(d - delta) >= np.abs(delta) - 1e-12) & valid
    p = (extreme.sum(axis=1) + 1) / (valid.sum(axis=1) + 1)
    alpha = 1 - conf
    ci = np.nanpercentile(d, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=1)
    return p, ci


def estimates_of(gold, x, strata_size, n_strata):
    K = x.shape[0]
    g = gold.reshape(n_strata, strata_size)
    xs = x.reshape(K, n_strata, strata_size)
    return pearson_rows(g, xs).mean(axis=1)


def job(name, gold, x, strata_size, n_strata, B, chunk, sampler):
    rng = np.random.default_rng(12345)
    t0 = time.perf_counter()
    est = estimates_of(gold, x, strata_size, n_strata)
    samples = sampler(gold, x, strata_size, n_strata, B, chunk, rng)
    p, ci = all_pairs(est, samples)
    seconds = time.perf_counter() - t0
    K = x.shape[0]
    assert p.shape[0] == K * (K - 1) // 2
    return {"name": name, "seconds": seconds, "resamples": B, "runs": K, "pairs": gold.shape[0]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--chunk", type=int, default=100)
    args = ap.parse_args()
    B = args.resamples
    sts_gold, sts_x = synthetic(7 * 250, 44, 1)
    sick_gold, sick_x = synthetic(4927, 20, 2)
    results = []
    for label, sampler in (("gather", gather_samples), ("counts", counts_samples)):
        results.append(job(f"numpy-{label}-sts2017-44runs-7tracks-250pairs-allpairs", sts_gold, sts_x, 250, 7, B,
                           args.chunk, sampler))
        results.append(job(f"numpy-{label}-sick2014-20runs-4927pairs-allpairs", sick_gold, sick_x, 4927, 1, B,
                           args.chunk, sampler))
    print(json.dumps({"numpy": np.__version__, "results": results}, indent=2))


if __name__ == "__main__":
    main()
