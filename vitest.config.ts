import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      // The SDK's suite once more with the CLI started through effect's ChildProcessSpawner: its tests use
      // NodeCliSpawner (the default) otherwise, so each spawner runs every end-to-end test.
      {
        extends: "./packages/sdk/vitest.config.ts",
        root: "./packages/sdk",
        test: {
          name: "@claude-effect/sdk (ChildProcess)",
          env: { CLAUDE_EFFECT_TEST_SPAWNER: "command" }
        }
      }
    ]
  }
})
