import { mergeConfig, type ViteUserConfig } from "vitest/config"
import shared from "../vitest.shared.js"

const config: ViteUserConfig = {
  test: {
    // The testing guide's code is a test suite of its own.
    include: ["test/**/*.test.ts", "src/guides/**/*.test.ts"]
  }
}

export default mergeConfig(shared, config)
