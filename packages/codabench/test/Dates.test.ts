/**
 * Phase dates as Codabench reads them (codalab/codabench c7dbc756): `competition.yaml` is loaded
 * with PyYAML's `safe_load` (`src/apps/competitions/tasks.py` `unpack_competition`, PyYAML 6.0.3,
 * YAML 1.1: an unquoted `2027-02-07 23:59:59` is a `datetime`), each phase's `start` and `end` go
 * through `get_datetime` (`src/apps/competitions/unpackers/utils.py`: a `date` — a `datetime` is
 * one — becomes midnight of its date, a string is parsed with its time), and
 * `BaseUnpacker._validate_phase_ordering` (`base_unpacker.py`) wants each phase to start strictly
 * after the one before ends.
 *
 * The YAML reader is checked against a table of what PyYAML 6.0.3 loads (made with PyYAML itself)
 * and, where `python3` with PyYAML is installed, against PyYAML live.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Bundle, CompetitionYaml } from "../src/index.js"
import { run, writeStsb } from "./support/fixtures.js"
import { stubCli } from "./support/worker.js"

const python = spawnSync("python3", ["-c", "import yaml, dateutil; print(yaml.__version__)"], { encoding: "utf8" })
const hasPyYaml = python.status === 0

/** Run a Python script (stdin: `input`) and parse its JSON output. */
const py = (script: string, input: string): unknown => {
  const r = spawnSync("python3", ["-c", script], { input, encoding: "utf8" })
  if (r.status !== 0) throw new Error(r.stderr)
  return JSON.parse(r.stdout)
}

// PyYAML's value, as JSON: {date:[y,m,d]}, {datetime:[y,m,d,h,mi,s,us], offset: minutes|null}, or the scalar.
const PY_CONVERT = `
import datetime, json, sys, yaml
def conv(v):
    if isinstance(v, datetime.datetime):
        return {"datetime": [v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond], "offset": None if v.tzinfo is None else int(v.utcoffset().total_seconds() // 60)}
    if isinstance(v, datetime.date):
        return {"date": [v.year, v.month, v.day]}
    return v
`

/** What PyYAML 6.0.3's safe_load makes of `a: <scalar>` (produced with PyYAML; `error`: it raises). */
const PYYAML_TABLE: ReadonlyArray<readonly [string, unknown]> = [
  ["2027-02-07 23:59:59", { datetime: [2027, 2, 7, 23, 59, 59, 0], offset: null }],
  ["2027-02-07", { date: [2027, 2, 7] }],
  ['"2027-02-07 23:59:59"', "2027-02-07 23:59:59"],
  ["2027-2-7 1:02:03", { datetime: [2027, 2, 7, 1, 2, 3, 0], offset: null }],
  ["2027-2-7", "2027-2-7"],
  ["2027-02-07T23:59:59.5+05:30", { datetime: [2027, 2, 7, 23, 59, 59, 500000], offset: 330 }],
  ["2027-02-07t10:00:00Z", { datetime: [2027, 2, 7, 10, 0, 0, 0], offset: 0 }],
  ["2027-02-07 10:00:00 -2", { datetime: [2027, 2, 7, 10, 0, 0, 0], offset: -120 }],
  ["2027-02-07 23:59", "2027-02-07 23:59"],
  ["2027-13-01", { error: "ValueError" }],
  ["y", "y"],
  ["n", "n"],
  ["yes", true],
  ["No", false],
  ["ON", true],
  ["off", false],
  ["true", true],
  ["0755", 493],
  ["09", "09"],
  ["0x1F", 31],
  ["0b101", 5],
  ["1:20", 80],
  ["190:20:30", 685230],
  ["1_000", 1000],
  ["2", 2],
  ["-0", 0],
  ["~", null],
  ["null", null],
  ["''", ""]
]

/** The package's reader, in the table's terms. */
const ours = (scalar: string): unknown => {
  const loaded = CompetitionYaml.parseAsCodabench(`a: ${scalar}\n`)
  if ("error" in loaded) return { error: "ValueError" }
  const v = (loaded.value as { a: unknown }).a
  if (typeof v === "object" && v !== null && (v as { _tag?: unknown })._tag === "Timestamp") {
    const t = v as CompetitionYaml.Timestamp
    return t.time === undefined
      ? { date: [t.year, t.month, t.day] }
      : { datetime: [t.year, t.month, t.day, t.time.hour, t.time.minute, t.time.second, t.time.microsecond], offset: t.offsetMinutes ?? null }
  }
  return v
}

