/**
 * The session's control methods (the official SDK's `Query` surface), each
 * proven by its effect on the real CLI 2.1.328: the next turn, the files on
 * disk, the MCP servers' status. One session hosts several checks.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { ClaudeCode, ControlRequest, Protocol } from "../src/index.js"
import { bash, harness, Workspace } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

// The effect-3 tree's fixtures (PORT-DEBT: they move here with the flip).
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const mcpServer = fixture("stdio-mcp-server.mjs")
const badInitializeCli = fixture("bad-initialize-claude.mjs")

/** Retries `check` until it holds (the CLI connects and restarts MCP servers in the background). */
const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (a: A) => boolean, what: string) =>
  effect.pipe(
    Effect.filterOrFail(check, () => new Error(`never true: ${what}`)),
    Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo({ duration: "15 seconds" })))
  )

describe("ControlRequest table", () => {
  it("is keyed by subtype, and the union of outbound payloads is derived from it", () => {
    for (const [key, request] of Object.entries(ControlRequest.requests)) {
      assert.strictEqual(request.subtype, key)
      assert.isTrue(ControlRequest.isControlRequest(request))
    }
    const isPayload = Schema.is(Protocol.OutboundControlRequestPayload)
    assert.isTrue(isPayload({ subtype: "get_settings" }))
    assert.isTrue(isPayload({ subtype: "stop_task", task_id: "t" }))
    assert.isFalse(isPayload({ subtype: "stop_task" }), "a known subtype must match its own schema")
    assert.isTrue(isPayload({ subtype: "get_plan", anything: 1 }), "any other subtype: the escape hatch")
  })
})

describe("Session control: MCP servers", () => {
  it.live("toggle, reconnect, set servers, read a ui:// resource, pin a permission mode", () =>
    Effect.gen(function*() {
      const { file } = yield* Workspace
      const starts = file("starts.log")
      const session = yield* ClaudeCode.session({
        mcpServers: { fixture: { command: process.execPath, args: [mcpServer], env: { FIXTURE_MCP_STARTS: starts } } }
      })
      const statusOf = (name: string) =>
        Effect.map(session.mcpServerStatus, (servers) => servers.find((server) => server.name === name)?.status)

      yield* eventually(statusOf("fixture"), (status) => status === "connected", "fixture connected")

      // readMcpResource: the server's answer to resources/read, through the CLI
      const resource = yield* session.readMcpResource("fixture", "ui://fixture/widget")
      assert.strictEqual(resource.contents[0].text, "<p>hello</p>")
      const notUi = yield* session.readMcpResource("fixture", "file:///etc/passwd").pipe(Effect.flip)
      assert.strictEqual(notUi._tag, "ControlError")

      // toggleMcpServer: disabled, then connected again
      yield* session.toggleMcpServer("fixture", false)
      assert.strictEqual(yield* statusOf("fixture"), "disabled")
      yield* session.toggleMcpServer("fixture", true)
      yield* eventually(statusOf("fixture"), (status) => status === "connected", "fixture re-enabled")

      // reconnectMcpServer: the server process is started again
      const before = Fs.readFileSync(starts, "utf8").trim().split("\n").length
      yield* session.reconnectMcpServer("fixture")
      yield* eventually(
        Effect.sync(() => Fs.readFileSync(starts, "utf8").trim().split("\n").length),
        (count) => count > before,
        "fixture restarted"
      )
      const unknown = yield* session.reconnectMcpServer("nope").pipe(Effect.flip)
      assert.strictEqual(unknown._tag, "ControlError")
      assert.include(unknown.message, "Server not found")

      // setMcpServers: a server added, then removed
      const added = yield* session.setMcpServers({ second: { command: process.execPath, args: [mcpServer] } })
      assert.deepStrictEqual(added.added, ["second"])
      yield* eventually(statusOf("second"), (status) => status === "connected", "second connected")
      const removed = yield* session.setMcpServers({})
      assert.deepStrictEqual(removed.removed, ["second"])
      assert.isUndefined(yield* statusOf("second"))

      // setMcpPermissionModeOverride: a warning for a name no server has
      const warned = yield* session.setMcpPermissionModeOverride("nope", "default")
      assert.isString(warned.warning)
      const pinned = yield* session.setMcpPermissionModeOverride("fixture", "default")
      assert.isUndefined(pinned.warning)
      yield* session.setMcpPermissionModeOverride("fixture", null)
    }).pipe(Effect.scoped, Effect.provide(harness([]))))
})

