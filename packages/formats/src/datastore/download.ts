/** One download: an idle timeout, a limit on the whole download's time, a cap on the bytes received. */
import { Buffer } from "node:buffer"
import { Effect, Schema } from "effect"
import { DataFetchError } from "./errors.js"

/** What to do instead when a download cannot be made. */
const INSTEAD = "check the network, or use a copy of the data: give the gold with --gold <path>, or point STSEVAL_DATA=<folder> at a data root holding it"

/** The operating system's reason behind undici's bare "fetch failed". */
const causeOf = (e: unknown): string => {
  const cause = e instanceof Error ? (e as Error & { cause?: unknown }).cause : undefined
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  const detail = cause instanceof Error ? cause.message : undefined
  return [e instanceof Error ? e.message : String(e), code !== undefined && detail?.includes(code) !== true ? code : undefined, detail]
    .filter((x) => x !== undefined && x !== "")
    .join(": ")
}

// Why the download was aborted: the reason the abort signal carries, told apart from the caller's own.
class Silent extends Schema.TaggedError<Silent>()("Silent", {}) {}
class TooSlow extends Schema.TaggedError<TooSlow>()("TooSlow", {}) {}
// A download this module stopped, its message complete; anything else thrown is the network's.
class Stopped extends Schema.TaggedError<Stopped>()("Stopped", { message: Schema.String }) {}

/**
 * Download with an idle timeout (no answer, or no new bytes, for `timeoutMs`), a limit on the
 * whole download's time (`totalMs`) and a cap on the bytes received.
 */
export const download = (url: string, fetchImpl: typeof globalThis.fetch, timeoutMs: number, totalMs: number, maxBytes: number) =>
  Effect.tryPromise({
    // a throw in here is a failed download: `catch` below makes each one a DataFetchError
    try: async (signal) => {
      const controller = new AbortController()
      const abort = () => controller.abort(new Silent())
      signal.addEventListener("abort", () => controller.abort(signal.reason))
      let timer = setTimeout(abort, timeoutMs)
      const total = setTimeout(() => controller.abort(new TooSlow()), totalMs)
      const idle = () => {
        clearTimeout(timer)
        timer = setTimeout(abort, timeoutMs)
      }
      try {
        const response = await fetchImpl(url, { signal: controller.signal })
        if (!response.ok) throw new Stopped({ message: `HTTP ${response.status} ${response.statusText}` })
        if (response.body === null) return new Uint8Array(0)
        const chunks: Array<Uint8Array> = []
        let total = 0
        const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader()
        for (;;) {
          idle()
          const { done, value } = await reader.read()
          if (done) break
          total += value.length
          if (total > maxBytes) {
            await reader.cancel()
            throw new Stopped({ message: `the download is larger than ${maxBytes} bytes; it was stopped` })
          }
          chunks.push(value)
        }
        const out = Buffer.concat(chunks, total)
        return new Uint8Array(out.buffer, out.byteOffset, out.length)
      } catch (e) {
        if (controller.signal.reason instanceof Silent) {
          throw new Stopped({ message: `no answer for ${timeoutMs / 1000} s (the server does not respond); ${INSTEAD}` })
        }
        if (controller.signal.reason instanceof TooSlow) {
          throw new Stopped({ message: `the download took more than ${totalMs / 1000} s in all (the server sends too slowly); it was stopped; ${INSTEAD}` })
        }
        throw e
      } finally {
        clearTimeout(timer)
        clearTimeout(total)
      }
    },
    catch: (cause) =>
      new DataFetchError({ url, message: cause instanceof Stopped ? `${url}: ${cause.message}` : `${url}: cannot download (${causeOf(cause)}); ${INSTEAD}` })
  })
