import { Protocol } from "@claude-effect/sdk"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Path from "node:path"
import { Arbitraries, ToolInputs } from "../src/index.js"

const survivesJson = (value: unknown) => {
  assert.deepStrictEqual(JSON.parse(JSON.stringify(value)), value)
}

/** The value as the CLI writes it (JSON) decodes with `schema`; the failure names the schema's complaint. */
const decodesFromJson = (schema: Schema.Codec<unknown, unknown>, value: unknown) => {
  const decoded = Schema.decodeUnknownResult(schema)(JSON.parse(JSON.stringify(value)))
  assert.isTrue(Result.isSuccess(decoded), Result.isFailure(decoded) ? String(decoded.failure) : "")
}

const sample = <A>(arbitrary: Arbitrary.Arbitrary<A>, count = 1000) =>
  Arbitrary.sampleEffect(arbitrary, { count, seed: 42 })

const hookInputSchema = (event: Protocol.HookEvent): Schema.Codec<unknown, unknown> =>
  Protocol.hookInputByEvent[event] as Schema.Codec<unknown, unknown>

describe("Arbitraries.hookInput: every hook event, as the CLI sends it", () => {
  for (const event of Protocol.HookEvent.literals) {
    it.prop(`${event} inputs decode with Protocol.${event}HookInput and survive JSON`, [Arbitraries.hookInput(event)], (
      [input]
    ) => {
      assert.strictEqual(input.hook_event_name, event)
      assert.isTrue(Schema.is(hookInputSchema(event))(input))
      assert.isTrue(Schema.is(Protocol.HookInput)(input))
      decodesFromJson(hookInputSchema(event), input)
      decodesFromJson(Protocol.HookInput as Schema.Codec<unknown, unknown>, input)
      survivesJson(input)
      assert.match(input.session_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.isTrue(input.cwd.startsWith("/"))
      assert.strictEqual(
        input.transcript_path,
        `/home/user/.claude/projects/${input.cwd.replace(/[^A-Za-z0-9]/g, "-")}/${input.session_id}.jsonl`
      )
    }, { arbitrary: { runs: 50 } })
  }

  it.effect("anyHookInput covers all 33 events", () =>
    Effect.gen(function*() {
      const inputs = yield* sample(Arbitraries.anyHookInput(), 3000)
      const events = new Set(inputs.map((input) => input.hook_event_name))
      assert.strictEqual(events.size, 33)
    }))

  it.prop(
    "tool events pair a tool name with a matching input (built-in tools decode with ToolInputs)",
    [Arbitrary.flatMap(
      Arbitrary.schema(Schema.Literals(["PreToolUse", "PostToolUse", "PermissionRequest"])),
      (event) => Arbitraries.hookInput(event)
    )],
    ([input]) => {
      const schema = (ToolInputs.byName as Record<string, Schema.Codec<unknown, unknown>>)[input.tool_name]
      if (schema !== undefined) {
        assert.isTrue(Schema.is(schema)(input.tool_input), input.tool_name)
        decodesFromJson(schema, input.tool_input)
        assert.isUndefined(input.mcp_server)
      } else {
        assert.match(input.tool_name, /^mcp__[\w-]+__\w+$/)
        assert.strictEqual(input.mcp_server?.name, input.tool_name.split("__")[1])
      }
    }
  )

  it.effect("fields the CLI fills from a fixed set get known values", () =>
    Effect.gen(function*() {
      const starts = yield* sample(Arbitraries.hookInput("SessionStart"), 300)
      assert.sameMembers([...new Set(starts.map((input) => input.source))], [
        "startup",
        "resume",
        "clear",
        "compact",
        "fork"
      ])
      for (const input of yield* sample(Arbitraries.anyHookInput(), 500)) {
        if (input.permission_mode !== undefined) {
          assert.include(
            ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"],
            input.permission_mode
          )
        }
      }
      const uses = yield* sample(Arbitraries.hookInput("PreToolUse"), 300)
      assert.isTrue(uses.every((input) => /^toolu_01\w{22}$/.test(input.tool_use_id)))
      const tools = new Set(uses.map((input) => input.tool_name))
      for (const tool of ["Bash", "Read", "Write", "Edit"]) assert.isTrue(tools.has(tool), tool)
    }))

  it.prop(
    "overrides fix base fields, and paths follow the working directory",
    [Arbitraries.hookInput("PreToolUse", { cwd: "/srv/app", permission_mode: "plan" })],
    ([input]) => {
      assert.strictEqual(input.cwd, "/srv/app")
      assert.strictEqual(input.permission_mode, "plan")
      assert.notInclude(JSON.stringify(input.tool_input), ToolInputs.defaultCwd)
    }
  )
})

describe("ToolInputs: the built-in tools' inputs as Schemas with realistic arbitraries", () => {
  for (const [name, schema] of Object.entries(ToolInputs.byName)) {
    it.prop(`${name} inputs decode with their schema and survive JSON`, [schema.arbitrary], ([input]) => {
      assert.isTrue(Schema.is(schema as Schema.Codec<unknown, unknown>)(input))
      decodesFromJson(schema as Schema.Codec<unknown, unknown>, input)
      survivesJson(input)
    }, { arbitrary: { runs: 50 } })
  }

  it.prop(
    "a schema's arbitrary can be used directly in it.prop, and so can the schema (effect's own values)",
    [ToolInputs.Bash.arbitrary, ToolInputs.Write.arbitrary, ToolInputs.Bash],
    ([bash, write, derived]) => {
      assert.isString(bash.command)
      assert.isString(write.file_path)
      assert.isTrue(Schema.is(ToolInputs.Bash)(derived))
    }
  )

  it("decoding keeps unknown fields, so a decoded input can go back as updatedInput", () => {
    const decoded = Schema.decodeUnknownSync(ToolInputs.Bash)({ command: "ls", future_field: 1 })
    assert.deepStrictEqual(decoded, { command: "ls", future_field: 1 } as ToolInputs.Bash)
    assert.throws(() => Schema.decodeUnknownSync(ToolInputs.Bash)({ description: "no command" }))
  })

  it.effect("file paths are mostly absolute, some relative, some climbing out with ..", () =>
    Effect.gen(function*() {
      const paths = (yield* sample(ToolInputs.Write.arbitrary, 1000)).map((input) => input.file_path)
      const absolute = paths.filter((p) => p.startsWith("/")).length
      assert.isAbove(absolute, 700)
      assert.isBelow(absolute, 1000)
      assert.isTrue(paths.some((p) => p.includes("/../")))
      assert.isTrue(paths.some((p) => !p.startsWith(ToolInputs.defaultCwd) && p.startsWith("/")))
    }))

  it.effect("commands are built from realistic pieces", () =>
    Effect.gen(function*() {
      const commands = yield* sample(ToolInputs.ShellCommand.arbitrary, 2000)
      const pieces: Record<string, RegExp> = {
        "rm -rf": /\brm -(rf|fr)\b/,
        rmdir: /\brmdir\b/,
        unlink: /\bunlink\b/,
        "find -delete": /\bfind .*-delete/,
        "mv to /dev/null": /\bmv .* \/dev\/null/,
        "..": /\.\.\//,
        "absolute paths": / \/[a-z]/,
        "~": / ~/,
        $HOME: /\$HOME/,
        "2>/dev/null": /2>\/dev\/null/,
        "&&": / && /,
        "|": / \| /,
        ";": /; /,
        "single quotes": /'/,
        "double quotes": /"/,
        "escaped spaces": /\\ /,
        cd: /\bcd /,
        "sh -c": /\b(ba)?sh -c '/,
        "sudo": /\bsudo /,
        "/bin/rm": /\/bin\/rm\b/,
        "\\rm": /\\rm\b/,
        comments: / # /,
        globs: /\*/,
        "curl | sh": /curl .*\| sh/
      }
      for (const [piece, pattern] of Object.entries(pieces)) {
        assert.isTrue(commands.some((command) => pattern.test(command)), piece)
      }
    }))
})

describe("Arbitraries: commands and paths whose meaning is known", () => {
  const cwd = "/home/dev/my project"
  const resolvesInside = (path: string) => Path.posix.resolve(cwd, path).startsWith(`${cwd}/`)

  it.prop("filePath({ where: \"inside\" }) resolves strictly inside the working directory", [
    Arbitraries.filePath({ cwd, where: "inside" })
  ], ([path]) => resolvesInside(path))

  it.prop("filePath({ where: \"outside\" }) resolves outside it (or is under ~ / $HOME)", [
    Arbitraries.filePath({ cwd, where: "outside" })
  ], ([path]) => /^[~$]/.test(path) || !resolvesInside(path))

  it.prop("deletesOutside commands always run a deletion", [Arbitraries.command({ cwd, kind: "deletesOutside" })], (
    [command]
  ) => /\b(rm|rmdir|unlink|find|mv)\b/.test(command))

  it.prop(
    "bash({ kind }) gives Bash inputs",
    [Arbitraries.bash({ cwd, kind: "harmless" })],
    ([input]) => Schema.is(ToolInputs.Bash)(input) && input.command.length > 0
  )

  it.effect("both kinds vary: cd, sh -c, several steps, mentions of dangerous commands", () =>
    Effect.gen(function*() {
      const harmless = yield* sample(Arbitraries.command({ kind: "harmless" }), 1000)
      const dangerous = yield* sample(Arbitraries.command({ kind: "deletesOutside" }), 1000)
      for (const commands of [harmless, dangerous]) {
        assert.isTrue(commands.some((c) => c.startsWith("cd ")))
        assert.isTrue(commands.some((c) => c.includes("sh -c '")))
        assert.isTrue(commands.some((c) => / (&&|;|\|\||\|) /.test(c)))
      }
      assert.isTrue(harmless.some((c) => /^echo '.*rm /.test(c) || /git commit -m .*rm /.test(c)))
      assert.isTrue(harmless.some((c) => /\brm -(rf|fr) /.test(c)))
      assert.isTrue(dangerous.some((c) => /^cd (\.\.|\/tmp|~)/.test(c)))
    }))

  it.effect("weights: the built-in tools come as often as fast-check's weights made them", () =>
    Effect.gen(function*() {
      const calls = yield* sample(Arbitraries.toolCall(), 2000)
      const share = (name: string) => calls.filter((call) => call.tool_name === name).length / calls.length
      // Bash 8, Read 4, Write 3, Edit 3, MCP 2 and eleven more tools of weight 1 or 2, out of 42.
      assert.isAbove(share("Bash"), 0.1)
      assert.isAbove(share("Bash"), share("Read"))
      assert.isAbove(share("Read"), share("TodoWrite"))
      assert.isAbove(calls.filter((call) => call.tool_name.startsWith("mcp__")).length, 20)
    }))
})

describe("Arbitraries around a tool input of your choice", () => {
  it.prop(
    "preToolUse(toolName, arbitrary | schema) gives full PreToolUse inputs in the default working directory",
    [Arbitraries.preToolUse("Write", ToolInputs.Write), Arbitraries.preToolUse("Bash", Arbitraries.bash())],
    ([write, bash]) => {
      for (const input of [write, bash]) {
        assert.isTrue(Schema.is(Protocol.PreToolUseHookInput)(input))
        decodesFromJson(Protocol.PreToolUseHookInput as Schema.Codec<unknown, unknown>, input)
        assert.strictEqual(input.cwd, ToolInputs.defaultCwd)
      }
      assert.strictEqual(write.tool_name, "Write")
      assert.isString(write.tool_input.content)
      assert.strictEqual(bash.tool_name, "Bash")
    }
  )

  it.prop(
    "postToolUse and permissionRequest likewise; overrides apply",
    [
      Arbitraries.postToolUse("Read", ToolInputs.Read, Arbitrary.Constant({ type: "text" }), { cwd: "/srv/app" }),
      Arbitraries.permissionRequest("Edit", ToolInputs.Edit)
    ],
    ([post, request]) => {
      assert.isTrue(Schema.is(Protocol.PostToolUseHookInput)(post))
      decodesFromJson(Protocol.PostToolUseHookInput as Schema.Codec<unknown, unknown>, post)
      assert.deepStrictEqual(post.tool_response, { type: "text" })
      assert.strictEqual(post.cwd, "/srv/app")
      assert.isTrue(Schema.is(Protocol.PermissionRequestHookInput)(request))
      decodesFromJson(Protocol.PermissionRequestHookInput as Schema.Codec<unknown, unknown>, request)
      assert.strictEqual(request.tool_name, "Edit")
    }
  )

  it.prop("canUseTool gives can_use_tool requests", [Arbitraries.canUseTool("Bash", Arbitraries.bash())], ([req]) => {
    assert.isTrue(Schema.is(Protocol.CanUseToolRequest)(req))
    decodesFromJson(Protocol.CanUseToolRequest as Schema.Codec<unknown, unknown>, req)
    assert.strictEqual(req.display_name, "Bash")
    survivesJson(req)
  })

  it.prop("toolCall gives calls of every kind of tool", [Arbitraries.toolCall({ cwd: "/srv/app" })], ([call]) => {
    survivesJson(call)
    return typeof call.tool_name === "string"
  })
})
