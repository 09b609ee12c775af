export { createGatewayRoute, type GatewayOptions, type GatewayRoute } from "./mcp-route";
export { createRequestsRoute, type RequestsRouteOptions, type RequestsRoute } from "./requests-route";
export { checkRequest as checkPostedRequest, isRfc3339 } from "./validate-request";
