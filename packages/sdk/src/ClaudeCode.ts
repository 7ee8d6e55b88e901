/**
 * The entry point: `query` for one prompt on one CLI process, `session` for a
 * multi-turn conversation. Both pick up, from the calling context, every
 * hook layer in scope, and the permission gate, the elicitation handler and
 * the user dialog handler if they are provided.
 *
 * ```ts
 * const program = ClaudeCode.query("Say hi").pipe(
 *   Stream.runForEach((message) => Console.log(message.type))
 * )
 * program.pipe(Effect.provide(ClaudeCode.layer()), Effect.provide(NodeServices.layer))
 * ```
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { type ClaudeError, noResult, OptionsError } from "./ClaudeError.js"
import * as ClaudeOptions from "./ClaudeOptions.js"
import * as CliLocator from "./CliLocator.js"
import * as CliProcess from "./CliProcess.js"
import * as CliSpawner from "./CliSpawner.js"
import * as ControlRouter from "./ControlRouter.js"
import * as ElicitationHandler from "./ElicitationHandler.js"
import * as HookRegistry from "./HookRegistry.js"
import * as InternalElicitation from "./internal/elicitation.js"
import * as McpConnection from "./internal/mcpConnection.js"
import * as Secrets from "./internal/options/secrets.js"
import * as InternalSession from "./internal/session.js"
import * as SessionStoreResume from "./internal/sessionStoreResume.js"
import * as StderrLines from "./internal/stderrLines.js"
import * as InternalTelemetry from "./internal/telemetry.js"
import * as PermissionGate from "./PermissionGate.js"
import * as Protocol from "./Protocol.js"
import type { Prompt, Session } from "./Session.js"
import { SessionStore } from "./SessionStore.js"
import * as StructuredOutput from "./StructuredOutput.js"
import * as UserDialog from "./UserDialog.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class ClaudeCode extends Context.Service<ClaudeCode, ClaudeCode.Service>()("@claude-effect/sdk/ClaudeCode") {}

/**
 * @since 0.1.0
 */
export declare namespace ClaudeCode {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The defaults every query and session starts from. */
    readonly defaults: ClaudeOptions.Options
    /**
     * Starts a session with resolved options. The permission gate, and any session service the
     * calling context provides (a `CliProcess`, a `HookRegistry`), are taken from that context.
     * `firstPrompt`, the prompt the caller sends first (as `query` does), is encoded while the CLI
     * starts rather than after the initialize handshake; sending it then only writes its line.
     */
    readonly startSession: (
      options: ClaudeOptions.Options,
      firstPrompt?: Prompt | undefined
    ) => Effect.Effect<Session, ClaudeError, Scope.Scope>
  }
}

/**
 * @since 0.1.0
 * @category Constructors
 */
export const make = Effect.fnUntraced(function*(defaults: ClaudeOptions.Options = {}) {
  // Only the platform services: the full context would also carry the Scope of whoever built this layer,
  // and a session must live in its own scope, not in the layer's.
  const platform = Context.pick(FileSystem.FileSystem, Path.Path)(
    yield* Effect.context<FileSystem.FileSystem | Path.Path>()
  )
  // A CliSpawner provided to the layer starts every session's CLI (else `node:child_process`, CliProcess's default).
  const spawner = yield* Effect.serviceOption(CliSpawner.CliSpawner)
  const context: Context.Context<FileSystem.FileSystem | Path.Path> = Option.isSome(spawner)
    ? Context.add(platform, CliSpawner.CliSpawner, spawner.value)
    : platform
  const locate = yield* Effect.cached(
    CliLocator.locate({ executable: defaults.executable }).pipe(Effect.provide(context))
  )
  const fs = Context.get(context, FileSystem.FileSystem)
  // Before anything is spawned: a working directory that is not there is the caller's option at fault.
  const checkCwd = (cwd: string | undefined): Effect.Effect<void, OptionsError> =>
    cwd === undefined ? Effect.void : fs.stat(cwd).pipe(
      Effect.matchEffect({
        onFailure: (error) =>
          Effect.fail(
            new OptionsError({
              reason: "InvalidOptions",
              detail: error.reason._tag === "NotFound"
                ? `cwd: the working directory ${cwd} does not exist; create it, or pass an existing directory`
                : `cwd: the working directory ${cwd} cannot be read (${error.message})`
            })
          ),
        onSuccess: (info) =>
          info.type === "Directory" ? Effect.void : Effect.fail(
            new OptionsError({
              reason: "InvalidOptions",
              detail: `cwd: ${cwd} is not a directory (it is a ${info.type.toLowerCase()}); pass a directory`
            })
          )
      })
    )
  const startSession = (options: ClaudeOptions.Options, firstPrompt?: Prompt | undefined) =>
    Effect.gen(function*() {
      yield* checkCwd(options.cwd)
      // A CliProcess from the calling context (a fake, in a test) is used as it is: nothing to locate.
      const provided = yield* Effect.serviceOption(CliProcess.CliProcess)
      const executable = Option.isSome(provided)
        ? "(provided CliProcess)"
        : options.executable !== undefined && options.executable !== defaults.executable
        ? yield* CliLocator.locate({ executable: options.executable }).pipe(Effect.provide(context))
        : yield* locate
      // A session store in the calling context: the transcript is mirrored to it, and resumed from it.
      const store = yield* Effect.serviceOption(SessionStore)
      if (Option.isNone(store)) {
        return yield* InternalSession.make(yield* sessionEnvironment(executable, options), firstPrompt).pipe(
          Effect.provide(context)
        )
      }
      const attached = yield* SessionStoreResume.attach(store.value, options, ClaudeOptions.runtimeSettings(options))
        .pipe(Effect.provide(context))
      const environment = yield* sessionEnvironment(executable, attached.options)
      return yield* InternalSession.make({ ...environment, mirror: attached.mirror }, firstPrompt).pipe(
        Effect.provide(context)
      )
    })
  return ClaudeCode.of({ defaults, startSession })
})

