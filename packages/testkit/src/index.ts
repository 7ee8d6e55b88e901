/**
 * @since 0.1.0
 */

/**
 * A scripted fake of the Anthropic Messages API that the real `claude` CLI
 * talks to: run the CLI offline, deterministically, without tokens, and
 * assert what the model saw.
 *
 * @since 0.1.0
 */
export * as ScriptedModel from "./ScriptedModel.js"

/**
 * A ScriptedModel script in a JSON file (what `claude-effect-testkit serve
 * --script <file>` reads): the format as Schemas, decoding with typed errors.
 *
 * @since 0.1.0
 */
export * as ScriptFile from "./ScriptFile.js"

/**
 * A throwaway PostgreSQL server for tests, from the machine's own binaries,
 * on 127.0.0.1 and a free port, stopped and removed with its scope.
 *
 * @since 0.1.0
 */
export * as PostgresServer from "./PostgresServer.js"

/**
 * Run hook layers and permission gates against given inputs, through the
 * runtime's own dispatch and with the CLI's matcher rules and precedence,
 * without a CLI.
 *
 * @since 0.1.0
 */
export * as HookTest from "./HookTest.js"

/**
 * The inputs of the CLI's built-in tools as Schemas, each with a realistic
 * effect `Arbitrary` (its `arbitrary` property).
 *
 * @since 0.1.0
 */
export * as ToolInputs from "./ToolInputs.js"

/**
 * effect `Arbitrary`s for property tests: every hook input, the built-in
 * tools' inputs, shell commands and paths whose meaning is known.
 *
 * @since 0.1.0
 */
export * as Arbitraries from "./Arbitraries.js"

/**
 * A scripted fake of the `claude` process, as a `CliProcess` layer: sessions
 * over it run in memory, under the `TestClock`, with no process and no model.
 *
 * @since 0.1.0
 */
export * as FakeCli from "./FakeCli.js"
