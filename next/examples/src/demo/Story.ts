/**
 * The task the agent is given, and — offline — what the scripted model
 * answers. The scripted turns react to what the CLI really sent back: the
 * second turn quotes the guard's denial as the model received it, and the
 * last one reports the path the Write tool really wrote to.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as Path from "node:path"
import { releaseNotes } from "./Policies.js"

export interface Setting {
  /** The folder around the project. */
  readonly root: string
  /** The project (the CLI's working directory). */
  readonly dir: string
  /** Whether the inventory MCP server is part of the run. */
  readonly inventory: boolean
}

/** Where the model is asked to write the release notes: outside the project, on purpose. */
export const outsideTarget = (setting: Setting): string => Path.join(setting.root, releaseNotes)

export const prompt = (setting: Setting): string =>
  [
    "This project is about to ship version 1.2.0. Please:",
    "1. delete the stale build output in build/ with `rm -rf build`;",
    `2. write short release notes for 1.2.0 (see CHANGELOG.md) to ${outsideTarget(setting)};`,
    ...(setting.inventory ? ["3. look up how many widget-42 are in stock with the inventory lookup tool;"] : []),
    `${setting.inventory ? 4 : 3}. finish with a two-line summary of what you did.`
  ].join("\n")

const notes = [
  "# widgets 1.2.0",
  "",
  "- Look up widgets by SKU.",
  "- Faster startup: configuration is loaded lazily.",
  "- Negative stock counts are now rejected.",
  ""
].join("\n")

/** How the scripted model streams: like a model thinking and typing, or as fast as it can (tests). */
export interface Pace {
  readonly think: ScriptedModel.Pacing | undefined
  readonly type: ScriptedModel.Pacing | undefined
}

export const paced: Pace = { think: { delay: "40 millis", chunkSize: 3 }, type: { delay: "14 millis", chunkSize: 3 } }
export const instant: Pace = { think: undefined, type: undefined }

const says = (pace: Pace, text: string) => {
  const block = ScriptedModel.text(text)
  return pace.type === undefined ? block : ScriptedModel.slow(block, pace.type)
}

const thinks = (pace: Pace, thought: string) => {
  const block = ScriptedModel.thinking(thought)
  return pace.think === undefined ? block : ScriptedModel.slow(block, pace.think)
}

const firstLine = (text: string) => text.split("\n")[0] ?? ""

/** The scripted model's turns for the story. */
export const script = (setting: Setting, pace: Pace): ReadonlyArray<ScriptedModel.Step> => [
  // 1. The destructive command the guard will stop.
  ScriptedModel.turn(
    thinks(pace, "A short checklist. First the stale build output: the user said rm -rf is fine."),
    says(pace, "I'll start by clearing out the stale build output."),
    ScriptedModel.toolUse("Bash", { command: "rm -rf build", description: "Delete the stale build output" })
  ),
  // 2. The model reads the denial and changes course; it writes outside the project.
  ScriptedModel.rule((request) => {
    const denial = request.latestToolResults.find((result) => result.isError)
    const opening = denial !== undefined
      ? `The guard hook refused that (“${
        firstLine(denial.content).replace(/^.*hook error:\s*/, "")
      }”). Fine — I'll leave build/ alone and write the release notes instead.`
      : "build/ is gone. Now the release notes."
    return ScriptedModel.turn(
      thinks(pace, "The command was denied. Don't retry it; move on to the release notes."),
      says(pace, opening),
      ScriptedModel.toolUse("Write", { file_path: outsideTarget(setting), content: notes })
    )
  }, { times: 1 }),
  // 3. The in-process MCP tool.
  ...(setting.inventory
    ? [ScriptedModel.turn(
      says(pace, "Release notes written. Now the stock level of widget-42."),
      ScriptedModel.toolUse("mcp__inventory__lookup", { sku: "widget-42" })
    )]
    : []),
  // 4. A summary that forgets to say where the notes went: the Stop hook sends the model back.
  ScriptedModel.turn(says(pace, "All done: build/ is untouched and the release notes for 1.2.0 are written.")),
  // 5. The final summary, with the path the Write tool reported.
  ScriptedModel.rule((request) => {
    const written = request.toolResults
      .map((result) => /created successfully at: (\S+)/.exec(result.content)?.[1])
      .find((file) => file !== undefined)
    const where = written !== undefined ? Path.relative(setting.dir, written) : "(nowhere?)"
    const stock = request.toolResults.map((result) => /"inStock":(\d+)/.exec(result.content)?.[1]).find((n) => n)
    return ScriptedModel.turn(
      thinks(pace, "The stop hook wants the location of the notes. The Write result says where they went."),
      says(
        pace,
        `Release notes for 1.2.0 are in ${where} (the permission gate moved them into the project's sandbox). ` +
          `build/ was left in place because the guard blocks \`rm -rf\`` +
          (stock !== undefined ? `; ${stock} widget-42 are in stock.` : ".")
      )
    )
  }, { times: 1 })
]
