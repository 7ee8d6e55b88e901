/**
 * `claude-effect-testkit`: the command line of the testkit.
 * `bin/claude-effect-testkit.mjs` loads this module and provides the platform.
 *
 * `serve --script <file>` runs a {@link ScriptedModel} from a script file
 * ({@link ScriptFile}) on 127.0.0.1 and prints the environment that points
 * the CLI at it, until it is stopped (Ctrl-C, SIGTERM).
 *
 * A program on top of the public modules (it uses `ScriptFile` and
 * `ScriptedModel` as any user would), so it lives beside `internal/`, not in
 * it: internal modules import public modules' types only.
 *
 * @internal
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as CliError from "effect/cli/CliError"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { createServer } from "node:http"
import * as ScriptedModel from "../ScriptedModel.js"
import * as ScriptFile from "../ScriptFile.js"

const quote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`

const describeReply = (request: ScriptedModel.RecordedRequest): string => {
  if (request.exhausted) return "script exhausted"
  const reply = request.reply
  if (reply === undefined) return request.kind
  if (reply._tag === "ErrorReply") return `error ${reply.status}`
  return reply.blocks.map((block) =>
    block._tag === "Text"
      ? `text ${JSON.stringify(block.text.length > 60 ? `${block.text.slice(0, 57)}...` : block.text)}`
      : block._tag === "ToolUse"
      ? `tool_use ${block.name}`
      : "thinking"
  ).join(", ")
}

/**
 * What `serve` prints on stdout: comments, then one `export NAME='value'`
 * line per variable of {@link ScriptedModel.Service.cliEnv}.
 *
 * @internal
 */
export const envLines = (model: ScriptedModel.Service, steps: number): ReadonlyArray<string> => [
  `# claude-effect-testkit: a scripted model (${steps} step${steps === 1 ? "" : "s"}) on ${model.url}`,
  "# Run the CLI against it in a shell with these variables (it stops with Ctrl-C), e.g. claude -p \"hi\":",
  ...Object.entries(model.cliEnv).map(([name, value]) => `export ${name}=${quote(value)}`)
]

// Each request as it arrives, on stderr: stdout stays the environment.
const logRequests = (model: ScriptedModel.Service): Effect.Effect<never> =>
  Effect.gen(function*() {
    let seen = 0
    while (true) {
      const requests = yield* model.awaitRequests(seen + 1)
      for (const request of requests.slice(seen)) {
        yield* Console.error(`[scripted-model] ${request.method} ${request.path} → ${describeReply(request)}`)
      }
      seen = requests.length
    }
  })

const script = Flag.File("script").pipe(
  Flag.withDescription("the script: a JSON file of ScriptedModel steps (see the testkit's ScriptFile module)")
)

const port = Flag.Int("port").pipe(
  Flag.withDefault(0),
  Flag.withDescription("the TCP port on 127.0.0.1 (default: a free one)")
)

const serve = Command.make("serve", { script, port }, ({ port, script }) =>
  Effect.gen(function*() {
    const loaded = yield* ScriptFile.load(script)
    const model = yield* ScriptedModel.make(loaded.steps, loaded.options)
    yield* Console.log(envLines(model, loaded.steps.length).join("\n"))
    yield* Effect.forkScoped(logRequests(model))
    return yield* Effect.never
  }).pipe(
    Effect.scoped,
    Effect.provide(NodeHttpServer.layerServer(createServer, { host: "127.0.0.1", port }))
  )).pipe(
    Command.withDescription("Serve a scripted model for the Claude Code CLI on 127.0.0.1 and print its environment.")
  )

const root = Command.make("claude-effect-testkit").pipe(
  Command.withDescription("The @claude-effect/testkit command line."),
  Command.withSubcommands([serve])
)

/**
 * Runs the command line on `process.argv`-shaped arguments; the exit code:
 * 0, 1 (the command failed: the reason is printed) or 2 (a usage error).
 *
 * @internal
 */
export const cli = (
  argv: ReadonlyArray<string>,
  version: string
): Effect.Effect<number, never, Command.Environment> =>
  Command.runWith(root, { version })(argv.slice(2)).pipe(
    Effect.as(0),
    Effect.catch((error) =>
      // effect/cli has already printed the help, and the usage error if there is one (none: no subcommand given).
      CliError.isCliError(error)
        ? Effect.succeed(error._tag === "ShowHelp" && error.errors.length === 0 ? 0 : 2)
        : Effect.as(Console.error(`claude-effect-testkit: ${error.message}`), 1)
    )
  )
