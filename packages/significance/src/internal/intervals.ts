// The resampling pass behind Intervals.ts: per resample, one index multiset per dataset (shared
// by the gold and every run), every run's per-dataset figure from sufficient statistics and its
// aggregates under the edition's rule, into a matrix [resample][run][figure]. The heavy parts are
// sumsKernel.ts (the sums of moment- and count-declared metrics) and rankSums.ts (Spearman and
// Kendall walks), which fill their figures before the per-resample loop here reads them.
//
// A dataset whose metric declares other statistics (MSE, weighted Pearson, macro-F1, a task's own)
// is `generic`: the loop records each resample's drawn pairs (the very draws that feed the sums,
// so every metric of a call shares its resamples) and takes the metric's figure over them; so are
// `pooled` / `allnrm` over datasets of a correlation other than Pearson.
import { Moments, Rescale } from "@stseval/metrics"
import type { Metric as Descriptor } from "@stseval/metrics"
import type { Labelled, Options, Rule } from "../intervals/model.js"
import { makeGeneric } from "./genericLanes.js"
import * as Random from "./random.js"
import * as RankSums from "./rankSums.js"
import * as SumsKernel from "./sumsKernel.js"
import * as Threads from "./threads.js"
import type * as Wasm from "./wasm.js"

/**
 * How a dataset is resampled, from its metric's declaration: the moments' sums (`invariant`: on
 * data centred and scaled per side; `shifted`: centred on the gold's mean, both sides), accuracy's
 * counts (`correct`), the rank walks (`walk`), or the figure over each resample's drawn pairs
 * (`generic`).
 */
export type Metric = "invariant" | "shifted" | "correct" | "walk" | "tau" | "generic"

/** Relative threshold below which a weighted variance counts as zero (as metrics' Moments). */
const EPS = 1e-13
const { TILE, SUMS } = SumsKernel
const { maxAbs, unitScale } = Rescale

/** The job, checked and laid out (Intervals.ts builds it from the public input). */
export interface Job {
  /** Dataset d occupies pair positions [start[d], start[d + 1]). */
  readonly start: Int32Array
  readonly metric: ReadonlyArray<Metric>
  /** Weight of a dataset entering as r = 0 under the `zero` rule (its annotated gold pairs). */
  readonly weight: Float64Array
  readonly runs: number
  /** has[k * D + d] = 1 when run k has scores for dataset d. */
  readonly has: Uint8Array
  /** Gold scores per position (Pearson / Spearman datasets; 0 for accuracy). */
  readonly gold: Float64Array
  /** Run scores, run-major [k * N + position]; accuracy: 1 = correct label, 0 = wrong; 0 where absent. */
  readonly x: Float64Array
  readonly labelled: ReadonlyArray<Labelled>
  readonly official: Rule
  readonly missing: "zero" | "no-official-score"
  /** `lower`: the official figure is better when lower (MSE): ranks count the runs strictly below. */
  readonly direction?: "higher" | "lower" | undefined
  /**
   * Per dataset, what a lacking dataset (or an undefined figure) counts as under `zero`: the
   * metric's `missingValue`. Default 0 (r = 0, 0% accuracy).
   */
  readonly missingValue?: Float64Array | undefined
  /** Per dataset, the figure of its sums (the metric's declared `figure`), for the sums kernel's datasets. */
  readonly figure: ReadonlyArray<Descriptor.Sums["figure"] | undefined>
  /** The datasets resampled by their metric's figure over the drawn pairs, and generic `pooled` / `allnrm` (see below). */
  readonly generic?: GenericJob | undefined
  /**
   * The same job with every figure by its metric over the drawn pairs: the pass without the
   * WebAssembly kernels (none, or they refuse memory). Undefined when it is that already.
   */
  readonly generically?: (() => Job) | undefined
}

