/**
 * The Node services the commands use: file system, paths, standard streams and the terminal.
 *
 * Not `@effect/platform-node`'s `NodeServices.layer`: its child-process spawner, which `effect/cli`
 * lists among a command's requirements but no command of ours uses, loads `node:child_process`
 * (and with it `net` and `dgram`) on every start. A stand-in that dies if ever called is provided
 * instead, as Effect's own `Command.runWith` examples do.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import { Effect, Layer } from "effect"
import { ChildProcessSpawner } from "effect/process"

export const services = Layer.mergeAll(
  NodeFileSystem.layer,
  NodePath.layer,
  NodeStdio.layer,
  NodeTerminal.layer,
  Layer.succeed(ChildProcessSpawner.ChildProcessSpawner, ChildProcessSpawner.make(() => Effect.die("stseval spawns no processes")))
)
