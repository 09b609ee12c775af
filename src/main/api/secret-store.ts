// The secret store core uses is the gateway helper's (src/main/secrets/); re-exported here so the
// api layer depends on one name.
export { GATEWAY_TOKEN_SECRET, tokenPlace, type SecretStore } from "../secrets";