/** What the generic path needs beyond the kernels' layout. */
export interface GenericJob {
  /** Per dataset, its metric (read for the `generic` ones). */
  readonly metrics: ReadonlyArray<Descriptor.Metric>
  /** Label codes per position (one table per dataset for its gold and runs), for labels metrics. */
  readonly goldCodes?: Int32Array | undefined
  /** Run label codes, run-major [k * N + position]. */
  readonly codes?: Int32Array | undefined
  /** Per dataset, how many labels its code table has (labels metrics). */
  readonly labels: Int32Array
  /** Run confidences, run-major, where `hasConfidence[k * D + d]` (weighted Pearson). */
  readonly confidence?: Float64Array | undefined
  readonly hasConfidence?: Uint8Array | undefined
  /** A generic dataset's figure on the original pairs (the metric's `compute`); NaN when undefined. */
  readonly original: (k: number, d: number) => number
  /**
   * The metric of `pooled` / `allnrm` when it is not Pearson (whose sums give them): the metric over
   * the concatenated pairs (`allnrm`: of the run fitted to the gold within each dataset).
   */
  readonly pooled?: Descriptor.ScoresMetric | undefined
}

/** What the set-up needs to know of the pass to come: its resamples, and the threads asked for (default: by the work). */
export interface Sizing {
  readonly resamples: number
  readonly threads?: number | undefined
  /** The runs of the whole job when it is taken tile by tile of runs: its threads are decided by the whole work. */
  readonly runs?: number | undefined
  /** Tile by tile of runs: the memory each tile leaves to the next (`scratch()`), rather than to the collector. */
  readonly scratch?: Scratch | undefined
}

/**
 * The buffers of one tile of runs' pass that the next tile reuses when large enough: the sums'
 * memory, the walks' memory and the resampled figures (left to the collector, the tiles of 2,000
 * STS-B runs held about 60 MB of garbage at once).
 */
export interface Scratch {
  x?: Float64Array | undefined
  readonly sums: { memory?: Wasm.WasmMemory | undefined }
  readonly walks: RankSums.Scratch
  /**
   * The sums' lists, chunk by chunk, of the draws (`key`: seed, resamples and layout) the first
   * tile made: the next tiles take them rather than drawing and listing again (for 2,000 STS-B runs
   * in 4 tiles, 3 x 1.4 million draws).
   */
  draws?: { readonly key: string; readonly chunks: Array<SumsKernel.Saved | undefined>; readonly walks?: RankSums.Kept | undefined } | undefined
}

export const scratch = (): Scratch => ({ sums: {}, walks: {} })

/**
 * (resamples x pairs x runs) from which the sums take a second thread: a chunk's call then costs a
 * message to each helper and a wait (about 0.1 ms), against about 40 ms of work per chunk here.
 */
const SUMS_THREAD_WORK = 5e8

/**
 * How many resampled figures Intervals.ts holds at once, `elements` (4 MiB of them: two passes at
 * once hold 2,000 STS-B runs' within 300 MB; the tiles after the first take its draws, so a tile
 * costs little more than its runs), and tests' hooks: `held`, told each tile's size, `drawn`, each
 * chunk of resamples drawn for the sums, and `walking`, each tile's walks as they start.
 */
export const tiling: { elements: number; held: ((elements: number) => void) | undefined; drawn: ((chunk: number) => void) | undefined; walking: ((runs: number) => void) | undefined } = {
  elements: 1 << 19,
  held: undefined,
  drawn: undefined,
  walking: undefined
}

/** The threads, and (tests only) how the rank walks are split over them (rankSums.ts). */
export type PassOptions = Pick<RankSums.RunOptions, "threads" | "callerWorks" | "onDone">

export const meanOf = (v: Float64Array, from: number, to: number, scale: number): number => {
  let m = 0
  for (let i = from; i < to; i++) m += v[i] * scale
  return m / (to - from)
}

/**
 * Everything that does not change between resamples: centred data for the sums kernel, per-dataset
 * means (to undo the centring for pooled figures), and the walked datasets' sort orders.
 */
