import { mergeConfig, type ViteUserConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

const config: ViteUserConfig = {
  test: {
    // Runner processes, PostgreSQL and 30 CLIs at once: beside the other suites' real CLIs on a 2-core machine,
    // the runners' shard-lock queries miss their 5 s deadline and the cluster stalls (seen three times in a row
    // here, old and new code alike; alone it passes in ~60 s). This project runs after the others, alone.
    sequence: { groupOrder: 1 }
  }
}

export default mergeConfig(shared, config)
