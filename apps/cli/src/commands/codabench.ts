/**
 * `stseval codabench score|bundle|unseal|import`: stseval on Codabench, a thin layer over
 * @stseval/codabench (loaded when one of these commands runs).
 */
import * as nodePath from "node:path"
import { fileURLToPath } from "node:url"
import { Console, Effect, Option, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Files, Issue } from "@stseval/formats"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import { bundled } from "../Version.js"
import * as Page from "../page/Page.js"

// --teams: usernames mapped to team names
const decodeTeams = Schema.decodeUnknownResult(Schema.Record(Schema.String, Schema.String))

const codabenchPackage = Effect.promise(() => import("@stseval/codabench"))

/** Codabench shows the scoring program's stdout and stderr; a participant never needs more than this many reasons. */
const REASONS_SHOWN = 50

const score = Command.make(
  "score",
  {
    input: Argument.String("input_dir").pipe(Argument.withDescription("The worker's input folder: ref/ (reference data) and res/ (the submission)")),
    output: Argument.String("output_dir").pipe(Argument.withDescription("Where scores.json and detailed_results.html are written")),
    ...Flags.budget
  },
  Effect.fn(function*({ input, output, timeBudget, memoryBudget }) {
    const { ScoringProgram } = yield* codabenchPackage
    const outcome = yield* ScoringProgram.scoreCodabench(input, output, { isolation: Flags.isolationOf({ timeBudget, memoryBudget }) }).pipe(
      Effect.catchTag("SetupError", (e) =>
        Console.error(`error: ${e.reason}`).pipe(Effect.andThen(Effect.fail(new ExitCode({ code: 2, reason: e.reason }))))
      ),
      // Never a stack trace: the participant reads this output.
      Effect.catchDefect((defect) => {
        const text = defect instanceof Error ? defect.message : String(defect)
        const safe = text.split(nodePath.resolve(input)).join("input").split(nodePath.resolve(output)).join("output")
        return Console.error(`error: stseval failed while scoring (${safe}); tell the organisers`).pipe(
          Effect.andThen(Effect.fail(new ExitCode({ code: 2, reason: "internal error" })))
        )
      })
    )
    // The signature (edition, gold and engine hashes) in the scoring output: Codabench's scores are
    // numbers only, and this log is kept with the submission.
    yield* Console.log(`signature: ${outcome.signature}`)
    if (outcome.verdict === "rejected") {
      yield* Console.error(outcome.summary)
      for (const line of outcome.reasons.slice(0, REASONS_SHOWN)) yield* Console.error(`  ${line}`)
      // the reasons left out, and the true number of errors when a reason sums up a capped list's lines
      if (outcome.reasons.length > REASONS_SHOWN) {
        const more = outcome.reasons.length - REASONS_SHOWN
        yield* Console.error(`  ... ${more} more reason${more === 1 ? "" : "s"}, ${outcome.errors} errors in all (see the detailed results)`)
      }
      return yield* new ExitCode({ code: 1, reason: "the submission has errors" })
    }
    yield* Console.log(outcome.summary)
    // sealed: valid, nothing to show until the gold is in place
    if (outcome.verdict === "received") return
    for (const c of outcome.columns) {
      const value = outcome.scores?.scores[c.key]
      const omitted = outcome.scores?.omitted.find((o) => o.key === c.key)
      yield* Console.log(`  ${c.title} (${c.key}): ${value !== undefined ? value.toFixed(c.precision) : `not computed: ${omitted?.reason ?? ""}`}`)
    }
    for (const w of outcome.warnings.slice(0, REASONS_SHOWN)) yield* Console.log(`  warning: ${w}`)
  })
).pipe(
  Command.withDescription(
    "The scoring program of a Codabench competition: score <input_dir>/res against <input_dir>/ref exactly as `stseval score`, write scores.json and detailed_results.html. Exit 1 (and no scores.json) when the submission has errors, 2 when the competition is set up wrongly."
  ),
  Command.withExamples(({ commandPath }) => [{
    command: `${commandPath.join(" ")} examples/made-up-task/codabench/input /tmp/codabench-output`,
    description: "what Codabench's worker runs: input/ref holds a bundle's reference data, input/res a submission"
  }])
)

/**
 * A date flag: ISO 8601 (`2017-01-30T23:59:59Z`, an offset, or no zone for UTC) or, for a start, a
 * day (its start, UTC). An end (`--test-end`, `--deadline`, `--late-until`) must say its time: a
 * day alone would close at its first second while one means its last, so it is refused with both
 * readings spelled out. Anything else — `12`, `1`, `2014-02-30` — is refused, never read as another
 * date.
 */