/**
 * The router's handler for `elicitation`: the handler under its policy, or a decline when there is none (an
 * error reply would tell the CLI to cancel, and say nothing about why).
 */
const elicitationHandler = (answer: InternalElicitation.Answer): ControlRouter.InboundHandler => ({
  subtype: "elicitation",
  attributes: (request) => ({
    [InternalTelemetry.attributes.mcpServer]: (request as Protocol.ElicitationRequest).mcp_server_name
  }),
  undecodable: () => InternalElicitation.declined,
  handle: (request, site) => ControlRouter.answerWith(answer(request as Protocol.ElicitationRequest, site))
})

/** The router's handler for `mcp_message`: each message to its server's connection, never an error reply. */
const mcpHandler = (servers: McpConnection.SessionServers): ControlRouter.InboundHandler => ({
  subtype: "mcp_message",
  spanName: (request) => McpConnection.spanNameOf(request as Protocol.McpMessageRequest),
  attributes: (request) => McpConnection.attributesOf(request as Protocol.McpMessageRequest),
  undecodable: servers.undecodable,
  handle: (request, site) => {
    const message = request as Protocol.McpMessageRequest
    return ControlRouter.answerWith(servers.answer(message.server_name, message.message, site))
  }
})

/**
 * A session's services and how they are put together, in one place: the CLI
 * process spawned with the arguments and environment the options map to, the
 * hook registry of the hook layers in scope, and the router over both with
 * every inbound handler (hooks, the permission gate if provided, the SDK MCP
 * servers, elicitations — declined without an `ElicitationHandler` — and user
 * dialogs if a `UserDialog` is provided, whose kinds the initialize request
 * declares), and the CLI's stderr as lines. A `CliProcess` or `HookRegistry`
 * the calling context provides is used in place of its own (a provided
 * process has no stderr lines here). Each is made directly in the session's
 * scope (their `make`s, which their layers wrap), never through a layer: a
 * layer would be memoized across `Effect.provide` and could be shared between
 * sessions.
 */
