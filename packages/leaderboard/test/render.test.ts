/**
 * The watcher draws a board's pages once when its public view cannot differ (issue 36: the first
 * board of 500 runs drew the same table twice). A renderer that says its pages do not depend on
 * the view outside the hidden phase (`RendererShape.sameForPublic`, the built-in one) is asked
 * once per board; any other (a custom renderer may show the view) twice, as before; the hidden
 * phase's public pages are always drawn apart. Counted through an injected renderer.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, References } from "effect"
import { describe, expect, it } from "vitest"
import * as BoardPage from "../src/BoardPage.js"
import type { Leaderboard } from "../src/Leaderboard.js"
import * as Fake from "./fixtures/fake.js"
import { layer, tempDir } from "./fixtures/harness.js"
import * as Watcher from "../src/Watcher.js"

const runs = (folder: string) => {
  for (const [i, team] of ["A", "B", "C"].entries()) fs.writeFileSync(path.join(folder, `${team}_run1.txt`), Fake.runText(Fake.GOLD.map((g, k) => (k === i ? g + 1 : g))))
}

/** `inner` with every render recorded: the view drawn, by the board apart from its view. */
const counted = (inner: BoardPage.RendererShape) => {
  const drawn = new Map<string, Array<Leaderboard["view"]>>()
  const renderer: BoardPage.RendererShape = {
    ...inner,
    render: (board, edition) => {
      const key = JSON.stringify({ ...board, view: undefined })
      drawn.set(key, [...(drawn.get(key) ?? []), board.view])
      return inner.render(board, edition)
    }
  }
  return { renderer, views: () => [...drawn.values()] }
}

/** `watch --once` over three runs with `renderer`: the boards written, and the pages. */
const watchOnceWith = async (label: string, renderer: BoardPage.RendererShape, hidden = false) => {
  const folder = tempDir(label)
  const out = tempDir(`${label}-out`)
  runs(folder)
  await Effect.runPromise(
    Watcher.watch({ folder, out, hidden, once: true, settle: 0 }).pipe(
      Effect.provideService(BoardPage.Renderer, renderer),
      Effect.provideService(References.MinimumLogLevel, "None"),
      Effect.provide(layer())
    )
  )
  return { read: (name: string) => fs.readFileSync(path.join(out, name), "utf8") }
}

describe("the board's pages, drawn once when the public view cannot differ", () => {
  it("the built-in renderer: one render per board written, and the public pages are the same table", async () => {
    const { renderer, views } = counted(BoardPage.renderer(Fake.edition))
    const w = await watchOnceWith("render-once", renderer)
    // each board drawn once (a write the end of `--once` interrupted may have drawn one more board)
    expect(views().length).toBeGreaterThan(0)
    expect(views().filter((v) => v.length !== 1)).toEqual([])
    expect(w.read("leaderboard.public.md")).toBe(w.read("leaderboard.md"))
    expect(w.read("leaderboard.md")).toContain("A/run1")
  })

  it("a renderer that does not say so (it may show the view): both drawn, each with its own view", async () => {
    const inner = BoardPage.renderer(Fake.edition)
    const { renderer, views } = counted({ render: (board, edition) => {
      const r = inner.render(board, edition)
      return { md: `view: ${board.view}\n${r.md}`, html: r.html }
    } })
    const w = await watchOnceWith("render-custom", renderer)
    expect(views().length).toBeGreaterThan(0)
    expect(views().filter((v) => v.length !== 2 || !v.includes("public") || !v.includes("full"))).toEqual([])
    expect(w.read("leaderboard.public.md")).toMatch(/^view: public\n/)
    expect(w.read("leaderboard.md")).toMatch(/^view: full\n/)
  })

  it("the hidden phase: the public pages drawn apart, without figures", async () => {
    const { renderer, views } = counted(BoardPage.renderer(Fake.edition))
    const w = await watchOnceWith("render-hidden", renderer, true)
    expect(views().flat()).toContain("public")
    expect(w.read("leaderboard.public.md")).not.toBe(w.read("leaderboard.md"))
  })
})