const date = (flag: string, value: Option.Option<string>, kind: "start" | "end" = "start") =>
  Option.match(value, {
    onNone: () => Effect.succeed(undefined),
    onSome: (text) =>
      codabenchPackage.pipe(
        Effect.flatMap(({ Import }) => {
          const d = Import.parseInstant(text)
          if (d !== undefined && kind === "end" && /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(text)) {
            const day = text.trim()
            return Effect.fail(
              new UsageError({
                message: `--${flag}: "${day}" is a day, not an instant: give the time, e.g. ${day}T23:59:59Z for the end of that day (${day}T00:00:00Z would be its start); UTC unless a zone is given`
              })
            )
          }
          return d !== undefined
            ? Effect.succeed(d)
            : Effect.fail(new UsageError({ message: `--${flag}: "${text}" is not a date (use ISO 8601, e.g. 2017-01-09 or 2017-01-31T23:59:00Z; UTC unless a zone is given)` }))
        })
      )
  })

/**
 * The single-file CLI to ship. Run as `stseval.mjs`, this program itself: the bundler makes
 * `import.meta.url` the URL of that one file (not `process.argv[1]`, which may be a symlink in
 * `node_modules/.bin` or, in process, the test runner). Run from the sources or tsc's dist/, the
 * build `pnpm build` writes beside them: apps/cli/dist/stseval.mjs (this module is
 * src/commands/codabench.ts or dist/commands/codabench.js, two levels below apps/cli).
 */
export const defaultCli = (): string =>
  bundled ? fileURLToPath(import.meta.url) : fileURLToPath(new URL("../../dist/stseval.mjs", import.meta.url))

const bundle = Command.make(
  "bundle",
  {
    task: Flag.String("task").pipe(Flag.withAlias("t"), Flag.withDescription("Task edition: a registry id or a JSON/YAML edition file")),
    gold: Flags.optionalString("gold", "The test gold (file or folder); default: the edition's folder in the data store, as every other command (see `stseval data`)"),
    dataRoot: Flags.dataRoot,
    devGold: Flags.optionalString(
      "dev-gold",
      "The development gold (file or folder; in a folder, a gold named ..._test_... is looked for as ..._dev_... first); without it the bundle has only the test phase"
    ),
    leaderboard: Flags.optionalString(
      "leaderboard",
      "What the leaderboard ranks: official (default), entailment (SICK), a dataset of an edition ranked per dataset (e.g. eng), mean, or each: one competition per dataset (the default of an edition ranked per dataset, SemRel)"
    ),
    out: Flag.String("out").pipe(Flag.withDescription("The bundle folder to write (new or empty)")),
    zip: Flags.toggle("zip", "Also write <out>.zip, the file to upload to Codabench"),
    cli: Flags.optionalString("cli", "The single-file stseval.mjs to put in the scoring program (default: this program, when it is one)"),
    title: Flags.optionalString("title", "Competition title (default: the edition's title)"),
    dockerImage: Flags.optionalString("docker-image", "Docker image of the scoring program (default: an official Node.js LTS image)"),
    devStart: Flags.optionalString("dev-start", "Start of the development phase (ISO 8601, UTC; default today)"),
    testStart: Flags.optionalString("test-start", "Start of the test phase (default: 61 days after the development phase starts)"),
    testEnd: Flags.optionalString("test-end", "End of the test phase, a date and time (e.g. 2027-02-07T23:59:59Z; default: 14 days after it starts)"),
    liveTest: Flag.Boolean("live-test").pipe(
      Flag.withDescription(
        "A live test leaderboard: the test gold goes into the test phase's reference data, which every participant can download (default: sealed, the gold kept beside the bundle and scored after the deadline with `codabench unseal`)"
      ),
      Flag.withDefault(false)
    ),
    scoringStart: Flags.optionalString("scoring-start", "Start of the Scoring phase of a sealed bundle, where the test submissions are scored (default: 2 days after the test phase ends)")
  },
  Effect.fn(function*(flags) {
    const c = yield* Colour.Colour
    const { Bundle } = yield* codabenchPackage
    // without --gold, the data store's gold (`Task.goldPath`, as every other command reads it)
    const gold = Option.isSome(flags.gold) ? flags.gold.value : yield* Task.goldPath(yield* Task.edition(flags.task), flags.gold, flags.dataRoot)
    const written = yield* Bundle.writeBundles({
      task: flags.task,
      gold,
      devGold: Option.getOrUndefined(flags.devGold),
      leaderboard: Option.getOrUndefined(flags.leaderboard),
      out: flags.out,
      zip: flags.zip,
      cliBundle: Option.getOrElse(flags.cli, defaultCli),
      title: Option.getOrUndefined(flags.title),
      dockerImage: Option.getOrUndefined(flags.dockerImage),
      devStart: yield* date("dev-start", flags.devStart),
      testStart: yield* date("test-start", flags.testStart),
      testEnd: yield* date("test-end", flags.testEnd, "end"),
      liveTest: flags.liveTest,
      scoringStart: yield* date("scoring-start", flags.scoringStart),
      // the starting kits' check page (`stseval page check`)
      checkPage: Page.check
    }).pipe(Effect.mapError((e) => new UsageError({ message: e.reason })))
    for (const w of written) {
      yield* Console.log(`${c.bold("bundle")}: ${w.out}${w.zip !== undefined ? `\n${c.bold("zip")}: ${w.zip} (upload this file)` : ""}`)
      for (const p of w.competition.phases) {
        yield* Console.log(`  phase ${p.name}: ${p.start} - ${p.end ?? "open"} UTC, ${p.max_submissions ?? "?"} submissions per participant`)
      }
      yield* Console.log(`  leaderboard ${w.board.name}, ordered by ${w.columns[w.board.primary].key}: ${w.columns.map((c) => c.key).join(", ")}`)
      if (w.gold !== undefined) yield* Console.log(`${c.bold("test gold")}: ${w.gold} (keep it; never upload it before the test phase ends)`)
      for (const note of w.notes) yield* Console.log(`  ${c.yellow("note")}: ${note}`)
    }
  })
).pipe(
  Command.withDescription("Write a Codabench competition bundle (competition.yaml, scoring program, reference data) for a task edition."),
  Command.withExamples(({ commandPath }) => [{
    command: `${commandPath.join(" ")} --task sick2014 --gold examples/sick2014/SICK_test_annotated.txt --out /tmp/sick2014-codabench --zip`,
    description: "the SICK competition: /tmp/sick2014-codabench.zip is the file to upload to Codabench"
  }])
)

