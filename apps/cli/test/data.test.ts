import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { createHash } from "node:crypto"
import { strToU8, zipSync } from "fflate"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli } from "./support/cli.js"

// `stseval data` against a local HTTP server serving fixtures (the machine has no internet): a user
// edition file points its sources at the server.
let server: http.Server
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-data-"))
const archive = zipSync({ "STS2099/STS.gs.news.txt": strToU8("4.0\n2.5\n"), "STS2099/STS.input.news.txt": strToU8("a\tb\nc\td\n") })
const digest = createHash("sha256").update(archive).digest("hex")

const edition = (base: string, sha256: string) => `
id: sts2099
title: A made-up STS edition served from a local fixture server
family: sts
scale: { min: 0, max: 5 }
submission: folder
datasets:
  - { name: news, gold: STS.gs.news.txt, goldFormat: sts-gs, input: STS.input.news.txt, run: STS.output.news.txt }
runLimit: 3
ranking:
  - { subtask: similarity, metric: pearson, aggregate: wmean }
missingDataset: zero
published: { style: r3 }
data:
  dir: sts2099/test
  sources:
    - { url: "${base}/sts2099.zip", sha256: "${sha256}", file: sts2099.zip }
`

let base = ""
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/sts2099.zip") res.writeHead(200).end(Buffer.from(archive))
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fs.writeFileSync(path.join(tmp, "good.yaml"), edition(base, digest))
  fs.writeFileSync(path.join(tmp, "bad.yaml"), edition(base, "f".repeat(64)))
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe("stseval data", () => {
  it("fetches, verifies and caches an edition's files, then reports them ok", async () => {
    const root = path.join(tmp, "store")
    const fetched = await runCli(["data", "fetch", path.join(tmp, "good.yaml"), "--data-root", root, "--json"])
    expect(fetched.code).toBe(0)
    const report = JSON.parse(fetched.stdout) as { sources: Array<{ status: string; sha256: string }> }
    expect(report.sources).toEqual([expect.objectContaining({ status: "fetched, verified", sha256: digest })])
    expect(fs.readFileSync(path.join(root, "sts2099/test/STS.gs.news.txt"), "utf8")).toBe("4.0\n2.5\n")

    const again = await runCli(["data", "fetch", path.join(tmp, "good.yaml"), "--data-root", root, "--json"])
    expect((JSON.parse(again.stdout) as typeof report).sources[0]?.status).toBe("cached")

    const status = await runCli(["data", "status", path.join(tmp, "good.yaml"), "--data-root", root])
    expect(status.code).toBe(0)
    expect(status.stdout).toMatch(/sts2099\s+sts2099\.zip\s+ok/)
  })

  it("refuses a download whose checksum differs: exit 1, nothing cached", async () => {
    const root = path.join(tmp, "store-bad")
    const r = await runCli(["data", "fetch", path.join(tmp, "bad.yaml"), "--data-root", root])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain("failed")
    expect(fs.existsSync(path.join(root, "sts2099/test/STS.gs.news.txt"))).toBe(false)
  })

  it("a user edition with a bad field is a usage error naming the file and the field", async () => {
    fs.writeFileSync(path.join(tmp, "broken.yaml"), edition(base, digest).replace("goldFormat: sts-gs", "goldFormat: csv"))
    const r = await runCli(["data", "status", path.join(tmp, "broken.yaml")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("broken.yaml")
    expect(r.stderr).toContain("goldFormat")
  })

  it("offline, fetch says what to do instead: --gold <path> or STSEVAL_DATA=<folder>", async () => {
    // port 1 on the loopback: nothing listens, the connection is refused at once
    fs.writeFileSync(path.join(tmp, "offline.yaml"), edition("http://127.0.0.1:1", digest))
    const r = await runCli(["data", "fetch", path.join(tmp, "offline.yaml"), "--data-root", path.join(tmp, "store-offline")])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain("--gold <path>")
    expect(r.stdout).toContain("STSEVAL_DATA=<folder>")
  })

  it("status: a copy of the public data under STSEVAL_DATA is ready (what score uses), though nothing was fetched", async () => {
    const root = path.join(tmp, "placed")
    fs.mkdirSync(path.join(root, "sts2099/test"), { recursive: true })
    fs.writeFileSync(path.join(root, "sts2099/test/STS.gs.news.txt"), "4.0\n2.5\n")
    const r = await runCli(["data", "status", path.join(tmp, "good.yaml")], { env: { STSEVAL_DATA: root } })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/sts2099\s+gold\s+ready/)
    const json = await runCli(["data", "status", path.join(tmp, "good.yaml"), "--json"], { env: { STSEVAL_DATA: root } })
    expect((JSON.parse(json.stdout) as { editions: Array<{ ready: boolean }> }).editions[0].ready).toBe(true)
    const empty = await runCli(["data", "status", path.join(tmp, "good.yaml")], { env: { STSEVAL_DATA: path.join(tmp, "nothing-here") } })
    expect(empty.stdout).toMatch(/sts2099\s+gold\s+missing\s+1 of 1 gold files missing/)
  })
})
