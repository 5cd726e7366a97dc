/**
 * `node:zlib` in the check page's browser build: what the zip reader uses (formats'
 * `internal/zip.ts`), `inflateRawSync` with `maxOutputLength` (output counted as it is produced,
 * stopped past the limit with Node's `ERR_BUFFER_TOO_LARGE`, so a zip bomb is refused at the same
 * budget as in the CLI) and `crc32`. Inflating is fflate's streaming `Inflate`.
 */
import { Inflate } from "fflate"

const CHUNK = 64 * 1024

export const inflateRawSync = (data: Uint8Array, options: { readonly maxOutputLength?: number } = {}): Uint8Array => {
  const max = options.maxOutputLength ?? Number.MAX_SAFE_INTEGER
  const parts: Array<Uint8Array> = []
  let total = 0
  const inflate = new Inflate((chunk) => {
    total += chunk.length
    if (total > max) throw Object.assign(new RangeError(`Cannot create a Buffer larger than ${max} bytes`), { code: "ERR_BUFFER_TOO_LARGE" })
    parts.push(chunk)
  })
  for (let at = 0; at < data.length; at += CHUNK) inflate.push(data.subarray(at, Math.min(data.length, at + CHUNK)), at + CHUNK >= data.length)
  if (data.length === 0) inflate.push(new Uint8Array(0), true)
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const TABLE = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()

/** CRC-32 (IEEE, as zip stores it). */
export const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** The data store's downloads (never made in the page). */
export const gunzipSync = (): never => {
  throw new Error("the check page downloads nothing")
}

export default { inflateRawSync, crc32, gunzipSync }
