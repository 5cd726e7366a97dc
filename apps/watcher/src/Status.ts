/**
 * The watcher service's status endpoint: a small HTTP server (Effect's, on Node's `http`) that
 * serves what the watcher writes, read afresh at each request, so it can never disagree with the
 * files:
 *
 * - `GET /healthz`: 200 `ok` while the watcher runs (`status.json` phase `starting`, `watching` or
 *   `once`), 503 before its first write and once it has stopped; for a container's health check.
 * - `GET /status`: `status.json` (the `stseval/watch-status@1` Schema, docs/watch.md).
 * - `GET /leaderboard.json`, `/leaderboard.md`, `/leaderboard.html` (and `/`): the public board
 *   (`leaderboard.public.*`: validation status only in the hidden phase), and
 *   `/leaderboard.public.version.js`, which the open page polls to reload when the board changes.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Watcher } from "@stseval/leaderboard"
import { Context, Effect, FileSystem, Layer, Option, Path } from "effect"
import { HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createServer } from "node:http"

const PUBLIC: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  "/": { file: Watcher.files.publicHtml, type: "text/html; charset=utf-8" },
  "/leaderboard.html": { file: Watcher.files.publicHtml, type: "text/html; charset=utf-8" },
  "/leaderboard.md": { file: Watcher.files.publicMd, type: "text/markdown; charset=utf-8" },
  "/leaderboard.json": { file: Watcher.files.publicJson, type: "application/json" },
  // what the open page polls to reload itself as soon as the board changes
  "/leaderboard.public.version.js": { file: Watcher.files.publicVersion, type: "text/javascript; charset=utf-8" }
}

/** The phases of `status.json` in which the watcher is up. */
const RUNNING = new Set(["starting", "watching", "once"])

/** The responses, given the output folder. */
export const app = (out: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const read = (name: string) => fs.readFileString(path.join(out, name)).pipe(Effect.option)
    if (request.method !== "GET" && request.method !== "HEAD") return HttpServerResponse.text("only GET\n", { status: 405 })
    const pathname = new URL(request.url, "http://localhost").pathname
    if (pathname === "/healthz" || pathname === "/status") {
      const text = yield* read(Watcher.files.status)
      if (Option.isNone(text)) return HttpServerResponse.text("starting: no status.json yet\n", { status: 503 })
      if (pathname === "/status") return HttpServerResponse.text(text.value, { contentType: "application/json" })
      let phase = "unknown"
      try {
        phase = String((JSON.parse(text.value) as { readonly phase?: unknown }).phase)
      } catch {
        // a status.json is replaced atomically, so this is a file someone else wrote
      }
      return RUNNING.has(phase) ? HttpServerResponse.text(`ok: ${phase}\n`) : HttpServerResponse.text(`not running: ${phase}\n`, { status: 503 })
    }
    const served = PUBLIC[pathname]
    if (served === undefined) return HttpServerResponse.text("not found; try /healthz, /status or /leaderboard.html\n", { status: 404 })
    const text = yield* read(served.file)
    return Option.isSome(text) ? HttpServerResponse.text(text.value, { contentType: served.type }) : HttpServerResponse.text("no leaderboard yet\n", { status: 503 })
  })

/**
 * Serve the endpoint on `port` (0: any free one) and `host` for as long as the enclosing scope
 * lasts; gives the address it listens on.
 */
export const serve = (options: { readonly out: string; readonly port: number; readonly host: string }) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(NodeHttpServer.layer(() => createServer(), { port: options.port, host: options.host }))
    const server = Context.get(context, HttpServer.HttpServer)
    yield* server.serve(app(options.out).pipe(Effect.provide(context)))
    return HttpServer.formatAddress(server.address)
  })
