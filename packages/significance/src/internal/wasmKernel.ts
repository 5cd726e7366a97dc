// The Pearson bootstrap kernel as WebAssembly with 128-bit SIMD, emitted by `wasm.ts`.
//
// Why WebAssembly: the work is a matrix product, counts (B x N) times data (N x 3 per run), and
// scalar JavaScript tops out at about one multiply-add per cycle with a bounds check per load.
// f64x2 instructions do two lanes per instruction with no bounds checks, which is what lets the
// kernel keep up with NumPy handing the same product to BLAS.
//
// The function `chunk` does everything for one chunk of resamples (see `resampleKernel.ts` for the
// memory layout and the JavaScript mirror that gives bit-identical results):
//   - draws each resample's multiplicities from the chunk's own xoroshiro128+ stream (64-bit
//     integer arithmetic here, where JavaScript needs four 32-bit halves), TILE = 4 resamples at a
//     time, into W[pair][lane] (f64, lane = resample within the tile);
//   - for each stratum and each run (the gold first, as a pseudo-run), streams the run's x and x*g
//     once and updates 3 sums x 4 resamples held in six f64x2 locals ("register blocking": every
//     value loaded serves four resamples, and six independent addition chains hide the latency);
//   - turns the sums into each run's correlation and aggregate, with the same operations in the
//     same order as `resampleKernel.ts`'s JavaScript, and writes samples[run * B + b].
// The function `sparse` computes the same chunk with runs in the lanes, skipping undrawn pairs (below).
import { CHUNK } from "./random.js"
import { Body, forLoop, module } from "./wasm.js"

/** Resamples per register tile (two f64x2 lanes). */
export const TILE = 4

/** Relative threshold below which a weighted variance counts as zero; as correlationKernel.ts. */
export const EPS = 1e-13

/** The locals `pairStep` reads and updates (all v128 but the two i32 pointers `p` and `q`). */
export interface PairStepLocals {
  readonly p: number
  readonly q: number
  readonly xs: number
  readonly gs: number
  readonly w0: number
  readonly w1: number
  readonly t: number
  readonly sx0: number
  readonly sx1: number
  readonly sxx0: number
  readonly sxx1: number
  readonly sxg0: number
  readonly sxg1: number
}

/**
 * One pair of the register-blocked inner loop, shared by this kernel and the intervals' sums kernel
 * (sumsKernel.ts), so that both accumulate the same sums in the same order: load the pair's x and
 * x g (at `p`) and the TILE resamples' multiplicities w (at `q`), add w x, w x^2 and w (x g) into the
 * six f64x2 accumulators, and step `q` to the next pair's weights (`p` is stepped by the caller's
 * loop condition).
 */
export const pairStep = (f: Body, l: PairStepLocals): void => {
  f.get(l.p).v128Load64Splat(0).set(l.xs)
  f.get(l.p).v128Load64Splat(8).set(l.gs)
  f.get(l.q).v128Load(0).set(l.w0)
  f.get(l.q).v128Load(16).set(l.w1)
  // t = w x; sx += t; sxx += t x; sxg += w (x g)
  f.get(l.w0).get(l.xs).f64x2Mul().tee(l.t).get(l.sx0).f64x2Add().set(l.sx0)
  f.get(l.t).get(l.xs).f64x2Mul().get(l.sxx0).f64x2Add().set(l.sxx0)
  f.get(l.w0).get(l.gs).f64x2Mul().get(l.sxg0).f64x2Add().set(l.sxg0)
  f.get(l.w1).get(l.xs).f64x2Mul().tee(l.t).get(l.sx1).f64x2Add().set(l.sx1)
  f.get(l.t).get(l.xs).f64x2Mul().get(l.sxx1).f64x2Add().set(l.sxx1)
  f.get(l.w1).get(l.gs).f64x2Mul().get(l.sxg1).f64x2Add().set(l.sxg1)
  f.get(l.q).i32(TILE * 8).i32Add().set(l.q)
}

/**
 * One accepted draw of Lemire's bounded integer from the xoroshiro128+ state (s0, s1): leaves
 * mm = u32 x m with its high word (mm >> 32) the pair drawn, below m; `thr` = (2^32 - m) mod m.
 */
