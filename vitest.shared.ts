import type { ViteUserConfig } from "vitest/config"

const config: ViteUserConfig = {
  esbuild: {
    target: "es2022"
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Real CLI processes are spawned by many suites: keep the load bounded on 2-core machines.
    maxConcurrency: 4,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fakeTimers: {
      toFake: undefined
    }
  }
}

export default config
