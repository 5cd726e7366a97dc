/**
 * The open leaderboard page reloads itself as soon as the board changes (issue 24: it waited for
 * its 30 s meta refresh): opened from disk in headless Chromium, with the time-based refresh off,
 * it shows a run added to the folder within a few seconds. Skipped (with a warning) without
 * Chromium.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { hasChromium, executablePath, launch } from "@stseval/vitest-config/browser"
import { afterEach, describe, expect, it } from "vitest"
import * as Fake from "./fixtures/fake.js"
import { start, status, tempDir, waitBoard, waitFor } from "./fixtures/harness.js"

if (!hasChromium) console.warn(`leaderboard: live page test skipped: ${executablePath} not found`)

const GOLD = Fake.GOLD
const stops: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

describe.skipIf(!hasChromium)("the open leaderboard page", () => {
  it("reloads within seconds of the board changing, without a time-based refresh, and makes no other request", { timeout: 60_000 }, async () => {
    const folder = tempDir("live")
    const out = tempDir("live-out")
    fs.writeFileSync(path.join(folder, "A_run1.txt"), Fake.runText(GOLD))
    const w = start({ folder, out, debounce: 20, rescanInterval: 0, refresh: 0 })
    stops.push(w.stop)
    await waitBoard(out, "A scored", (b) => b.runs.some((r) => r.entry === "A_run1.txt"))
    await waitFor("watching", () => status(out)?.phase === "watching")
    const page = path.join(out, "leaderboard.html")
    expect(fs.readFileSync(page, "utf8")).not.toContain('http-equiv="refresh"')

    const { context, close } = await launch()
    stops.push(close)
    const tab = await context.newPage()
    const errors: Array<string> = []
    const requests: Array<string> = []
    tab.on("pageerror", (e) => errors.push(e.message))
    tab.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text())
    })
    tab.on("request", (r) => requests.push(r.url().replace(/\?.*$/, "")))
    await tab.goto(pathToFileURL(page).href)
    expect(await tab.locator("tr[data-run]").count()).toBe(1)

    fs.writeFileSync(path.join(folder, "B_run1.txt"), Fake.runText(GOLD))
    await waitBoard(out, "B scored", (b) => b.runs.some((r) => r.entry === "B_run1.txt"))
    // the page polls every 2 s: the new row is there well before any 30 s refresh
    await tab.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll: (s: string) => { length: number } } }).document.querySelectorAll("tr[data-run]").length === 2, undefined, { timeout: 8000 })
    expect(errors).toEqual([])
    expect(new Set(requests)).toEqual(new Set([pathToFileURL(page).href, pathToFileURL(path.join(out, "leaderboard.version.js")).href]))
  })
})
