// The page's one Content-Security-Policy. The same string goes out as the browser-mode header
// (http/static-files.ts), the desktop window's header (desktop/app-url.ts) and the meta tag the
// build writes into index.html (vite.config.ts), so no copy can drift from the others.
//
// - Scripts only from our own files and no eval: the page renders server-controlled text, so form
//   checks (ajv compiles with `new Function`) run in main and the page asks for verdicts.
// - Styles only from our own files, never inline: Svelte's compiled CSS is a file, transitions
//   animate through the Web Animations API, and `style:` directives go through the CSSOM, none of
//   which `style-src` restricts; an inline <style> or style attribute a server smuggled in is.
// - connect-src 'self': browser mode's WebSocket back to the page's own host and port ('self'
//   covers ws: on the same host); the desktop page talks over IPC and has nothing to connect to.
// - manifest-src and worker-src 'self': the paired device's page (lib/device.ts) links the web app
//   manifest and registers the service worker that keeps its shell, both files of our own.
// - No directive that only works as a header (frame-ancestors, sandbox): in a meta tag browsers
//   ignore them with a console error. Framing is refused by X-Frame-Options: DENY instead.
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "manifest-src 'self'",
  "worker-src 'self'",
].join("; ");
