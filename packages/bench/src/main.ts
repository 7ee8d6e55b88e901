/**
 * Benchmarks entry point.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

NodeRuntime.runMain(Console.log("no benchmarks yet"))
void Effect.void
