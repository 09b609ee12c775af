// Serves the built renderer under companion://app/ from one directory, with the CSP on every
// response. Registered on the window's session; nothing outside `rendererDir` is reachable.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { APP_HOST, APP_SCHEME, CONTENT_SECURITY_POLICY } from "./app-url";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
};

/** Maps a request URL to a file inside `rendererDir`, or null when it is not ours or escapes it. */
export function resolveAppAsset(rendererDir: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes("\0")) return null;
  const relative = pathname === "/" || pathname === "" ? "index.html" : pathname.replace(/^\/+/, "");
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  return file;
}

function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
}

function securityHeaders(contentType: string): Record<string, string> {
  return {
    "content-type": contentType,
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "referrer-policy": "no-referrer",
  };
}

/** The `protocol.handle` callback: a Fetch Request in, a Fetch Response out. */
export function appProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const file = resolveAppAsset(rendererDir, request.url);
    if (!file || request.method !== "GET") return new Response("not found", { status: 404, headers: securityHeaders("text/plain") });
    try {
      const body = await readFile(file);
      return new Response(body, { status: 200, headers: securityHeaders(contentTypeFor(file)) });
    } catch {
      return new Response("not found", { status: 404, headers: securityHeaders("text/plain") });
    }
  };
}
