/**
 * @since 0.1.0
 */

/**
 * The errors of `@claude-effect/sdk`.
 *
 * @since 0.1.0
 */
export * as ClaudeError from "./ClaudeError.js"

/**
 * The options of a query or session: Schema, decoding, merging, and their
 * routes to the CLI (flags, initialize fields, environment).
 *
 * @since 0.1.0
 */
export * as ClaudeOptions from "./ClaudeOptions.js"

/**
 * Finds the `claude` executable.
 *
 * @since 0.1.0
 */
export * as CliLocator from "./CliLocator.js"

/**
 * The `claude` child process.
 *
 * @since 0.1.0
 */
export * as CliProcess from "./CliProcess.js"

/**
 * How the `claude` child process is started and its pipes reached.
 *
 * @since 0.1.0
 */
export * as CliSpawner from "./CliSpawner.js"

/**
 * The CLI started with `node:child_process` directly (the default spawner).
 *
 * @since 0.1.0
 */
export * as NodeCliSpawner from "./NodeCliSpawner.js"

/**
 * The wire protocol of the CLI as Schemas: stdout and stdin messages, control
 * requests and responses, hook inputs and outputs, permissions, and the line
 * codec.
 *
 * @since 0.1.0
 */
export * as Protocol from "./Protocol.js"

/**
 * The entry point: `query` and `session`, and the layer that configures them.
 *
 * @since 0.1.0
 */
export * as ClaudeCode from "./ClaudeCode.js"

/**
 * The control requests the SDK sends the CLI, as typed request/response
 * pairs, and their table.
 *
 * @since 0.1.0
 */
export * as ControlRequest from "./ControlRequest.js"

/**
 * The control-protocol router.
 *
 * @since 0.1.0
 */
export * as ControlRouter from "./ControlRouter.js"

/**
 * Span names, attribute keys and metrics.
 *
 * @since 0.1.0
 */
export * as Telemetry from "./Telemetry.js"

/**
 * Where session transcripts live beyond one machine: the official SDK's `sessionStore` adapter as an
 * Effect service; sessions mirror their transcripts to it and resume from it.
 *
 * @since 0.1.0
 */
export * as SessionStore from "./SessionStore.js"

/**
 * The sessions the CLI kept on disk: list, read, rename, tag, archive,
 * delete and fork them.
 *
 * @since 0.1.0
 */
export * as SessionHistory from "./SessionHistory.js"

/**
 * A multi-turn session.
 *
 * @since 0.1.0
 */
export * as Session from "./Session.js"

/**
 * Prewarmed sessions: CLI processes kept spawned and initialized, handed out
 * when a session is claimed.
 *
 * @since 0.1.0
 */
export * as SessionPool from "./SessionPool.js"

/**
 * In-process MCP tools: Schema-typed arguments, Effect handlers.
 *
 * @since 0.1.0
 */
export * as McpTool from "./McpTool.js"

/**
 * In-process MCP servers, served over the control protocol (on effect/ai's McpServer).
 *
 * @since 0.1.0
 */
export * as McpServer from "./McpServer.js"

/**
 * Resources and resource templates of in-process MCP servers.
 *
 * @since 0.1.0
 */
export * as McpResource from "./McpResource.js"

/**
 * Prompts of in-process MCP servers, with Schema-typed arguments.
 *
 * @since 0.1.0
 */
export * as McpPrompt from "./McpPrompt.js"

/**
 * Answers MCP elicitations: an MCP server asks the user for input.
 *
 * @since 0.1.0
 */
export * as ElicitationHandler from "./ElicitationHandler.js"

/**
 * Answers the CLI's user dialogs (`request_user_dialog`).
 *
 * @since 0.1.0
 */
export * as UserDialog from "./UserDialog.js"

/**
 * The permission gate: answers `can_use_tool`.
 *
 * @since 0.1.0
 */
export * as PermissionGate from "./PermissionGate.js"

/**
 * What a permission gate answers.
 *
 * @since 0.1.0
 */
export * as PermissionResult from "./PermissionResult.js"

/**
 * Structured output from an Effect Schema: the JSON Schema the CLI is given,
 * and the decoding of the answer.
 *
 * @since 0.1.0
 */
export * as StructuredOutput from "./StructuredOutput.js"

/**
 * Hook layers run as `.claude/settings.json` command hooks, and their installer.
 *
 * @since 0.1.0
 */
export * as HookCommand from "./HookCommand.js"

/**
 * Hooks as Layers.
 *
 * @since 0.1.0
 */
export * as HookLayer from "./HookLayer.js"

/**
 * The hooks of a session, and the dispatch that runs them fail-closed.
 *
 * @since 0.1.0
 */
export * as HookRegistry from "./HookRegistry.js"

/**
 * What a hook answers.
 *
 * @since 0.1.0
 */
export * as HookResult from "./HookResult.js"
