/**
 * Test certificates, made by the machine's `openssl`: a CA and a member certificate it signed (EC P-256,
 * valid a day), as PEM files in a directory.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"

export interface CertificateFiles {
  readonly ca: string
  readonly cert: string
  readonly key: string
}

const openssl = (cwd: string, ...args: ReadonlyArray<string>) =>
  ChildProcess.execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] })

/** A CA of its own (named `name`) and one member certificate signed by it, in `dir`. */
export const makeCertificates = (dir: string, name: string): CertificateFiles => {
  Fs.mkdirSync(dir, { recursive: true })
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
  openssl(dir, "req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-subj", `/CN=${name} CA`, "-days", "1")
  openssl(dir, "req", ...ec, "-keyout", "member.key", "-out", "member.csr", "-subj", `/CN=${name} member`)
  openssl(
    dir,
    "x509",
    "-req",
    "-in",
    "member.csr",
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "member.crt",
    "-days",
    "1"
  )
  return { ca: Path.join(dir, "ca.crt"), cert: Path.join(dir, "member.crt"), key: Path.join(dir, "member.key") }
}

/** The fixtures' environment for these certificates (fixtures/transport.ts). */
export const certificateEnv = (files: CertificateFiles, ca: string = files.ca): Record<string, string> => ({
  CLUSTER_CA_FILE: ca,
  CLUSTER_CERT_FILE: files.cert,
  CLUSTER_KEY_FILE: files.key
})