const draw = (f: Body, l: { readonly s0: number; readonly s1: number; readonly mm: number; readonly m: number; readonly thr: number }): void => {
  const { s0, s1, mm, m, thr } = l
  f.loop((redraw) => {
    // output: low 32 bits of s0 + s1 (what pure-rand's next() returns), times m
    f.get(s0).get(s1).i64Add().i32WrapI64().i64ExtendI32U().get(m).i64ExtendI32U().i64Mul().set(mm)
    // advance: s1 ^= s0; s0 = rotl(s0, 24) ^ s1 ^ (s1 << 16); s1 = rotl(s1, 37)
    f.get(s1).get(s0).i64Xor().set(s1)
    f.get(s0).i64(24n).i64Rotl().get(s1).i64Xor().get(s1).i64(16n).i64Shl().i64Xor().set(s0)
    f.get(s1).i64(37n).i64Rotl().set(s1)
    f.get(mm).i32WrapI64().get(thr).i32LtU().brIf(redraw)
  })
}

const chunkFunction = (): Body => {
  const f = new Body(
    ["i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"],
    []
  )
  const [c, count, b0, N, K, S, B, pF, pStart, pCoef, pState, pSamples, pW, pAcc] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ]
  const i32 = () => f.local("i32")
  const tile = i32()
  const lanes = i32()
  const r = i32()
  const s = i32()
  const a = i32()
  const m = i32()
  const j = i32()
  const thr = i32()
  const base = i32()
  const addr = i32()
  const k = i32()
  const p = i32()
  const q = i32()
  const end = i32()
  const pGold = i32()
  const s0 = f.local("i64")
  const s1 = f.local("i64")
  const mm = f.local("i64")
  const v = () => f.local("v128")
  const sx0 = v()
  const sx1 = v()
  const sxx0 = v()
  const sxx1 = v()
  const sxg0 = v()
  const sxg1 = v()
  const xs = v()
  const gs = v()
  const w0 = v()
  const w1 = v()
  const t = v()
  const vx = v()
  const cf = v()

  const zero = () => f.f64(0).f64x2Splat()
  const forRange = (x: number, from: () => void, to: () => void, body: () => void) => forLoop(f, x, from, to, body)

  // Gold scratch after the K x TILE accumulators: m, sum w g, var, ok-mask (two vectors each),
  // then one i32 (the rejection threshold).
  f.get(pAcc).get(K).i32(TILE * 8).i32Mul().i32Add().set(pGold)
  // The chunk's generator state: s0 then s1, little-endian 64-bit.
  f.get(pState).get(c).i32(16).i32Mul().i32Add().tee(addr).i64Load(0).set(s0)
  f.get(addr).i64Load(8).set(s1)

  f.i32(0).set(tile)
  f.block((chunkDone) => {
    f.loop((nextTile) => {
      f.get(tile).get(count).i32LtU().i32Eqz().brIf(chunkDone)
      // lanes = min(TILE, count - tile)
      f.get(count).get(tile).i32Sub().tee(lanes).i32(TILE).i32GtU()
      f.if(() => {
        f.i32(TILE).set(lanes)
      })
      f.get(pW).i32(0).get(N).i32(TILE * 8).i32Mul().memoryFill()
      f.get(pAcc).i32(0).get(K).i32(TILE * 8).i32Mul().memoryFill()

      // --- multiplicities: per resample, per stratum, m draws (the documented order) ---
      forRange(r, () => f.i32(0), () => f.get(lanes), () => {
        forRange(s, () => f.i32(0), () => f.get(S), () => {
          f.get(pStart).get(s).i32(4).i32Mul().i32Add().tee(addr).i32Load(0).set(a)
          f.get(addr).i32Load(4).get(a).i32Sub().set(m)
          // Lemire's rejection threshold (2^32 - m) mod m. Stored and read back: held in a local,
          // V8's optimising compiler moved the (slow) division into the draw loop below, where it
          // cost ~10 ns per draw; a memory round trip pins it here.
          f.get(pGold).i32(0).get(m).i32Sub().get(m).i32RemU().i32Store(128)
          f.get(pGold).i32Load(128).set(thr)
          f.get(pW).get(a).i32(TILE * 8).i32Mul().i32Add().get(r).i32(8).i32Mul().i32Add().set(base)
          forRange(j, () => f.i32(0), () => f.get(m), () => {
            draw(f, { s0, s1, mm, m, thr })
            f.get(base).get(mm).i64(32n).i64ShrU().i32WrapI64().i32(TILE * 8).i32Mul().i32Add().tee(addr)
            f.get(addr).f64Load(0).f64(1).f64Add().f64Store(0)
          })
        })
      })

      // --- sums and correlations, stratum by stratum; pseudo-run 0 is the gold ---
      forRange(s, () => f.i32(0), () => f.get(S), () => {
        f.get(pStart).get(s).i32(4).i32Mul().i32Add().tee(addr).i32Load(0).set(a)
        f.get(addr).i32Load(4).get(a).i32Sub().set(m)
        f.get(pCoef).get(s).i32(8).i32Mul().i32Add().f64Load(0).f64x2Splat().set(cf)
        forRange(k, () => f.i32(0), () => f.get(K).i32(1).i32Add(), () => {
          for (const x of [sx0, sx1, sxx0, sxx1, sxg0, sxg1]) zero().set(x)
          f.get(pF).get(k).get(N).i32Mul().get(a).i32Add().i32(16).i32Mul().i32Add().tee(p)
          f.get(m).i32(16).i32Mul().i32Add().set(end)
          f.get(pW).get(a).i32(TILE * 8).i32Mul().i32Add().set(q)
          f.loop((more) => {
            pairStep(f, { p, q, xs, gs, w0, w1, t, sx0, sx1, sxx0, sxx1, sxg0, sxg1 })
            f.get(p).i32(16).i32Add().tee(p).get(end).i32Ne().brIf(more)
          })
          f.get(k).i32Eqz()
          f.if(
            () => {
              // gold: m = sum w (its "x g" is 1), sg = sum w g, vg = m sgg - sg^2, ok = vg > EPS m sgg
              const halves = [[sx0, sxx0, sxg0], [sx1, sxx1, sxg1]] as const
              halves.forEach(([sg, sgg, mw], h) => {
                f.get(pGold).get(mw).v128Store(h * 16)
                f.get(pGold).get(sg).v128Store(32 + h * 16)
                f.get(mw).get(sgg).f64x2Mul().get(sg).get(sg).f64x2Mul().f64x2Sub().set(vx)
                f.get(pGold).get(vx).v128Store(64 + h * 16)
                f.get(pGold)
                f.get(vx).f64(EPS).f64x2Splat().get(mw).f64x2Mul().get(sgg).f64x2Mul().f64x2Gt()
                f.v128Store(96 + h * 16)
              })
            },
            () => {
              const halves = [[sx0, sxx0, sxg0], [sx1, sxx1, sxg1]] as const
              halves.forEach(([sx, sxx, sxg], h) => {
                const gm = () => f.get(pGold).v128Load(h * 16)
                // vx = m sxx - sx^2
                gm().get(sxx).f64x2Mul().get(sx).get(sx).f64x2Mul().f64x2Sub().set(vx)
                // address of acc[k - 1][2h..2h+1]
                f.get(pAcc).get(k).i32(1).i32Sub().i32(TILE * 8).i32Mul().i32Add().set(addr)
                f.get(addr)
                // candidate: acc + c * clamp((m sxg - sx sg) / sqrt(vx vg), -1, 1)
                f.get(addr).v128Load(h * 16)
                f.get(cf)
                gm().get(sxg).f64x2Mul().get(sx).get(pGold).v128Load(32 + h * 16).f64x2Mul().f64x2Sub()
                f.get(vx).get(pGold).v128Load(64 + h * 16).f64x2Mul().f64x2Sqrt().f64x2Div()
                f.f64(-1).f64x2Splat().f64x2Max().f64(1).f64x2Splat().f64x2Min()
                f.f64x2Mul().f64x2Add()
                // else NaN
                f.f64(Number.NaN).f64x2Splat()
                // mask: vx > EPS m sxx, and the gold's variance is positive
                f.get(vx).f64(EPS).f64x2Splat()
                gm().f64x2Mul().get(sxx).f64x2Mul().f64x2Gt().get(pGold).v128Load(96 + h * 16).v128And()
                f.v128Bitselect().v128Store(h * 16)
              })
            }
          )
        })
      })

      // --- samples[k * B + b0 + tile + r] = acc[k][r] ---
      forRange(k, () => f.i32(0), () => f.get(K), () => {
        forRange(r, () => f.i32(0), () => f.get(lanes), () => {
          f.get(pSamples).get(k).get(B).i32Mul().get(b0).i32Add().get(tile).i32Add().get(r).i32Add().i32(8).i32Mul()
          f.i32Add()
          f.get(pAcc).get(k).i32(TILE).i32Mul().get(r).i32Add().i32(8).i32Mul().i32Add().f64Load(0)
          f.f64Store(0)
        })
      })
      f.get(tile).i32(TILE).i32Add().set(tile).br(nextTile)
    })
  })
  return f
}

