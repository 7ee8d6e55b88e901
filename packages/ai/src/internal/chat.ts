/**
 * An `effect/ai` `Chat` on one Claude Code session: the session opens at
 * the first turn (the system prompt, the toolkit and the response format are
 * the first turn's), each later turn sends the chat's new user messages to
 * the same CLI process, and the session closes with the chat's scope.
 *
 * @internal
 */
import { ClaudeCode, type Session } from "@claude-effect/sdk"
import type * as AiError from "effect/ai/AiError"
import * as Chat from "effect/ai/Chat"
import * as LanguageModel from "effect/ai/LanguageModel"
import type * as Prompt from "effect/ai/Prompt"
import type * as Response from "effect/ai/Response"
import type * as AiTool from "effect/ai/Tool"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Config } from "../ClaudeCodeLanguageModel.js"
import { UnsupportedInputError } from "./aiError.js"
import * as Internal from "./languageModel.js"
import * as InternalPrompt from "./prompt.js"
import * as Tools from "./tools.js"

/** What the first turn fixed for the whole session. */
interface Opened {
  readonly session: Session.Session
  readonly bridge: Tools.Bridge | undefined
  readonly serverName: string
  readonly toolNames: string
  readonly format: string
  readonly partial: boolean
}

const formatKey = (format: LanguageModel.ProviderOptions["responseFormat"]): string =>
  format.type === "text" ? "text" : `json:${format.objectName}`

const toolKey = (tools: ReadonlyArray<AiTool.Any>): string => tools.map((tool) => tool.name).sort().join(",")

/** How long an interrupted turn may take to reach its result before the next turn starts anyway. */
const settleTimeout = Duration.seconds(5)

