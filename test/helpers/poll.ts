// Waiting for what no event announces (a pid gone, a status reached, a message arrived): the one
// polling loop of the tests, looking every 20 ms.

const EVERY_MS = 20;
const pause = () => new Promise((resolve) => setTimeout(resolve, EVERY_MS));

/** Whether check() holds within ms; the caller asserts on the result. */
export async function becomesTrue(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await pause();
  }
  return check();
}

/**
 * The first value probe() gives (anything but undefined or false) within ms. Past ms it throws
 * "timed out waiting for <what>", or the message `what` gives when it is a function (so the message
 * can say what was seen last).
 */
export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 5000, what: string | (() => string) = "condition"): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(typeof what === "function" ? what() : `timed out waiting for ${what}`);
    await pause();
  }
}