const sessionEnvironment = (executable: string, options: ClaudeOptions.Options) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<never>()
    const gate = Context.getOption(context, PermissionGate.PermissionGate)
    const providedCli = Context.getOption(context, CliProcess.CliProcess)
    const providedHooks = Context.getOption(context, HookRegistry.HookRegistry)
    const elicitation = Context.getOption(context, ElicitationHandler.ElicitationHandler)
    const dialog = Context.getOption(context, UserDialog.UserDialog)
    const settings = ClaudeOptions.runtimeSettings(options)
    const processEnv = ClaudeOptions.toEnv(options, process.env)
    const secrets = Secrets.secretValues(options, processEnv)
    // One answerer for the CLI's elicitation requests and the in-process tools' questions.
    const elicit = InternalElicitation.answer(Option.getOrUndefined(elicitation))
    // The SDK MCP servers, connected in the session's scope.
    const mcp = yield* McpConnection.sessionServers(options.mcpServers, { elicit })
    const services = (wiring: InternalSession.SessionWiring) =>
      Effect.gen(function*() {
        const stderr = yield* (Option.isSome(providedCli) ? StderrLines.ended : StderrLines.make)
        const cli = Option.isSome(providedCli) ? providedCli.value : yield* CliProcess.make({
          executable,
          args: ClaudeOptions.toCliArgs(options, { permissionPromptTool: Option.isSome(gate) }),
          env: processEnv,
          cwd: settings.cwd,
          maxLineChars: settings.maxLineChars,
          closeGracePeriod: settings.closeGracePeriod,
          redact: secrets,
          onStderr: stderr.publish,
          onStderrEnd: stderr.end
        })
        const hooks = Option.isSome(providedHooks)
          ? providedHooks.value
          : yield* HookRegistry.make({ defaultTimeout: settings.hookTimeout })
        const router = yield* Effect.provideService(
          ControlRouter.make({
            ...wiring,
            handlers: [
              hooks.inboundHandler,
              ...(Option.isSome(gate) ? [PermissionGate.inboundHandler(gate.value, settings.permissionTimeout)] : []),
              mcpHandler(mcp),
              elicitationHandler(elicit),
              ...(Option.isSome(dialog) ? [UserDialog.inboundHandler(dialog.value)] : [])
            ],
            controlTimeout: settings.controlTimeout
          }),
          CliProcess.CliProcess,
          cli
        )
        return { cli, router, hooks, stderr: stderr.lines }
      })
    const environment: InternalSession.SessionEnvironment = {
      settings,
      secrets,
      initialize: {
        ...ClaudeOptions.toInitializeFields(options),
        ...mcp.initialize,
        ...(Option.isSome(dialog) && dialog.value.kinds.length > 0
          ? { supportedDialogKinds: dialog.value.kinds }
          : {})
      },
      mcp,
      services
    }
    return environment
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  defaults: ClaudeOptions.OptionsInput = {}
): Layer.Layer<ClaudeCode, OptionsError, FileSystem.FileSystem | Path.Path> =>
  Layer.effect(ClaudeCode, Effect.flatMap(ClaudeOptions.decodePartial(defaults), make))

// A configured string the options accept: not empty, no NUL; `message` says what it must be.
const configString = (name: string, message: string, valid: (value: string) => boolean = () => true) =>
  Config.option(
    Config.schema(
      Schema.String.check(
        Schema.makeFilter((value: string) =>
          value.length > 0 && !value.includes("\u0000") && valid(value) ? true : message
        )
      ),
      name
    )
  )

/**
 * The defaults from configuration: `CLAUDE_CODE_EXECUTABLE`, `CLAUDE_MODEL`
 * and `CLAUDE_PERMISSION_MODE` unless other config is given. A bad value
 * (`CLAUDE_PERMISSION_MODE=yolo`) fails with a `ConfigError` that names the
 * variable and what it accepts; a value of other config that decodes to a bad
 * option fails with an `OptionsError` naming the option.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerConfig = (
  config: Config.Config<ClaudeOptions.OptionsInput> = Config.all({
    executable: configString(
      "CLAUDE_CODE_EXECUTABLE",
      "must be the path of the claude executable (the executable option), not empty"
    ),
    model: configString(
      "CLAUDE_MODEL",
      "must name a model (the model option), e.g. sonnet or claude-sonnet-4-5, not be empty"
    ),
    permissionMode: configString(
      "CLAUDE_PERMISSION_MODE",
      `must be one of ${ClaudeOptions.PermissionMode.literals.join(", ")} (the permissionMode option)`,
      (value) => (ClaudeOptions.PermissionMode.literals as ReadonlyArray<string>).includes(value)
    )
  }).pipe(Config.map((values) =>
    Object.fromEntries(
      Object.entries(values).flatMap(([key, value]) => Option.isSome(value) ? [[key, value.value]] : [])
    ) as ClaudeOptions.OptionsInput
  ))
): Layer.Layer<ClaudeCode, OptionsError | Config.ConfigError, FileSystem.FileSystem | Path.Path> =>
  Layer.effect(
    ClaudeCode,
    Effect.flatMap(Effect.flatMap(config, ClaudeOptions.decodePartial), make)
  )

/**
 * Opens a multi-turn session on one CLI process for the current scope. The
 * process is shut down (gracefully, bounded, then by signal) when the scope
 * closes.
 *
 * @since 0.1.0
 * @category Sessions
 */
export const session = (
  options?: ClaudeOptions.OptionsInput
): Effect.Effect<Session, ClaudeError, ClaudeCode | Scope.Scope> => sessionFor(options, undefined)

// A session whose first prompt, when known, is encoded while its CLI starts (see `startSession`).
const sessionFor = (
  options: ClaudeOptions.OptionsInput | undefined,
  firstPrompt: Prompt | undefined
): Effect.Effect<Session, ClaudeError, ClaudeCode | Scope.Scope> =>
  Effect.flatMap(
    ClaudeCode,
    (service) => Effect.flatMap(resolveOptions(options), (resolved) => service.startSession(resolved, firstPrompt))
  )

