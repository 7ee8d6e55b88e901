import { mergeConfig, type ViteUserConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

const config: ViteUserConfig = {
  test: {
    // Every bench job for four columns, each a burst of real CLIs: after the other suites, before the cluster's.
    sequence: { groupOrder: 1 }
  }
}

export default mergeConfig(shared, config)