describe("Session control: settings and files", () => {
  it.live("applyFlagSettings lets the next turn's Bash command run; updateSettings writes the local settings", () =>
    Effect.gen(function*() {
      const { exists, file } = yield* Workspace
      const session = yield* ClaudeCode.session()
      yield* collect(session.turn("before the rule"))
      assert.isFalse(exists("before.txt"), "no rule yet: the command is not allowed")

      yield* session.applyFlagSettings({ permissions: { allow: ["Bash(touch after.txt)"] } })
      yield* collect(session.turn("after the rule"))
      assert.isTrue(exists("after.txt"), "the rule allowed the command")

      yield* session.updateSettings("localSettings", { outputStyle: "Concise" })
      const local = JSON.parse(Fs.readFileSync(file(".claude/settings.local.json"), "utf8"))
      assert.strictEqual(local.outputStyle, "Concise")
      const refused = yield* session.updateSettings("localSettings", { model: "opus" }).pipe(Effect.flip)
      assert.strictEqual(refused._tag, "ControlError")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        bash("touch before.txt"),
        ScriptedModel.text("not allowed"),
        bash("touch after.txt"),
        ScriptedModel.text("done")
      ]))
    ))

  it.live("readFile reads under the Read rules; seedReadState vouches for a file changed since it was read", () =>
    Effect.gen(function*() {
      const { file, read } = yield* Workspace
      const notes = file("notes.txt")
      Fs.writeFileSync(notes, "alpha\n")
      const edit = (from: string, to: string) =>
        ScriptedModel.toolUse("Edit", { file_path: notes, old_string: from, new_string: to })
      yield* ScriptedModel.push(
        ScriptedModel.toolUse("Read", { file_path: notes }),
        ScriptedModel.text("read"),
        edit("alpha", "beta"),
        ScriptedModel.text("edited, with a warning"),
        edit("beta", "gamma"),
        ScriptedModel.text("edited")
      )
      const session = yield* ClaudeCode.session({ allowedTools: ["Read", "Edit"] })

      Fs.writeFileSync(file("hello.txt"), "hello\n")
      const text = yield* session.readFile("hello.txt")
      assert.strictEqual(text.contents, "hello\n")
      assert.strictEqual(text.absPath, file("hello.txt"))
      const head = yield* session.readFile("hello.txt", { encoding: "base64", maxBytes: 2 })
      assert.strictEqual(Buffer.from(head.contents, "base64").toString("utf8"), "he")
      assert.isTrue(head.truncated)
      const missing = yield* session.readFile("missing.txt").pipe(Effect.flip)
      assert.strictEqual(missing._tag, "ControlError")
      assert.strictEqual(missing._tag === "ControlError" ? missing.reason : undefined, "ErrorResponse")

      // The file changes behind the session's back after its Read: the next Edit is told so.
      const touch = (content: string, seconds: number) => {
        Fs.writeFileSync(notes, content)
        const at = new Date(Date.now() + seconds * 1000)
        Fs.utimesSync(notes, at, at)
        return Math.floor(Fs.statSync(notes).mtimeMs)
      }
      const stale = "modified on disk since you last read it"
      yield* collect(session.turn("read the notes"))
      touch("alpha\nmore\n", 5)
      yield* collect(session.turn("edit the notes"))
      const unseeded = yield* ScriptedModel.lastTurnRequest
      assert.include(String(unseeded.latestToolResults[0].content), stale)
      assert.strictEqual(read("notes.txt"), "beta\nmore\n")

      // Changed again, and the host vouches for the new version: no warning.
      const mtime = touch("beta\nmore\nand more\n", 10)
      yield* session.seedReadState(notes, mtime)
      yield* collect(session.turn("edit again"))
      const seeded = yield* ScriptedModel.lastTurnRequest
      assert.notInclude(String(seeded.latestToolResults[0].content), stale)
      assert.strictEqual(read("notes.txt"), "gamma\nmore\nand more\n")
    }).pipe(Effect.scoped, Effect.provide(harness([]))))
})

