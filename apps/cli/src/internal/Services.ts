/**
 * The Node services the commands use: file system, paths, standard streams and the terminal.
 *
 * Not `@effect/platform-node`'s `NodeServices.layer`:
 * - its child-process spawner, which `effect/cli` lists among a command's requirements but no
 *   command of ours uses, loads `node:child_process` (and with it `net` and `dgram`) on every start.
 *   A stand-in that dies if ever called is provided instead, as Effect's own `Command.runWith`
 *   examples do;
 * - its terminal is made when the layer is built, which opens the standard input stream on every
 *   start. Only effect/cli's prompts (`--wizard`) read the terminal, so it is made on first use.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import { Effect, Layer, Scope, Terminal } from "effect"
import { ChildProcessSpawner } from "effect/process"

/** Node's terminal, made the first time a prompt uses it, and closed with the services. */
const lazyTerminal = Layer.effect(
  Terminal.Terminal,
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const node = yield* Effect.cached(Scope.provide(NodeTerminal.make(), scope))
    return Terminal.make({
      columns: Effect.flatMap(node, (t) => t.columns),
      rows: Effect.flatMap(node, (t) => t.rows),
      size: Effect.flatMap(node, (t) => t.size),
      readInput: Effect.flatMap(node, (t) => t.readInput),
      readLine: Effect.flatMap(node, (t) => t.readLine),
      display: (text) => Effect.flatMap(node, (t) => t.display(text))
    })
  })
)

export const services = Layer.mergeAll(
  NodeFileSystem.layer,
  NodePath.layer,
  NodeStdio.layer,
  lazyTerminal,
  Layer.succeed(ChildProcessSpawner.ChildProcessSpawner, ChildProcessSpawner.make(() => Effect.die("stseval spawns no processes")))
)