describe("competition.yaml read as PyYAML reads it (YAML 1.1)", () => {
  it("timestamps, booleans and integers as PyYAML 6.0.3 loads them (a table made with PyYAML)", () => {
    for (const [scalar, expected] of PYYAML_TABLE) expect(ours(scalar), scalar).toEqual(expected)
  })

  it.skipIf(!hasPyYaml)("the same as PyYAML itself, live", () => {
    const scalars = PYYAML_TABLE.map(([s]) => s)
    const live = py(
      `${PY_CONVERT}
out = []
for s in json.load(sys.stdin):
    try:
        out.append(conv(yaml.safe_load("a: " + s)["a"]))
    except Exception as e:
        out.append({"error": type(e).__name__})
print(json.dumps(out))`,
      JSON.stringify(scalars)
    ) as Array<unknown>
    expect(live).toEqual(PYYAML_TABLE.map(([, v]) => v))
    expect(scalars.map(ours)).toEqual(live)
  })

  it("the writer quotes what YAML 1.1 would read as another type, so PyYAML gets the strings back", () => {
    const tricky = ["2027-02-07 23:59:59", "2027-02-07", "yes", "No", "on", "0755", "1:20", "~", "2027-2-7 1:02:03", "y"]
    const text = CompetitionYaml.stringify({
      version: 2,
      title: "yes",
      description: "on",
      image: "logo.png",
      terms: "terms.md",
      docker_image: "0755",
      pages: tricky.map((t) => ({ title: t, file: "p.md" })),
      phases: [{ index: 0, name: "No", start: "2027-02-07 23:59:59", end: "2027-02-08 00:00:00", tasks: [0] }],
      tasks: [{ index: 0, name: "~", scoring_program: "1:20" }],
      leaderboards: [{ title: "y", key: "k", columns: [{ title: "2027-02-07", key: "c", index: 0 }] }]
    })
    const loaded = CompetitionYaml.parseAsCodabench(text)
    expect("value" in loaded && (loaded.value as { pages: Array<{ title: unknown }> }).pages.map((p) => p.title)).toEqual(tricky)
    expect("value" in loaded && (loaded.value as { phases: Array<{ start: unknown }> }).phases[0].start).toBe("2027-02-07 23:59:59")
    if (hasPyYaml) {
      const live = py(`${PY_CONVERT}\nd = yaml.safe_load(sys.stdin.read())\nprint(json.dumps([p["title"] for p in d["pages"]] + [d["title"], d["phases"][0]["start"], d["phases"][0]["end"]]))`, text)
      expect(live).toEqual([...tricky, "yes", "2027-02-07 23:59:59", "2027-02-08 00:00:00"])
    }
  })
})

describe("codabenchDate: get_datetime", () => {
  it("a YAML date or datetime becomes midnight of its date (the time and zone dropped, and said so); a quoted date keeps its time; empty is none", () => {
    const load = (scalar: string) => (CompetitionYaml.parseAsCodabench(`a: ${scalar}\n`) as { value: { a: unknown } }).value.a
    const read = (scalar: string) => {
      const d = CompetitionYaml.codabenchDate(load(scalar))
      return d === undefined ? undefined : "problem" in d ? d.problem : [d.instant.toISOString(), d.timeDropped]
    }
    expect(read("2027-02-07 23:59:59")).toEqual(["2027-02-07T00:00:00.000Z", true])
    expect(read("2027-02-07")).toEqual(["2027-02-07T00:00:00.000Z", false])
    expect(read("2027-02-07 00:00:00")).toEqual(["2027-02-07T00:00:00.000Z", false])
    // combine() keeps the date as written in its own zone, then the zone is replaced by UTC
    expect(read("2027-02-07T01:00:00+05:00")).toEqual(["2027-02-07T00:00:00.000Z", true])
    expect(read('"2027-02-07 23:59:59"')).toEqual(["2027-02-07T23:59:59.000Z", false])
    expect(read("''")).toBeUndefined()
    expect(read('"next monday"')).toContain('expected a quoted date "YYYY-MM-DD HH:MM:SS"')
  })
})

/** A phase as Codabench holds it after `get_datetime`, from the package's reader or PyYAML live. */
interface Held {
  readonly name: string
  readonly start: string
  readonly end: string
}

const heldByUs = (text: string): ReadonlyArray<Held> => {
  const loaded = CompetitionYaml.parseAsCodabench(text)
  if ("error" in loaded) throw new Error(loaded.error)
  return (loaded.value as { phases: Array<{ name: string; start: unknown; end: unknown }> }).phases.map((p) => {
    const at = (v: unknown) => {
      const d = CompetitionYaml.codabenchDate(v)
      if (d === undefined || "problem" in d) throw new Error(String(v))
      return d.instant.toISOString()
    }
    return { name: p.name, start: at(p.start), end: at(p.end) }
  })
}

// get_datetime re-stated in Python from src/apps/competitions/unpackers/utils.py (c7dbc756), UTC for timezone.now().tzinfo.
const heldByPyYaml = (text: string): ReadonlyArray<Held> =>
  py(
    `${PY_CONVERT}
from dateutil import parser
def get_datetime(field):
    if not field:
        return None
    elif isinstance(field, datetime.date):
        field = datetime.datetime.combine(field, datetime.time())
    elif not isinstance(field, datetime.datetime):
        field = parser.parse(field)
    return field.replace(tzinfo=datetime.timezone.utc)
d = yaml.safe_load(sys.stdin.read())
print(json.dumps([{"name": p["name"], "start": get_datetime(p["start"]).isoformat(), "end": get_datetime(p["end"]).isoformat()} for p in sorted(d["phases"], key=lambda p: p.get("index", 0))]))`,
    text
  ) as ReadonlyArray<Held>

