// Serves the built renderer. Only files under the root are reachable; unknown paths without an
// extension fall back to index.html so a reload on any view still loads the app.
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { PAGE_CSP } from "../../shared/csp";
import { tryDecode } from "./request-target";

export { PAGE_CSP };

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The real file behind `path` when it is a regular file inside `realRoot` (the root with its own
 * links resolved). A symlink in the page folder that points elsewhere is not followed out of it.
 */
async function fileAt(path: string, realRoot: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

export async function serveStatic(root: string, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const base = resolve(root);
  const decoded = tryDecode(pathname);
  if (decoded === undefined || decoded.includes("\0")) {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad path.");
    return;
  }
  let realRoot: string;
  try {
    realRoot = await realpath(base);
  } catch {
    realRoot = base;
  }
  const at = (path: string) => fileAt(path, realRoot);
  const candidate = resolve(join(base, normalize(decoded)));
  if (candidate !== base && !candidate.startsWith(base + sep)) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.");
    return;
  }
  let file = decoded.endsWith("/") ? await at(join(candidate, "index.html")) : await at(candidate);
  if (!file && extname(decoded) === "") file = await at(join(base, "index.html"));
  if (!file && decoded === "/favicon.ico") {
    // Browsers ask for it unprompted; an empty answer keeps the console free of 404 noise.
    res.writeHead(204, { "cache-control": "private, max-age=86400" }).end();
    return;
  }
  if (!file) {
    const built = await at(join(base, "index.html"));
    res
      .writeHead(built ? 404 : 503, { "content-type": "text/plain; charset=utf-8" })
      .end(built ? "Not found." : `The renderer is not built (no ${join(base, "index.html")}); run: npx vite build`);
    return;
  }
  const type = TYPES[extname(file)] ?? "application/octet-stream";
  const headers: Record<string, string> = {
    "content-type": type,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    // Vite fingerprints assets; the page itself must always be fresh.
    "cache-control": file.startsWith(`${realRoot}${sep}assets${sep}`) ? "private, max-age=31536000, immutable" : "no-store",
  };
  if (type.startsWith("text/html")) {
    headers["content-security-policy"] = PAGE_CSP;
    headers["x-frame-options"] = "DENY";
  }
  res.writeHead(200, headers);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  createReadStream(file).on("error", () => res.destroy()).pipe(res);
}
