// A minimal WebAssembly binary writer: just enough to emit the resampling pass's kernels (the sums,
// `sumsKernel.ts`, and the rank walks, `rankSums.ts`) from TypeScript when they are first used.
// Writing the bytes ourselves keeps the repository free of compiler toolchains, build steps and
// opaque binary blobs: a kernel's source is the TypeScript that emits it, reviewed and
// type-checked like the rest of the package.
//
// Only what the kernels need is here: one imported memory, functions with i32 / v128
// locals, structured control flow with named labels, and the scalar and SIMD (f64x2) instructions
// used. Opcodes follow the WebAssembly 2.0 core specification (SIMD is part of it; Node has
// shipped it since 16.4).

export type ValType = "i32" | "v128"

// The package compiles against ES2023 + Node types, which do not declare WebAssembly; this is the
// part of its API the kernels use.
export interface WasmMemory {
  readonly buffer: ArrayBuffer
}
export interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> }
  readonly Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory
  validate(bytes: Uint8Array): boolean
}

/** The host's WebAssembly, or undefined where there is none. */
const host: WasmApi | undefined = (globalThis as { WebAssembly?: WasmApi }).WebAssembly

/** A memory of `pages` 64 KiB pages; `shared` (with that maximum) for worker threads. Throws when refused. */
export const newMemory = (pages: number, shared: boolean): WasmMemory => {
  if (host === undefined) throw new Error("WebAssembly is not available")
  return new host.Memory(shared ? { initial: pages, maximum: pages, shared: true } : { initial: pages })
}

const modules = new Map<string, object | null>()

/**
 * The module `bytes()` describes, compiled once per `key` (each kernel, shared-memory or not);
 * null when there is no WebAssembly or it refuses the bytes (no SIMD): the pass then takes every
 * figure by its metric over the drawn pairs.
 */
export const compiled = (key: string, bytes: () => Uint8Array): object | null => {
  let m = modules.get(key)
  if (m === undefined) {
    try {
      const b = bytes()
      m = host !== undefined && host.validate(b) ? new host.Module(b) : null
    } catch {
      m = null
    }
    modules.set(key, m)
  }
  return m
}

/** An instance of `module` over `memory` (imported as `env.memory`): its exports. */
export const instantiate = (module: object, memory: WasmMemory): Record<string, unknown> => {
  if (host === undefined) throw new Error("WebAssembly is not available")
  return new host.Instance(module, { env: { memory } }).exports
}

const valType: Record<ValType, number> = { i32: 0x7f, v128: 0x7b }

/** An integer's LEB128 bytes: unsigned, or `signed` (two's complement: an i32 immediate). */
const leb = (out: Array<number>, value: number, signed = false): void => {
  let v = value
  for (;;) {
    const byte = v & 0x7f
    // floor division: an arithmetic shift for a negative value, and exact above 2^31
    v = Math.floor(v / 128)
    if (signed ? (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0) : v === 0) {
      out.push(byte)
      return
    }
    out.push(byte | 0x80)
  }
}

const name = (out: Array<number>, s: string): void => {
  const bytes = new TextEncoder().encode(s)
  leb(out, bytes.length)
  for (const b of bytes) out.push(b)
}

/** A branch target: the block / loop it was created by. */
export interface Label {
  readonly depth: number
}

/**
 * One function body, written as a stack machine in the order the instructions run. Every
 * instruction method returns `this`, so straight-line code reads as one chain.
 */
export class Body {
  readonly code: Array<number> = []
  readonly extra: Array<ValType> = []
  private depth = 0

  constructor(readonly params: number) {}

  local(t: ValType): number {
    this.extra.push(t)
    return this.params + this.extra.length - 1
  }

  private op(...bytes: Array<number>): this {
    for (const b of bytes) this.code.push(b)
    return this
  }

  /** An instruction and its one LEB128 immediate: unsigned (a branch depth, a local's index, a SIMD opcode), or `signed`. */
  private immediate(opcode: number, value: number, signed = false): this {
    this.code.push(opcode)
    leb(this.code, value, signed)
    return this
  }

  private simd(opcode: number): this { return this.immediate(0xfd, opcode) }

  private nest(opcode: number, body: (label: Label) => void): this {
    this.code.push(opcode, 0x40)
    this.depth++
    body({ depth: this.depth })
    this.depth--
    this.code.push(0x0b)
    return this
  }

