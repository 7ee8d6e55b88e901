/**
 * The runners' transport: TLS that only the cluster's credential opens (a
 * shared secret as TLS 1.2 PSK, or certificates as mutual TLS), or plain TCP
 * on the operator's explicit word. The listening side is a `SocketServer`
 * over `tls.Server` (./tlsSocketServer.ts: a connection reaches the runner
 * only once its handshake succeeded, the refused ones are reported), the
 * connecting side an `effect/cluster` client protocol over `tls.connect`;
 * the sockets, the RPC protocols and the runner around them are
 * `@effect/platform-node`'s and `effect/cluster`'s own.
 *
 * @internal
 */
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as NodeSocketServer from "@effect/platform-node/NodeSocketServer"
import type { RunnerAddress } from "effect/cluster/RunnerAddress"
import * as Runners from "effect/cluster/Runners"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as RpcClient from "effect/rpc/RpcClient"
import * as RpcSerialization from "effect/rpc/RpcSerialization"
import * as Socket from "effect/socket/Socket"
import type * as SocketServer from "effect/socket/SocketServer"
import * as Crypto from "node:crypto"
import * as Net from "node:net"
import * as Tls from "node:tls"
import type * as ClaudeCluster from "../ClaudeCluster.js"
import { ClusterConfigError } from "./clusterConfigError.js"
import * as TlsSocketServer from "./tlsSocketServer.js"

/**
 * What the layers need of a transport: a server for runners, and a client protocol for runners and clients
 * that reports an established connection's loss (`onDrop`: the peer may be dead, a health check can look now).
 */
export interface Transport {
  readonly kind: "psk" | "certificates" | "plaintext"
  readonly server: (listen: RunnerAddress) => Layer.Layer<SocketServer.SocketServer, SocketServer.SocketServerError>
  readonly clientProtocol: (
    onDrop: (address: RunnerAddress) => void
  ) => Layer.Layer<Runners.RpcClientProtocol, never, RpcSerialization.RpcSerialization>
}

/** @internal */
export const insecureOptOut = "plaintext-on-a-trusted-network"

/** @internal */
export const minSecretBytes = 32

// TLS 1.2 PSK with an ephemeral ECDH exchange (forward secrecy) and an AEAD cipher.
const PSK_CIPHER = "ECDHE-PSK-CHACHA20-POLY1305"
// The handshake needs the other process's event loop, not only its kernel (as a TCP connect does): on a starved
// machine it is given as long as a health-check ping. A dead peer refuses the connection at once regardless.
const HANDSHAKE_TIMEOUT = 10_000
const OPEN_TIMEOUT = 10_000

/** A secret's TLS key and the identity that names it in the handshake, both derived from it (HKDF-SHA256). */
const derive = (secret: Redacted.Redacted<string>) => {
  const value = Redacted.value(secret)
  const hkdf = (info: string, length: number) =>
    Buffer.from(Crypto.hkdfSync("sha256", value, "claude-effect/cluster", info, length))
  return { key: hkdf("runner transport psk v1", 32), identity: hkdf("runner transport identity v1", 8).toString("hex") }
}

const invalid = (detail: string, cause?: unknown) =>
  new ClusterConfigError({
    reason: "InvalidCredential",
    option: "credential",
    detail,
    ...(cause !== undefined ? { cause } : {})
  })

interface TlsPair {
  readonly server: Tls.TlsOptions
  readonly client: Tls.ConnectionOptions
}

const pskOptions = (credential: ClaudeCluster.SharedSecret): Effect.Effect<TlsPair, ClusterConfigError> =>
  Effect.gen(function*() {
    const secret = Redacted.isRedacted(credential) ? credential : credential.secret
    const accepted = Redacted.isRedacted(credential) ? [secret] : [secret, ...credential.alsoAccepted]
    for (const [i, one] of accepted.entries()) {
      if (Buffer.byteLength(Redacted.value(one), "utf8") < minSecretBytes) {
        const which = i === 0 ? "the secret" : `alsoAccepted[${i - 1}]`
        return yield* invalid(
          `${which} is shorter than ${minSecretBytes} bytes: make one with \`openssl rand -base64 32\``
        )
      }
    }
    const keys = new Map(accepted.map((one) => {
      const { identity, key } = derive(one)
      return [identity, key] as const
    }))
    const own = derive(secret)
    return {
      server: {
        ciphers: PSK_CIPHER,
        minVersion: "TLSv1.2",
        maxVersion: "TLSv1.2",
        pskCallback: (_socket, identity) => keys.get(identity) ?? null
      },
      client: {
        ciphers: PSK_CIPHER,
        minVersion: "TLSv1.2",
        maxVersion: "TLSv1.2",
        pskCallback: () => ({ psk: own.key, identity: own.identity }),
        // The PSK handshake authenticates the server: only a holder of the secret completes it.
        checkServerIdentity: () => undefined
      }
    }
  })

