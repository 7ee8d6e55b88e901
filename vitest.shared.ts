import type { ViteUserConfig } from "vitest/config"

const config: ViteUserConfig = {
  test: {
    include: ["test/**/*.test.ts"],
    // Real CLI processes are spawned by many suites: keep the load bounded on 2-core machines.
    maxConcurrency: 4,
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
}

export default config
