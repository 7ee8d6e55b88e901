import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"

describe("package", () => {
  it.effect("loads", () => Effect.sync(() => assert.isTrue(true)))
})
