// The call watchdog counts idle time only: held while a question is open (even past its
// deadline), started over on release and on activity, never firing after stop or twice.
import { describe, expect, it } from "vitest";
import { IdleTimer } from "../../../../../src/main/mcp/connection/idle-timer";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("IdleTimer", () => {
  it("fires once after the idle time", async () => {
    let fired = 0;
    new IdleTimer(150, () => fired++);
    await sleep(30);
    expect(fired).toBe(0);
    await sleep(400);
    expect(fired).toBe(1);
  });

  it("does not fire while held, even past its deadline, and counts afresh from the release", async () => {
    let fired = 0;
    const timer = new IdleTimer(150, () => fired++);
    timer.hold(true);
    await sleep(300);
    expect(fired).toBe(0);
    timer.hold(false);
    await sleep(30);
    expect(fired).toBe(0);
    await sleep(400);
    expect(fired).toBe(1);
    timer.hold(true);
    timer.hold(false);
    await sleep(300);
    expect(fired).toBe(1);
  });

  it("touch moves the deadline; stop ends it for good", async () => {
    let fired = 0;
    const timer = new IdleTimer(250, () => fired++);
    for (let i = 0; i < 4; i++) {
      await sleep(80);
      timer.touch();
    }
    expect(fired).toBe(0);
    timer.stop();
    timer.hold(true);
    timer.hold(false);
    timer.touch();
    await sleep(400);
    expect(fired).toBe(0);
  });
});
