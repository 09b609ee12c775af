export { openSecretStore, type OpenOptions } from "./open-store";
export { createMemoryStore } from "./memory-store";
export { createKeytarStore, type KeytarLike } from "./keytar-store";
export { gatewayToken, rotateGatewayToken, GATEWAY_TOKEN_SECRET } from "./gateway-token";
export { SECRET_SERVICE, SECRET_NAME, checkSecretName, type SecretStore } from "./types";
export { SecretScrubber, secretScrubber, scrub, scrubbedLog, REDACTED, MIN_SECRET_LENGTH } from "./scrub";
export { registeringStore } from "./registering-store";
export { registerConfiguredSecrets } from "./configured";
