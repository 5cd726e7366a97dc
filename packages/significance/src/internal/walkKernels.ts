// The rank walks' WebAssembly (rankSums.ts): one run's Spearman walk for eight resamples at a
// time, over every group (`walk`) or pair by pair between tied groups (`single`).
import { Body, compiled, module } from "./wasm.js"

/** Lanes per walk (the kernel's TILE, which it writes out: it cannot import it). */
export const LANES = 8

/**
 * One run's walk over its groups for the eight lanes, in WebAssembly SIMD (two lanes per f64x2):
 * walk(j, q, qEnd, pOut) with j the address of its sort order (the addresses of its pairs' rows:
 * eight multiplicities, then eight w rg / 2), q .. qEnd the addresses of its group ends in that
 * order; writes sum (cum + cum') s and sum (t^3 - t) per lane at pOut (8 + 8 doubles), exact.
 */
const walkFunction = (): Body => {
  const f = new Body(4)
  const [J, Q, QE, OUT] = [0, 1, 2, 3]
  const e = f.local("i32")
  const o = f.local("i32")
  const v = () => f.local("v128")
  // one temporary for every pair of lanes: 5 x 4 + 1 vectors, the fewest for eight lanes
  const after = v()
  const pairs = Array.from({ length: LANES / 2 }, () => ({ t: v(), s: v(), cum: v(), cube: v(), sxy: v() }))
  for (const p of pairs) for (const x of [p.cum, p.cube, p.sxy]) f.f64(0).f64x2Splat().set(x)
  f.block((done) => {
    f.loop((group) => {
      f.get(Q).get(QE).i32LtU().i32Eqz().brIf(done)
      f.get(Q).i32Load(0).set(e)
      for (const p of pairs) for (const x of [p.t, p.s]) f.f64(0).f64x2Splat().set(x)
      // a group is never empty: do-while over its members
      f.loop((member) => {
        f.get(J).i32Load(0).set(o)
        pairs.forEach((p, i) => {
          f.get(p.t).get(o).v128Load(16 * i).f64x2Add().set(p.t)
          f.get(p.s).get(o).v128Load(8 * LANES + 16 * i).f64x2Add().set(p.s)
        })
        f.get(J).i32(4).i32Add().tee(J).get(e).i32LtU().brIf(member)
      })
      for (const { t, s, cum, cube, sxy } of pairs) {
        // after = cum + t; sxy += (cum + after) * s; cube += t * t * t; cum = after
        f.get(cum).get(t).f64x2Add().set(after)
        f.get(sxy).get(cum).get(after).f64x2Add().get(s).f64x2Mul().f64x2Add().set(sxy)
        f.get(cube).get(t).get(t).f64x2Mul().get(t).f64x2Mul().f64x2Add().set(cube)
        f.get(after).set(cum)
      }
      f.get(Q).i32(4).i32Add().set(Q)
      f.br(group)
    })
  })
  // sum (t^3 - t) = sum t^3 - m, m = cum at the end
  pairs.forEach((p, i) => {
    f.get(OUT).get(p.sxy).v128Store(16 * i)
    f.get(OUT).get(p.cube).get(p.cum).f64x2Sub().v128Store(8 * LANES + 16 * i)
  })
  return f
}

/**
 * The walk of a run with few ties (`single`), in WebAssembly SIMD (two lanes per f64x2):
 * single(j, jEnd, tied, pOut) with j .. jEnd the addresses of its sort order (the addresses of its
 * pairs' rows: eight multiplicities w, eight s = w rg / 2, eight w s, eight w^3), `tied` the
 * address of its tied groups (first and past-the-last addresses in that order, then jEnd, jEnd);
 * writes per lane at pOut sum cum s, then over the tied groups sum (t s - sum w s) and
 * sum (t^3 - sum w^3) (8 + 8 + 8 doubles). Between tied groups, one pair
 * per step (nearly every pair of a run of real-valued scores): two loads, a multiply and two
 * additions per lane pair, the running sums (8 vectors) in registers, no group bounds read.
 */