const importCommand = Command.make(
  "import",
  {
    input: Argument.String("download").pipe(Argument.withDescription("bulk_submissions.zip, or a folder of the submission zips, with the submissions CSV export")),
    out: Flag.String("out").pipe(Flag.withDescription("The submissions folder to write (new or empty)")),
    deadline: Flags.optionalString("deadline", "Submissions after this instant are post-deadline (ISO 8601, UTC)"),
    lateUntil: Flags.optionalString("late-until", "A grace period: submissions after --deadline but not after this instant are late (ranked, marked *), not post-deadline"),
    phase: Flags.optionalString("phase", "Import only the submissions of this phase: its name in the CSV, or its id (PhaseId<id> in the download's names)"),
    manifest: Flags.optionalString("manifest", "The submissions CSV export (default: the one .csv beside the zips)"),
    teams: Flags.optionalString("teams", "A JSON file mapping Codabench usernames to team names"),
    primary: Flag.Literals("primary", ["last", "first", "none"]).pipe(
      Flags.defaulting("Which run of a team is primary: its last before the deadline, its first, or none", "last")
    ),
    json: Flags.toggle("json", "Print the import as JSON")
  },
  Effect.fn(function*(flags) {
    const c = yield* Colour.Colour
    const { Import } = yield* codabenchPackage
    let teams: Map<string, string> | undefined
    const teamsFile = Option.getOrUndefined(flags.teams)
    if (teamsFile !== undefined) {
      // formats' reader: a regular file only (a FIFO would hang, /dev/zero never end), capped
      const text = yield* Files.readText(teamsFile, { what: "the teams file", maxBytes: 16 * 1024 * 1024 }).pipe(
        Effect.mapError((e) => new UsageError({ message: `--teams: ${e.message}` }))
      )
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        return yield* new UsageError({ message: `--teams: ${teamsFile} is not JSON ({ "username": "Team" })` })
      }
      const checked = decodeTeams(json)
      if (checked._tag === "Failure") {
        return yield* new UsageError({ message: `--teams: ${teamsFile}: ${Issue.schemaMessage(checked.failure)} (expected { "username": "Team" }: each username mapped to its team's name)` })
      }
      // a Map of the parsed entries (not of the decoded record): a username such as "constructor"
      // or "__proto__" is a key like any other
      teams = new Map(Object.entries(json as Record<string, string>))
    }
    const imported = yield* Import.importSubmissions(flags.input, flags.out, {
      deadline: yield* date("deadline", flags.deadline, "end"),
      lateUntil: yield* date("late-until", flags.lateUntil, "end"),
      phase: Option.getOrUndefined(flags.phase),
      manifest: Option.getOrUndefined(flags.manifest),
      teams,
      primary: flags.primary
    }).pipe(Effect.result)
    if (imported._tag === "Failure") {
      const e = imported.failure
      // No problem listed: the input itself is unusable (a usage error). Otherwise some
      // submissions could not be imported: each is listed, nothing was written.
      if (e.problems === undefined || e.problems.length === 0) return yield* new UsageError({ message: e.reason })
      if (flags.json) yield* Console.log(JSON.stringify({ error: e.reason, problems: e.problems }, null, 2))
      else {
        yield* Console.error(`error: ${e.reason}`)
        for (const p of e.problems) yield* Console.error(`  ${p.source}: ${p.reason}`)
      }
      return yield* new ExitCode({ code: 1, reason: e.reason })
    }
    const result = imported.success
    if (flags.json) {
      yield* Console.log(JSON.stringify(result, null, 2))
      return
    }
    for (const r of result.runs) {
      const marks = `${r.primary ? " primary" : ""}${r.late ? " late" : ""}${r.postDeadline ? " post-deadline" : ""}`
      const when = r.submitted ?? r.submittedDay
      yield* Console.log(`${r.team} run ${r.run}${marks}  ${c.dim(`${r.source}${when !== undefined ? `, ${when}` : ""}`)}`)
    }
    for (const s of result.skipped) yield* Console.log(`${c.yellow("excluded")} ${s.source}: ${s.reason}`)
    for (const n of result.notes) yield* Console.log(`${c.yellow("note")}: ${n}`)
    yield* Console.log(`\n${result.runs.length} runs written to ${flags.out}`)
  })
).pipe(
  Command.withDescription(
    "Turn submissions downloaded from Codabench into a submissions folder (run.json with team, run number, primary, post-deadline) for rank, report and significance."
  ),
  Command.withExamples(({ commandPath }) => [{
    command: `${commandPath.join(" ")} examples/made-up-task/codabench/bulk_submissions.zip --manifest examples/made-up-task/codabench/submissions.csv --phase Test --deadline 2027-02-08T23:59:59Z --out /tmp/made-up-runs`,
    description: "the test phase's submissions (Codabench's bulk download and its CSV export) as runs, the last before the deadline primary"
  }])
)

