import { Protocol } from "@claude-effect/sdk"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Path from "node:path"
import { Arbitraries, ToolInputs } from "../src/index.js"

const survivesJson = (value: unknown) => {
  assert.deepStrictEqual(JSON.parse(JSON.stringify(value)), value)
}

const sample = <A>(arbitrary: fc.Arbitrary<A>, numRuns = 1000) => fc.sample(arbitrary, { numRuns, seed: 42 })

describe("Arbitraries.hookInput: every hook event, as the CLI sends it", () => {
  for (const event of Protocol.HookEvent.literals) {
    it.prop(`${event} inputs decode with Protocol.${event}HookInput and survive JSON`, [Arbitraries.hookInput(event)], (
      [input]
    ) => {
      assert.strictEqual(input.hook_event_name, event)
      assert.isTrue(Schema.is(Protocol.hookInputByEvent[event] as Schema.Schema<unknown, any>)(input))
      assert.isTrue(Schema.is(Protocol.HookInput)(input))
      survivesJson(input)
      assert.match(input.session_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.isTrue(input.cwd.startsWith("/"))
      assert.strictEqual(
        input.transcript_path,
        `/home/user/.claude/projects/${input.cwd.replace(/[^A-Za-z0-9]/g, "-")}/${input.session_id}.jsonl`
      )
    }, { fastCheck: { numRuns: 50 } })
  }

  it("anyHookInput covers all 33 events", () => {
    const events = new Set(sample(Arbitraries.anyHookInput(), 3000).map((input) => input.hook_event_name))
    assert.strictEqual(events.size, 33)
  })

  it.prop(
    "tool events pair a tool name with a matching input (built-in tools decode with ToolInputs)",
    [fc.oneof(
      Arbitraries.hookInput("PreToolUse"),
      Arbitraries.hookInput("PostToolUse"),
      Arbitraries.hookInput("PermissionRequest")
    )],
    ([input]) => {
      const schema = (ToolInputs.byName as Record<string, Schema.Schema<any>>)[input.tool_name]
      if (schema !== undefined) {
        assert.isTrue(Schema.is(schema)(input.tool_input), input.tool_name)
        assert.isUndefined(input.mcp_server)
      } else {
        assert.match(input.tool_name, /^mcp__[\w-]+__\w+$/)
        assert.strictEqual(input.mcp_server?.name, input.tool_name.split("__")[1])
      }
    }
  )

  it("fields the CLI fills from a fixed set get known values", () => {
    const starts = sample(Arbitraries.hookInput("SessionStart"), 300)
    assert.sameMembers([...new Set(starts.map((input) => input.source))], [
      "startup",
      "resume",
      "clear",
      "compact",
      "fork"
    ])
    for (const input of sample(Arbitraries.anyHookInput(), 500)) {
      if (input.permission_mode !== undefined) {
        assert.include(
          ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"],
          input.permission_mode
        )
      }
    }
    const uses = sample(Arbitraries.hookInput("PreToolUse"), 300)
    assert.isTrue(uses.every((input) => /^toolu_01\w{22}$/.test(input.tool_use_id)))
    const tools = new Set(uses.map((input) => input.tool_name))
    for (const tool of ["Bash", "Read", "Write", "Edit"]) assert.isTrue(tools.has(tool), tool)
  })

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
    it.prop(`${name} inputs decode with their schema and survive JSON`, [schema as Schema.Schema<any>], ([input]) => {
      assert.isTrue(Schema.is(schema as Schema.Schema<any>)(input))
      survivesJson(input)
    }, { fastCheck: { numRuns: 50 } })
  }

  it.prop("a schema can be used directly in it.prop", [ToolInputs.Bash, ToolInputs.Write], ([bash, write]) => {
    assert.isString(bash.command)
    assert.isString(write.file_path)
  })

  it("decoding keeps unknown fields, so a decoded input can go back as updatedInput", () => {
    const decoded = Schema.decodeUnknownSync(ToolInputs.Bash)({ command: "ls", future_field: 1 })
    assert.deepStrictEqual(decoded, { command: "ls", future_field: 1 } as any)
    assert.throws(() => Schema.decodeUnknownSync(ToolInputs.Bash)({ description: "no command" }))
  })

  it("file paths are mostly absolute, some relative, some climbing out with ..", () => {
    const paths = sample(Arbitrary.make(ToolInputs.Write), 1000).map((input) => input.file_path)
    const absolute = paths.filter((p) => p.startsWith("/")).length
    assert.isAbove(absolute, 700)
    assert.isBelow(absolute, 1000)
    assert.isTrue(paths.some((p) => p.includes("/../")))
    assert.isTrue(paths.some((p) => !p.startsWith(ToolInputs.defaultCwd) && p.startsWith("/")))
  })

  it("commands are built from realistic pieces", () => {
    const commands = sample(Arbitrary.make(ToolInputs.ShellCommand), 2000)
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
  })
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

  it("both kinds vary: cd, sh -c, several steps, mentions of dangerous commands", () => {
    const harmless = sample(Arbitraries.command({ kind: "harmless" }), 1000)
    const dangerous = sample(Arbitraries.command({ kind: "deletesOutside" }), 1000)
    for (const commands of [harmless, dangerous]) {
      assert.isTrue(commands.some((c) => c.startsWith("cd ")))
      assert.isTrue(commands.some((c) => c.includes("sh -c '")))
      assert.isTrue(commands.some((c) => / (&&|;|\|\||\|) /.test(c)))
    }
    assert.isTrue(harmless.some((c) => /^echo '.*rm /.test(c) || /git commit -m .*rm /.test(c)))
    assert.isTrue(harmless.some((c) => /\brm -(rf|fr) /.test(c)))
    assert.isTrue(dangerous.some((c) => /^cd (\.\.|\/tmp|~)/.test(c)))
  })
})

describe("Arbitraries around a tool input of your choice", () => {
  it.prop(
    "preToolUse(toolName, arbitrary | schema) gives full PreToolUse inputs in the default working directory",
    [Arbitraries.preToolUse("Write", ToolInputs.Write), Arbitraries.preToolUse("Bash", Arbitraries.bash())],
    ([write, bash]) => {
      for (const input of [write, bash]) {
        assert.isTrue(Schema.is(Protocol.PreToolUseHookInput)(input))
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
      Arbitraries.postToolUse("Read", ToolInputs.Read, fc.constant({ type: "text" }), { cwd: "/srv/app" }),
      Arbitraries.permissionRequest("Edit", ToolInputs.Edit)
    ],
    ([post, request]) => {
      assert.isTrue(Schema.is(Protocol.PostToolUseHookInput)(post))
      assert.deepStrictEqual(post.tool_response, { type: "text" })
      assert.strictEqual(post.cwd, "/srv/app")
      assert.isTrue(Schema.is(Protocol.PermissionRequestHookInput)(request))
      assert.strictEqual(request.tool_name, "Edit")
    }
  )

  it.prop("canUseTool gives can_use_tool requests", [Arbitraries.canUseTool("Bash", Arbitraries.bash())], ([req]) => {
    assert.isTrue(Schema.is(Protocol.CanUseToolRequest)(req))
    assert.strictEqual(req.display_name, "Bash")
    survivesJson(req)
  })

  it.prop("toolCall gives calls of every kind of tool", [Arbitraries.toolCall({ cwd: "/srv/app" })], ([call]) => {
    survivesJson(call)
    return typeof call.tool_name === "string"
  })
})
