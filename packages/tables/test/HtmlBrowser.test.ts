/**
 * The HTML page in headless Chromium: the table, the SVG plots and the heat map are there, a
 * header click sorts, a `<script>` team name never runs, no console errors, and no network
 * request beyond the page itself. Skipped (with a warning) when /usr/bin/chromium is absent.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { executablePath, hasChromium, launch } from "@stseval/vitest-config/browser"
import { describe, expect, it } from "vitest"
import { Html, Presets } from "../src/index.js"
import { hostileNames, hostileResults } from "./fixtures.js"

if (!hasChromium) console.warn(`report: HTML browser test skipped: ${executablePath} not found`)

describe.skipIf(!hasChromium)("HTML page in headless Chromium", () => {
  it("shows the table, plots and heat map, sorts on click, runs no injected script, makes no requests", { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-html-"))
    const file = path.join(dir, "report.html")
    fs.writeFileSync(file, Html.render(Presets.preset("sts2017-table10", hostileResults(), { matrix: true })))
    const { context, close } = await launch()
    try {
      const page = await context.newPage()
      const requests: Array<string> = []
      const errors: Array<string> = []
      const dialogs: Array<string> = []
      page.on("request", (r) => requests.push(r.url()))
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") errors.push(m.text())
      })
      page.on("pageerror", (e) => errors.push(e.message))
      page.on("dialog", (d) => {
        dialogs.push(d.message())
        void d.dismiss()
      })
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" })

      // table, sections, plots, heat map
      expect(await page.locator("table#results tbody tr:not(.section)").count()).toBe(hostileNames.length + 2)
      expect(await page.locator("svg.plot.scatter").count()).toBe(6)
      expect(await page.locator("svg.plot.scatter path.pts").first().getAttribute("d")).toMatch(/^M[\d.]+ [\d.]+h0/)
      expect(await page.locator("svg.heatmap").count()).toBe(2)
      // a cell per pair of the runs ranked (the post-deadline one is never compared), and the legend's three colours
      expect(await page.locator("svg.heatmap rect").count()).toBe(2 * ((hostileNames.length + 1) ** 2 + 3))

      // hostile names: shown as text, never executed; RTL names laid out right to left
      const cells = await page.locator("table#results tbody td:first-child").allTextContents()
      for (const name of hostileNames) expect(cells.some((c) => c.startsWith(`${name}/run1`))).toBe(true)
      expect(dialogs).toEqual([])
      expect(await page.locator("script").count()).toBe(1)
      const arabic = page.locator("table#results td bdi", { hasText: "فريق" })
      expect(await arabic.evaluate((el) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { direction: string } }).getComputedStyle(el).direction)).toBe("rtl")

      // sorting: click "en-en" -> descending, again -> ascending (within the participants' section)
      const enEn = (await page.locator("thead tr.headers th").allTextContents()).indexOf("en-en")
      expect(enEn).toBeGreaterThan(0)
      const column = async () =>
        (await page.locator(`table#results tbody:first-of-type tr:not(.section) td:nth-child(${enEn + 1})`).allTextContents()).map((s) => Number.parseFloat(s))
      await page.locator("thead tr.headers th button", { hasText: "en-en" }).click()
      const down = await column()
      expect(down).toEqual([...down].sort((a, b) => b - a))
      expect(await page.locator("thead tr.headers th").nth(enEn).getAttribute("aria-sort")).toBe("descending")
      await page.locator("thead tr.headers th button", { hasText: "en-en" }).click()
      const up = await column()
      expect(up).toEqual([...up].sort((a, b) => a - b))
      expect(up).not.toEqual(down)

      expect(errors).toEqual([])
      expect(requests).toEqual([pathToFileURL(file).href])
    } finally {
      await close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