/**
 * f64x2 vectors of runs per block of the sparse kernel's data: 2 (4 runs, 6 accumulators). With 3,
 * 9 accumulators, Node 22's compiler spills registers and the kernel runs slower than `chunk`
 * (Node 24 and 26 do not, and gain nothing measurable from 3).
 */
const VECTORS = 2
/** Runs per block of the sparse kernel's data, and a block row's bytes: x of each run, then x g. */
export const BLOCK_RUNS = 2 * VECTORS
export const ROW_BYTES = BLOCK_RUNS * 2 * 8
/** Bytes per resample of the sparse kernel's gold scratch: m, sum w g, variance, ok-mask, each splat to a v128. */
export const GOLD_BYTES = 64

/**
 * `sparse`: the same chunk as `chunk`, bit for bit, with about a third less arithmetic. A resample
 * leaves about e^-1 = 37% of the pairs undrawn (multiplicity 0), and their terms add +-0 to sums that
 * start at +0 and never become -0, so skipping them leaves every sum unchanged (the data being finite;
 * the caller checks). `chunk`'s lanes are four resamples, which rarely skip a pair together; here the
 * lanes are runs instead: per resample, the drawn pairs are listed once (row offset, and multiplicity
 * as f64), and each block of BLOCK_RUNS runs (data laid out pair by pair: x of the block's runs, then
 * their x g, one row) streams that list, the block's three sums per run per listed pair. Each run's
 * sums still add the pair terms in pair order with the same operations, so the same bits.
 *
 * Loop order, for the caches: the lists of all the chunk's resamples and a block's data stay in L2
 * while the block serves every resample of the chunk, so all runs' data is read once per chunk
 * instead of once per four resamples.
 *
 * The gold's sums are scalar (one pseudo-run, a two-hundredth of the work for 200 runs) with the
 * same operations as `chunk`'s gold lane (x = g, x g = 1), then splat. Correlations and the aggregate
 * over strata: `chunk`'s instructions, with runs in the lanes; acc[r][k] (k < Kp, padded with zero
 * runs to whole blocks) until the chunk's samples are written run-major.
 */
