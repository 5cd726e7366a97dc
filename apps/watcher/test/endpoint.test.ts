/**
 * The status endpoint answers 503 for a board that is not a regular file (a folder at its path),
 * as for one not written yet, and keeps serving: it is an answer, not a failure.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Watcher } from "@stseval/leaderboard"
import { scratchDir } from "@stseval/vitest-config/temp"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Endpoint from "../src/Endpoint.js"

describe("Endpoint: a folder where the board should be", () => {
  it("is answered 503, and a file beside it is still served", async () => {
    const out = scratchDir("watcher-endpoint")
    fs.mkdirSync(path.join(out, Watcher.files.publicHtml))
    fs.writeFileSync(path.join(out, Watcher.files.publicMd), "| Run |\n")
    const answers = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const address = yield* Endpoint.serve({ out, port: 0, host: "127.0.0.1" })
          const get = (p: string) => Effect.promise(() => fetch(`${address}${p}`).then(async (r) => [r.status, await r.text()] as const))
          return [yield* get("/leaderboard.html"), yield* get("/leaderboard.md")]
        })
      ).pipe(Effect.provide(NodeServices.layer))
    )
    expect(answers).toEqual([[503, "no leaderboard yet\n"], [200, "| Run |\n"]])
  })
})
