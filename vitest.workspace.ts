import { defineWorkspace } from "vitest/config"

export default defineWorkspace([
  "packages/*/vitest.config.ts",
  // The SDK's suite once more with the CLI started through the platform's CommandExecutor: the harness
  // uses NodeCliSpawner otherwise, so each spawner runs every end-to-end test.
  {
    extends: "./packages/sdk/vitest.config.ts",
    root: "./packages/sdk",
    test: {
      name: "@claude-effect/sdk (CommandExecutor)",
      env: { CLAUDE_EFFECT_TEST_SPAWNER: "command" }
    }
  }
])