const setUp = (job: Job, sizing: Sizing) => {
  const { start, runs: K, has, gold, x, metric } = job
  const D = metric.length
  const N = start[D]
  const K1 = K + 1
  // Centring within each dataset leaves every correlation unchanged and keeps the raw sums free of
  // cancellation; pooled figures add the means back (below).
  const meanG = new Float64Array(D)
  const meanX = new Float64Array(K * D)
  const span = new Int32Array(D).fill(-1)
  const spans: Array<number> = []
  const spearman = RankSums.plan(start, metric, K, has, gold, x, sizing.scratch?.walks)
  // Pearson's sides at unit scale: the gold, and each run, times an exact power of two over its
  // Pearson datasets (1 for ordinary scores, whose bits do not change), so that scores like 1e200
  // (whose squares overflow) or 1e-200 (whose squares underflow) give the figures they give at
  // unit scale. One factor per side for all its datasets keeps pooled and ALLnrm figures exact too.
  let goldMax = 0
  const runMax = new Float64Array(K)
  for (let d = 0; d < D; d++) {
    if (metric[d] !== "invariant") continue
    const a = start[d]
    const e = start[d + 1]
    goldMax = Math.max(goldMax, maxAbs(gold, a, e))
    for (let k = 0; k < K; k++) if (has[k * D + d] === 1) runMax[k] = Math.max(runMax[k], maxAbs(x, k * N + a, k * N + e))
  }
  const goldScale = unitScale(goldMax)
  const runScale = runMax.map(unitScale)
  for (let d = 0; d < D; d++) {
    if (start[d + 1] === start[d] || (metric[d] !== "invariant" && metric[d] !== "shifted" && metric[d] !== "correct")) continue
    span[d] = spans.length / 2
    spans.push(start[d], start[d + 1])
  }
  // the centred data, written where the sums read them (the module's memory)
  const fill = (F: Float64Array, { base, step, gap }: SumsKernel.Layout): void => {
    const g0 = base(0)
    for (let d = 0; d < D; d++) {
      const a = start[d]
      const e = start[d + 1]
      if (span[d] < 0) continue
      const accuracy = metric[d] === "correct"
      // a `shifted` figure keeps its scale, and both sides are centred on the gold's mean
      const shifted = metric[d] === "shifted"
      const pg = metric[d] === "invariant" ? goldScale : 1
      const mg = accuracy ? 0 : meanOf(gold, a, e, pg)
      meanG[d] = mg
      for (let i = a; i < e; i++) {
        F[g0 + i * step] = gold[i] * pg - mg
        F[g0 + i * step + gap] = 1
      }
      for (let k = 0; k < K; k++) {
        if (has[k * D + d] === 0) continue
        const o = k * N
        const px = metric[d] === "invariant" ? runScale[k] : 1
        const mx = shifted ? mg : accuracy ? 0 : meanOf(x, o + a, o + e, px)
        meanX[k * D + d] = mx
        const f = base(k + 1)
        for (let i = a; i < e; i++) {
          const xi = x[o + i] * px - mx
          F[f + i * step] = xi
          F[f + i * step + gap] = xi * F[g0 + i * step]
        }
      }
    }
  }
  // the sums of a whole chunk of resamples per call, on several threads for large jobs; none for a
  // job without summed datasets
  const work = sizing.resamples * N * ((sizing.runs ?? K) + 1)
  const threads = Threads.count(sizing.threads, work, SUMS_THREAD_WORK)
  const sums = spans.length === 0 ? undefined : SumsKernel.make(fill, N, K1, Int32Array.from(spans), Random.CHUNK / TILE, threads, undefined, sizing.scratch?.sums)
  // tiled: the tiles of runs after this one draw the same resamples
  return { N, K1, meanG, meanX, span, spans: spans.length / 2, spearman, sums, scratch: sizing.scratch, tiled: (sizing.runs ?? K) > K }
}

