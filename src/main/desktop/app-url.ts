// The page is served from a privileged custom scheme rather than file://, so it has a real origin
// to check senders and navigations against, and file:// keeps no extra powers (Electron security
// checklist §18).
export const APP_SCHEME = "companion";
export const APP_HOST = "app";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/**
 * The page's Content-Security-Policy. Scripts only from our origin; no network at all — the page
 * talks to main over IPC only. No inline script and no eval: the page shows server-controlled
 * text, so the form validator (ajv, which compiles with `new Function`) runs in main and the page
 * asks it over forms:check.
 * Inline styles are allowed because Svelte transitions write style elements. The page's own meta
 * CSP (vite.config.ts) applies as well; the browser enforces both.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join("; ");