  /** `block`: a branch to its label jumps past its end. */
  block(body: (label: Label) => void): this { return this.nest(0x02, body) }
  /** `loop`: a branch to its label jumps back to its start. */
  loop(body: (label: Label) => void): this { return this.nest(0x03, body) }
  /** `if` (pops an i32 condition). */
  if(then: () => void): this { return this.nest(0x04, then) }

  br(label: Label): this { return this.immediate(0x0c, this.depth - label.depth) }
  brIf(label: Label): this { return this.immediate(0x0d, this.depth - label.depth) }
  get(i: number): this { return this.immediate(0x20, i) }
  set(i: number): this { return this.immediate(0x21, i) }
  tee(i: number): this { return this.immediate(0x22, i) }

  i32(v: number): this { return this.immediate(0x41, v | 0, true) }
  f64(v: number): this { return this.op(0x44, ...new Uint8Array(new Float64Array([v]).buffer)) }

  /** A memory instruction's immediate: log2 of its alignment, and `offset`, a constant byte offset added to the address on the stack. */
  private memory(align: number, offset: number): this {
    leb(this.code, align)
    leb(this.code, offset)
    return this
  }

  i32Load(offset = 0): this { return this.op(0x28).memory(2, offset) }
  f64Store(offset = 0): this { return this.op(0x39).memory(3, offset) }

  i32Eqz(): this { return this.op(0x45) }
  i32LtU(): this { return this.op(0x49) }
  i32Add(): this { return this.op(0x6a) }
  i32Mul(): this { return this.op(0x6c) }
  /** [a, b, condition] -> a when condition is non-zero, else b. */
  select(): this { return this.op(0x1b) }

  v128Load(offset = 0): this { return this.simd(0x00).memory(4, offset) }
  /** Loads one f64 and copies it to both lanes. */
  v128Load64Splat(offset = 0): this { return this.simd(0x0a).memory(3, offset) }
  v128Store(offset = 0): this { return this.simd(0x0b).memory(4, offset) }
  f64x2Splat(): this { return this.simd(0x14) }
  /** Lane `lane` (0 or 1) of an f64x2, as an f64. */
  f64x2ExtractLane(lane: number): this { return this.simd(0x21).op(lane) }
  f64x2Add(): this { return this.simd(0xf0) }
  f64x2Sub(): this { return this.simd(0xf1) }
  f64x2Mul(): this { return this.simd(0xf2) }
}

/**
 * A module importing one memory as `env.memory` of any size (shared when `shared`, as worker
 * threads need; a shared memory must declare a maximum, here the wasm32 limit of 4 GiB), and
 * exporting the given functions. The bytes do not depend on the job, so a compiled module is reused.
 */
export const module = (functions: ReadonlyArray<{ readonly name: string; readonly body: Body }>, shared: boolean): Uint8Array => {
  const bytes: Array<number> = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]
  const section = (id: number, content: Array<number>) => {
    bytes.push(id)
    leb(bytes, content.length)
    for (const b of content) bytes.push(b)
  }
  const perFunction = (id: number, entry: (out: Array<number>, f: { readonly name: string; readonly body: Body }, i: number) => void) => {
    const content: Array<number> = []
    leb(content, functions.length)
    functions.forEach((f, i) => entry(content, f, i))
    section(id, content)
  }
  perFunction(1, (out, { body }) => {
    out.push(0x60)
    leb(out, body.params)
    for (let i = 0; i < body.params; i++) out.push(valType.i32)
    out.push(0) // i32 parameters, no results: every kernel writes to memory
  })
  const imports: Array<number> = [1]
  name(imports, "env")
  name(imports, "memory")
  imports.push(0x02, shared ? 0x03 : 0x00)
  leb(imports, 1)
  if (shared) leb(imports, 65536)
  section(2, imports)
  perFunction(3, (out, _, i) => leb(out, i))
  perFunction(7, (out, f, i) => {
    name(out, f.name)
    out.push(0x00)
    leb(out, i)
  })
  perFunction(10, (out, { body }) => {
    const fn: Array<number> = []
    leb(fn, body.extra.length)
    for (const t of body.extra) fn.push(1, valType[t])
    for (const b of body.code) fn.push(b)
    fn.push(0x0b)
    leb(out, fn.length)
    for (const b of fn) out.push(b)
  })
  return Uint8Array.from(bytes)
}
