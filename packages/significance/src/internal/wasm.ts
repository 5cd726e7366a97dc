// A minimal WebAssembly binary writer: just enough to emit the bootstrap kernels (`wasmKernel.ts`,
// and the pairwise step's inner loop in `pairKernel.ts`) from TypeScript when they are first used.
// Writing the bytes ourselves keeps the repository free of compiler toolchains, build steps and
// opaque binary blobs: a kernel's source is the TypeScript that emits it, reviewed and
// type-checked like the rest of the package.
//
// Only what the kernels need is here: one imported memory, functions with i32 / i64 / f64 / v128
// locals, structured control flow with named labels, and the scalar, SIMD (f64x2) and bulk-memory
// instructions used. Opcodes follow the WebAssembly 2.0 core specification (SIMD and bulk memory
// are part of it; Node has shipped both since 16.4).

export type ValType = "i32" | "i64" | "f64" | "v128"

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
export const host: WasmApi | undefined = (globalThis as { WebAssembly?: WasmApi }).WebAssembly

/** A memory of `pages` 64 KiB pages; `shared` (with that maximum) for worker threads. Throws when refused. */
export const newMemory = (pages: number, shared: boolean): WasmMemory => {
  if (host === undefined) throw new Error("WebAssembly is not available")
  return new host.Memory(shared ? { initial: pages, maximum: pages, shared: true } : { initial: pages })
}

const modules = new Map<string, object | null>()

/**
 * The module `bytes()` describes, compiled once per `key` (each kernel, shared-memory or not);
 * null when there is no WebAssembly or it refuses the bytes (no SIMD), so callers fall back to
 * their JavaScript.
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

const valType: Record<ValType, number> = { i32: 0x7f, i64: 0x7e, f64: 0x7c, v128: 0x7b }

const uleb = (out: Array<number>, value: number): void => {
  let v = value
  for (;;) {
    const byte = v % 128
    v = Math.floor(v / 128)
    if (v === 0) {
      out.push(byte)
      return
    }
    out.push(byte | 0x80)
  }
}

const sleb = (out: Array<number>, value: bigint): void => {
  let v = value
  for (;;) {
    const byte = Number(v & 0x7fn)
    v >>= 7n
    if ((v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0)) {
      out.push(byte)
      return
    }
    out.push(byte | 0x80)
  }
}

const name = (out: Array<number>, s: string): void => {
  const bytes = new TextEncoder().encode(s)
  uleb(out, bytes.length)
  for (const b of bytes) out.push(b)
}

/** A branch target: the block / loop it was created by. */
export interface Label {
  readonly depth: number
}

/** Memory operand: byte offset added to the address, and log2 of the alignment hint. */
const memarg = (out: Array<number>, align: number, offset: number): void => {
  uleb(out, align)
  uleb(out, offset)
}

/**
 * One function body, written as a stack machine in the order the instructions run. Every
 * instruction method returns `this`, so straight-line code reads as one chain.
 */
export class Body {
  readonly code: Array<number> = []
  readonly extra: Array<ValType> = []
  private depth = 0

  constructor(readonly params: ReadonlyArray<ValType>, readonly results: ReadonlyArray<ValType>) {}

  /** A new local of type t; returns its index. */
  local(t: ValType): number {
    this.extra.push(t)
    return this.params.length + this.extra.length - 1
  }

  private op(...bytes: Array<number>): this {
    for (const b of bytes) this.code.push(b)
    return this
  }

  private simd(opcode: number): this {
    this.code.push(0xfd)
    uleb(this.code, opcode)
    return this
  }

  private nest(opcode: number, body: (label: Label) => void): this {
    this.code.push(opcode, 0x40)
    this.depth++
    body({ depth: this.depth })
    this.depth--
    this.code.push(0x0b)
    return this
  }

  /** `block`: a branch to its label jumps past its end. */
  block(body: (label: Label) => void): this {
    return this.nest(0x02, body)
  }

  /** `loop`: a branch to its label jumps back to its start. */
  loop(body: (label: Label) => void): this {
    return this.nest(0x03, body)
  }

  /** `if` (pops an i32 condition), with an optional `else`. */
  if(then: () => void, otherwise?: () => void): this {
    this.code.push(0x04, 0x40)
    this.depth++
    then()
    if (otherwise !== undefined) {
      this.code.push(0x05)
      otherwise()
    }
    this.depth--
    this.code.push(0x0b)
    return this
  }

