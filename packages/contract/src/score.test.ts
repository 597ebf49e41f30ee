import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { bandMessages, bandOf, noPredictionMessage, scoreMessage } from "./score.ts";

// The score bands of SPEC.md section 9 at their boundaries.
describe("score bands", () => {
  it.each([
    [0, "improve", "You need to improve!"],
    [6.99, "improve", "You need to improve!"],
    [6.999999, "improve", "You need to improve!"],
    [7, "good", "Good effort!"],
    [10, "good", "Good effort!"],
    [13.99, "good", "Good effort!"],
    [13.999999, "good", "Good effort!"],
    [14, "congratulations", "Congratulations!"],
    [20, "congratulations", "Congratulations!"],
  ] as const)("%d is %s: %s", (score, band, message) => {
    expect(bandOf(score)).toBe(band);
    expect(bandMessages[bandOf(score)]).toBe(message);
    expect(scoreMessage(score)).toBe(message);
  });

  it.each([null, undefined, Number.NaN])("no score (%s) shows 'No prediction available.'", (v) => {
    expect(scoreMessage(v)).toBe("No prediction available.");
    expect(noPredictionMessage).toBe(messages.noPrediction);
  });
});