/** `_validate_phase_ordering`, and no gap: each phase starts one second after the one before ends. */
const contiguous = (phases: ReadonlyArray<Held>) =>
  phases.slice(1).map((p, i) => [phases[i].name, p.name, (Date.parse(p.start) - Date.parse(phases[i].end)) / 1000])

describe("the bundle's phase dates, as Codabench holds them", () => {
  let work: string
  let cli: string
  let gold: string
  let devGold: string
  beforeAll(() => {
    ;({ work, cli } = stubCli())
    gold = writeStsb(path.join(work, "test"), 31).gold
    devGold = writeStsb(path.join(work, "dev"), 32, 20).gold
  })

  const bundle = (name: string, options: Partial<Bundle.Options>) =>
    run(Bundle.writeBundle({ task: "stsb", gold, devGold, out: path.join(work, name), cliBundle: cli, liveTest: true, ...options })).then((w) => fs.readFileSync(path.join(w.out, "competition.yaml"), "utf8"))

  it("a test phase starting at 12:00 UTC after a development phase: the times are kept, the phases follow each other by one second", async () => {
    const text = await bundle("noon", { devStart: new Date("2027-01-01T00:00:00Z"), testStart: new Date("2027-01-20T12:00:00Z"), testEnd: new Date("2027-02-07T23:59:59Z") })
    const expected: ReadonlyArray<Held> = [
      { name: "Development", start: "2027-01-01T00:00:00.000Z", end: "2027-01-20T11:59:59.000Z" },
      { name: "Test", start: "2027-01-20T12:00:00.000Z", end: "2027-02-07T23:59:59.000Z" }
    ]
    expect(heldByUs(text)).toEqual(expected)
    expect(contiguous(heldByUs(text))).toEqual([["Development", "Test", 1]])
    if (hasPyYaml) {
      const live = heldByPyYaml(text).map((p) => ({ name: p.name, start: new Date(p.start).toISOString(), end: new Date(p.end).toISOString() }))
      expect(live).toEqual(expected)
    }
  })

  it("the default dates: the test phase ends at 23:59:59 of its fourteenth day, and the development phase right before it starts", async () => {
    const text = await bundle("default", { now: new Date("2027-03-05T15:00:00Z") })
    const held = hasPyYaml ? heldByPyYaml(text).map((p) => ({ ...p, start: new Date(p.start).toISOString(), end: new Date(p.end).toISOString() })) : heldByUs(text)
    expect(held).toEqual([
      { name: "Development", start: "2027-03-05T00:00:00.000Z", end: "2027-05-04T23:59:59.000Z" },
      { name: "Test", start: "2027-05-05T00:00:00.000Z", end: "2027-05-18T23:59:59.000Z" }
    ])
  })

  it("checkBundle reads competition.yaml as Codabench does: an unquoted date-time is a problem naming the time Codabench drops", async () => {
    const out = path.join(work, "unquoted")
    await bundle("unquoted", { devStart: new Date("2027-01-01T00:00:00Z"), testStart: new Date("2027-01-20T12:00:00Z") })
    expect(await run(CompetitionYaml.checkBundle(out))).toEqual([])
    const file = path.join(out, "competition.yaml")
    // what the bundle used to write: the dates unquoted
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})"/g, "$1"))
    const problems = (await run(CompetitionYaml.checkBundle(out))).map((p) => p.message)
    expect(problems).toContain(
      'phase "Development" end: 2027-01-20 11:59:59 is written unquoted, so Codabench reads it as 2027-01-20 00:00:00 (PyYAML makes it a datetime and get_datetime keeps only its date); quote it: end: "2027-01-20 11:59:59"'
    )
    expect(problems.some((p) => p.startsWith('phase "Test" start: 2027-01-20 12:00:00 is written unquoted'))).toBe(true)
    // an unquoted date alone (midnight) loses nothing: Codabench's ordering rule decides
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/(start|end): \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g, (_m, k: string) => `${k}: 2027-01-20`))
    expect((await run(CompetitionYaml.checkBundle(out))).map((p) => p.message).join("; ")).toContain("phases dates conflict")
    // an impossible date: PyYAML cannot load the file
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("end: 2027-01-20", "end: 2027-02-30"))
    expect((await run(CompetitionYaml.checkBundle(out)))[0].message).toContain("day is out of range for month")
  })

  it("refuses a test phase that ends before it starts", async () => {
    const error = await run(Effect.flip(Bundle.writeBundle({ task: "stsb", gold, out: path.join(work, "bad"), cliBundle: cli, liveTest: true, testStart: new Date("2027-01-20T12:00:00Z"), testEnd: new Date("2027-01-20T12:00:00Z") })))
    expect(error.reason).toContain("must end after it starts")
  })
})
