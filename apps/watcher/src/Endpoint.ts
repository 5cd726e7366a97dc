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
 *
 * It is a service anyone who reaches the port can use, so it is bounded: files are streamed from
 * an open descriptor (never read whole: 20 parallel GETs of a 119 MB board held 10.4 GB), at most
 * `requests` files are sent at once (more get 503 at once), at most `connections` are open (a new
 * one closes the oldest idle one: 1,100 idle connections under a 1,024 open-file limit stopped
 * `/healthz` and made the watcher's own reads fail with EMFILE), and every connection has timeouts
 * for its headers, its request and its idle time.
 */
import * as nodeFs from "node:fs"
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Watcher } from "@stseval/leaderboard"
import { Context, Effect, Layer, Option, Path } from "effect"
import { HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"

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

/** How much the endpoint serves at once, and how long a connection may take (docs/watch.md). */
export interface Limits {
  /** open connections; a new one beyond closes the oldest idle one (or itself, when none is idle) */
  readonly connections: number
  /** files being sent at once (`/status` and the board); more are answered 503 at once. `/healthz` is not counted */
  readonly requests: number
  /** ms a connection may take to send its request headers */
  readonly headersTimeout: number
  /** ms a request may take, from its first byte to the end of its answer; also the most a connection may stay silent */
  readonly requestTimeout: number
  /** ms an idle keep-alive connection stays open */
  readonly idleTimeout: number
}

/** The defaults: far under the usual 1,024 open files, and enough for a contest's participants. */
export const defaultLimits: Limits = { connections: 256, requests: 16, headersTimeout: 10_000, requestTimeout: 60_000, idleTimeout: 5_000 }

// `/healthz` needs the phase only, which `status.json` writes second: its first bytes are enough,
// however many runs the file lists.
const HEAD_BYTES = 4096

/** The phase of a `status.json` from its first bytes; `"unknown"` when it names none. */
const phaseOf = (head: string): string => /^\{\s*"format":\s*"[^"]*",\s*"phase":\s*"([a-z]+)"/.exec(head)?.[1] ?? "unknown"

/**
 * A file opened for sending: its size and a stream of exactly those bytes (the file replaced
 * meanwhile is still sent whole); none when it is absent, unreadable or not a regular file.
 */
const openFile = (file: string) =>
  Effect.tryPromise(async () => {
    const handle = await nodeFs.promises.open(file, nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NOFOLLOW ?? 0))
    const info = await handle.stat().catch(async (e: unknown) => {
      await handle.close()
      throw e
    })
    if (info.isFile()) return Option.some({ size: info.size, handle })
    await handle.close()
    return Option.none()
  }).pipe(Effect.orElseSucceed(() => Option.none()))

const readHead = (file: string) =>
  Effect.tryPromise(async () => {
    const handle = await nodeFs.promises.open(file, "r")
    try {
      const buffer = Buffer.alloc(HEAD_BYTES)
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0)
      return buffer.subarray(0, bytesRead).toString("utf8")
    } finally {
      await handle.close()
    }
  }).pipe(Effect.option)

/** The responses, given the output folder (and the count of files being sent, against `limits.requests`). */
export const app = (out: string, limits: Limits = defaultLimits, sending: { count: number } = { count: 0 }) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = yield* Path.Path
    if (request.method !== "GET" && request.method !== "HEAD") return HttpServerResponse.text("only GET\n", { status: 405 })
    const pathname = new URL(request.url, "http://localhost").pathname
    if (pathname === "/healthz") {
      const head = yield* readHead(path.join(out, Watcher.files.status))
      if (head._tag === "None") return HttpServerResponse.text("starting: no status.json yet\n", { status: 503 })
      const phase = phaseOf(head.value)
      return RUNNING.has(phase) ? HttpServerResponse.text(`ok: ${phase}\n`) : HttpServerResponse.text(`not running: ${phase}\n`, { status: 503 })
    }
    const served = pathname === "/status" ? { file: Watcher.files.status, type: "application/json" } : PUBLIC[pathname]
    if (served === undefined) return HttpServerResponse.text("not found; try /healthz, /status or /leaderboard.html\n", { status: 404 })
    if (sending.count >= limits.requests) {
      return HttpServerResponse.text("busy: too many requests at once; try again in a second\n", { status: 503, headers: { "retry-after": "1" } })
    }
    const opened = yield* openFile(path.join(out, served.file))
    if (opened._tag === "None") {
      return pathname === "/status"
        ? HttpServerResponse.text("starting: no status.json yet\n", { status: 503 })
        : HttpServerResponse.text("no leaderboard yet\n", { status: 503 })
    }
    const { size, handle } = opened.value
    sending.count++
    // the descriptor closes with the stream (sent, failed, or the client gone), and the slot with it
    const stream = handle.createReadStream({ start: 0, end: Math.max(0, size - 1), autoClose: true, highWaterMark: 64 * 1024 })
    let released = false
    stream.once("close", () => {
      if (!released) sending.count--
      released = true
    })
    if (size === 0) stream.destroy()
    return HttpServerResponse.raw(size === 0 ? "" : stream, { contentType: served.type, contentLength: size })
  })

/**
 * Hold the open connections to `limits.connections`: a new connection beyond closes the oldest
 * one with no request in progress (idle keep-alive, or one that never sent a request), or itself
 * when every one is busy. A connection that sends nothing holds no slot for long, so `/healthz`
 * gets through however many connections are left open.
 */
const boundConnections = (server: ReturnType<typeof createServer>, limits: Limits) => {
  const open = new Map<Socket, number>()
  server.on("connection", (socket: Socket) => {
    if (open.size >= limits.connections) {
      let idle: Socket | undefined
      for (const [s, busy] of open) {
        if (busy === 0) {
          idle = s
          break
        }
      }
      if (idle === undefined) {
        socket.destroy()
        return
      }
      open.delete(idle)
      idle.destroy()
    }
    open.set(socket, 0)
    socket.once("close", () => open.delete(socket))
  })
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    if (open.has(socket)) open.set(socket, (open.get(socket) ?? 0) + 1)
    response.once("close", () => {
      const n = open.get(socket)
      if (n !== undefined) open.set(socket, Math.max(0, n - 1))
    })
  })
}

/** A Node server with the limits' timeouts and connection bound. */
const makeServer = (limits: Limits) => {
  const server = createServer({
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.idleTimeout,
    // how often the timeouts above are checked (Node's default is every 30 s)
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.headersTimeout / 2)))
  })
  // a connection silent this long (a reader that stopped reading) is closed
  server.setTimeout(limits.requestTimeout)
  boundConnections(server, limits)
  return server
}

/**
 * Serve the endpoint on `port` (0: any free one) and `host` for as long as the enclosing scope
 * lasts; gives the address it listens on.
 */
export const serve = (options: {
  readonly out: string
  readonly port: number
  readonly host: string
  readonly limits?: { readonly [K in keyof Limits]?: Limits[K] | undefined } | undefined
}) =>
  Effect.gen(function*() {
    const given = Object.entries(options.limits ?? {}).filter(([, v]) => v !== undefined)
    const limits: Limits = { ...defaultLimits, ...Object.fromEntries(given) }
    const context = yield* Layer.build(NodeHttpServer.layer(() => makeServer(limits), { port: options.port, host: options.host }))
    const server = Context.get(context, HttpServer.HttpServer)
    yield* server.serve(app(options.out, limits, { count: 0 }).pipe(Effect.provide(context)))
    return HttpServer.formatAddress(server.address)
  })
