import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"

describe("next", () => {
  it.effect("runs on effect 4 under Node 22", () =>
    Effect.gen(function*() {
      const value = yield* Effect.succeed(process.versions.node)
      assert.isTrue(Number(value.split(".")[0]) >= 22)
    }))
})
