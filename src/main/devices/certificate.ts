// The device listener's certificate: the companion's own, made once and kept (its key 0600), or
// one the person supplies (for example from `tailscale cert`, which a phone trusts as it is). The
// companion's own is self-signed: a phone warns once, and the person compares the fingerprint
// Settings shows with the one the phone's browser shows before going on.
import { X509Certificate, createPrivateKey } from "node:crypto";
import { join } from "node:path";
import { generate } from "selfsigned";
import type { DeviceCertificateSetting } from "../../shared/devices";
import { createPrivateFile, readPrivateFile, replacePrivateFile } from "../base/private-file";
import { OWN_CERT_FILE, OWN_KEY_FILE } from "./paths";
import { readFileSync, statSync } from "node:fs";

export interface ListenerCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the certificate, `AB:CD:…`. */
  fingerprint: string;
}

const MAX_PEM_BYTES = 64 * 1024;
const OWN_DAYS = 825;

function fingerprintOf(cert: string): string {
  return new X509Certificate(cert).fingerprint256;
}

/** Whether the certificate names `address` (an IP SAN) or `host` (a DNS SAN). */
function covers(cert: string, name: string): boolean {
  const x509 = new X509Certificate(cert);
  return /^[\d.]+$|:/.test(name) ? x509.checkIP(name) !== undefined : x509.checkHost(name) !== undefined;
}

async function makeOwn(names: string[]): Promise<{ cert: string; key: string }> {
  const altNames = names.map((name) => (/^[\d.]+$|:/.test(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + OWN_DAYS * 24 * 3600_000);
  const pems = await generate([{ name: "commonName", value: "Toolnexus Companion" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * The companion's own certificate for `name` (the listener's address or public host): the kept
 * one when it names it and has not expired, else a new one (kept from then on).
 */
export async function ownCertificate(dir: string, name: string): Promise<ListenerCertificate> {
  const certFile = join(dir, OWN_CERT_FILE);
  const keyFile = join(dir, OWN_KEY_FILE);
  const cert = readPrivateFile(certFile, MAX_PEM_BYTES);
  const key = readPrivateFile(keyFile, MAX_PEM_BYTES);
  if (cert && key) {
    try {
      const x509 = new X509Certificate(cert);
      const fresh = new Date(x509.validTo).getTime() > Date.now() + 24 * 3600_000;
      if (fresh && covers(cert, name) && x509.checkPrivateKey(createPrivateKey(key))) return { cert, key, fingerprint: x509.fingerprint256 };
    } catch {
      // Unreadable: made again below.
    }
  }
  const made = await makeOwn([name]);
  // The key first: a certificate is never on disk without the key that goes with it.
  if (!createPrivateFile(keyFile, made.key)) replacePrivateFile(keyFile, made.key);
  if (!createPrivateFile(certFile, made.cert)) replacePrivateFile(certFile, made.cert);
  return { ...made, fingerprint: fingerprintOf(made.cert) };
}

function readPem(path: string, what: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new Error(`the ${what} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (size > MAX_PEM_BYTES) throw new Error(`the ${what} ${path} is larger than ${MAX_PEM_BYTES} bytes; it is not a PEM file`);
  return readFileSync(path, "utf8");
}

/** A certificate the person supplied: both files read, the key checked against the certificate. */
export function suppliedCertificate(certPath: string, keyPath: string): ListenerCertificate {
  const cert = readPem(certPath, "certificate");
  const key = readPem(keyPath, "key");
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    throw new Error(`${certPath} holds no PEM certificate`);
  }
  let matches = false;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch {
    throw new Error(`${keyPath} holds no PEM private key`);
  }
  if (!matches) throw new Error(`the key in ${keyPath} does not belong to the certificate in ${certPath}`);
  return { cert, key, fingerprint: x509.fingerprint256 };
}

export function listenerCertificate(dir: string, setting: DeviceCertificateSetting, name: string): Promise<ListenerCertificate> {
  return setting.kind === "supplied" ? Promise.resolve(suppliedCertificate(setting.certPath, setting.keyPath)) : ownCertificate(dir, name);
}