  br(label: Label): this {
    this.code.push(0x0c)
    uleb(this.code, this.depth - label.depth)
    return this
  }

  brIf(label: Label): this {
    this.code.push(0x0d)
    uleb(this.code, this.depth - label.depth)
    return this
  }

  get(i: number): this {
    this.code.push(0x20)
    uleb(this.code, i)
    return this
  }

  set(i: number): this {
    this.code.push(0x21)
    uleb(this.code, i)
    return this
  }

  tee(i: number): this {
    this.code.push(0x22)
    uleb(this.code, i)
    return this
  }

  drop(): this {
    return this.op(0x1a)
  }

  i32(v: number): this {
    this.code.push(0x41)
    sleb(this.code, BigInt(v | 0))
    return this
  }

  i64(v: bigint): this {
    this.code.push(0x42)
    sleb(this.code, BigInt.asIntN(64, v))
    return this
  }

  f64(v: number): this {
    this.code.push(0x44)
    const bytes = new Uint8Array(new Float64Array([v]).buffer)
    for (const b of bytes) this.code.push(b)
    return this
  }

  // Memory: `offset` is a constant byte offset added to the address on the stack.
  i32Load(offset = 0): this {
    this.code.push(0x28)
    memarg(this.code, 2, offset)
    return this
  }

  i64Load(offset = 0): this {
    this.code.push(0x29)
    memarg(this.code, 3, offset)
    return this
  }

  f64Load(offset = 0): this {
    this.code.push(0x2b)
    memarg(this.code, 3, offset)
    return this
  }

  i32Store(offset = 0): this {
    this.code.push(0x36)
    memarg(this.code, 2, offset)
    return this
  }

  i64Store(offset = 0): this {
    this.code.push(0x37)
    memarg(this.code, 3, offset)
    return this
  }

  f64Store(offset = 0): this {
    this.code.push(0x39)
    memarg(this.code, 3, offset)
    return this
  }

  /** memory.fill (bulk memory): [address, byte value, length] -> []. */
  memoryFill(): this {
    return this.op(0xfc, 0x0b, 0x00)
  }

  // i32
  i32Eqz(): this { return this.op(0x45) }
  i32Ne(): this { return this.op(0x47) }
  i32LtU(): this { return this.op(0x49) }
  i32LtS(): this { return this.op(0x48) }
  i32GtU(): this { return this.op(0x4b) }
  i32Add(): this { return this.op(0x6a) }
  i32Sub(): this { return this.op(0x6b) }
  i32Mul(): this { return this.op(0x6c) }
  i32RemU(): this { return this.op(0x70) }
  i32DivU(): this { return this.op(0x6e) }
  i32Shl(): this { return this.op(0x74) }
  i32WrapI64(): this { return this.op(0xa7) }
  i32And(): this { return this.op(0x71) }
  i32ShrU(): this { return this.op(0x76) }
  i32ShrS(): this { return this.op(0x75) }
  i32LeS(): this { return this.op(0x4c) }
  i32LeU(): this { return this.op(0x4d) }
  i32GeS(): this { return this.op(0x4e) }
  i32GtS(): this { return this.op(0x4a) }
  /** [a, b, condition] -> a when condition is non-zero, else b. */
  select(): this { return this.op(0x1b) }
  /** f64 -> i32, saturating (NaN -> 0). */
  i32TruncSatF64S(): this { return this.op(0xfc, 0x02) }

  // i64
  i64Add(): this { return this.op(0x7c) }
  i64Mul(): this { return this.op(0x7e) }
  i64Xor(): this { return this.op(0x85) }
  i64Shl(): this { return this.op(0x86) }
  i64ShrU(): this { return this.op(0x88) }
  i64Rotl(): this { return this.op(0x89) }
  i64ExtendI32U(): this { return this.op(0xad) }

  // f64
  f64Add(): this { return this.op(0xa0) }
  f64Sub(): this { return this.op(0xa1) }
  f64Mul(): this { return this.op(0xa2) }
  f64Div(): this { return this.op(0xa3) }
  f64Floor(): this { return this.op(0x9c) }
  f64Gt(): this { return this.op(0x64) }
  f64ConvertI32S(): this { return this.op(0xb7) }

  // v128 / f64x2
  v128Load(offset = 0): this {
    this.simd(0x00)
    memarg(this.code, 4, offset)
    return this
  }