/**
 * The figures of one resample (one lane of the sums): each run's per-dataset figures, labelled
 * aggregates and official figure, written to row[base + k * figures + f], which holds NaN but for
 * the walked figures (rankSums.ts), on entry; counts in `degenerate` per (run, figure) the
 * resamples where a correlation entering the figure was undefined although it was defined on the
 * original pairs (in `estimates`: not NaN).
 */
const makeFigures = (job: Job, setup: ReturnType<typeof setUp>, generic: ReturnType<typeof makeGeneric>) => {
  const { start, metric, weight, runs: K, has, labelled, official: rule, missing } = job
  const { K1, meanG, meanX, span, sums } = setup
  const D = metric.length
  const L = labelled.length
  const FIG = D + L + 1
  // the sums of the tile being filled (none without summed datasets)
  const tiles = sums?.out ?? [new Float64Array(0)]
  let out = tiles[0]
  const pools = rule === "pooled" || rule === "allnrm"
  const zero = missing === "zero"
  const missingValue = job.missingValue ?? new Float64Array(metric.length)
  // the declared figure's arguments: [m, sx, sxx, sg, sgg, sxg] (moments), [m, correct] (counts)
  const moments = new Float64Array(6)
  // the pool's moments (`pool`), in the same order
  const pooled = new Float64Array(6)
  const size = Float64Array.from(metric, (_, d) => start[d + 1] - start[d])

  // the draws of the lane being filled (the original pairs when estimating), for a generic pool
  let picks: Int32Array | undefined
  const genericPool = generic?.pool

  /**
   * Pooled Pearson (or ALLnrm) of run k over the datasets it has (all Pearson datasets); of the
   * generic metric over the lane's draws when the datasets' correlation is not Pearson.
   */
  const pool = (k: number, lane: number, nrm: boolean): number => {
    if (genericPool !== undefined) return genericPool(k, picks!, nrm)
    // Each dataset's values are centred on its own means; shifting them back by (its mean - the
    // first dataset's mean) restores the pool while keeping the totals well conditioned. The pool's
    // moments are summed in place, [M, sum x, sum x^2, sum g, sum g^2, sum x g], Pearson's arguments.
    const t = pooled.fill(0)
    let ref = -1
    let q = 0
    let cgg = 0
    let tgm = 0
    let tgm2 = 0
    for (let d = 0; d < D; d++) {
      const sp = span[d]
      if (has[k * D + d] === 0 || sp < 0) continue
      if (ref < 0) ref = d
      const g = sp * K1 * SUMS + lane
      const md = out[g + 2 * TILE]
      const sgd = out[g]
      const sggd = out[g + TILE]
      const o = g + (k + 1) * SUMS
      const sx = out[o]
      const sxx = out[o + TILE]
      const sxg = out[o + 2 * TILE]
      const cg = meanG[d] - meanG[ref]
      t[0] += md
      if (nrm) {
        // ALLnrm: within the dataset the run is replaced by its least-squares fit to the gold,
        // gold mean + b (x - x mean), so the pool's sums are the between-dataset spread of the gold
        // means (A, below) plus, per dataset, Cxg^2 / Cxx (fitted) and Cgg (gold).
        const cxx = sxx - (sx * sx) / md
        const cxg = sxg - (sx * sgd) / md
        // a run constant on the dataset fits to the gold's mean (b = 0), as Aggregate.allNrm
        if (cxx > EPS * sxx) q += (cxg * cxg) / cxx
        cgg += sggd - (sgd * sgd) / md
        const gm = cg + sgd / md
        tgm += md * gm
        tgm2 += md * gm * gm
      } else {
        const cx = meanX[k * D + d] - meanX[k * D + ref]
        t[1] += sx + cx * md
        t[2] += sxx + 2 * cx * sx + cx * cx * md
        t[3] += sgd + cg * md
        t[4] += sggd + 2 * cg * sgd + cg * cg * md
        t[5] += sxg + cx * sgd + cg * sx + cx * cg * md
      }
    }
    const M = t[0]
    if (M === 0) return Number.NaN
    if (nrm) {
      // r(fitted, gold) = (A + Q) / sqrt((A + Q) (A + sum Cgg)) = sqrt((A + Q) / (A + sum Cgg))
      const A = tgm2 - (tgm * tgm) / M
      const fitted = A + q
      const goldVar = A + cgg
      if (!(goldVar > EPS * (tgm2 + cgg)) || !(fitted > EPS * goldVar)) return Number.NaN
      const r = Math.sqrt(fitted / goldVar)
      return r > 1 ? 1 : r
    }
    return Moments.pearson(t, 0)
  }

  /** The mean (`wmean`: by pairs) of the figures at row[o ..]: a labelled one's of those defined, the official one's by the rule (ScoredRun.officialOf / officialMean). */
  const mean = (row: Float64Array, o: number, aggregate: Rule, official: boolean): number => {
    let s = 0
    let sw = 0
    for (let d = 0; d < D; d++) {
      const v = row[o + d]
      if (v === v) {
        const w = aggregate === "wmean" ? size[d] : 1
        s += w * v
        sw += w
      } else if (official) {
        // lacking: the metric's missing value (r = 0) with the dataset's weight under `zero`, else
        // no official figure
        if (!zero) return Number.NaN
        const w = aggregate === "mean" ? 1 : weight[d]
        if (w === 0) return Number.NaN
        s += w * missingValue[d]
        sw += w
      }
    }
    return sw > 0 ? s / sw : Number.NaN
  }

  /** Resample r of the chunk (lane r mod TILE of tile r / TILE), `draws` its generic draws (or the original pairs). */
  const fill = (r: number, row: Float64Array, base: number, degenerate: Int32Array, estimates: Float64Array, draws: Int32Array | undefined): void => {
    out = tiles[Math.floor(r / TILE)]
    picks = draws
    const lane = r % TILE
    for (let d = 0; d < D; d++) {
      const sp = span[d]
      // Spearman (already in the row, rankSums.ts) or no pairs
      if (sp < 0) continue
      const g = sp * K1 * SUMS + lane
      const figure = job.figure[d]!
      // a count's figure reads [m, correct] of these
      moments[0] = out[g + 2 * TILE]
      moments[3] = out[g]
      moments[4] = out[g + TILE]
      for (let k = 0; k < K; k++) {
        if (has[k * D + d] === 0) continue
        const o = g + (k + 1) * SUMS
        moments[1] = out[o]
        moments[2] = out[o + TILE]
        moments[5] = out[o + 2 * TILE]
        row[base + k * FIG + d] = figure(moments, 0, 0)
      }
    }
    for (let k = 0; k < K; k++) {
      const o = base + k * FIG
      const f0 = k * FIG
      let any = 0
      let present = 0
      for (let d = 0; d < D; d++) {
        if (has[k * D + d] === 0) continue
        present++
        const v = row[o + d]
        if (v !== v && estimates[f0 + d] === estimates[f0 + d]) {
          degenerate[f0 + d]++
          any = 1
        }
      }
      for (let j = 0; j < L; j++) {
        const aggregate = labelled[j]
        let v: number
        if (aggregate === "pooled" || aggregate === "allnrm") {
          v = present === 0 ? Number.NaN : pool(k, lane, aggregate === "allnrm")
          if (v !== v && estimates[f0 + D + j] === estimates[f0 + D + j]) degenerate[f0 + D + j]++
        } else {
          // over the datasets with a figure in this resample
          v = mean(row, o, aggregate, false)
          degenerate[f0 + D + j] += any
        }
        row[o + D + j] = v
      }
      const v = present === 0 ? Number.NaN : rule === "single" ? row[o] : pools ? (present === D ? pool(k, lane, rule === "allnrm") : Number.NaN) : mean(row, o, rule, true)
      row[o + D + L] = v
      // a pool's when it is undefined itself; a mean's, or `single`'s (its one dataset), when a dataset's figure is
      if (pools ? v !== v && estimates[f0 + D + L] === estimates[f0 + D + L] : any === 1) degenerate[f0 + D + L]++
    }
  }
  return { figures: FIG, fill }
}

