// A connection's steps (initialize, tools/list, quitting's last answers) each get a deadline: a
// server that never answers must not hold a connect or a quit for ever.

/** `work`, or a rejection saying `what` did not finish within `ms`; the timer never outlives it. */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
