/**
 * The cluster example runs offline to the end: two runners, a client, a
 * throwaway PostgreSQL and the scripted model, all on 127.0.0.1.
 */
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as cluster from "../src/examples/cluster.js"

afterEach(() => {
  vi.restoreAllMocks()
})

describe("examples/cluster", () => {
  it.live("four sessions, two prompts each, over two runners", () =>
    Effect.gen(function*() {
      const printed: Array<string> = []
      vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void printed.push(args.join(" ")))
      yield* cluster.program
      const out = printed.join("\n")
      for (const user of ["ada", "grace", "edsger", "barbara"]) {
        for (const n of [1, 2]) assert.match(out, new RegExp(`${user} #${n}: done ${user}-${n} \\(on runner-[12]\\)`))
      }
      assert.include(out, "the first turn came along")
    }), 120_000)
})
