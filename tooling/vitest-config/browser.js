// Headless Chromium for the tests that look at the pages stseval writes (the HTML report, the live
// leaderboard, Codabench's detailed results): one way to launch it, with a fresh profile and no
// network chatter of its own, so that a test can assert the page makes no request.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { chromium } from "playwright-core"

export const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = fs.existsSync(executablePath)

export const launch = async (options = {}) => {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-chromium-"))
  // a fresh profile: launchPersistentContext takes the user-data dir (playwright refuses the flag)
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    ...(options.viewport !== undefined ? { viewport: options.viewport } : {}),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
  })
  return {
    context,
    close: async () => {
      await context.close()
      fs.rmSync(userDataDir, { recursive: true, force: true })
    }
  }
}
