// The fetch a remote server's SDK transport is given, built from small wrappers that each do one
// thing to a request or its response: bounding bodies (bounded-fetch.ts), quieting the
// long-lived abort signal, adding the configured headers where the SDK does not, noticing a
// sign-in challenge. Each is a middleware over the fetch it wraps; composeFetch chains them.
import { setMaxListeners } from "node:events";

export type FetchMiddleware = (next: typeof fetch) => typeof fetch;

/**
 * The middleware in the order a request passes them: `composeFetch(a, b)(fetch)` is
 * `a(b(fetch))`, so `a` sees the request first and the response last.
 */
export function composeFetch(...middleware: FetchMiddleware[]): FetchMiddleware {
  return (next) => middleware.reduceRight((inner, wrap) => wrap(inner), next);
}

/**
 * The streamable HTTP transport passes its one long-lived abort signal to every POST, and fetch
 * (undici) hangs a listener on it per request that only garbage collection removes. Past 1500 of
 * them Node builds a MaxListenersExceededWarning (an Error with a stack, written to stderr) on
 * every further call: under load that cost more than the call itself. The listeners are still
 * collected; lifting the cap on that signal only stops the warnings.
 */
const unlimited = new WeakSet<AbortSignal>();
export const quietSignals: FetchMiddleware = (next) => (input, init) => {
  const signal = init?.signal;
  if (signal && !unlimited.has(signal)) {
    setMaxListeners(0, signal);
    unlimited.add(signal);
  }
  return next(input, init);
};

/**
 * The SSE transport's GET goes through eventsource's fetch; headers must ride there too. The
 * transport hands a `Headers` object (with its Accept and, once signed in, Authorization): spread
 * as a plain object it would be empty, so merge, keeping the transport's own values.
 */
export function withHeaders(headers: Record<string, string>): FetchMiddleware {
  return (next) => (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    return next(input, { ...init, headers: merged });
  };
}

/** Tells `challenged` of every 401 the server answers. */
export function seeingChallenges(challenged: () => void): FetchMiddleware {
  return (next) => async (input, init) => {
    const response = await next(input, init);
    if (response.status === 401) challenged();
    return response;
  };
}
