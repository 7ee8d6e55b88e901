import { mergeConfig, type ViteUserConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

const config: ViteUserConfig = {
  test: {
    // Runner processes, PostgreSQL and 30 CLIs at once, the heaviest suite: beside the other suites' real CLIs on
    // 2 cores a runner can miss its shard-lock deadline, which stops its entities (their turns are cut, then run
    // again: correct, but slow). This project runs last, alone.
    sequence: { groupOrder: 2 }
  }
}

export default mergeConfig(shared, config)
