/**
 * A local npm registry for the release check: verdaccio, installed with npm into a scratch folder
 * (never globally), storing what is published in that folder. It serves the `@stseval` scope only:
 * the npmrc it writes points that scope at it (as a private registry is used) and leaves every
 * other package to the npm registry and npm's cache. Version 6.8.0 with node-fetch pinned to 2.7.0 is what installs here
 * (the machine's package list notes that 6.10.4 wants Node 22 for npm and that the node-fetch
 * range it asks for does not install as it stands).
 */
import { execFileSync, spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"

export const VERDACCIO = "6.8.0"

/** A running registry: its URL, an npmrc that publishes to it, and how to stop it. */
export interface Registry {
  readonly url: string
  /** an npm user config: the `@stseval` scope from the local registry, with a token that may publish */
  readonly npmrc: string
  readonly log: string
  readonly stop: () => void
}

/** A free TCP port on the loopback interface. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const CONFIG = (storage: string) => `storage: ${JSON.stringify(storage)}
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 10
packages:
  # ours only, and never a same-named package from elsewhere: no uplink
  "@stseval/*":
    access: $all
    publish: $authenticated
server:
  keepAliveTimeout: 60
log: { type: stdout, format: pretty, level: warn }
`

/**
 * Install verdaccio into `<dir>/verdaccio` (npm, from the npm registry), start it on a free port
 * with `node`, and add a user whose token goes into `<dir>/npmrc`.
 */
export const start = async (dir: string, node: string): Promise<Registry> => {
  const home = path.join(dir, "verdaccio")
  fs.mkdirSync(path.join(home, "storage"), { recursive: true })
  fs.writeFileSync(
    path.join(home, "package.json"),
    JSON.stringify({ name: "stseval-release-registry", private: true, dependencies: { verdaccio: VERDACCIO }, overrides: { "node-fetch": "2.7.0" } }, null, 2)
  )
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "--registry=https://registry.npmjs.org/"], { cwd: home, stdio: "inherit" })
  fs.writeFileSync(path.join(home, "config.yaml"), CONFIG(path.join(home, "storage")))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const log = path.join(home, "verdaccio.log")
  const out = fs.openSync(log, "a")
  const child: ChildProcess = spawn(node, [path.join(home, "node_modules/verdaccio/bin/verdaccio"), "--config", path.join(home, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: home,
    stdio: ["ignore", out, out],
    detached: false
  })
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM")
  }
  process.once("exit", stop)
  // stopped from outside (Ctrl-C, CI's time limit): the registry goes with it
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stop()
      process.exit(130)
    })
  }
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}: ${fs.readFileSync(log, "utf8")}`)
    try {
      if ((await fetch(`${url}-/ping`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`verdaccio did not answer on ${url} within 60 s: ${fs.readFileSync(log, "utf8")}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  // a user, as `npm adduser` makes one: the answer carries the token to publish with
  const response = await fetch(`${url}-/user/org.couchdb.user:stseval-release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "stseval-release", password: `release-${port}-${Date.now()}` })
  })
  const { token } = (await response.json()) as { readonly token?: string }
  if (token === undefined) throw new Error(`verdaccio gave no token (${response.status})`)
  const npmrc = path.join(dir, "npmrc")
  fs.writeFileSync(npmrc, `@stseval:registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`)
  return { url, npmrc, log, stop }
}