/** The estimates and what the pass reuses of their set-up; undefined when the kernels are missing. */
const prepare = (job: Job, sizing: Sizing, engine: "js" | "wasm") => {
  const setup = setUp(job, sizing)
  const generic = makeGeneric(job)
  const figures = makeFigures(job, setup, generic)
  const { sums, N } = setup
  const KF = job.runs * figures.figures
  const estimates = new Float64Array(KF).fill(Number.NaN)
  const walked = RankSums.original(setup.spearman, job.start, KF, figures.figures, estimates, setup.scratch?.walks)
  if ((setup.spans > 0 && sums === undefined) || !walked) return undefined
  sums?.list(new Float64Array(N).fill(1))
  sums?.run()
  generic?.fill(-1, estimates, 0, figures.figures)
  // nothing is defined yet: no resample counts as degenerate
  figures.fill(0, estimates, 0, new Int32Array(KF), new Float64Array(KF).fill(Number.NaN), generic?.identity)
  return { job, setup, generic, figures, estimates, engine }
}

/** `job` is the one the pass takes: `Job.generically` when the kernels are missing. */
export type Prepared = NonNullable<ReturnType<typeof prepare>>

/**
 * Estimates on the original pairs (every multiplicity 1). Without the kernels (`engine` js, or
 * WebAssembly SIMD or its memory missing) the job goes generically (`Job.generically`); `wasm`
 * throws then.
 */
