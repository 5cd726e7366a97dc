/**
 * `node:buffer` in the check page's browser build: the two uses formats makes of it (`Text`:
 * `isUtf8`, and a view's UTF-8 decoding by range), and a byte comparison (`equals`), on the
 * browser's `TextDecoder`.
 */
const fatal = new TextDecoder("utf-8", { fatal: true })
const lenient = new TextDecoder("utf-8")

export const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    fatal.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** A view of bytes with Node's `toString(encoding, start, end)` and `equals` (not a `Uint8Array`: the page needs no more). */
export class Buffer {
  private constructor(readonly bytes: Uint8Array) {}
  static from(value: ArrayBufferLike | ArrayLike<number> | string, byteOffset?: number, length?: number): Buffer {
    if (typeof value === "string") return new Buffer(new TextEncoder().encode(value))
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer)) return new Buffer(new Uint8Array(value, byteOffset, length))
    return new Buffer(Uint8Array.from(value as ArrayLike<number>))
  }
  static byteLength(s: string): number {
    return new TextEncoder().encode(s).length
  }
  get length(): number {
    return this.bytes.length
  }
  toString(encoding: string = "utf8", start = 0, end = this.bytes.length): string {
    if (encoding !== "utf8" && encoding !== "utf-8") throw new Error(`the check page decodes UTF-8 only, not ${encoding}`)
    return lenient.decode(this.bytes.subarray(start, end))
  }
  equals(other: Buffer | Uint8Array): boolean {
    const b = other instanceof Buffer ? other.bytes : other
    if (b.length !== this.bytes.length) return false
    for (let i = 0; i < b.length; i++) if (b[i] !== this.bytes[i]) return false
    return true
  }
}

export default { Buffer, isUtf8 }
