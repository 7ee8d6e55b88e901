/**
 * The runner's RPC server protocol, with a check of every envelope a peer
 * sends: its shard must be its entity id's own. A runner only checks that it
 * holds the shard an envelope names, so a peer that lies about the shard
 * could reach any entity on any runner; here such an envelope is answered
 * with a defect and goes no further.
 *
 * @internal
 */
import { EntityAddress } from "effect/cluster/EntityAddress"
import * as EntityId from "effect/cluster/EntityId"
import * as Runners from "effect/cluster/Runners"
import type * as Sharding from "effect/cluster/Sharding"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as RpcMessage from "effect/rpc/RpcMessage"
import type * as RpcSerialization from "effect/rpc/RpcSerialization"
import * as RpcServer from "effect/rpc/RpcServer"
import * as Schema from "effect/Schema"
import type * as SocketServer from "effect/socket/SocketServer"

/** The entity address of a decoded `Runners.Rpcs` payload (`request` or `envelope`), if any. */
const addressOf = (payload: unknown): Option.Option<EntityAddress> => {
  if (typeof payload !== "object" || payload === null) return Option.none()
  const envelope = "request" in payload ? payload.request : "envelope" in payload ? payload.envelope : undefined
  if (typeof envelope !== "object" || envelope === null || !("address" in envelope)) return Option.none()
  return envelope.address instanceof EntityAddress ? Option.some(envelope.address) : Option.none()
}

/**
 * `RpcServer.Protocol` over the runner's `SocketServer`, refusing envelopes whose shard is not their entity's.
 * The shard is computed by the runner's own `Sharding`, given once it is built (before it, nothing is served).
 */
export const layerProtocol = (
  sharding: Deferred.Deferred<Sharding.Sharding["Service"]>
): Layer.Layer<RpcServer.Protocol, never, RpcSerialization.RpcSerialization | SocketServer.SocketServer> =>
  Layer.effect(
    RpcServer.Protocol,
    Effect.map(RpcServer.makeProtocolSocketServer, (protocol) => {
      // The payload is in the transport's encoding (bytes, with "binary"): decoded with the RPC's own codec.
      const decoders = new Map(
        Array.from(Runners.Rpcs.requests, ([tag, rpc]) => [
          tag,
          Schema.decodeUnknownEffect(protocol.codecFor(rpc.payloadSchema))
        ])
      )
      const encodeExit = Schema.encodeUnknownEffect(
        protocol.codecFor(Schema.Exit(Schema.Never, Schema.Never, Schema.Defect()))
      )
      const refuse = (clientId: number, message: RpcMessage.RequestEncoded, detail: string) =>
        Effect.logWarning(`A peer sent an envelope with a wrong shard, ${detail}`).pipe(
          Effect.andThen(encodeExit(Exit.die(new Error(detail)))),
          // The exit in the transport's encoding (bytes, with "binary"), as `RpcServer` sends its own.
          Effect.flatMap((exit) =>
            protocol.send(clientId, {
              _tag: "Exit",
              requestId: message.id,
              exit: exit as RpcMessage.ExitEncoded<unknown, unknown>
            })
          ),
          Effect.catchCause((cause) => Effect.logDebug("Could not answer a refused envelope", cause))
        )
      return RpcServer.Protocol.of({
        ...protocol,
        run: (f) =>
          protocol.run((clientId, message) => {
            if (message._tag !== "Request") return f(clientId, message)
            const decode = decoders.get(message.tag)
            if (decode === undefined) return f(clientId, message)
            return decode(message.payload).pipe(
              Effect.map(addressOf),
              // Undecodable: the server answers it with its own error.
              Effect.orElseSucceed(() => Option.none<EntityAddress>()),
              Effect.flatMap((address) => {
                if (Option.isNone(address)) return f(clientId, message)
                return Effect.flatMap(Deferred.await(sharding), (sharding) => {
                  const { entityId, entityType, shardId } = address.value
                  const own = sharding.getShardId(EntityId.make(entityId), shardId.group)
                  if (Equal.equals(own, shardId)) return f(clientId, message)
                  return refuse(
                    clientId,
                    message,
                    `refused: the envelope for ${entityType} ${
                      JSON.stringify(entityId.slice(0, 100))
                    } names shard ${shardId.toString()}, but its shard is ${own.toString()}`
                  )
                })
              })
            )
          })
      })
    })
  )
