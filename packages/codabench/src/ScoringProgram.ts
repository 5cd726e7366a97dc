/**
 * The scoring program the Codabench compute worker runs on each submission:
 * `stseval codabench score /app/input /app/output`.
 *
 * The worker (codalab/codabench `compute_worker/compute_worker.py`) unzips the task's reference
 * data into `/app/input/ref` and the submission into `/app/input/res`, runs the `command` of the
 * scoring program's `metadata.yaml` in the competition's Docker image, then reads
 * `/app/output/scores.json` (or `scores.txt`) and shows `/app/output/detailed_results.html` to the
 * participant. `res/metadata` (the prediction step's exit code and time) is not part of the run,
 * and nothing is written as `metadata` in the output folder (the worker's).
 *
 * A submission is scored exactly as `stseval score` scores it. A submission with an error (a file
 * that cannot be read, a bad line, a missing or unknown pair) is rejected: no `scores.json`, the
 * reasons (file relative to the submission, line, what was expected) on stderr and in the detailed
 * results, and a non-zero exit, which makes the submission fail — and a failed submission does not
 * count against the participant's limit (`Phase.can_user_make_submissions` in
 * `src/apps/competitions/models.py`, c7dbc756, excludes `status='Failed'`). The worker fails a
 * submission whose scoring program exits non-zero and then uploads no scores (`Run.start` raises
 * before `push_scores` in `compute_worker/compute_worker.py` `run_wrapper`), so it never reaches the
 * leaderboard.
 *
 * Two more rejections keep the leaderboard right:
 *
 * - a file that is none of the run's files (`unknown-file`, e.g. `STS.output.track5.txt` for
 *   `STS.output.track5.en-en.txt`) fails the submission with the closest expected name, rather than
 *   scoring the run without it and costing the participant one of their test submissions;
 * - a run whose leaderboard's primary figure cannot be computed (a track missing from STS 2017's
 *   mean of all tracks, SICK without relatedness, SemRel without the board's language) fails: it
 *   would top the leaderboard (NULLs first, see `Scores`).
 *
 * In a sealed test phase (`Sealed`) the submission is checked against the gold's shape by the same
 * engine, so it is rejected exactly as the gold would reject it; a valid one is `received`: an
 * empty `scores.json` and no figure. Once unsealed, a gold whose hashes are not the sealed ones is
 * a set-up error.
 *
 * @since 0.1.0
 */
import { Files, Gold, Issue, Registry, Submissions } from "@stseval/formats"
import { Effect, FileSystem, Path, Schema } from "effect"
import * as DetailedResults from "./DetailedResults.js"
import * as Score from "./internal/score.js"
import * as ReferenceData from "./ReferenceData.js"
import * as Sealed from "./Sealed.js"
import * as Scores from "./Scores.js"
import type { Isolation } from "@stseval/scoring"

/**
 * The file the prediction step writes beside the submission (and that the worker reserves).
 *
 * @since 0.1.0
 */
export const WORKER_METADATA = "metadata"

/**
 * The competition is set up wrongly (no or broken reference data, a gold with errors, an output
 * folder that cannot be written): the organiser's problem. The message names no server path.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringProgram } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const scored = ScoringProgram.scoreCodabench("/app/input", "/app/output").pipe(
 *   Effect.catchTag("SetupError", (e: ScoringProgram.SetupError) => Effect.fail(`the bundle is broken: ${e.reason}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class SetupError extends Schema.TaggedError<SetupError>()("SetupError", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

/**
 * What the Codabench scoring program wrote for one submission.
 *
 * @since 0.1.0
 */
export interface Outcome {
  /**
   * `scored`: `scores.json` was written; `received`: a sealed test phase found the submission valid
   * (an empty `scores.json`, so that Codabench finishes it and puts it on the leaderboard, which a
   * phase migration needs: see `Sealed`); `rejected`: the submission has errors, nothing was scored
   */
  readonly verdict: "scored" | "received" | "rejected"
  /** one or two sentences for the participant */
  readonly summary: string
  /** the leaderboard columns and what was written for each */
  readonly columns: ReadonlyArray<Scores.Column>
  readonly scores: Scores.Scores | undefined
  /** the reasons of a rejection, one line each: `file:line: message` (file relative to the submission) */
  readonly reasons: ReadonlyArray<string>
  /**
   * how many errors the reasons stand for: more than there are reasons when a file has more bad
   * lines of one kind than are listed (the last reason of such a list says how many it sums up);
   * 0 when scored
   *
   * @since 0.3.0
   */
  readonly errors: number
  /** warnings worth showing even when scored, same form */
  readonly warnings: ReadonlyArray<string>
  /**
   * the scored result's signature (`edition@hash|gold:hash|agg:rule|engine@version`): which edition,
   * gold and engine scored the submission. Codabench's scores are numbers only, so it goes to the
   * scoring output and the detailed results.
   */
  readonly signature: string
}