const sparseFunction = (): Body => {
  const f = new Body(Array<"i32">(21).fill("i32"), [])
  const [c, count, b0, N, K, S, B, pX, pGd, pStart, pCoef, pState, pSamples, pCounts, pOff, pWt, pLstart, pAcc, pGold, Kp, batch] =
    Array.from({ length: 21 }, (_, i) => i)
  const i32 = () => f.local("i32")
  const [r, s, a, m, j, thr, addr, k, kb, e, end, base, p, i, w32, q, n, r0, r1] = Array.from({ length: 19 }, i32)
  const s0 = f.local("i64")
  const s1 = f.local("i64")
  const mm = f.local("i64")
  const f64 = () => f.local("f64")
  const [gw, gsg, gsgg, gx, gt] = [f64(), f64(), f64(), f64(), f64()]
  const v = () => f.local("v128")
  const sx = Array.from({ length: VECTORS }, v)
  const sxx = Array.from({ length: VECTORS }, v)
  const sxg = Array.from({ length: VECTORS }, v)
  const [xv, ws, t, vx, cf, gm, gok] = Array.from({ length: 7 }, v)

  const forRange = (x: number, from: () => void, to: () => void, body: () => void) => forLoop(f, x, from, to, body)
  /** address of lstart[r (S + 1) + s + plus]: the list's entry index where stratum s (+ plus) starts */
  const lstartAt = (plus: number) => f.get(pLstart).get(r).get(S).i32(1).i32Add().i32Mul().get(s).i32Add().i32(plus).i32Add().i32(4).i32Mul().i32Add()
  /** e, q, end: the offsets' and weights' addresses of stratum s's list for resample r, and its end */
  const listOf = () => {
    lstartAt(0)
    f.i32Load(0).tee(e).i32(8).i32Mul().get(pWt).i32Add().set(q)
    f.get(e).i32(4).i32Mul().get(pOff).i32Add().set(e)
    lstartAt(1)
    f.i32Load(0).i32(4).i32Mul().get(pOff).i32Add().set(end)
  }
  const thrSlot = () => f.get(pGold).i32(CHUNK * GOLD_BYTES).i32Add()

  f.get(pState).get(c).i32(16).i32Mul().i32Add().tee(addr).i64Load(0).set(s0)
  f.get(addr).i64Load(8).set(s1)

  // --- multiplicities, in `chunk`'s order (per resample, per stratum, m draws), listed per stratum ---
  f.i32(0).set(n)
  forRange(r, () => f.i32(0), () => f.get(count), () => {
    forRange(s, () => f.i32(0), () => f.get(S), () => {
      f.get(pStart).get(s).i32(4).i32Mul().i32Add().tee(addr).i32Load(0).set(a)
      f.get(addr).i32Load(4).get(a).i32Sub().set(m)
      // Lemire's threshold through memory, as `chunk` (keeps the division out of the draw loop)
      thrSlot()
      f.i32(0).get(m).i32Sub().get(m).i32RemU().i32Store(0)
      thrSlot()
      f.i32Load(0).set(thr)
      f.get(pCounts).get(a).i32(4).i32Mul().i32Add().i32(0).get(m).i32(4).i32Mul().memoryFill()
      forRange(j, () => f.i32(0), () => f.get(m), () => {
        draw(f, { s0, s1, mm, m, thr })
        f.get(pCounts).get(a).get(mm).i64(32n).i64ShrU().i32WrapI64().i32Add().i32(4).i32Mul().i32Add().tee(addr)
        f.get(addr).i32Load(0).i32(1).i32Add().i32Store(0)
      })
      // the list: row offset and multiplicity of each drawn pair, branch-free
      lstartAt(0)
      f.get(n).i32Store(0)
      forRange(i, () => f.get(a), () => f.get(a).get(m).i32Add(), () => {
        f.get(pCounts).get(i).i32(4).i32Mul().i32Add().i32Load(0).set(w32)
        f.get(pOff).get(n).i32(4).i32Mul().i32Add().get(i).i32(ROW_BYTES).i32Mul().i32Store(0)
        f.get(pWt).get(n).i32(8).i32Mul().i32Add().get(w32).f64ConvertI32S().f64Store(0)
        f.get(n).get(w32).i32Eqz().i32Eqz().i32Add().set(n)
      })
      lstartAt(1)
      f.get(n).i32Store(0)
    })
  })

  f.get(pAcc).i32(0).get(count).get(Kp).i32Mul().i32(8).i32Mul().memoryFill()
  // resamples r0 .. r1 - 1 at a time, `batch` of them: their lists and a block's data stay in L2
  f.i32(0).set(r0)
  f.block((done) => {
    f.loop((nextBatch) => {
      f.get(r0).get(count).i32LtU().i32Eqz().brIf(done)
      f.get(r0).get(batch).i32Add().tee(r1).get(count).get(r1).get(count).i32LtU().select().set(r1)
      forRange(s, () => f.i32(0), () => f.get(S), () => {
        f.get(pCoef).get(s).i32(8).i32Mul().i32Add().f64Load(0).f64x2Splat().set(cf)
        // gold: m = sum w, sg = sum w g, sgg = sum (w g) g; then vg = m sgg - sg^2, ok = vg > EPS m sgg
        forRange(r, () => f.get(r0), () => f.get(r1), () => {
          f.f64(0).set(gw)
          f.f64(0).set(gsg)
          f.f64(0).set(gsgg)
          listOf()
          f.loop((more) => {
            f.get(pGd).get(e).i32Load(0).i32Add().f64Load(0).set(gx)
            f.get(q).f64Load(0).tee(gt)
            f.get(gx).f64Mul().set(gt)
            f.get(gsg).get(gt).f64Add().set(gsg)
            f.get(gsgg).get(gt).get(gx).f64Mul().f64Add().set(gsgg)
            f.get(gw).get(q).f64Load(0).f64(1).f64Mul().f64Add().set(gw)
            f.get(q).i32(8).i32Add().set(q)
            f.get(e).i32(4).i32Add().tee(e).get(end).i32Ne().brIf(more)
          })
          f.get(pGold).get(r).i32(GOLD_BYTES).i32Mul().i32Add().set(addr)
          f.get(addr).get(gw).f64x2Splat().v128Store(0)
          f.get(addr).get(gsg).f64x2Splat().v128Store(16)
          f.get(gw).f64x2Splat().get(gsgg).f64x2Splat().f64x2Mul().get(gsg).f64x2Splat().get(gsg).f64x2Splat().f64x2Mul().f64x2Sub().set(vx)
          f.get(addr).get(vx).v128Store(32)
          f.get(addr)
          f.get(vx).f64(EPS).f64x2Splat().get(gw).f64x2Splat().f64x2Mul().get(gsgg).f64x2Splat().f64x2Mul().f64x2Gt()
          f.v128Store(48)
        })
        // runs, a block of BLOCK_RUNS at a time, every resample of the chunk
        forRange(kb, () => f.i32(0), () => f.get(Kp).i32(BLOCK_RUNS).i32DivU(), () => {
          f.get(pX).get(kb).get(N).i32Mul().i32(ROW_BYTES).i32Mul().i32Add().set(base)
          forRange(r, () => f.get(r0), () => f.get(r1), () => {
            for (let h = 0; h < VECTORS; h++) for (const x of [sx[h], sxx[h], sxg[h]]) f.f64(0).f64x2Splat().set(x)
            listOf()
            // a stratum has at least 3 pairs, so its list is never empty
            f.loop((more) => {
              f.get(base).get(e).i32Load(0).i32Add().set(p)
              f.get(q).v128Load64Splat(0).set(ws)
              // t = w x; sx += t; sxx += t x; sxg += w (x g): `pairStep`'s operations, lanes = runs
              for (let h = 0; h < VECTORS; h++) {
                f.get(p).v128Load(16 * h).set(xv)
                f.get(ws).get(xv).f64x2Mul().tee(t).get(sx[h]).f64x2Add().set(sx[h])
                f.get(t).get(xv).f64x2Mul().get(sxx[h]).f64x2Add().set(sxx[h])
                f.get(ws).get(p).v128Load(16 * (VECTORS + h)).f64x2Mul().get(sxg[h]).f64x2Add().set(sxg[h])
              }
              f.get(q).i32(8).i32Add().set(q)
              f.get(e).i32(4).i32Add().tee(e).get(end).i32Ne().brIf(more)
            })
            f.get(pGold).get(r).i32(GOLD_BYTES).i32Mul().i32Add().set(addr)
            f.get(addr).v128Load(0).set(gm)
            f.get(addr).v128Load(48).set(gok)
            f.get(pAcc).get(r).get(Kp).i32Mul().get(kb).i32(BLOCK_RUNS).i32Mul().i32Add().i32(8).i32Mul().i32Add().set(k)
            for (let h = 0; h < VECTORS; h++) {
              // as `chunk`: vx = m sxx - sx^2; acc + c clamp((m sxg - sx sg) / sqrt(vx vg), -1, 1), else NaN
              f.get(gm).get(sxx[h]).f64x2Mul().get(sx[h]).get(sx[h]).f64x2Mul().f64x2Sub().set(vx)
              f.get(k)
              f.get(k).v128Load(h * 16)
              f.get(cf)
              f.get(gm).get(sxg[h]).f64x2Mul().get(sx[h]).get(addr).v128Load(16).f64x2Mul().f64x2Sub()
              f.get(vx).get(addr).v128Load(32).f64x2Mul().f64x2Sqrt().f64x2Div()
              f.f64(-1).f64x2Splat().f64x2Max().f64(1).f64x2Splat().f64x2Min()
              f.f64x2Mul().f64x2Add()
              f.f64(Number.NaN).f64x2Splat()
              f.get(vx).f64(EPS).f64x2Splat()
              f.get(gm).f64x2Mul().get(sxx[h]).f64x2Mul().f64x2Gt().get(gok).v128And()
              f.v128Bitselect().v128Store(h * 16)
            }
          })
        })
      })
      f.get(r1).set(r0)
      f.br(nextBatch)
    })
  })

  // --- samples[k B + b0 + r] = acc[r][k] ---
  forRange(k, () => f.i32(0), () => f.get(K), () => {
    forRange(r, () => f.i32(0), () => f.get(count), () => {
      f.get(pSamples).get(k).get(B).i32Mul().get(b0).i32Add().get(r).i32Add().i32(8).i32Mul().i32Add()
      f.get(pAcc).get(r).get(Kp).i32Mul().get(k).i32Add().i32(8).i32Mul().i32Add().f64Load(0)
      f.f64Store(0)
    })
  })
  return f
}

/** The module's bytes; `shared` for a memory that worker threads can use too. */
export const bytes = (shared: boolean): Uint8Array =>
  module([{ name: "chunk", body: chunkFunction() }, { name: "sparse", body: sparseFunction() }], shared)