export const estimate = (job: Job, engine: Options["engine"] = "auto", sizing: Sizing = { resamples: 1, threads: 1 }): Prepared => {
  const prepared = engine === "js" && job.generically !== undefined ? undefined : prepare(job, sizing, engine === "js" ? "js" : "wasm")
  if (prepared !== undefined) return prepared
  if (engine === "wasm") throw new Error("WebAssembly (with SIMD) is not available")
  return prepare(job.generically!(), sizing, "js")!
}

/**
 * The draws of a chunk's `count` resamples in the documented order (as Bootstrap.resample: per
 * resample, per dataset, m draws), counted per pair and listed into the sums resample by resample
 * for the summed datasets (`span[d] >= 0`), and kept pair by pair in `picks` (resample r's draws of
 * dataset d at r N + start[d] + j) for the generic figures. The draws are most of a pass's
 * JavaScript time (4.9 million per 1,000 resamples of SICK); in a small function of their own V8
 * inlines the bounded draw whatever else the pass grows to hold.
 */
const draw = (rng: Random.Rng, count: number, start: Int32Array, span: Int32Array, sums: SumsKernel.Sums | undefined, counts: Float64Array, picks: Int32Array | undefined): void => {
  const D = start.length - 1
  const N = start[D]
  for (let r = 0; r < count; r++) {
    const o = r * N
    for (let d = 0; d < D; d++) {
      const a = start[d]
      const n = start[d + 1] - a
      const c = span[d] >= 0 ? counts : undefined
      for (let j = 0; j < n; j++) {
        const q = a + Random.below(rng, n)
        if (picks !== undefined) picks[o + a + j] = q
        if (c !== undefined) c[q] += 1
      }
    }
    sums?.list(counts)
  }
}

/** A pass's start: its walks, if any, set going (`passSteps` takes it). */
export type Walking = ReturnType<typeof startWalks>

/**
 * Starts a pass of B resamples drawn from `seed` in the documented order: its walked figures
 * (rankSums.ts) on the helper threads, if it has any.
 */