const certificateOptions = (credential: ClaudeCluster.Certificates): Effect.Effect<TlsPair, ClusterConfigError> =>
  Effect.gen(function*() {
    const material = {
      ca: typeof credential.ca === "string" ? credential.ca : [...credential.ca],
      cert: credential.cert,
      key: Redacted.value(credential.key)
    }
    yield* Effect.try({
      try: () => Tls.createSecureContext(material),
      catch: (cause) => invalid("the certificates (ca, cert, key) cannot be used together", cause)
    })
    return {
      server: { ...material, minVersion: "TLSv1.3", requestCert: true, rejectUnauthorized: true },
      client: {
        ...material,
        minVersion: "TLSv1.3",
        rejectUnauthorized: true,
        // Membership is a certificate signed by the cluster's CA, whatever host name it carries.
        checkServerIdentity: () => undefined
      }
    }
  })

const isCertificates = (credential: ClaudeCluster.Credential): credential is ClaudeCluster.Certificates =>
  !Redacted.isRedacted(credential) && "ca" in credential

/** @internal */
export const make = (options: {
  readonly credential?: ClaudeCluster.Credential | undefined
  readonly insecure?: typeof insecureOptOut | undefined
}): Effect.Effect<Transport, ClusterConfigError> =>
  Effect.gen(function*() {
    const { credential, insecure } = options
    if (credential !== undefined && insecure !== undefined) {
      return yield* new ClusterConfigError({
        reason: "ConflictingOptions",
        option: "insecure",
        detail: "both a credential and the plaintext opt-out are given: drop `insecure`"
      })
    }
    if (credential === undefined) {
      if (insecure === insecureOptOut) return plaintext
      return yield* new ClusterConfigError({
        reason: "MissingCredential",
        option: "credential",
        detail: "runners and clients connect only with the cluster's credential: give `credential` (a shared " +
          `secret of ${minSecretBytes}+ bytes, e.g. Config.Redacted("CLAUDE_CLUSTER_SECRET"), or certificates) ` +
          `or, on a network you vouch for, \`insecure: "${insecureOptOut}"\``
      })
    }
    const tls = isCertificates(credential) ? yield* certificateOptions(credential) : yield* pskOptions(credential)
    return {
      kind: isCertificates(credential) ? "certificates" : "psk",
      server: (listen) =>
        TlsSocketServer.layer({
          ...tls.server,
          handshakeTimeout: HANDSHAKE_TIMEOUT,
          host: listen.host,
          port: listen.port
        }),
      clientProtocol: layerClientProtocol((address) => Tls.connect({ ...tls.client, ...address }), "secureConnect")
    } satisfies Transport
  })

/**
 * The client protocol of `effect/cluster`'s runners (`RpcClient.makeProtocolSocket` over a socket), on
 * connections made by `connect`, open at its `ready` event (for TLS, once the server has proven it holds
 * the credential). An established connection that closes is reported to `onDrop`.
 */
const layerClientProtocol = (
  connect: (address: { readonly host: string; readonly port: number }) => Net.Socket,
  ready: "connect" | "secureConnect"
) =>
(onDrop: (address: RunnerAddress) => void): Layer.Layer<
  Runners.RpcClientProtocol,
  never,
  RpcSerialization.RpcSerialization
> =>
  Layer.effect(
    Runners.RpcClientProtocol,
    Effect.gen(function*() {
      const serialization = yield* RpcSerialization.RpcSerialization
      const open = (address: RunnerAddress) =>
        Effect.callback<Net.Socket, Socket.SocketError>((resume) => {
          const conn = connect({ host: address.host, port: address.port })
          conn.once(ready, () => {
            conn.once("close", () => onDrop(address))
            resume(Effect.succeed(conn))
          })
          conn.on("error", (cause) =>
            resume(
              Effect.fail(new Socket.SocketError({ reason: new Socket.SocketOpenError({ kind: "Unknown", cause }) }))
            ))
          return Effect.sync(() => conn.destroy())
        })
      return Runners.RpcClientProtocol.of({
        codecFor: serialization.codecFor,
        make: (address: RunnerAddress) =>
          Effect.gen(function*() {
            const socket = yield* NodeSocket.fromDuplex(
              Effect.acquireRelease(open(address), (conn) => Effect.sync(() => conn.destroy())),
              { openTimeout: OPEN_TIMEOUT }
            )
            return yield* RpcClient.makeProtocolSocket().pipe(
              Effect.provideService(Socket.Socket, socket),
              Effect.provideService(RpcSerialization.RpcSerialization, serialization)
            )
          })
      })
    })
  )

// Plain TCP: `@effect/platform-node`'s server, the same client protocol over `net.connect`.
const plaintext: Transport = {
  kind: "plaintext",
  server: (listen) => NodeSocketServer.layer({ host: listen.host, port: listen.port }),
  clientProtocol: layerClientProtocol((address) => Net.connect(address), "connect")
}