describe("Session control: skills, output styles, plugins, usage", () => {
  it.live("reloadSkills, reloadOutputStyles and reloadPlugins pick up what was written after the start", () =>
    Effect.gen(function*() {
      const { cwd, file } = yield* Workspace
      const session = yield* ClaudeCode.session({
        settingSources: ["project"],
        agents: { reviewer: { description: "Reviews code", prompt: "You review code." } }
      })
      const names = (commands: ReadonlyArray<{ readonly name: string }>) => commands.map((command) => command.name)
      assert.notInclude(names(yield* session.supportedCommands), "greeter")

      Fs.mkdirSync(file(".claude/skills/greeter"), { recursive: true })
      Fs.writeFileSync(
        file(".claude/skills/greeter/SKILL.md"),
        "---\nname: greeter\ndescription: Greets the user\n---\nSay hello.\n"
      )
      const skills = yield* session.reloadSkills
      assert.include(names(skills.skills), "greeter")

      Fs.mkdirSync(file(".claude/output-styles"), { recursive: true })
      Fs.writeFileSync(
        file(".claude/output-styles/pirate.md"),
        "---\nname: Pirate\ndescription: Talks like a pirate\n---\nArr.\n"
      )
      const styles = yield* session.reloadOutputStyles
      assert.include(styles.available_output_styles, "Pirate")

      const plugin = Path.join(cwd, "plugins", "hello")
      Fs.mkdirSync(Path.join(plugin, ".claude-plugin"), { recursive: true })
      Fs.mkdirSync(Path.join(plugin, "commands"), { recursive: true })
      Fs.writeFileSync(
        Path.join(plugin, ".claude-plugin", "plugin.json"),
        JSON.stringify({ name: "hello", version: "1.0.0", description: "says hello" })
      )
      Fs.writeFileSync(Path.join(plugin, "commands", "wave.md"), "---\ndescription: Waves\n---\nWave.\n")
      const plugins = yield* session.reloadPlugins({ addPlugins: [{ type: "local", path: plugin }] })
      assert.include(plugins.plugins.map((p) => p.name), "hello")

      // supportedAgents and accountInfo come from the initialize result
      assert.include(names(yield* session.supportedAgents), "reviewer")
      const account = yield* session.accountInfo
      assert.strictEqual(account.apiKeySource, "ANTHROPIC_API_KEY")

      // usage: the session's totals grow with a turn
      yield* collect(session.turn("hi"))
      const usage = yield* session.usage({ skipBehaviors: true })
      assert.isAbove(usage.session.total_cost_usd, 0)
      assert.isFalse(usage.rate_limits_available)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("hello")]))))

  it.live("setMaxThinkingTokens sets the next requests' thinking budget and display, 0 turns it off, null restores it", () =>
    Effect.gen(function*() {
      // a model with budgeted thinking (current models think adaptively and take 0 as off only)
      const session = yield* ClaudeCode.session({ model: "claude-sonnet-4-5" })
      const thinkingOf = (prompt: string) =>
        Effect.gen(function*() {
          yield* collect(session.turn(prompt))
          return (yield* ScriptedModel.lastTurnRequest).body?.thinking
        })
      const initial = yield* thinkingOf("default")
      assert.deepInclude(initial, { type: "enabled" })
      yield* session.setMaxThinkingTokens(2048, "summarized")
      assert.deepInclude(yield* thinkingOf("a little"), { type: "enabled", budget_tokens: 2048 })
      yield* session.setMaxThinkingTokens(0)
      assert.deepInclude(yield* thinkingOf("none"), { type: "disabled" })
      // null restores the budget; the display chosen earlier stays
      yield* session.setMaxThinkingTokens(null)
      assert.deepStrictEqual(yield* thinkingOf("default again"), { ...Object(initial), display: "summarized" })
    }).pipe(
      Effect.scoped,
      Effect.provide(harness(["a", "b", "c", "d"].map((text) => ScriptedModel.text(text))))
    ))
})