export const startWalks = (prepared: Prepared, B: number, seed: number, progress?: (done: number, total: number) => void, options: PassOptions = {}) => {
  const { job, setup } = prepared
  const { start } = job
  const states = Random.chunkStates(seed, Math.ceil(B / Random.CHUNK))
  const every = Math.max(1, Math.ceil(B / 100))
  const walks = setup.spearman.dataset.length > 0
  // Progress: the rank walks, when there are any, are most of the work; they report the
  // resamples done up to the last step before B, the loop below the end.
  let next = every
  const walked = (units: number) => {
    const done = Math.min(B, units * Random.CHUNK)
    for (; next < B && next <= done; next += every) progress?.(next, B)
  }
  // the draws' multiplicities for the next tiles' walks (at most a dataset's pairs: 16 bits), as the sums' lists; up to 64 MiB
  const scratch = setup.scratch
  const key = `${seed} ${B} ${start.join(",")}`
  if (scratch !== undefined && scratch.draws?.key !== key) {
    const bytes = walks && setup.tiled && setup.N < 65536 && 2 * B * setup.N <= 1 << 26 ? 2 * B * setup.N : 0
    scratch.draws = { key, chunks: [], walks: bytes > 0 ? { counts: new Uint16Array(typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes)), full: false } : undefined }
  }
  // resample-major, so each resample's figures are written in one contiguous row
  const { samples, running } = RankSums.walks(setup.spearman, start, states, B, job.runs * prepared.figures.figures, prepared.figures.figures, {
    ...options,
    scratch: setup.scratch?.walks,
    kept: scratch?.draws?.walks,
    ...(progress !== undefined && walks ? { progress: walked } : {})
  })
  tiling.walking?.(job.runs)
  return { B, every, progress, samples, running, states, walks }
}

/**
 * The resampling pass `walking` started, in steps (Threads.interleave): the walked figures first
 * (yielded while the helper threads walk, for another pass to go on here; then `ahead`, which a
 * pass tile by tile of runs gives to start its next tile's walks), then chunk by chunk (each a
 * step) every tile's draws, their sums in one call, and resample by resample the generic figures,
 * the sums' figures and the aggregates. Gives samples[b * runs * figures + k * figures + f] (NaN:
 * undefined in that resample) and per (run, figure) the resamples where a correlation entering
 * the figure was undefined (`degenerate`).
 */
export function* passSteps(prepared: Prepared, walking: Walking, ahead?: () => void): Threads.Steps<{ readonly samples: Float64Array; readonly degenerate: Int32Array }> {
  const { job, setup, generic, figures, estimates } = prepared
  const { start } = job
  const FIG = figures.figures
  const KF = job.runs * FIG
  const { sums, scratch } = setup
  const { B, every, progress, samples, running, states, walks } = walking
  if (walks) yield running
  running.join()
  ahead?.()
  const degenerate = new Int32Array(KF)
  // the draws feed the sums and the generic figures (the walks draw their own)
  const counts = new Float64Array(setup.N)
  // without generic figures (which need the draws themselves), the sums' lists are kept for the next tile of runs
  const kept = sums !== undefined && generic === undefined ? scratch?.draws?.chunks : undefined
  for (let c = 0; c * Random.CHUNK < B; c++) {
    yield undefined
    const b0 = c * Random.CHUNK
    const count = Math.min(Random.CHUNK, B - b0)
    const saved = kept?.[c]
    if (saved !== undefined) sums!.run(saved)
    else {
      if (sums !== undefined || generic !== undefined) {
        draw(Random.chunkRng(states, c), count, start, setup.span, sums, counts, generic?.picks)
        tiling.drawn?.(c)
      }
      sums?.run()
      if (kept !== undefined) kept[c] = sums!.save()
    }
    for (let r = 0; r < count; r++) {
      const b = b0 + r
      generic?.fill(r, samples, b * KF, FIG)
      figures.fill(r, samples, b * KF, degenerate, estimates, generic?.lanes[r])
      if (progress !== undefined && (b + 1 === B || (!walks && (b + 1) % every === 0))) progress(b + 1, B)
    }
  }
  return { samples, degenerate }
}
