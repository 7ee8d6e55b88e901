/**
 * What the process-layer tests need of the end-to-end harness (not ported yet: test-support): the spawner
 * the suite runs under, and the process checks by pid (Linux /proc).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"
import * as CliSpawner from "../../src/CliSpawner.js"
import * as NodeCliSpawner from "../../src/NodeCliSpawner.js"

/**
 * How the CLI is started: `NodeCliSpawner` (the default), or effect's `ChildProcessSpawner` when
 * `CLAUDE_EFFECT_TEST_SPAWNER=command` (the SDK's second test project, "(ChildProcess)", runs the suite
 * that way, so each spawner runs every end-to-end test).
 */
export const spawnerName: "node" | "command" = process.env.CLAUDE_EFFECT_TEST_SPAWNER === "command" ? "command" : "node"

/** The `CliSpawner` of {@link spawnerName}. */
export const spawnerLayer: Layer.Layer<CliSpawner.CliSpawner> = spawnerName === "node"
  ? NodeCliSpawner.layer
  : CliSpawner.layerChildProcess.pipe(Layer.provide(NodeServices.layer))

/** The pids of live processes whose working directory is `cwd`. */
export const processesIn = (cwd: string): Array<number> => {
  const pids: Array<number> = []
  for (const entry of Fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (Fs.readlinkSync(`/proc/${entry}/cwd`) === cwd) pids.push(Number(entry))
    } catch {
      // gone, or not ours to read
    }
  }
  return pids
}

/** Whether a process is alive (and not a zombie). */
export const isAlive = (pid: number): boolean => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return !/\) Z /.test(stat)
  } catch {
    return false
  }
}
