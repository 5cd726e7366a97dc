/**
 * What a watcher session left in its output folder, in MiB: the figures issue 31's benchmarks
 * report for every case (the boards, the status file and the cache must stay bounded).
 */
import * as fs from "node:fs"
import * as path from "node:path"

export const outputSizes = (out: string) => {
  // a file a refused run never got written counts 0
  const size = (name: string) => (fs.existsSync(path.join(out, name)) ? fs.statSync(path.join(out, name)).size : 0) / 2 ** 20
  const cache = fs.readdirSync(path.join(out, "cache")).reduce((n, f) => n + fs.statSync(path.join(out, "cache", f)).size, 0)
  return {
    boardMiB: size("leaderboard.json"),
    publicMiB: size("leaderboard.public.json"),
    statusMiB: size("status.json"),
    cacheMiB: cache / 2 ** 20
  }
}
