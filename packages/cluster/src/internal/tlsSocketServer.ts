/**
 * The runners' TLS `SocketServer`: `@effect/platform-node`'s `NodeSocketServer.makeTls` over a `tls.Server`
 * we hold, so that the connections refused in the handshake (peers without the cluster's credential) are
 * reported, at most once a minute: a runner given another secret is a misconfiguration to see.
 *
 * @internal
 */
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { pipe } from "effect/Function"
import * as Layer from "effect/Layer"
import * as NetAddress from "effect/net/NetAddress"
import * as Scope from "effect/Scope"
import * as Socket from "effect/socket/Socket"
import * as SocketServer from "effect/socket/SocketServer"
import type * as Net from "node:net"
import * as Tls from "node:tls"

const REPORT_INTERVAL = 60_000

const openError = (cause: unknown) =>
  new SocketServer.SocketServerError({ reason: new SocketServer.SocketServerOpenError({ cause }) })

/**
 * Listens with `options`; a connection reaches `run`'s handler once its handshake has succeeded, one that
 * fails it is destroyed and counted in the next warning.
 *
 * @internal
 */
export const make = Effect.fnUntraced(function*(options: Tls.TlsOptions & Net.ListenOptions) {
  const services = yield* Effect.context<never>()
  // Connections that arrive before `run`: kept (paused) until it does, dropped when they close.
  const pending = new Map<Net.Socket, () => void>()
  const queue = (conn: Net.Socket) => {
    const remove = () => {
      pending.delete(conn)
      conn.off("close", remove).off("error", remove)
    }
    pending.set(conn, remove)
    conn.on("close", remove).on("error", remove)
  }
  let onConnection = queue
  const server = Tls.createServer(options)
  yield* Effect.addFinalizer(() =>
    Effect.callback<void>((resume) => {
      pending.forEach((remove, conn) => {
        remove()
        conn.destroy()
      })
      server.close(() => resume(Effect.void))
    })
  )
  server.on("secureConnection", (conn: Tls.TLSSocket) => {
    // Paused so that nothing is read before a handler holds the socket's reader.
    conn.pause()
    onConnection(conn)
  })
  let refused = 0
  let reportedAt = -Infinity
  server.on("tlsClientError", (error, conn) => {
    refused++
    if (Date.now() - reportedAt >= REPORT_INTERVAL) {
      reportedAt = Date.now()
      const reason = "code" in error ? String(error.code) : error.message
      Effect.runForkWith(services)(Effect.logWarning(
        `Refused ${refused} connection(s) without the cluster's credential since the last report; ` +
          `the latest from ${conn.remoteAddress ?? "?"}: ${reason}`
      ))
      refused = 0
    }
    conn.destroy()
  })
  yield* Effect.callback<void, SocketServer.SocketServerError>((resume) => {
    // Later errors belong to connections, each handled on its socket: this one only reports a failed listen.
    server.on("error", (cause) => resume(Effect.fail(openError(cause))))
    server.listen(options, () => resume(Effect.void))
  })

  const run = Effect.fnUntraced(function*<R, E, _>(handler: (socket: Socket.Socket) => Effect.Effect<_, E, R>) {
    const scope = yield* Scope.make()
    const handlerServices = Context.omit(Scope.Scope)(yield* Effect.context<R>()) as Context.Context<R>
    const trackFiber = Fiber.runIn(scope)
    onConnection = (conn) => {
      let error: Error | undefined
      conn.on("error", (cause) => {
        error = cause
      })
      pipe(
        NodeSocket.fromDuplex(
          Effect.acquireRelease(
            Effect.suspend(() =>
              error !== undefined
                ? Effect.fail(
                  new Socket.SocketError({ reason: new Socket.SocketOpenError({ kind: "Unknown", cause: error }) })
                )
                : conn.closed
                ? Effect.fail(new Socket.SocketError({ reason: new Socket.SocketCloseError({ code: 1000 }) }))
                : Effect.succeed(conn)
            ),
            (conn) => Effect.sync(() => conn.closed || conn.destroySoon())
          ),
          { tlsServer: true, disableReconnects: true }
        ),
        Effect.flatMap(handler),
        Effect.ignoreCause({ log: "Unhandled", message: "Unhandled error in SocketServer" }),
        Effect.runForkWith(Context.add(handlerServices, NodeSocket.NetSocket, conn)),
        trackFiber
      )
    }
    pending.forEach((remove, conn) => {
      remove()
      onConnection(conn)
    })
    return yield* Effect.callback<never>(() =>
      Effect.suspend(() => {
        onConnection = queue
        return Scope.close(scope, Exit.void)
      })
    )
  })

  const bound = server.address() as Net.AddressInfo
  const address = yield* Effect.fromResult(NetAddress.inetAddressFromIpString(bound.address, bound.port)).pipe(
    Effect.mapError(openError)
  )
  return SocketServer.SocketServer.of({ address, run })
})

/**
 * {@link make} as a layer.
 *
 * @internal
 */
export const layer = (options: Tls.TlsOptions & Net.ListenOptions) =>
  Layer.effect(SocketServer.SocketServer, make(options))
