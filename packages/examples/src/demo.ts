/**
 * The demo: `npx -y pnpm@10.34.8 demo` from the repository root.
 *
 * Without an API key it drives the real Claude Code CLI against the testkit's
 * scripted model (offline, deterministic, free). With `ANTHROPIC_API_KEY` set,
 * or with `--live`, it gives the same task, hooks and gate to the real model.
 * `--scripted` forces the offline run. Ctrl-C stops it cleanly.
 * `OTEL_EXPORTER_OTLP_ENDPOINT` exports traces and metrics to a collector;
 * `CLAUDE_EFFECT_TELEMETRY=console` prints them.
 */
import { NodeCliSpawner } from "@claude-effect/sdk"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Observability from "./demo/Observability.js"
import * as Program from "./demo/Program.js"
import * as Terminal from "./demo/Terminal.js"

const args = process.argv.slice(2)
const mode = args.includes("--scripted")
  ? "scripted"
  : args.includes("--live") || (process.env.ANTHROPIC_API_KEY ?? "") !== ""
  ? "live"
  : "scripted"

Program.run({ sink: Terminal.stdout(), mode }).pipe(
  Effect.catch((error) =>
    Console.error(`\nThe demo stopped: ${error.message}`).pipe(
      Effect.andThen(Effect.sync(() => void (process.exitCode = 1)))
    )
  ),
  // Traces and metrics: OTEL_EXPORTER_OTLP_ENDPOINT for a collector, CLAUDE_EFFECT_TELEMETRY=console to print them.
  Effect.provide(Observability.fromEnv),
  Effect.provide(Layer.merge(NodeCliSpawner.layer, NodeServices.layer)),
  NodeRuntime.runMain
)
