/** The end-to-end harness, shared with the other packages' tests. */
export * from "@claude-effect/test-support/Harness"
