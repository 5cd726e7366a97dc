/**
 * Peak memory of reading hostile inputs (issue 16: "peak memory for any input up to the size cap
 * stays under 3x the file size + 300 MB"), wired into `pnpm bench` by tooling/bench. Each input is
 * written to a temp folder and read by `memory-child.ts` in its own Node process; the figure is
 * that process's peak RSS (`process.resourceUsage().maxRSS`), next to the budget.
 *
 * Inputs, at 25, 100 and 250 MB (`STSEVAL_BENCH_SIZES=25,100` to choose): SICK runs of short
 * unique rows and of long rows, STS outputs of short and of long lines, one line with no line
 * ending, SICK gold data files of short and of long rows; an STS output whose second line is a million
 * digits and an `x` (issue 22: the number check was quadratic on it); and two zip bombs: 500 central-directory entries on one stored 20 MB member, and 1 GiB of
 * zeros deflated into about 1 MB declaring 10 bytes.
 *
 * @since 0.2.0
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"

const here = path.dirname(fileURLToPath(import.meta.url))
const MB = 1_000_000

/** Write `size` bytes made of `line(i)` repeated (after `head`), in 4 MB chunks. */
const writeLines = (file: string, size: number, head: string, line: (i: number) => string): void => {
  const fd = fs.openSync(file, "w")
  let written = 0
  let chunk = head
  for (let i = 0; written + chunk.length < size; i++) {
    chunk += line(i)
    if (chunk.length >= 4 * MB) {
      fs.writeSync(fd, chunk)
      written += chunk.length
      chunk = ""
    }
  }
  fs.writeSync(fd, chunk.slice(0, Math.max(0, size - written)))
  fs.closeSync(fd)
}

const u16 = (v: number) => [v & 0xff, (v >>> 8) & 0xff]
const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]

/** A zip whose central directory has `copies` entries, all pointing at one member. */
const bombZip = (file: string, name: string, data: Uint8Array, method: number, declared: number, copies: number): void => {
  const n = Buffer.from(name)
  const local = Buffer.from([...u32(0x04034b50), ...u16(20), ...u16(0), ...u16(method), 0, 0, 0, 0, ...u32(0), ...u32(data.length), ...u32(declared), ...u16(n.length), ...u16(0)])
  const central: Array<Buffer> = []
  for (let k = 0; k < copies; k++) {
    central.push(
      Buffer.from([...u32(0x02014b50), ...u16(20), ...u16(20), ...u16(0), ...u16(method), 0, 0, 0, 0, ...u32(0), ...u32(data.length), ...u32(declared), ...u16(n.length), ...u16(0), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(0)]),
      n
    )
  }
  const cd = Buffer.concat(central)
  const cdStart = local.length + n.length + data.length
  const end = Buffer.from([...u32(0x06054b50), ...u16(0), ...u16(0), ...u16(copies), ...u16(copies), ...u32(cd.length), ...u32(cdStart), ...u16(0)])
  fs.writeFileSync(file, Buffer.concat([local, n, data, cd, end]))
}

const measure = (kind: string, file: string): Record<string, unknown> => {
  const out = execFileSync(process.execPath, ["--conditions=@stseval/source", "--import", "tsx", path.join(here, "memory-child.ts"), kind, file], {
    encoding: "utf8",
    maxBuffer: 1 << 20
  })
  return JSON.parse(out.trim().split("\n").pop()!) as Record<string, unknown>
}

/**
 * Measure each input; rows: input, size, peak RSS, the budget 3x + 300 MB, whether it is within.
 *
 * @since 0.2.0
 */
export const run = (): Array<Record<string, unknown>> => {
  const sizes = (process.env["STSEVAL_BENCH_SIZES"] ?? "25,100,250").split(",").map(Number)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-membench-"))
  const rows: Array<Record<string, unknown>> = []
  const row = (input: string, bytes: number, kind: string, file: string) => {
    const m = measure(kind, file)
    const budgetMiB = Math.round((3 * bytes + 300 * MB) / 2 ** 20)
    rows.push({ input, MB: Math.round(bytes / MB), peakMiB: m["peakMiB"], budgetMiB, within: Number(m["peakMiB"]) <= budgetMiB, ms: m["ms"], rows: m["rows"], error: m["error"] })
    fs.rmSync(file, { force: true })
  }
  try {
    for (const mb of sizes) {
      const size = mb * MB
      const sickHead = "pair_ID\tentailment_judgment\trelatedness_score\n"
      let f = path.join(dir, "Short_run1.txt")
      writeLines(f, size, sickHead, (i) => `${i + 1}\tNEUTRAL\t${(i % 41) / 10 + 1}\n`)
      row("SICK run, short unique rows", size, "sick-run", f)
      f = path.join(dir, "Long_run1.txt")
      const digits = "1".repeat(280)
      writeLines(f, size, sickHead, (i) => `${i + 1}\tNEUTRAL\t3.${digits}\n`)
      row("SICK run, 300-byte rows", size, "sick-run", f)
      f = path.join(dir, "Sts_run1.txt")
      writeLines(f, size, "", (i) => `${(i % 51) / 10}\n`)
      row("STS output, short lines", size, "sts-output", f)
      f = path.join(dir, "Line_run1.txt")
      writeLines(f, size, "", () => "x".repeat(1000))
      row("one line, no line ending", size, "sick-run", f)
      f = path.join(dir, "Sts_long_run1.txt")
      writeLines(f, size, "", () => `3.${digits}\n`)
      row("STS output, 283-byte lines", size, "sts-output", f)
      f = path.join(dir, "SICK_gold.txt")
      const head = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
      writeLines(f, size, head, (i) => `${i + 1}\tA man is playing a guitar on a stage\tA person plays an instrument\t3.5\tNEUTRAL\n`)
      row("SICK gold, short rows", size, "sick-gold", f)
      const sentence = "A man is playing a guitar on a stage while a woman sings ".repeat(2)
      writeLines(f, size, head, (i) => `${i + 1}\t${sentence}\t${sentence}\t3.5\tNEUTRAL\n`)
      row("SICK gold, 250-byte rows", size, "sick-gold", f)
    }
    const digits = path.join(dir, "Digits_run1.txt")
    fs.writeFileSync(digits, `0.5\n${"1".repeat(1_000_000)}x\n4\n`)
    row("STS output, a line of 1,000,000 digits and an x", fs.statSync(digits).size, "sts-output", digits)
    const stored = new Uint8Array(20 * MB).fill(0x31)
    let f = path.join(dir, "Stored_run1.zip")
    bombZip(f, "Stored_run1.txt", stored, 0, 0, 500)
    row("zip bomb: 500 entries on one stored 20 MB member", fs.statSync(f).size, "sick-run", f)
    const zeros = new Uint8Array(1024 * 1024 * 1024)
    f = path.join(dir, "Deflate_run1.zip")
    bombZip(f, "Deflate_run1.txt", zlib.deflateRawSync(zeros, { level: 9 }), 8, 10, 1)
    row("zip bomb: 1 GiB of zeros deflated, 10 bytes declared", fs.statSync(f).size, "sick-run", f)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
