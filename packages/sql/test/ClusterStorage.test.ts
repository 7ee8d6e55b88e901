import { SqliteClient } from "@claude-effect/sql"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { assert, describe, it } from "@effect/vitest"
import * as ClusterSchema from "effect/cluster/ClusterSchema"
import * as Entity from "effect/cluster/Entity"
import * as SingleRunner from "effect/cluster/SingleRunner"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Rpc from "effect/rpc/Rpc"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as Path from "node:path"

// A persisted message keyed by its order id: the cluster stores it and its reply, and answers a message with the
// same key from storage instead of running the handler again.
const Charge = Rpc.make("Charge", {
  payload: { orderId: Schema.String, amount: Schema.Int },
  success: Schema.Int,
  primaryKey: (payload) => payload.orderId
}).annotate(ClusterSchema.Persisted, true)

const Account = Entity.make("Account", [Charge])

// An account whose balance starts at `opening`; `calls` counts the handler's runs.
const accountLayer = (opening: number, calls: Ref.Ref<number>) =>
  Account.toLayer(Effect.gen(function*() {
    const balance = yield* Ref.make(opening)
    return Account.of({
      Charge: ({ payload }) =>
        Effect.andThen(Ref.update(calls, (n) => n + 1), Ref.updateAndGet(balance, (b) => b + payload.amount))
    })
  }))

// One machine: SingleRunner with its SQL message and runner storage on our client, in one file.
const cluster = (filename: string, opening: number, calls: Ref.Ref<number>) =>
  accountLayer(opening, calls).pipe(
    Layer.provideMerge(SingleRunner.layer({ shardingConfig: { entityMessagePollInterval: "200 millis" } })),
    Layer.provide(NodeCrypto.layerDigest),
    Layer.provideMerge(SqliteClient.layer({ filename }))
  )

describe("effect/cluster on SqliteClient", () => {
  it.live("SingleRunner stores a persisted message and its reply, and reads them back after a restart", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dir = yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-cluster-sqlite-" })
      const filename = Path.join(dir, "cluster.db")

      const firstCalls = yield* Ref.make(0)
      const first = yield* Effect.gen(function*() {
        const account = (yield* Account.client)("account-1")
        const charged = yield* account.Charge({ orderId: "order-1", amount: 5 })
        const sql = yield* SqlClient.SqlClient
        const messages = yield* sql<{ n: number }>`SELECT count(*) AS n FROM cluster_messages`
        const tables = yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
        return { charged, messages: messages[0].n, tables: tables.map((table) => table.name) }
      }).pipe(Effect.provide(cluster(filename, 0, firstCalls)), Effect.timeout("30 seconds"))
      assert.strictEqual(first.charged, 5)
      assert.strictEqual(first.messages, 1)
      assert.includeMembers(first.tables, ["cluster_messages", "cluster_replies", "cluster_runners"])
      assert.strictEqual(yield* Ref.get(firstCalls), 1)

      // A new process's worth of everything on the same file; its account starts at 100.
      const secondCalls = yield* Ref.make(0)
      const second = yield* Effect.gen(function*() {
        const account = (yield* Account.client)("account-1")
        const again = yield* account.Charge({ orderId: "order-1", amount: 5 })
        const next = yield* account.Charge({ orderId: "order-2", amount: 1 })
        return { again, next }
      }).pipe(Effect.provide(cluster(filename, 100, secondCalls)), Effect.timeout("30 seconds"))
      // order-1's reply came from storage (5, not 105): the handler ran for order-2 only
      assert.deepStrictEqual(second, { again: 5, next: 101 })
      assert.strictEqual(yield* Ref.get(secondCalls), 1)
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