describe("Session control: background tasks", () => {
  it.live(
    "getTaskOutput reads a background shell, stopTask ends it, backgroundTasks moves a foreground one",
    () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ allowedTools: ["Bash"] })
        const started = yield* collect(session.turn("start a ticker"))
        const task = started.find((m) => Protocol.isSystemMessage(m, "task_started")) as { task_id: string }
        const taskId: string = task.task_id
        const output = yield* eventually(
          session.getTaskOutput(taskId),
          (answer) => answer.output.includes("tick2"),
          "ticks"
        )
        assert.include(output.output, "tick1")

        // stopTask: the task is killed and reported stopped
        yield* session.stopTask(taskId)
        const stopped = yield* session.messages.pipe(
          Stream.filter((m) => m.type === "system" && m.subtype === "task_notification"),
          Stream.runHead,
          Effect.timeout("10 seconds")
        )
        assert.strictEqual((stopped.pipe(Option.getOrThrow) as { status?: string }).status, "stopped")
        // the CLI appends its own "[killed]" marker in its own time, and the output it reports can lag the shell's
        // by a tick: what matters is that the ticks stop. A live ticker adds one every 100 ms, so two reads 300 ms
        // apart that agree mean it is gone, long before its 300 ticks.
        const ticksOf = (output: string) => output.split("\n").filter((line) => /^tick\d+$/.test(line))
        const ticksNow = Effect.map(session.getTaskOutput(taskId), (answer) => ticksOf(answer.output))
        const [settled] = yield* eventually(
          Effect.zip(ticksNow, Effect.andThen(Effect.sleep("300 millis"), ticksNow)),
          ([before, after]) => before.length === after.length,
          "the ticks stop"
        )
        assert.isBelow(settled.length, 150)
        yield* Effect.sleep("500 millis")
        assert.deepStrictEqual(yield* ticksNow, settled, "no more ticks")
        const unknown = yield* session.getTaskOutput("nope").pipe(Effect.flip)
        assert.strictEqual(unknown._tag, "ControlError")

        // backgroundTasks: a slow foreground command is sent to the background and the turn goes on
        yield* ScriptedModel.push(
          ScriptedModel.toolUse("Bash", { command: "sleep 20; echo late", description: "slow" }, { id: "toolu_slow" }),
          ScriptedModel.text("moved on")
        )
        const begun = Date.now()
        const turn = yield* collect(session.turn("run something slow")).pipe(
          Effect.forkChild({ startImmediately: true })
        )
        // the CLI takes a shell as a foreground task after a moment; until then nothing matches the id
        yield* eventually(session.backgroundTasks("toolu_slow"), (moved) => moved, "the command was backgrounded")
        const messages = yield* Fiber.join(turn)
        assert.isBelow(Date.now() - begun, 15_000)
        const result = (yield* ScriptedModel.lastTurnRequest).latestToolResults[0]
        assert.include(String(result.content), "backgrounded")
        const slow = messages.find((m) => Protocol.isSystemMessage(m, "task_started")) as { task_id: string }
        yield* session.stopTask(slow.task_id)
      }).pipe(
        Effect.scoped,
        Effect.provide(harness([
          ScriptedModel.toolUse("Bash", {
            command: "for i in $(seq 1 300); do echo tick$i; sleep 0.1; done",
            description: "ticker",
            run_in_background: true
          }),
          ScriptedModel.text("started")
        ]))
      ),
    40_000
  )
})

