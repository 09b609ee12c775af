// Polls a condition about other processes (a pid gone, a helper started) that no event announces.

/** Whether check() holds within ms, looked at every 20 ms; the caller asserts on the result. */
export async function becomesTrue(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && !check()) await new Promise((r) => setTimeout(r, 20));
  return check();
}