const unseal = Command.make(
  "unseal",
  {
    bundle: Argument.String("bundle").pipe(Argument.withDescription("The sealed bundle folder (codabench bundle --out)")),
    gold: Flags.optionalString("gold", "The test gold, file or folder (default: <bundle>.gold, where bundle kept it)"),
    out: Flag.String("out").pipe(Flag.withDescription("The reference data folder to write (new or empty); <out>.zip is the file to upload")),
    early: Flags.toggle("early", "Write it before the test phase's end in competition.yaml (a phase closed early)")
  },
  Effect.fn(function*(flags) {
    const c = yield* Colour.Colour
    const { Unseal } = yield* codabenchPackage
    const u = yield* Unseal.unseal({ bundle: flags.bundle, gold: Option.getOrUndefined(flags.gold), out: flags.out, early: flags.early }).pipe(
      Effect.mapError((e) => new UsageError({ message: e.reason }))
    )
    yield* Console.log(`${c.bold("reference data")}: ${u.out}\n${c.bold("zip")}: ${u.zip} (upload this file)`)
    yield* Console.log(`  the gold of ${flags.bundle}'s sealed test phase, its hashes the sealed ones (the scoring program checks them again)`)
    for (const line of Unseal.steps(u)) yield* Console.log(line)
  })
).pipe(
  Command.withDescription(
    "After a sealed test phase ends: write the reference data with the test gold (checked against the hashes it was sealed with) to upload as the test task's reference data, and say how Codabench then scores the submissions."
  ),
  Command.withExamples(({ commandPath }) => [{
    command: `${commandPath.join(" ")} /tmp/sick2014-codabench --out /tmp/sick2014-test-gold`,
    description: "the test gold kept beside the bundle, as the reference data to upload: /tmp/sick2014-test-gold.zip (exit 2 before the test phase ends: --early to write it all the same)"
  }])
)

export const codabench = Command.make("codabench").pipe(
  Command.withDescription("Run a competition on Codabench: its scoring program, its bundle, and the import of its submissions."),
  Command.withSubcommands([score, bundle, unseal, importCommand])
)
