/**
 * Expected failures are typed errors (docs/architecture.md, "Errors"): a zip refused by the
 * hand-written reader, and a download stopped by the data store, each tagged and told apart by
 * class, never by the words of a message.
 */
import * as os from "node:os"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Effect, Exit } from "effect"
import { strToU8, zipSync } from "fflate"
import { describe, expect, it } from "vitest"
import { DataStore } from "@stseval/formats"
import * as Zip from "../src/internal/zip.js"

describe("a refused zip is a ZipError (a Schema.TaggedError) with its kind", () => {
  it("not a zip: unreadable", () => {
    const f = () => Zip.entries(new Uint8Array(64).fill(7), 10)
    expect(f).toThrow(Zip.ZipError)
    expect(f).toThrow(expect.objectContaining({ _tag: "ZipError", kind: "unreadable", message: "it has no zip directory at its end (not a zip, or cut short while uploading)" }))
  })

  it("more entries than allowed: too-large", () => {
    const bytes = zipSync({ "a.txt": strToU8("1"), "b.txt": strToU8("2"), "c.txt": strToU8("3") })
    expect(() => Zip.entries(bytes, 2)).toThrow(
      expect.objectContaining({ _tag: "ZipError", kind: "too-large", message: "it holds 3 entries, more than the 2 a run may have; it was not unpacked" })
    )
  })
})

describe("a failed download is a DataFetchError whose message the data store wrote or which says what to do instead", () => {
  const url = "https://example.org/x.zip"
  const fetchFrom = (fetchImpl: typeof globalThis.fetch) =>
    Effect.runPromiseExit(
      DataStore.fetchSource(path.join(os.tmpdir(), "stseval-error-idiom-never-written"), { url, file: "x.zip" }, { fetch: fetchImpl }).pipe(Effect.provide(NodeServices.layer))
    )
  const failure = (exit: Exit.Exit<unknown, unknown>) => {
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
    expect(error).toBeInstanceOf(DataStore.DataFetchError)
    return error as DataStore.DataFetchError
  }

  it("an HTTP error status: the status, after the URL", async () => {
    const e = failure(await fetchFrom(() => Promise.resolve(new Response("gone", { status: 404, statusText: "Not Found" }))))
    expect(e.message).toBe(`${url}: HTTP 404 Not Found`)
  })

  it("a network error whose words begin like the store's own (HTTP ...) still says what to do instead", async () => {
    // a proxy agent's refusal: before, told apart by its first words, it lost the advice
    const e = failure(await fetchFrom(() => Promise.reject(new TypeError("HTTP proxy refused the tunnel"))))
    expect(e.message).toBe(
      `${url}: cannot download (HTTP proxy refused the tunnel); check the network, or use a copy of the data: give the gold with --gold <path>, or point STSEVAL_DATA=<folder> at a data root holding it`
    )
  })
})
