// Zips written byte by byte (APPNOTE.TXT 4.3.7, 4.3.12, 4.3.16), stored, for tests that need a
// malformed one (a lying size or CRC, a central directory pointing elsewhere) or no zip library.

/** A little-endian record of `size` bytes: `fields` are [offset, 2 or 4 bytes, value]. */
const record = (size, fields) => {
  const bytes = new Uint8Array(size)
  const view = new DataView(bytes.buffer)
  for (const [at, width, value] of fields) {
    if (width === 2) view.setUint16(at, value, true)
    else view.setUint32(at, value, true)
  }
  return bytes
}

// the fields a local header and a central directory entry share, at their offsets in each
const shared = (e, name, at) => [
  [at.flags, 2, e.flags ?? 0],
  [at.flags + 2, 2, e.method ?? 0],
  [at.flags + 8, 4, e.crc ?? 0],
  [at.flags + 12, 4, e.data.length],
  [at.flags + 16, 4, e.size ?? e.data.length],
  [at.flags + 20, 2, name.length]
]

/**
 * A zip of the entries `locals`, with a central directory entry for each index of `central` (by
 * default one per local entry, in order).
 *
 * @param {ReadonlyArray<import("./zip.d.ts").RawEntry>} locals
 * @param {ReadonlyArray<number>} [central]
 * @returns {Uint8Array}
 */
export const rawZip = (locals, central = locals.map((_, i) => i)) => {
  const encoder = new TextEncoder()
  const parts = []
  const offsets = []
  let at = 0
  for (const e of locals) {
    const name = encoder.encode(e.name)
    offsets.push(at)
    const local = record(30, [[0, 4, 0x04034b50], [4, 2, 20], ...shared(e, name, { flags: 6 })])
    parts.push(local, name, e.data)
    at += local.length + name.length + e.data.length
  }
  const cdStart = at
  for (const i of central) {
    const e = locals[i]
    const name = encoder.encode(e.name)
    const c = record(46, [[0, 4, 0x02014b50], [4, 2, 20], [6, 2, 20], ...shared(e, name, { flags: 8 }), [42, 4, offsets[i]]])
    parts.push(c, name)
    at += c.length + name.length
  }
  parts.push(record(22, [[0, 4, 0x06054b50], [8, 2, central.length], [10, 2, central.length], [12, 4, at - cdStart], [16, 4, cdStart]]))
  return new Uint8Array(Buffer.concat(parts))
}
