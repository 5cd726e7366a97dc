/**
 * What the positional paths of `validate` and `score` are: a single run (a file, a zip, or for a
 * folder edition a folder holding the run's dataset files) or a submissions folder of many runs.
 */
import { Effect, FileSystem, Path } from "effect"
import type { Issue } from "@stseval/formats"
import { Registry, Submissions } from "@stseval/formats"

const isRunFolder = Effect.fnUntraced(function*(edition: Registry.TaskEdition, dir: string) {
  const fs = yield* FileSystem.FileSystem
  if (edition.submission === "file") return false
  const names = yield* fs.readDirectory(dir)
  return names.some((n) => Registry.datasetOfRunFile(edition, n) !== undefined)
})

/** Every run the given paths name, in order; submissions folders are expanded (with their folder-level issues). */
export const submissions = Effect.fnUntraced(function*(edition: Registry.TaskEdition, paths: ReadonlyArray<string>) {
  const fs = yield* FileSystem.FileSystem
  yield* Path.Path
  const runs: Array<Submissions.Submission> = []
  const issues: Array<Issue.Issue> = []
  for (const p of paths) {
    const info = yield* fs.stat(p).pipe(Effect.option)
    if (info._tag === "Some" && info.value.type === "Directory" && !(yield* isRunFolder(edition, p))) {
      const found = yield* Submissions.discover(p, edition)
      runs.push(...found.runs)
      issues.push(...found.issues)
    } else {
      runs.push(yield* Submissions.loadRun(p, edition))
    }
  }
  return { runs, issues }
})
