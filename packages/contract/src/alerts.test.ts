import { describe, expect, it } from "vitest";
import { type AlertState, initialAlertState, nextAlertState } from "./alerts.ts";

// The hysteresis rule of alerts (issue 32) on sequences of predictions: a clear crossing counts
// at once, a crossing by less than the margin counts when the next prediction confirms it, and a
// student hovering around the line does not flap.

/** The alerts a sequence of predicted finals raises, from a student not at risk. */
function alerts(scores: (number | [number, number])[], from: AlertState = initialAlertState) {
  let state = from;
  const out: string[] = [];
  for (const s of scores) {
    const [score, noFinalScoreRisk] = Array.isArray(s) ? s : [s, 0.05];
    const next = nextAlertState(state, { score, noFinalScoreRisk });
    if (next.changed) out.push(next.state.atRisk ? "up" : "down");
    state = next.state;
  }
  return { out, state };
}

describe("alert hysteresis", () => {
  it("counts a clear crossing into risk at once, and a clear one out of it", () => {
    expect(alerts([12, 8]).out).toEqual(["up"]);
    expect(alerts([12, 8, 13]).out).toEqual(["up", "down"]);
  });

  it("waits for the next prediction when the crossing is within the margin", () => {
    // 9.7 is at risk but only 0.3 under the pass mark: nothing yet; 9.8 confirms it.
    expect(alerts([12, 9.7]).out).toEqual([]);
    expect(alerts([12, 9.7, 9.8]).out).toEqual(["up"]);
  });

  it("does not flap for a student hovering around the line", () => {
    expect(alerts([9.7, 10.2, 9.8, 10.1, 9.9, 10.3]).out).toEqual([]);
  });

  it("leaves risk only clearly or when confirmed", () => {
    const { state } = alerts([6]);
    expect(alerts([10.2], state).out).toEqual([]);
    expect(alerts([10.2, 10.1], state).out).toEqual(["down"]);
    expect(alerts([10.2, 9], state).out).toEqual([]);
    expect(alerts([10.6], state).out).toEqual(["down"]);
  });

  it("counts a high risk of not sitting the final as at risk, with its own margin", () => {
    // Predicted 14 if sitting, but a 40% risk of not sitting: clearly at risk.
    expect(alerts([[14, 0.4]]).out).toEqual(["up"]);
    // 27%: past the 25% line by less than 5 points, so confirmed by the next one.
    expect(alerts([[14, 0.27]]).out).toEqual([]);
    expect(
      alerts([
        [14, 0.27],
        [14, 0.26],
      ]).out,
    ).toEqual(["up"]);
  });

  it("forgets a pending crossing when the next prediction is back on the flag's side", () => {
    expect(alerts([9.7, 12, 9.7]).out).toEqual([]);
  });
});