  /** Loads one f64 and copies it to both lanes. */
  v128Load64Splat(offset = 0): this {
    this.simd(0x0a)
    memarg(this.code, 3, offset)
    return this
  }

  v128Store(offset = 0): this {
    this.simd(0x0b)
    memarg(this.code, 4, offset)
    return this
  }

  /** [a, b, mask] -> lanes of a where mask bits are 1, else of b. */
  v128Bitselect(): this { return this.simd(0x52) }
  v128And(): this { return this.simd(0x4e) }
  v128Or(): this { return this.simd(0x50) }
  f64x2Splat(): this { return this.simd(0x14) }
  f64x2Gt(): this { return this.simd(0x4a) }
  f64x2Le(): this { return this.simd(0x4b) }
  f64x2Ge(): this { return this.simd(0x4c) }
  f64x2Abs(): this { return this.simd(0xec) }
  i64x2Sub(): this { return this.simd(0xd1) }
  /** [v] -> i32 whose bit i is the sign bit of i64 lane i (a comparison mask's lanes as bits). */
  i64x2Bitmask(): this { return this.simd(0xc4) }
  f64x2ExtractLane(lane: 0 | 1): this {
    this.simd(0x21)
    this.code.push(lane)
    return this
  }
  i64x2ExtractLane(lane: 0 | 1): this {
    this.simd(0x1d)
    this.code.push(lane)
    return this
  }
  f64x2Sqrt(): this { return this.simd(0xef) }
  f64x2Add(): this { return this.simd(0xf0) }
  f64x2Sub(): this { return this.simd(0xf1) }
  f64x2Mul(): this { return this.simd(0xf2) }
  f64x2Div(): this { return this.simd(0xf3) }
  f64x2Min(): this { return this.simd(0xf4) }
  f64x2Max(): this { return this.simd(0xf5) }
}

/** for (x = from; x < to; x++) body, with i32 locals (compared unsigned); `to` is evaluated each time. */
export const forLoop = (f: Body, x: number, from: () => void, to: () => void, body: () => void): void => {
  from()
  f.set(x)
  f.block((done) => {
    f.loop((again) => {
      f.get(x)
      to()
      f.i32LtU().i32Eqz().brIf(done)
      body()
      f.get(x).i32(1).i32Add().set(x).br(again)
    })
  })
}

export interface FunctionDef {
  readonly name: string
  readonly body: Body
}

/**
 * A module importing one memory as `env.memory` of any size (shared when `shared`, as worker
 * threads need; a shared memory must declare a maximum, here the wasm32 limit of 4 GiB), and
 * exporting the given functions. The bytes do not depend on the job, so a compiled module is reused.
 */
export const module = (functions: ReadonlyArray<FunctionDef>, shared: boolean): Uint8Array => {
  const bytes: Array<number> = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]
  const section = (id: number, content: Array<number>) => {
    bytes.push(id)
    uleb(bytes, content.length)
    for (const b of content) bytes.push(b)
  }
  const types: Array<number> = []
  uleb(types, functions.length)
  for (const { body } of functions) {
    types.push(0x60)
    uleb(types, body.params.length)
    for (const t of body.params) types.push(valType[t])
    uleb(types, body.results.length)
    for (const t of body.results) types.push(valType[t])
  }
  section(1, types)
  const imports: Array<number> = [1]
  name(imports, "env")
  name(imports, "memory")
  imports.push(0x02, shared ? 0x03 : 0x00)
  uleb(imports, 1)
  if (shared) uleb(imports, 65536)
  section(2, imports)
  const funcs: Array<number> = []
  uleb(funcs, functions.length)
  functions.forEach((_, i) => uleb(funcs, i))
  section(3, funcs)
  const exports: Array<number> = []
  uleb(exports, functions.length)
  functions.forEach((f, i) => {
    name(exports, f.name)
    exports.push(0x00)
    uleb(exports, i)
  })
  section(7, exports)
  const code: Array<number> = []
  uleb(code, functions.length)
  for (const { body } of functions) {
    const fn: Array<number> = []
    uleb(fn, body.extra.length)
    for (const t of body.extra) {
      fn.push(1, valType[t])
    }
    for (const b of body.code) fn.push(b)
    fn.push(0x0b)
    uleb(code, fn.length)
    for (const b of fn) code.push(b)
  }
  section(10, code)
  return Uint8Array.from(bytes)
}
