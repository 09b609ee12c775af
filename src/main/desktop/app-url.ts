// The page is served from a privileged custom scheme rather than file://, so it has a real origin
// to check senders and navigations against, and file:// keeps no extra powers (Electron security
// checklist: "Avoid usage of the file:// protocol and prefer usage of custom protocols").
import { PAGE_CSP } from "../../shared/csp";

export const APP_SCHEME = "companion";
export const APP_HOST = "app";
const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/**
 * The page's Content-Security-Policy: the one policy of src/shared/csp.ts, the same string as the
 * build's meta tag and browser mode's header. Framing is refused by X-Frame-Options (app-protocol).
 */
export const CONTENT_SECURITY_POLICY = PAGE_CSP;
