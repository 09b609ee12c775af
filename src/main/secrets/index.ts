export { openSecretStore, type OpenOptions } from "./open-store";
export { createMemoryStore } from "./memory-store";
export { createKeytarStore, type KeytarLike } from "./keytar-store";
export { gatewayToken, rotateGatewayToken, GATEWAY_TOKEN_SECRET, gatewayTokenFile, readGatewayTokenFile, tokenFileStore, tokenPlace, type TokenPlace } from "./gateway-token";
export { SECRET_SERVICE, SECRET_NAME, checkSecretName, type SecretStore, type TokenFile } from "./types";
export { SecretScrubber, REDACTED, MIN_SECRET_LENGTH } from "./scrub";
export { registeringStore } from "./registering-store";
