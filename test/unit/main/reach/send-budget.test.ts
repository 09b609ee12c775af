// A flood of questions is not a flood of messages: past the budget, none until the window moves on.
import { describe, expect, it } from "vitest";
import { SendBudget } from "../../../../src/main/reach/send-budget";
import { FakeClock } from "../../../helpers/fake-clock";

describe("send budget", () => {
  it("allows max sends in a window, then as many as have left it", () => {
    const clock = new FakeClock();
    const budget = new SendBudget(clock, 3, 60_000);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    clock.advance(59_999);
    expect(budget.take()).toBe(false);
    // The three left together; the refused ones were never counted.
    clock.advance(1);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
  });
});
