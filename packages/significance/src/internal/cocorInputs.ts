// The cocor tests' inputs, r(gold, A), r(gold, B) and r(A, B): each side centred once at unit scale
// (`Rescale.unitScale`: squares of scores near 1e200 overflow), per pair one cross sum, r by Pearson's
// declared figure (`Moments.pearson`). All pairs of 500 runs need 124,750 r(A, B): `table` takes 16
// cross sums per pass in WebAssembly SIMD (65-85 ms of CPU against 140-170 ms in JavaScript).
import { Moments, Rescale } from "@stseval/metrics"
import { meanOf } from "./intervals.js"
import { Body, compiled, instantiate, module, newMemory } from "./wasm.js"

/** What tests count instead of timing: the score arrays centred (`side`), one increment per array. */
export const centrings = { count: 0 }

/** One side, computed once (counted): its values at unit scale minus their mean, and their sum and sum of squares. */
export const side = (x: Float64Array) => {
  centrings.count++
  const n = x.length
  const scale = Rescale.unitScale(Rescale.maxAbs(x))
  const mean = meanOf(x, 0, n, scale)
  const centred = new Float64Array(n)
  let sum = 0
  let squares = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] * scale - mean
    centred[i] = d
    sum += d
    squares += d * d
  }
  return { centred, sum, squares }
}

type Side = ReturnType<typeof side>

const moments = new Float64Array(Moments.count)

/** r of two sides from their cross sum: Pearson's declared figure of the moments (NaN for a constant side). */
const figure = (x: Side, y: Side, cross: number): number => {
  moments[0] = x.centred.length
  moments[1] = x.sum
  moments[2] = x.squares
  moments[3] = y.sum
  moments[4] = y.squares
  moments[5] = cross
  return Moments.pearson(moments, 0)
}

export const r = (x: Side, y: Side): number => {
  const dx = x.centred
  const dy = y.centred
  let cross = 0
  for (let i = 0; i < dx.length; i++) cross += dx[i] * dy[i]
  return figure(x, y, cross)
}

/** Runs against one gold, the one way to their sides: the gold centred once (when first needed), each run centred with r(gold, run), its estimate. */
export const against = (gold: Float64Array): (run: Float64Array) => { readonly side: Side; readonly r: number } => {
  let g: Side | undefined
  return (run) => {
    g ??= side(gold)
    const s = side(run)
    return { side: s, r: r(g, s) }
  }
}

/** f64x2 accumulators of the wide kernel: 16 cross sums per pass over x (eight of x86's sixteen vector registers). */
const WIDE = 8
/** Columns of a block of the laid-out sides: what the wide kernel reads per index, one line after another. */
const BLOCK = 2 * WIDE

/**
 * `cross(p, stride, pX, n, o)`: the cross sums of x (n doubles at pX) with 2 lanes columns, value i
 * of the first at p + i stride (bytes), into o; in `r`'s order (WebAssembly fuses nothing): same bits.
 */
const crossFunction = (lanes: number): Body => {
  const f = new Body(5)
  const [p, stride, q, n, o] = [0, 1, 2, 3, 4]
  const end = f.local("i32")
  const xs = f.local("v128")
  const acc = Array.from({ length: lanes }, () => f.local("v128"))
  for (const a of acc) f.f64(0).f64x2Splat().set(a)
  f.get(q).get(n).i32(8).i32Mul().i32Add().set(end)
  f.get(q).get(end).i32LtU()
  f.if(() => {
    f.loop((more) => {
      f.get(q).v128Load64Splat(0).set(xs)
      acc.forEach((a, l) => f.get(xs).get(p).v128Load(16 * l).f64x2Mul().get(a).f64x2Add().set(a))
      f.get(p).get(stride).i32Add().set(p)
      f.get(q).i32(8).i32Add().tee(q).get(end).i32LtU().brIf(more)
    })
  })
  acc.forEach((a, l) => f.get(o).get(a).v128Store(16 * l))
  return f
}

/**
 * r(sides[a], sides[c]) for c in from .. to - 1 into out[at + c - from], bit for bit as `r`: the sides
 * laid out once in blocks of 16, value i of a block's sides side by side, so that one SIMD load takes
 * two columns. Without WebAssembly SIMD, `r` of each pair.
 */
export const table = (sides: ReadonlyArray<Side>): (a: number, from: number, to: number, out: Float64Array, at: number) => void => {
  const js = (a: number, from: number, to: number, out: Float64Array, at: number) => {
    for (let c = from; c < to; c++) out[at + c - from] = r(sides[a], sides[c])
  }
  const wasm = compiled("cross", () => module([{ name: "wide", body: crossFunction(WIDE) }, { name: "narrow", body: crossFunction(1) }], false))
  const K = sides.length
  const n = K === 0 ? 0 : sides[0].centred.length
  if (wasm === null || K < 4 || sides.some((s) => s.centred.length !== n)) return js
  const blocks = Math.ceil(K / BLOCK)
  const pX = 8 * blocks * BLOCK * n
  const pOut = pX + 8 * n
  let memory
  try {
    memory = newMemory(Math.ceil((pOut + 8 * blocks * BLOCK) / 65536), false)
  } catch {
    return js // a memory this size refused: the same sums in JavaScript
  }
  const { wide, narrow } = instantiate(wasm, memory) as Record<string, (...args: Array<number>) => void>
  const heap = new Float64Array(memory.buffer)
  /** Byte address of column c's first value. */
  const at0 = (c: number) => 8 * ((c - (c % BLOCK)) * n + (c % BLOCK))
  sides.forEach((s, k) => {
    const base = at0(k) / 8
    for (let i = 0; i < n; i++) heap[base + i * BLOCK] = s.centred[i]
  })
  const cross = heap.subarray(pOut / 8)
  return (a, from, to, out, at) => {
    heap.set(sides[a].centred, pX / 8)
    // an odd first column alone, then pairs up to a block's start, whole blocks, and pairs
    const first = from % 2 === 1 && from < to ? from + 1 : from
    let c = first
    for (; c + 2 <= to && c % BLOCK !== 0; c += 2) narrow(at0(c), 8 * BLOCK, pX, n, pOut + 8 * c)
    for (; c + BLOCK <= to; c += BLOCK) wide(at0(c), 8 * BLOCK, pX, n, pOut + 8 * c)
    for (; c + 2 <= to; c += 2) narrow(at0(c), 8 * BLOCK, pX, n, pOut + 8 * c)
    for (let k = first; k < c; k++) out[at + k - from] = figure(sides[a], sides[k], cross[k])
    if (first > from) out[at] = r(sides[a], sides[from])
    if (c < to) out[at + to - 1 - from] = r(sides[a], sides[to - 1])
  }
}