/**
 * `file:line: message (expected ..., found ...)`.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 * import { ScoringProgram } from "@stseval/codabench"
 *
 * ScoringProgram.describeIssue(Issue.error("not-a-number", "STS.output.track5.en-en.txt", "the score is not a number", { line: 7 }))
 * ```
 * @since 0.1.0
 */
export const describeIssue = (i: Issue.Issue): string => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}${Issue.details(i)}`

/**
 * Why a run fails for a file that is none of its files (`unknown-file`, whatever its severity): the
 * issue's own words, and the closest expected file name unless the issue already suggests one.
 *
 * @example
 * ```ts
 * import { Issue, Registry } from "@stseval/formats"
 * import { ScoringProgram } from "@stseval/codabench"
 *
 * // a name too far from any run file for validation to suggest one: the submission fails all the same, pointing at the nearest
 * const issue = Issue.warning("unknown-file", "track5_en_en.txt", "track5_en_en.txt matches no dataset of sts2017; it is ignored", { found: "track5_en_en.txt" })
 * ScoringProgram.unknownFileReason(issue, Registry.get("sts2017")!)
 * // 'track5_en_en.txt: track5_en_en.txt matches no dataset of sts2017; it is ignored (found "track5_en_en.txt"); did you mean STS.output.track5.en-en.txt?'
 * ```
 * @since 0.3.0
 */
export const unknownFileReason = (
  issue: Issue.Issue,
  edition: Registry.TaskEdition,
  /** the other competitions' run files (`ReferenceData.Reference.elsewhere`) @since 0.3.0 */
  elsewhere?: Readonly<Record<string, string>>
): string => {
  const found = issue.found !== undefined ? issue.found.split(/[\\/!]/).pop() ?? issue.found : undefined
  const other = found !== undefined ? elsewhere?.[found] : undefined
  if (other !== undefined) {
    const own = edition.datasets.map((d) => d.run).filter((r) => r !== undefined)
    return `${issue.file}: ${found} is the run file of the ${other} competition, not of this one (${edition.datasets.map((d) => d.name).join(", ")}: ${own.join(", ")}); submit it to the ${other} competition`
  }
  const suggestion = /did you mean/i.test(issue.message) || found === undefined ? undefined : Registry.closestRunFile(edition, found, { nearest: true })
  return `${describeIssue(issue)}${suggestion !== undefined && suggestion !== found ? `; did you mean ${suggestion}?` : ""}`
}

/**
 * Replaces the server's folders in a text by what the participant knows: the submission's own
 * files relative to it, the reference data as `ref/`.
 */
const relativizer = (roots: ReadonlyArray<readonly [string, string]>) => {
  const ordered = [...roots].sort((a, b) => b[0].length - a[0].length)
  return (text: string): string => {
    let out = text
    for (const [root, label] of ordered) {
      out = out.split(`${root}/`).join(label === "" ? "" : `${label}/`)
      out = out.split(root).join(label === "" ? "." : label)
    }
    return out
  }
}

const safeIssue = (relative: (s: string) => string) => (i: Issue.Issue): Issue.Issue => ({
  ...i,
  file: relative(i.file),
  message: relative(i.message),
  ...(i.expected !== undefined ? { expected: relative(i.expected) } : {})
})

/**
 * Score the submission in `<inputDir>/res` against the task in `<inputDir>/ref` and write
 * `scores.json` and `detailed_results.html` into `outputDir`. Fails only with a `SetupError`; a bad
 * submission is an `Outcome` with verdict `rejected`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringProgram } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * // what the scoring program runs on the compute worker: /app/input/{ref,res} to scores.json and detailed_results.html
 * await Effect.runPromise(ScoringProgram.scoreCodabench("/app/input", "/app/output").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const scoreCodabench = (
  inputDir: string,
  outputDir: string,
  /** each run's budget in isolation (`Isolation.Options` of @stseval/scoring; default its `defaultBudget`) @since 0.3.0 */
  options: { readonly isolation?: Isolation.Options | undefined } = {}
): Effect.Effect<Outcome, SetupError, FileSystem.FileSystem | Path.Path> =>
  Effect.scoped(
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      const input = path.resolve(inputDir)
      const output = path.resolve(outputDir)
      const refDir = path.join(input, "ref")
      const resDir = path.join(input, "res")
      const setup = (reason: string) => new SetupError({ reason })

      const reference = yield* ReferenceData.read(refDir).pipe(Effect.mapError((e) => setup(`the competition's reference data cannot be used: ${e.reason}`)))
      const board = Scores.board(reference.edition, reference.leaderboard ?? "official")
      if ("problem" in board) return yield* setup(`the competition's reference data names no leaderboard stseval can rank: ${board.problem}`)
      const cols = board.columns
      const refRelative = relativizer([[refDir, "ref"]])
      yield* fs.makeDirectory(output, { recursive: true }).pipe(Effect.mapError(() => setup("the output folder cannot be created")))
      // whole or not at all: a scoring program stopped by the worker leaves no half-written scores.json
      const write = (name: string, content: string) =>
        Files.writeAtomic(path.join(output, name), content).pipe(Effect.mapError(() => setup(`${name} cannot be written to the output folder`)))

      // Stage the submission without the worker's own `metadata` file, so that the run is what the
      // participant sent and nothing else.
      const stage = yield* fs.makeTempDirectoryScoped({ prefix: "stseval-codabench-" }).pipe(Effect.mapError(() => setup("no temporary folder can be made")))
      const submission = path.join(stage, "submission")
      // A sealed test phase: validated against the gold's shape, never scored (see Sealed).
      const sealedGold = reference.sealed !== undefined ? Sealed.restore(reference.edition, reference.sealed) : undefined
      // The gold as the edition names it (a nested layout is restored from the flat reference data).
      const goldPath =
        sealedGold !== undefined
          ? reference.goldPath
          : yield* ReferenceData.layOut(reference, path.join(stage, "gold")).pipe(
              Effect.mapError((e) => setup(`the competition's reference data cannot be used: ${refRelative(e.reason)}`))
            )
      if (sealedGold === undefined && reference.goldHashes !== undefined) {
        // The gold uploaded after the deadline must be the gold the competition was sealed with.
        const found = yield* Gold.loadGold(reference.edition, goldPath).pipe(Effect.flatMap(Sealed.hashes), Effect.orElseSucceed((): Sealed.GoldHashes => ({})))
        const differ = Sealed.differences(reference.goldHashes, found)
        if (differ.length > 0) {
          return yield* setup(
            `the competition's reference data holds another gold than the one it was sealed with (${differ.slice(0, 5).join("; ")}); tell the organisers: upload the reference data \`stseval codabench unseal\` makes from the bundle's gold`
          )
        }
      }
      const goldRelative = relativizer([
        [refDir, "ref"],
        [goldPath, "ref"]
      ])
      const scoreRun = (runPath?: string) =>
        Effect.gen(function* () {
          const scored = yield* Score.score(reference.edition, goldPath, runPath, options.isolation, sealedGold).pipe(
            Effect.mapError((reason) => setup(`the competition's gold cannot be read: ${goldRelative(reason)}`))
          )
          if (Issue.hasErrors(scored.goldIssues)) {
            const first = scored.goldIssues.filter((i) => i.severity === "error").slice(0, 3).map((i) => describeIssue(safeIssue(goldRelative)(i)))
            return yield* setup(`the competition's gold has errors, so no submission can be scored; tell the organisers: ${first.join("; ")}`)
          }
          // sealed: the signature of the gold to come, not of the placeholder
          return reference.sealed !== undefined ? { ...scored, signature: reference.sealed.signature } : scored
        })
      yield* fs.makeDirectory(submission).pipe(Effect.mapError(() => setup("no temporary folder can be made")))
      const entries = yield* fs.readDirectory(resDir).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
      const sent = entries.filter((name) => name !== WORKER_METADATA).sort()
      // formats' reader for the participant's files: a FIFO, socket or device, a link out, a tree too
      // deep or too large is the submission's problem (it is rejected saying so), not the competition's
      const unstaged = sent.length === 0 ? [] : yield* Files.copyTree(resDir, submission, { skip: [WORKER_METADATA] })
      const relative = relativizer([
        [submission, ""],
        [resDir, ""],
        [refDir, "ref"],
        [goldPath, "ref"],
        [input, "input"],
        [output, "output"],
        [stage, "."]
      ])

      const reject = (
        summary: string,
        reasons: ReadonlyArray<string>,
        signature: string,
        html: Omit<DetailedResults.Input, "verdict" | "summary" | "columns" | "scores" | "plot" | "signature" | "edition">,
        errors = reasons.length
      ) =>
        Effect.gen(function* () {
          yield* write(
            "detailed_results.html",
            DetailedResults.render({ ...html, edition: reference.edition, verdict: "rejected", summary, columns: cols, scores: undefined, plot: "none", signature })
          )
          return { verdict: "rejected" as const, summary, columns: cols, scores: undefined, reasons, errors, warnings: [], signature } satisfies Outcome
        })
      // `errors`: the true total, a capped list's closing reason counting every line it sums up
      const notScored = (reasons: ReadonlyArray<string>, errors = reasons.length) =>
        `Your submission was not scored: ${errors} error${errors === 1 ? "" : "s"} (${errors === reasons.length ? "listed" : "the first listed"} below). Fix ${errors === 1 ? "it" : "them"} and submit again; a submission that fails does not count against your limit.`
      const safe = safeIssue(relative)

      if (unstaged.length > 0) {
        const { signature } = yield* scoreRun()
        return yield* reject(notScored(unstaged), unstaged, signature, { parts: [], figure: () => ({ _tag: "none", reason: unstaged[0] }), issues: [], reasons: unstaged })
      }
      if (sent.length === 0) {
        const { signature } = yield* scoreRun()
        const reason = "the submission holds no files: submit a zip with your run's file(s) at its top level"
        return yield* reject(`Your submission was not scored: ${reason}.`, [reason], signature, { parts: [], figure: () => ({ _tag: "none", reason }), issues: [], reasons: undefined })
      }
      // A zip inside the submission zip is opened as the run (as `stseval score` opens a zip); a
      // folder is read as \`stseval score <folder>\` reads it: one run, or a folder of runs.
      const single = sent.length === 1 ? sent[0] : undefined
      const runPath = single !== undefined && /\.zip$/i.test(single) ? path.join(submission, single) : submission
      if (runPath !== submission) {
        // The worker unzipped the upload: this zip is already inside one. Its lone zip would be a
        // third level, which `rank` on the imported submission does not open either
        // (`Submissions.readZip`: one level).
        const bytes = yield* fs.readFile(runPath).pipe(Effect.orElseSucceed(() => new Uint8Array()))
        const opened = Submissions.readZip(bytes, single!).opened
        if (opened !== undefined) {
          const { signature } = yield* scoreRun()
          const reason = `${single}!${opened}: a zip inside a zip inside the submission is not opened; submit a zip holding the run's files (or holding one zip of them)`
          return yield* reject(notScored([reason]), [reason], signature, { parts: [], figure: () => ({ _tag: "none", reason }), issues: [], reasons: [reason] })
        }
      }
      const scored = yield* scoreRun(runPath)
      const { signature } = scored
      if (scored.runs.length !== 1) {
        // Codabench scores one run per submission: none found, or several, is the participant's to fix.
        const reasons =
          scored.unreadable !== undefined
            ? [relative(`the submission cannot be read: ${scored.unreadable}`)]
            : scored.runs.length === 0
              ? // (the entries skipped are in the issues table; their wording is about submissions folders)
                [
                  `no run was found in the submission: expected ${reference.edition.submission === "file" ? "one run file" : `the run's files (${reference.edition.datasets.map((d) => d.run).join(", ")})`} at the zip's top level`
                ]
              : [`the submission holds ${scored.runs.length} runs; submit one run per submission (its file(s) at the zip's top level)`]
        return yield* reject(notScored(reasons), reasons, signature, { parts: [], figure: () => ({ _tag: "none", reason: reasons[0] }), issues: scored.issues.map(safe), reasons })
      }
      const run = scored.runs[0]
      // Codabench knows who submitted: the staged run's name ("submission") says nothing.
      const relevant = (i: Issue.Issue) => i.code !== "bad-run-name"
      const issues = [...run.errors, ...run.warnings, ...run.infos].filter(relevant).map(safe)
      const parts = run.parts.map((p) => ({ ...p, reason: p.reason === undefined ? undefined : relative(p.reason), file: p.file === undefined ? undefined : relative(p.file) }))
      // A misnamed file fails the run whatever the severity the engine gives it (see the module's doc).
      const unknown = [...run.errors, ...run.warnings, ...run.infos].filter((i) => i.code === "unknown-file").map(safe)
      const errors = [...run.errors.filter(relevant).map(safe).filter((i) => i.code !== "unknown-file"), ...unknown]
      const warnings = run.warnings.filter(relevant).filter((i) => i.code !== "unknown-file").map(safe).map(describeIssue)
      const describe = (i: Issue.Issue) => (i.code === "unknown-file" ? unknownFileReason(i, reference.edition, reference.elsewhere) : describeIssue(i))

      if (run.status === "failed" || errors.length > 0) {
        const reasons = errors.length > 0 ? errors.map(describe) : [relative(run.failure ?? "the run could not be scored")]
        const total = errors.length > 0 ? Issue.count(errors) : reasons.length
        const outcome = yield* reject(
          notScored(reasons, total),
          reasons,
          signature,
          { parts, figure: run.figure, issues, reasons: errors.length > 0 ? unknown.map(describe) : reasons },
          total
        )
        return { ...outcome, warnings }
      }

      // The board's primary figure, or the submission fails (see the module's doc).
      const primary = cols[board.primary]
      const primaryFigure = run.figure(primary.figure)
      if (primaryFigure._tag === "none") {
        const reason = `the leaderboard is ordered by ${primary.title} (${primary.key}), and it could not be computed: ${relative(primaryFigure.reason)}`
        const outcome = yield* reject(
          `Your submission was not put on the leaderboard: ${reason}. Fix the run and submit again; a submission that fails does not count against your limit.`,
          [reason],
          signature,
          { parts, figure: run.figure, issues, reasons: [reason] }
        )
        return { ...outcome, warnings }
      }

      if (reference.sealed !== undefined) {
        // Valid: an empty scores.json finishes the submission and puts it on the leaderboard with no
        // figure (`upload_submission_scores` and `put_on_leaderboard_by_submission_rule` in
        // src/apps/api/views/submissions.py, src/apps/leaderboards/strategies.py, c7dbc756), where a
        // phase migration finds it (`Competition.apply_phase_migration` moves only finished
        // submissions on a leaderboard).
        const summary =
          "Your submission was received and is valid. It will be scored when the test phase closes: the test gold is sealed until then, and its figures will then be on the leaderboard."
        yield* write("scores.json", "{}\n")
        yield* write(
          "detailed_results.html",
          DetailedResults.render({ edition: reference.edition, verdict: "received", summary, columns: cols, scores: undefined, parts, figure: run.figure, issues, plot: "none", signature })
        )
        return { verdict: "received", summary, columns: cols, scores: undefined, reasons: [], errors: 0, warnings, signature } satisfies Outcome
      }

      const scores = Scores.fromRun(cols, run.figure)
      const omitted = scores.omitted.length
      const summary =
        omitted === 0
          ? `Your submission was scored: ${cols.length} leaderboard figure${cols.length === 1 ? "" : "s"}.`
          : `Your submission was scored, but ${omitted} of ${cols.length} leaderboard figures could not be computed (the reasons are below).`
      yield* write("scores.json", `${JSON.stringify(scores.scores, null, 2)}\n`)
      yield* write(
        "detailed_results.html",
        DetailedResults.render({
          edition: reference.edition,
          verdict: "scored",
          summary,
          columns: cols,
          scores,
          parts,
          figure: run.figure,
          issues,
          plot: reference.plot,
          signature
        })
      )
      return { verdict: "scored", summary, columns: cols, scores, reasons: [], errors: 0, warnings, signature } satisfies Outcome
    })
  )