describe("Session control: rewind and typed requests", () => {
  it.live("rewindFiles restores the files a turn changed (with enableFileCheckpointing)", () =>
    Effect.gen(function*() {
      const { file, read } = yield* Workspace
      const draft = file("draft.txt")
      yield* ScriptedModel.push(
        ScriptedModel.toolUse("Write", { file_path: draft, content: "v1\n" }),
        ScriptedModel.text("written"),
        ScriptedModel.toolUse("Edit", { file_path: draft, old_string: "v1", new_string: "v2" }),
        ScriptedModel.text("edited")
      )
      const session = yield* ClaudeCode.session({ enableFileCheckpointing: true, allowedTools: ["Write", "Edit"] })
      const prompt = (text: string, uuid: string): Protocol.UserInput => ({
        type: "user",
        message: { role: "user", content: text },
        parent_tool_use_id: null,
        session_id: "",
        uuid
      })
      const second = "00000000-0000-4000-8000-000000000002"
      yield* collect(session.turn(prompt("write it", "00000000-0000-4000-8000-000000000001")))
      yield* collect(session.turn(prompt("edit it", second)))
      assert.strictEqual(read("draft.txt"), "v2\n")

      const preview = yield* session.rewindFiles(second, { dryRun: true })
      assert.isTrue(preview.canRewind)
      assert.include(preview.filesChanged ?? [], draft)
      assert.strictEqual(read("draft.txt"), "v2\n", "a dry run changes nothing")
      const rewound = yield* session.rewindFiles(second)
      assert.isTrue(rewound.canRewind)
      assert.strictEqual(read("draft.txt"), "v1\n")
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("request: typed by the table; bad payloads, bad replies and refusals are typed errors", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      const version = yield* session.request(ControlRequest.requests.get_binary_version, {})
      assert.strictEqual(version.version, "2.1.328")

      // a reply its success schema does not accept
      const VersionAsNumber = ControlRequest.make("get_binary_version", {
        payload: {},
        success: Schema.Struct({ version: Schema.Number })
      })
      const invalidResponse = yield* session.request(VersionAsNumber, {}).pipe(Effect.flip)
      assert.strictEqual(invalidResponse._tag === "ControlError" && invalidResponse.reason, "InvalidResponse")

      // a payload its schema does not encode: never written, the session is fine
      const NonEmptyModel = ControlRequest.make("set_model", {
        payload: { model: Schema.String.check(Schema.isMinLength(1)) },
        success: Protocol.SetModelResponse
      })
      const invalidRequest = yield* session.request(NonEmptyModel, { model: "" }).pipe(Effect.flip)
      assert.strictEqual(invalidRequest._tag === "ControlError" && invalidRequest.reason, "InvalidRequest")
      assert.strictEqual((yield* session.request(NonEmptyModel, { model: "haiku" })).model.length > 0, true)

      // a subtype CLI 2.1.328 refuses although the official SDK's types list it
      const SetColor = ControlRequest.make("set_color", {
        payload: { color: Schema.String },
        success: Protocol.NoResponse
      })
      const refused = yield* session.request(SetColor, { color: "blue" }).pipe(Effect.flip)
      assert.strictEqual(refused._tag === "ControlError" && refused.errorCode, "unsupported_request")

      // bypassPermissions needs the session to start in it
      const bypass = yield* session.setPermissionMode("bypassPermissions").pipe(Effect.flip)
      assert.strictEqual(bypass._tag === "ControlError" && bypass.errorCode, "bypass_not_launched")
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("an initialize answer that does not decode fails the session with InitializeError InvalidResponse", () =>
    Effect.gen(function*() {
      const error = yield* ClaudeCode.session({ executable: badInitializeCli }).pipe(Effect.scoped, Effect.flip)
      assert.strictEqual(error._tag, "InitializeError")
      assert.strictEqual(error._tag === "InitializeError" && error.reason, "InvalidResponse")
    }).pipe(Effect.provide(harness([]))))
})
