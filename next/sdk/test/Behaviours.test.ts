/**
 * The behaviours a session shares with the in-memory suite (test/utils/behaviours.ts),
 * against the real CLI 2.1.328 and a scripted model: the same assertions that
 * test/InMemory.test.ts runs against the FakeCli.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { behaviours } from "./utils/behaviours.js"
import { harness } from "./utils/harness.js"

behaviours({
  name: "the real CLI",
  live: true,
  timeout: 60_000,
  layer: (scenario) =>
    scenario._tag === "Text"
      ? harness([ScriptedModel.text(scenario.text)])
      : harness([ScriptedModel.toolUse("Bash", scenario.input), ScriptedModel.text(scenario.then)])
})