/** @internal */
export const make = (
  config: Config,
  initial: Prompt.RawInput | undefined
): Effect.Effect<Chat.Chat, never, ClaudeCode.ClaudeCode | Scope.Scope> =>
  Effect.gen(function*() {
    const claude = yield* ClaudeCode.ClaudeCode
    const scope = yield* Effect.scope
    let opened: Opened | undefined
    // How many messages of the chat's history the last turn left there (its prompt), and whether that turn
    // produced an assistant message, which the chat appends to its history (`Prompt.fromResponseParts`).
    let recorded = 0
    let producedLast = false

    const open = (providerOptions: LanguageModel.ProviderOptions, tools: ReadonlyArray<AiTool.Any>) =>
      Effect.gen(function*() {
        const current = yield* Internal.currentConfig(config)
        const serverName = current.toolServerName ?? Internal.defaultToolServerName
        const input = yield* InternalPrompt.fresh(providerOptions.prompt)
        const bridge = yield* Internal.makeBridge(serverName, tools, current)
        const options = yield* Internal.sessionOptions(yield* Internal.baseOptions(claude, current), {
          system: input.system,
          bridge,
          responseFormat: providerOptions.responseFormat,
          // A chat streams or not turn by turn: partial messages are on for the whole session.
          method: "streamText"
        })
        // The session lives as long as the chat, not as long as this turn; its first turn's prompt is
        // encoded while the CLI starts (see ClaudeCode's startSession).
        const session = yield* Scope.provide(claude.startSession(options, input.content), scope)
        opened = {
          session,
          bridge,
          serverName,
          toolNames: toolKey(Tools.served(tools)),
          format: formatKey(providerOptions.responseFormat),
          partial: options.includePartialMessages === true
        }
        return { opened, content: input.content }
      })

    const next = (providerOptions: LanguageModel.ProviderOptions, session: Opened, tools: ReadonlyArray<AiTool.Any>) =>
      Effect.gen(function*() {
        if (formatKey(providerOptions.responseFormat) !== session.format) {
          return yield* new UnsupportedInputError({
            reason: "ResponseFormat",
            path: "responseFormat",
            detail:
              `this chat's session answers ${
                session.format === "text" ? "in text" : `with an object (${session.format.slice(5)})`
              }, set at its first turn; the CLI cannot change it mid-session: use another chat (or ` +
              `LanguageModel.generateObject) for this answer`
          })
        }
        if (toolKey(Tools.served(tools)) !== session.toolNames) {
          return yield* new UnsupportedInputError({
            reason: "ToolkitChanged",
            path: "toolkit",
            detail: `this chat's session serves the tools [${session.toolNames}], set at its first turn; this turn ` +
              `brings [${toolKey(Tools.served(tools))}]: give every turn of a chat the same toolkit`
          })
        }
        const messages = providerOptions.prompt.content
        // The assistant message after the last prompt is the session's own answer: it holds it already.
        const start = producedLast && messages[recorded]?.role === "assistant" ? recorded + 1 : recorded
        return yield* InternalPrompt.continued(providerOptions.prompt, start)
      })

    const turn = (
      providerOptions: LanguageModel.ProviderOptions,
      method: Internal.Method
    ): Stream.Stream<Internal.Part, Internal.CallError> =>
      Stream.unwrap(Effect.gen(function*() {
        const tools = yield* Internal.requestTools(providerOptions)
        const started = opened === undefined
          ? yield* open(providerOptions, tools)
          : { opened, content: yield* next(providerOptions, opened, tools) }
        const session = started.opened
        const translator = Internal.makeTranslator({
          method,
          partial: session.partial,
          providerOptions,
          serverName: session.serverName,
          tools,
          outcomes: yield* Internal.beginTurn(session.bridge, tools),
          pid: session.session.pid
        })
        let ended = false
        const messages = session.session.turn(started.content).pipe(
          Stream.tap((message) => Effect.sync(() => ended ||= message.type === "result"))
        )
        // What the chat records of the turn: `Chat.streamText` records its prompt however the stream ends,
        // `generateText` and `generateObject` only when they succeed.
        const record = Effect.sync(() => {
          recorded = providerOptions.prompt.content.length
          producedLast = translator.producedContent()
        })
        return Internal.translateTurn(messages, translator, providerOptions.responseFormat).pipe(
          method === "streamText" ? Stream.ensuring(record) : Stream.onEnd(record),
          // A turn cut short (interrupted, failed before its result) is stopped in the CLI, and what is left of
          // it is read, so that the next turn starts at its own messages. Interruptible: a finalizer runs
          // uninterruptibly, and the timeout could not otherwise stop a read whose CLI never answers.
          Stream.ensuring(Effect.suspend(() =>
            ended ? Effect.void : session.session.interrupt.pipe(
              Effect.andThen(Stream.runDrain(session.session.receiveTurn)),
              Effect.interruptible,
              Effect.timeout(settleTimeout),
              Effect.ignore
            )
          ))
        )
      }))

    const model = yield* LanguageModel.make({
      generateText: (options) =>
        turn(options, "generateText").pipe(
          Stream.mapError(Internal.toAiError("generateText")),
          Stream.runCollect,
          Effect.map((parts) => parts as Array<Internal.GenerateParts>)
        ),
      streamText: (options) =>
        turn(options, "streamText").pipe(
          Stream.mapError(Internal.toAiError("streamText"))
        ) as Stream.Stream<Response.StreamPartEncoded, AiError.AiError>
    })

    const chat = initial === undefined ? yield* Chat.empty : yield* Chat.fromPrompt(initial)
    // Chat calls `LanguageModel` from its context: this session's model comes first.
    const withModel = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.provideService(effect, LanguageModel.LanguageModel, model)
    return Chat.Chat.of({
      ...chat,
      generateText: ((options: Parameters<Chat.Chat["generateText"]>[0]) =>
        withModel(chat.generateText(options))) as Chat.Chat["generateText"],
      generateObject: ((options: Parameters<Chat.Chat["generateObject"]>[0]) =>
        withModel(chat.generateObject(options))) as Chat.Chat["generateObject"],
      streamText: ((options: Parameters<Chat.Chat["streamText"]>[0]) =>
        Stream.provideService(chat.streamText(options), LanguageModel.LanguageModel, model)) as Chat.Chat["streamText"]
    })
  })
