/**
 * Prompts of in-process MCP servers: named message templates with typed
 * arguments, listed by `prompts/list` and filled in by `prompts/get`.
 *
 * ```ts
 * const triage = McpPrompt.make("triage", {
 *   description: "Triage a support ticket",
 *   parameters: Schema.Struct({
 *     ticket: Schema.String.annotate({ description: "The ticket id" }),
 *     urgency: Schema.optionalKey(Schema.Literals(["low", "high"]))
 *   })
 * }, ({ ticket, urgency }) => Effect.succeed(`Triage ticket ${ticket} (${urgency ?? "low"} urgency).`))
 * ```
 *
 * The arguments are a Struct whose fields are encoded as strings (MCP passes
 * prompt arguments as strings): the listing names each field, with its
 * description annotation and whether it is required; `prompts/get` decodes
 * them with the Schema, and arguments it rejects are an invalid-params error
 * naming the field. Note: the CLI 2.1.328 does not request prompts in
 * stream-json sessions (neither from SDK servers nor from stdio ones), so
 * prompts are for other MCP clients (`McpServer.handle`) and later CLIs.
 *
 * @since 0.1.0
 */
import * as McpSchema from "effect/ai/McpSchema"
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import { type Pipeable, pipeArguments } from "effect/Pipeable"
import * as Schema from "effect/Schema"

/**
 * @since 0.1.0
 * @category Type ids
 */
export const TypeId: unique symbol = Symbol.for("@claude-effect/sdk/McpPrompt")

/**
 * @since 0.1.0
 * @category Type ids
 */
export type TypeId = typeof TypeId

/**
 * One message of a prompt, as written on the wire: a role and a content block.
 *
 * @since 0.1.0
 * @category Models
 */
export type PromptMessage = typeof McpSchema.PromptMessage.Encoded

/**
 * The result of `prompts/get` (effect/ai's `McpSchema.GetPromptResult`).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const GetPromptResult: typeof McpSchema.GetPromptResult = McpSchema.GetPromptResult

/**
 * A `prompts/get` result as a handler writes it (the wire shape).
 *
 * @since 0.1.0
 * @category Models
 */
export type GetPromptResult = typeof McpSchema.GetPromptResult.Encoded

/**
 * What a prompt's handler answers: a string (one user message), messages, or
 * a complete {@link GetPromptResult}.
 *
 * @since 0.1.0
 * @category Models
 */
export type Content = string | ReadonlyArray<PromptMessage> | GetPromptResult

/**
 * A prompt. `A` is the type of its decoded arguments, `R` the services its
 * handler (and its parameters Schema) need.
 *
 * @since 0.1.0
 * @category Models
 */
export interface McpPrompt<out Name extends string, in out A, out R> extends Pipeable {
  readonly [TypeId]: TypeId
  readonly name: Name
  readonly title: string | undefined
  readonly description: string | undefined
  /** Decodes the arguments (strings, as MCP passes them). */
  readonly parameters: Schema.Codec<A, unknown, unknown, unknown>
  readonly timeout: Duration.Duration | undefined
  readonly content: (args: A) => Effect.Effect<Content, unknown, R>
}

/**
 * @since 0.1.0
 */
export declare namespace McpPrompt {
  /**
   * Any prompt.
   *
   * @since 0.1.0
   * @category Models
   */
  export type Any = McpPrompt<string, any, any>

  /**
   * The services a prompt (or a union of prompts) needs.
   *
   * @since 0.1.0
   * @category Models
   */
  export type Requirements<T> = T extends McpPrompt<any, any, infer R> ? R : never
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options<A, I, R> {
  readonly title?: string | undefined
  /** What the prompt is for. */
  readonly description?: string | undefined
  /**
   * The arguments: a Struct whose fields are encoded as strings. Its
   * `description` annotations describe them in the listing. Default: none.
   */
  readonly parameters?: Schema.Codec<A, I, R, unknown> | undefined
  /** How long the handler may run (default: the server's timeout, 60 s). */
  readonly timeout?: Duration.Input | undefined
}

const Proto = {
  [TypeId]: TypeId,
  pipe() {
    return pipeArguments(this, arguments)
  }
}

const NoArguments = Schema.Struct({})

/**
 * A prompt named `name` (unique within its server).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: {
  <const Name extends string, E = never, R = never>(
    name: Name,
    options: Options<{}, {}, never> & { readonly parameters?: undefined },
    content: (args: {}) => Effect.Effect<Content, E, R>
  ): McpPrompt<Name, {}, R>
  <
    const Name extends string,
    A,
    I extends { readonly [key: string]: string | undefined },
    RP = never,
    E = never,
    R = never
  >(
    name: Name,
    options: Options<A, I, RP> & { readonly parameters: Schema.Codec<A, I, RP, unknown> },
    content: (args: A) => Effect.Effect<Content, E, R>
  ): McpPrompt<Name, A, R | RP>
} = (
  name: string,
  options: Options<any, any, any>,
  content: (args: any) => Effect.Effect<Content, any, any>
): McpPrompt<string, any, any> => {
  const prompt = Object.create(Proto)
  prompt.name = name
  prompt.title = options.title
  prompt.description = options.description
  prompt.parameters = options.parameters ?? NoArguments
  prompt.timeout = options.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : undefined
  prompt.content = content
  return prompt
}

/**
 * Whether a value is a prompt.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMcpPrompt = (u: unknown): u is McpPrompt.Any => typeof u === "object" && u !== null && TypeId in u

/**
 * A user message of text, for a prompt's messages.
 *
 * @since 0.1.0
 * @category Messages
 */
export const user = (text: string): PromptMessage => ({ role: "user", content: { type: "text", text } })

/**
 * An assistant message of text, for a prompt's messages.
 *
 * @since 0.1.0
 * @category Messages
 */
export const assistant = (text: string): PromptMessage => ({ role: "assistant", content: { type: "text", text } })