/**
 * The options a session opened here with `options` starts from: the layer's
 * defaults with `options` over them, decoded and checked (also against the
 * permission gate in context, if any). Fails with an `OptionsError` naming
 * every problem; nothing is spawned.
 *
 * @since 0.1.0
 * @category Sessions
 */
export const resolveOptions = (
  options?: ClaudeOptions.OptionsInput
): Effect.Effect<ClaudeOptions.Options, OptionsError, ClaudeCode> =>
  Effect.gen(function*() {
    const service = yield* ClaudeCode
    const gate = yield* Effect.serviceOption(PermissionGate.PermissionGate)
    // Each layer of options is decoded alone; the checks across options run on the merged result.
    return yield* ClaudeOptions.validate(
      ClaudeOptions.merge(service.defaults, yield* ClaudeOptions.decodePartial(options ?? {})),
      { permissionPromptTool: Option.isSome(gate) }
    )
  })

/**
 * Runs one prompt on a fresh CLI process and streams its messages. With a
 * text prompt the stream ends after the turn's `result`; with a stream of
 * user messages it ends when the input has ended and the CLI has finished.
 * The process is gone when the stream ends or is interrupted.
 *
 * @since 0.1.0
 * @category Queries
 */
export const query = (
  prompt: Prompt | Stream.Stream<Prompt, ClaudeError>,
  options?: ClaudeOptions.OptionsInput
): Stream.Stream<Protocol.Message, ClaudeError, ClaudeCode> =>
  // The session lives in the stream's own scope, closed with the stream's exit. (Effect 3 built that scope by
  // hand to skip `Stream.unwrapScoped`'s extra stages; effect 4's `Stream.unwrap` is that scope.)
  Stream.unwrap(
    Effect.map(
      sessionFor(options, InternalSession.isPromptStream(prompt) ? undefined : prompt),
      (opened) => InternalSession.query(opened, prompt)
    )
  )

/**
 * Runs one prompt like {@link query} and returns its `result` message. A
 * result that reports an error (`is_error`, or an error subtype such as
 * `error_max_turns`) fails with a `ResultError`.
 *
 * @since 0.1.0
 * @category Queries
 */
export const result = (
  prompt: Prompt,
  options?: ClaudeOptions.OptionsInput
): Effect.Effect<Protocol.ResultSuccess, ClaudeError, ClaudeCode> =>
  Effect.scoped(Effect.flatMap(sessionFor(options, prompt), (opened) => opened.result(prompt)))

/**
 * Runs one prompt like {@link query} and returns its answer as a value of
 * `schema`. The CLI is given the JSON Schema of the Schema (see
 * `StructuredOutput.outputFormat`); the model answers by calling the CLI's
 * `StructuredOutput` tool, the CLI checks the answer against the JSON Schema
 * (asking again when it does not match), and the answer is decoded with the
 * Schema.
 *
 * ```ts
 * class Verdict extends Schema.Class<Verdict>("Verdict")({
 *   safe: Schema.Boolean,
 *   reasons: Schema.Array(Schema.String)
 * }) {}
 *
 * const verdict = ClaudeCode.structured("Is `rm -rf build` safe to run here?", Verdict)
 * ```
 *
 * Fails with a `StructuredOutputError` when the turn ends without structured
 * output (`Missing`), when the Schema rejects it (`Mismatch`, with the parse
 * issue) or when the CLI gives up after its retries (`RetriesExhausted`); with
 * an `OptionsError` before anything is spawned when the schema does not
 * describe an object or `options` sets `outputFormat` too.
 *
 * @since 0.1.0
 * @category Queries
 */
export const structured = <A, I, RD, RE>(
  prompt: Prompt,
  schema: Schema.Codec<A, I, RD, RE>,
  options?: ClaudeOptions.OptionsInput
): Effect.Effect<A, ClaudeError, ClaudeCode | RD> =>
  Effect.gen(function*() {
    if (options?.outputFormat !== undefined) {
      return yield* new OptionsError({
        reason: "Conflict",
        detail: "outputFormat: ClaudeCode.structured derives it from the schema; leave the option out"
      })
    }
    const outputFormat = yield* StructuredOutput.outputFormat(schema)
    const last = yield* query(prompt, { ...options, outputFormat }).pipe(
      Stream.filter(Protocol.isResultMessage),
      Stream.runLast
    )
    if (Option.isNone(last)) {
      return yield* noResult()
    }
    return yield* StructuredOutput.decode(schema, last.value)
  })
