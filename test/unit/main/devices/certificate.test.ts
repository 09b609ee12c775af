import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ownCertificate, suppliedCertificate } from "../../../../src/main/devices/certificate";

describe("the device listener's certificate", () => {
  it("is made once for its address and kept (key 0600), made again for another address", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "tnc-cert-")), "devices");
    const first = await ownCertificate(dir, "10.231.0.1");
    expect(new X509Certificate(first.cert).checkIP("10.231.0.1")).toBe("10.231.0.1");
    expect(first.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(statSync(join(dir, "device-key.pem")).mode & 0o777).toBe(0o600);
    expect((await ownCertificate(dir, "10.231.0.1")).fingerprint).toBe(first.fingerprint);
    const other = await ownCertificate(dir, "machine.tailnet.ts.net");
    expect(other.fingerprint).not.toBe(first.fingerprint);
    expect(new X509Certificate(other.cert).checkHost("machine.tailnet.ts.net")).toBe("machine.tailnet.ts.net");
  });

  it("takes a supplied pair only when the key belongs to the certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-cert-"));
    const a = await ownCertificate(join(dir, "a"), "10.0.0.1");
    const b = await ownCertificate(join(dir, "b"), "10.0.0.1");
    writeFileSync(join(dir, "a.crt"), a.cert);
    writeFileSync(join(dir, "b.key"), b.key);
    writeFileSync(join(dir, "a.key"), a.key);
    expect(suppliedCertificate(join(dir, "a.crt"), join(dir, "a.key")).fingerprint).toBe(a.fingerprint);
    expect(() => suppliedCertificate(join(dir, "a.crt"), join(dir, "b.key"))).toThrow(/does not belong to the certificate/);
    expect(() => suppliedCertificate(join(dir, "none.crt"), join(dir, "a.key"))).toThrow(/cannot be read \(ENOENT\)/);
    expect(() => suppliedCertificate(join(dir, "a.key"), join(dir, "a.key"))).toThrow(/holds no PEM certificate/);
  });
});
