import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Exit } from "effect"
import { gzipSync } from "node:zlib"
import { strToU8, zipSync } from "fflate"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DataStore, Registry } from "@stseval/formats"

// A local HTTP server stands in for the public download sites (this machine has no internet).
const files = new Map<string, Uint8Array>()
const hits = new Map<string, number>()
let server: http.Server
/** How many pieces the trickling server had sent when each of its connections closed. */
const trickleSent: Array<number> = []
let base = ""
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-datastore-"))

const gold = "3.2\n\n4.5\n"
const input = "A man plays.\tA man is playing.\n"

beforeAll(async () => {
  files.set("/sts.zip", zipSync({ "sts-test/STS.gs.news.txt": strToU8(gold), "sts-test/STS.input.news.txt": strToU8(input), "__MACOSX/._x": strToU8("junk") }))
  // The tarball is made by the system's tar, so the reader is checked against an independent writer.
  const src = path.join(tmp, "tar-src", "bench")
  fs.mkdirSync(src, { recursive: true })
  fs.writeFileSync(path.join(src, "sts-test.csv"), "main-captions\tMSRvid\t2012test\t0001\t5.000\tA.\tB.\n")
  fs.writeFileSync(path.join(src, "readme.txt"), "readme\n")
  execFileSync("tar", ["-czf", path.join(tmp, "bench.tar.gz"), "-C", path.join(tmp, "tar-src"), "bench"])
  files.set("/bench.tar.gz", new Uint8Array(fs.readFileSync(path.join(tmp, "bench.tar.gz"))))
  // Two misbehaving servers' paths: one never answers, one sends its headers and then stalls.
  files.set("/big.gz", new Uint8Array(gzipSync(new Uint8Array(3 * 1024 * 1024))))
  server = http.createServer((req, res) => {
    if (req.url === "/silent") return
    if (req.url === "/trickle") {
      // a byte every 50 ms, never silent for long, for 5 s
      res.writeHead(200, { "content-type": "application/octet-stream" })
      let n = 0
      const timer = setInterval(() => (++n >= 100 ? (clearInterval(timer), res.end("x")) : res.write("x")), 50)
      res.on("close", () => {
        clearInterval(timer)
        trickleSent.push(n)
      })
      return
    }
    if (req.url === "/stall") {
      res.writeHead(200, { "content-type": "application/octet-stream" })
      res.write("partial")
      return
    }
    const body = files.get(req.url ?? "")
    hits.set(req.url ?? "", (hits.get(req.url ?? "") ?? 0) + 1)
    if (body === undefined) {
      res.writeHead(404).end("not found")
      return
    }
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from(body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  fs.rmSync(tmp, { recursive: true, force: true })
})

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) =>
  Effect.runPromiseExit(effect.pipe(Effect.provide(NodeServices.layer)))

describe("DataStore", () => {
  it("downloads, verifies the checksum, unpacks a zip by base name and writes a manifest", async () => {
    const dir = path.join(tmp, "verified")
    const digest = DataStore.sha256(files.get("/sts.zip")!)
    const exit = await run(DataStore.fetchSource(dir, { url: `${base}/sts.zip`, sha256: digest, file: "sts.zip" }))
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(fs.readFileSync(path.join(dir, "STS.gs.news.txt"), "utf8")).toBe(gold)
    expect(fs.readFileSync(path.join(dir, "STS.input.news.txt"), "utf8")).toBe(input)
    expect(fs.existsSync(path.join(dir, "._x"))).toBe(false)
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, DataStore.MANIFEST), "utf8")) as DataStore.Manifest
    expect(manifest.sources).toHaveLength(1)
    expect(manifest.sources[0]).toMatchObject({ sha256: digest, verified: true, file: "sts.zip" })
    expect([...manifest.sources[0].unpacked].sort()).toEqual(["STS.gs.news.txt", "STS.input.news.txt"])
  })

  it("refuses a download whose checksum differs and writes nothing", async () => {
    const dir = path.join(tmp, "mismatch")
    const exit = await run(DataStore.fetchSource(dir, { url: `${base}/sts.zip`, sha256: "0".repeat(64), file: "sts.zip" }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("ChecksumMismatch")
    expect(fs.existsSync(dir)).toBe(false)
  })

  it("records the checksum on first use and serves the cache afterwards", async () => {
    const dir = path.join(tmp, "tofu")
    const source = { url: `${base}/bench.tar.gz`, file: "bench.tar.gz" }
    const before = hits.get("/bench.tar.gz") ?? 0
    const first = await run(DataStore.fetchSource(dir, source))
    const second = await run(DataStore.fetchSource(dir, source))
    expect(Exit.isSuccess(first) && first.value.cached).toBe(false)
    expect(Exit.isSuccess(second) && second.value.cached).toBe(true)
    expect(hits.get("/bench.tar.gz")).toBe(before + 1)
    expect(Exit.isSuccess(first) && first.value.source.verified).toBe(false)
    expect(fs.readFileSync(path.join(dir, "sts-test.csv"), "utf8")).toContain("\t5.000\t")
    expect(fs.readFileSync(path.join(dir, "readme.txt"), "utf8")).toBe("readme\n")
  })

  it("keeps a source's sub-folder (SemRel's <lang>/<lang>_test_with_labels.csv), and refuses a file name that leaves the folder", async () => {
    files.set("/eng_test_with_labels.csv", strToU8('PairID,Text,Score\nENG-test-0000,"a\nb",0.5\n'))
    const dir = path.join(tmp, "semrel")
    const ok = await run(DataStore.fetchSource(dir, { url: `${base}/eng_test_with_labels.csv`, file: "eng/eng_test_with_labels.csv" }))
    expect(Exit.isSuccess(ok)).toBe(true)
    expect(fs.readFileSync(path.join(dir, "eng", "eng_test_with_labels.csv"), "utf8")).toContain("ENG-test-0000")
    const verified = await run(DataStore.verify(dir, [{ url: `${base}/eng_test_with_labels.csv`, file: "eng/eng_test_with_labels.csv" }]))
    expect(Exit.isSuccess(verified) && verified.value[0].status).toBe("ok")
    files.set("/escape.csv", strToU8("x\n"))
    const escape = await run(DataStore.fetchSource(dir, { url: `${base}/escape.csv`, file: "../outside.csv" }))
    expect(Exit.isFailure(escape)).toBe(true)
    expect(String(escape)).toContain("leaves the data folder")
    expect(fs.existsSync(path.join(tmp, "outside.csv"))).toBe(false)
  })

  it("names the URL when the server answers with an error", async () => {
    const exit = await run(DataStore.fetchSource(path.join(tmp, "missing"), { url: `${base}/nope.zip`, file: "nope.zip" }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("HTTP 404")
    expect(String(exit)).toContain("/nope.zip")
  })

  it("verify finds a cached download that was changed on disk", async () => {
    const dir = path.join(tmp, "tamper")
    const source = { url: `${base}/sts.zip`, file: "sts.zip" }
    await run(DataStore.fetchSource(dir, source))
    const ok = await run(DataStore.verify(dir, [source, { url: `${base}/other.zip`, file: "other.zip" }]))
    expect(Exit.isSuccess(ok) && ok.value.map((r) => r.status)).toEqual(["ok", "missing"])
    fs.appendFileSync(path.join(dir, "sts.zip"), "x")
    const bad = await run(DataStore.verify(dir, [source]))
    expect(Exit.isSuccess(bad) && bad.value[0].status).toBe("mismatch")
  })

  it("reads long GNU tar names", () => {
    const dir = path.join(tmp, "long", "a".repeat(60))
    fs.mkdirSync(dir, { recursive: true })
    const name = `${"b".repeat(120)}.txt`
    fs.writeFileSync(path.join(dir, name), "long\n")
    const archive = path.join(tmp, "long.tar")
    execFileSync("tar", ["--format=gnu", "-cf", archive, "-C", path.join(tmp, "long"), "a".repeat(60)])
    const members = DataStore.untar(new Uint8Array(fs.readFileSync(archive)))
    expect(new TextDecoder().decode(members.get(`${"a".repeat(60)}/${name}`))).toBe("long\n")
  })

  it("a damaged or too large archive is an ArchiveError (a Schema.TaggedError) with the message it always had", () => {
    const thrown = (f: () => unknown): unknown => {
      try {
        f()
      } catch (e) {
        return e
      }
      return undefined
    }
    const badSize = thrown(() => DataStore.untar(new Uint8Array(1024).fill(57))) // "9": not an octal digit
    expect(badSize).toBeInstanceOf(DataStore.ArchiveError)
    expect(badSize).toMatchObject({ _tag: "ArchiveError", message: "tar: bad size field at byte 0" })
    const header = new Uint8Array(1024)
    header.set(new TextEncoder().encode("a.txt"), 0)
    header.set(new TextEncoder().encode("00000002000"), 124) // 1024 bytes, and none follow
    header[156] = 48
    expect(thrown(() => DataStore.untar(header))).toMatchObject({ _tag: "ArchiveError", message: "tar: a.txt is cut short" })
    expect(thrown(() => DataStore.unpack("big.gz", files.get("/big.gz")!, 1024 * 1024))).toMatchObject({
      _tag: "ArchiveError",
      message: `big.gz: unpacks to more than ${1024 * 1024} bytes; it was not unpacked`
    })
    expect(thrown(() => DataStore.unpack("x.zip", new Uint8Array([80, 75, 3, 4, 0, 0])))).toMatchObject({ _tag: "ArchiveError" })
  })

  it("a sources[].file that climbs out (../../X) is refused and nothing is written outside the folder", async () => {
    const dir = path.join(tmp, "climb", "data", "ed")
    const exit = await run(DataStore.fetchSource(dir, { url: `${base}/sts.zip`, file: "../../X" }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("leaves the data folder")
    expect(fs.existsSync(path.join(tmp, "climb", "X"))).toBe(false)
    expect(fs.existsSync(path.join(tmp, "climb"))).toBe(false)
  })

  it("with a data root: an edition folder outside it is refused", async () => {
    const root = path.join(tmp, "root")
    const exit = await run(DataStore.fetchSource(path.join(root, "..", "elsewhere"), { url: `${base}/sts.zip`, file: "sts.zip" }, { root }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("outside the data root")
    expect(fs.existsSync(path.join(tmp, "elsewhere"))).toBe(false)
  })

  it("a .gz that expands past the cap is refused, counted while inflating (not only zips)", async () => {
    const dir = path.join(tmp, "gzbomb")
    const exit = await run(DataStore.fetchSource(dir, { url: `${base}/big.gz`, file: "big.gz" }, { maxUnpackedBytes: 1024 * 1024 }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain(`unpacks to more than ${1024 * 1024} bytes`)
    expect(fs.existsSync(path.join(dir, "big"))).toBe(false)
    expect(() => DataStore.unpack("big.gz", files.get("/big.gz")!, 1024 * 1024)).toThrow(/unpacks to more than/)
    expect(DataStore.unpack("big.gz", files.get("/big.gz")!).get("big")!.length).toBe(3 * 1024 * 1024)
  })

  it("a server that never answers times out with a clear message", async () => {
    const exit = await run(DataStore.fetchSource(path.join(tmp, "silent"), { url: `${base}/silent`, file: "x.zip" }, { timeoutMs: 200 }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("no answer for 0.2 s")
  })

  it("a server that stops sending in the middle times out too", async () => {
    const exit = await run(DataStore.fetchSource(path.join(tmp, "stall"), { url: `${base}/stall`, file: "x.zip" }, { timeoutMs: 200 }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("no answer for 0.2 s")
  })

  it("a server sending a byte now and then, never silent for long, is stopped by the limit on the whole download's time", async () => {
    const exit = await run(DataStore.fetchSource(path.join(tmp, "trickle"), { url: `${base}/trickle`, file: "x.gz" }, { timeoutMs: 1000, totalTimeoutMs: 600 }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("the download took more than 0.6 s in all (the server sends too slowly)")
    // the download was stopped before the server had sent everything (its 100 pieces)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(trickleSent.length).toBe(1)
    expect(trickleSent[0]).toBeLessThan(100)
    expect(fs.existsSync(path.join(tmp, "trickle"))).toBe(false)
  })

  it.skipIf(process.platform === "win32")("with a data root: a link inside it to a folder outside is not followed (real paths compared, not text)", async () => {
    const root = path.join(tmp, "linked-root")
    const outside = path.join(tmp, "outside-target")
    fs.mkdirSync(root, { recursive: true })
    fs.mkdirSync(outside, { recursive: true })
    fs.symlinkSync(outside, path.join(root, "sts2014"))
    const exit = await run(DataStore.fetchSource(path.join(root, "sts2014"), { url: `${base}/sts.zip`, file: "sts.zip" }, { root }))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("leads out of the data root")
    expect(fs.readdirSync(outside)).toEqual([])
    // a link to a folder inside the root is fine
    fs.mkdirSync(path.join(root, "real-sts"))
    fs.symlinkSync(path.join(root, "real-sts"), path.join(root, "alias"))
    const inside = await run(DataStore.fetchSource(path.join(root, "alias"), { url: `${base}/sts.zip`, file: "sts.zip" }, { root }))
    expect(Exit.isSuccess(inside)).toBe(true)
    expect(fs.existsSync(path.join(root, "real-sts", "STS.gs.news.txt"))).toBe(true)
  })

  it("offline (nothing listening): the message says what to do instead", async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const exit = await run(DataStore.fetchSource(path.join(tmp, "offline"), { url: `http://127.0.0.1:${port}/x.zip`, file: "x.zip" }))
    expect(Exit.isFailure(exit)).toBe(true)
    const message = String(exit)
    expect(message).toContain("cannot download")
    expect(message).toContain("--gold <path>")
    expect(message).toContain("STSEVAL_DATA=<folder>")
  })
})

describe("DataStore.status: where scoring looks for the gold", () => {
  const sick = Registry.get("sick2014")!

  it("gold files placed by hand under $STSEVAL_DATA are present (as scoring finds them), though never fetched", async () => {
    const root = path.join(tmp, "by-hand")
    fs.mkdirSync(path.join(root, "sick2014"), { recursive: true })
    fs.writeFileSync(path.join(root, "sick2014", "SICK_test_annotated.txt"), "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n")
    const exit = await run(DataStore.status(sick, DataStore.defaultRoot({ STSEVAL_DATA: root })))
    expect(Exit.isSuccess(exit)).toBe(true)
    if (!Exit.isSuccess(exit)) return
    expect(exit.value.dir).toBe(path.join(root, "sick2014"))
    expect(exit.value.gold).toEqual([{ datasets: ["relatedness", "entailment"], file: path.join(root, "sick2014", "SICK_test_annotated.txt"), status: "present" }])
    expect(exit.value.ready).toBe(true)
    expect(exit.value.sources.map((s) => s.status)).toEqual(["missing", "missing"])
  })

  it("an empty data root: every gold file missing, not ready", async () => {
    const exit = await run(DataStore.status(sick, path.join(tmp, "empty-root")))
    expect(Exit.isSuccess(exit) && exit.value.gold.map((g) => g.status)).toEqual(["missing"])
    expect(Exit.isSuccess(exit) && exit.value.ready).toBe(false)
  })

  it("the gold folder is the one scoring uses: <root>/<data.dir>", () => {
    expect(DataStore.goldDir(sick, "/data")).toBe(path.join("/data", "sick2014"))
  })
})
