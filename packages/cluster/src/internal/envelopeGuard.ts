/**
 * The runner's RPC server protocol, with a check of every envelope a peer
 * sends: its shard must be its entity id's own. A runner only checks that it
 * holds the shard an envelope names, so a peer that lies about the shard
 * could reach any entity on any runner; here such an envelope is answered
 * with a defect and goes no further.
 *
 * @internal
 */
import { EntityAddress } from "@effect/cluster/EntityAddress"
import * as EntityId from "@effect/cluster/EntityId"
import type * as Sharding from "@effect/cluster/Sharding"
import type * as SocketServer from "@effect/platform/SocketServer"
import type * as RpcMessage from "@effect/rpc/RpcMessage"
import type * as RpcSerialization from "@effect/rpc/RpcSerialization"
import * as RpcServer from "@effect/rpc/RpcServer"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

const decodeAddress = Schema.decodeUnknownOption(EntityAddress)
const encodeDefect = Schema.encodeSync(Schema.Defect)

/** The entity address an encoded `Runners.Rpcs` request carries, if any. */
const addressOf = (request: RpcMessage.RequestEncoded): Option.Option<EntityAddress> => {
  const payload = request.payload
  if (typeof payload !== "object" || payload === null) return Option.none()
  const envelope = "request" in payload ? payload.request : "envelope" in payload ? payload.envelope : undefined
  if (typeof envelope !== "object" || envelope === null || !("address" in envelope)) return Option.none()
  return decodeAddress(envelope.address)
}

/**
 * `RpcServer.Protocol` over the runner's `SocketServer`, refusing envelopes whose shard is not their entity's.
 * The shard is computed by the runner's own `Sharding`, given once it is built (before it, nothing is served).
 */
export const layerProtocol = (
  sharding: Deferred.Deferred<Sharding.Sharding["Type"]>
): Layer.Layer<RpcServer.Protocol, never, RpcSerialization.RpcSerialization | SocketServer.SocketServer> =>
  Layer.scoped(
    RpcServer.Protocol,
    Effect.map(RpcServer.makeProtocolSocketServer, (protocol) => ({
      ...protocol,
      run: (f) =>
        protocol.run((clientId, message) => {
          if (message._tag !== "Request") return f(clientId, message)
          const address = addressOf(message)
          if (Option.isNone(address)) return f(clientId, message)
          return Effect.flatMap(Deferred.await(sharding), (sharding) => {
            const { entityId, shardId } = address.value
            const own = sharding.getShardId(EntityId.make(entityId), shardId.group)
            if (Equal.equals(own, shardId)) return f(clientId, message)
            const detail = `refused: the envelope for ${address.value.entityType} ${
              JSON.stringify(entityId.slice(0, 100))
            } names shard ${shardId.toString()}, but its shard is ${own.toString()}`
            return Effect.zipRight(
              Effect.logWarning(`A peer sent an envelope with a wrong shard, ${detail}`),
              protocol.send(clientId, {
                _tag: "Exit",
                requestId: message.id,
                exit: { _tag: "Failure", cause: { _tag: "Die", defect: encodeDefect(new Error(detail)) } }
              })
            )
          })
        })
    }))
  )
