/**
 * The check page's stand-ins for Node's modules (src/page/browser/shims) answer as Node does, on
 * what the packages ask of them: SHA-256 (the signature's hashes), CRC-32 and raw inflate with an
 * output limit (the zip reader), POSIX paths. Each checked against Node's own module here.
 */
import * as crypto from "node:crypto"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { describe, expect, it } from "vitest"
import * as Sha from "../src/page/browser/shims/crypto.js"
import * as Paths from "../src/page/browser/shims/path.js"
import * as Zlib from "../src/page/browser/shims/zlib.js"

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 2654435761 + seed * 97) % 251)

describe("the check page's Node stand-ins answer as Node", () => {
  it("sha256: every length around the block edges, in one update or many", () => {
    for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 100_000]) {
      const data = bytes(n, n)
      const node = crypto.createHash("sha256").update(data).digest("hex")
      expect(Sha.createHash("sha256").update(data).digest("hex"), `${n} bytes`).toBe(node)
      const parts = Sha.createHash("sha256")
      for (let at = 0; at < n; at += 37) parts.update(data.subarray(at, at + 37))
      expect(parts.digest("hex"), `${n} bytes in parts`).toBe(node)
    }
    expect(Sha.createHash("sha256").update("é\u0000x").digest("hex")).toBe(crypto.createHash("sha256").update("é\u0000x").digest("hex"))
  })

  it("crc32 and raw inflate, within the limit and past it (Node's ERR_BUFFER_TOO_LARGE)", () => {
    for (const n of [0, 1, 1000, 300_000]) {
      const data = bytes(n, 3)
      expect(Zlib.crc32(data)).toBe(zlib.crc32(data))
      const packed = zlib.deflateRawSync(data)
      expect(Buffer.from(Zlib.inflateRawSync(packed, { maxOutputLength: Math.max(1, n) })).equals(zlib.inflateRawSync(packed, { maxOutputLength: Math.max(1, n) }))).toBe(true)
    }
    const bomb = zlib.deflateRawSync(new Uint8Array(10_000_000))
    const code = (f: () => unknown) => {
      try {
        f()
        return "none"
      } catch (e) {
        return (e as { code?: string }).code
      }
    }
    expect(code(() => Zlib.inflateRawSync(bomb, { maxOutputLength: 1_000_000 }))).toBe("ERR_BUFFER_TOO_LARGE")
    expect(code(() => zlib.inflateRawSync(bomb, { maxOutputLength: 1_000_000 }))).toBe("ERR_BUFFER_TOO_LARGE")
  })

  it("POSIX paths as path.posix gives them (from the working folder /)", () => {
    const cases = ["", ".", "/", "a", "a/", "/a/b/", "a//b/./c/..", "../a", "/../a", "a/b/../../..", "x.zip", "dir/Team_run1.txt", "/.gold/track-a/eng/eng_dev.csv", ".hidden", "a.b.c"]
    for (const p of cases) {
      expect(Paths.normalize(p), `normalize ${p}`).toBe(path.posix.normalize(p))
      expect(Paths.dirname(p), `dirname ${p}`).toBe(path.posix.dirname(p))
      expect(Paths.basename(p), `basename ${p}`).toBe(path.posix.basename(p))
      expect(Paths.extname(p), `extname ${p}`).toBe(path.posix.extname(p))
      expect(Paths.isAbsolute(p), `isAbsolute ${p}`).toBe(path.posix.isAbsolute(p))
      expect(Paths.join("/runs", p), `join ${p}`).toBe(path.posix.join("/runs", p))
      expect(Paths.resolve("/", p), `resolve ${p}`).toBe(path.posix.resolve("/", p))
      expect(Paths.relative("/a/b", Paths.resolve("/", p)), `relative ${p}`).toBe(path.posix.relative("/a/b", path.posix.resolve("/", p)))
    }
    expect(Paths.basename("Team_run1.run.json", ".run.json")).toBe(path.posix.basename("Team_run1.run.json", ".run.json"))
  })
})
