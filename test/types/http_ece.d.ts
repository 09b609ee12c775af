// http_ece ships no types: the one call the push test makes of it (RFC 8188/8291 decryption).
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  interface DecryptParams {
    version: "aes128gcm" | "aesgcm" | "aesgcm128";
    privateKey?: ECDH;
    authSecret?: string | Buffer;
    dh?: string | Buffer;
    keyid?: string;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