const singleFunction = (): Body => {
  const f = new Body(4)
  const [J, JE, T, OUT] = [0, 1, 2, 3]
  const ts = f.local("i32")
  const te = f.local("i32")
  const o = f.local("i32")
  const k = f.local("i32")
  const v = () => f.local("v128")
  const pairs = Array.from({ length: LANES / 2 }, () => ({ cum: v(), acc: v() }))
  // a tied group's sums, one lane pair at a time
  const [t, s, ws, w3, w, sw] = [v(), v(), v(), v(), v(), v()]
  const S = 8 * LANES
  for (const p of pairs) for (const x of [p.cum, p.acc]) f.f64(0).f64x2Splat().set(x)
  for (let i = 0; i < LANES / 2; i++) {
    f.get(OUT).f64(0).f64x2Splat().v128Store(S + 16 * i)
    f.get(OUT).f64(0).f64x2Splat().v128Store(2 * S + 16 * i)
  }
  f.block((done) => {
    f.loop((group) => {
      f.get(T).i32Load(0).set(ts)
      f.get(T).i32Load(4).set(te)
      // the pairs before the next tied group: acc += cum s; cum += w
      f.block((last) => {
        f.loop((single) => {
          f.get(J).get(ts).i32LtU().i32Eqz().brIf(last)
          f.get(J).i32Load(0).set(o)
          pairs.forEach((p, i) => {
            f.get(p.acc).get(p.cum).get(o).v128Load(S + 16 * i).f64x2Mul().f64x2Add().set(p.acc)
            f.get(p.cum).get(o).v128Load(16 * i).f64x2Add().set(p.cum)
          })
          f.get(J).i32(4).i32Add().set(J)
          f.br(single)
        })
      })
      f.get(ts).get(JE).i32LtU().i32Eqz().brIf(done)
      // a tied group: per lane pair, its t, s, sum w s, sum w^3 over its members
      pairs.forEach((p, i) => {
        for (const x of [t, s, ws, w3]) f.f64(0).f64x2Splat().set(x)
        f.get(ts).set(k)
        f.loop((member) => {
          f.get(k).i32Load(0).set(o)
          // t += w; s += ws' (the row's s); sum w s += w ws'; sum w^3 += w w w
          f.get(o).v128Load(16 * i).set(w)
          f.get(o).v128Load(S + 16 * i).set(sw)
          f.get(t).get(w).f64x2Add().set(t)
          f.get(s).get(sw).f64x2Add().set(s)
          f.get(ws).get(w).get(sw).f64x2Mul().f64x2Add().set(ws)
          f.get(w3).get(w).get(w).f64x2Mul().get(w).f64x2Mul().f64x2Add().set(w3)
          f.get(k).i32(4).i32Add().tee(k).get(te).i32LtU().brIf(member)
        })
        // acc += cum s; cum += t; corrections t s - sum w s, t^3 - sum w^3
        f.get(p.acc).get(p.cum).get(s).f64x2Mul().f64x2Add().set(p.acc)
        f.get(p.cum).get(t).f64x2Add().set(p.cum)
        f.get(OUT).get(OUT).v128Load(S + 16 * i).get(t).get(s).f64x2Mul().get(ws).f64x2Sub().f64x2Add().v128Store(S + 16 * i)
        f.get(OUT).get(OUT).v128Load(2 * S + 16 * i).get(t).get(t).f64x2Mul().get(t).f64x2Mul().get(w3).f64x2Sub().f64x2Add().v128Store(2 * S + 16 * i)
      })
      f.get(te).set(J)
      f.get(T).i32(8).i32Add().set(T)
      f.br(group)
    })
  })
  pairs.forEach((p, i) => f.get(OUT).get(p.acc).v128Store(16 * i))
  return f
}

/** The compiled walk module, or undefined without WebAssembly SIMD. */
export const walkModule = (): object | undefined => compiled("rankSums", () => module([{ name: "walk", body: walkFunction() }, { name: "single", body: singleFunction() }], false)) ?? undefined
