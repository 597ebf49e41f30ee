import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { bandMessages, bandOf, noPredictionMessage, scoreMessage } from "./score.ts";

// The score bands of SPEC.md section 9 at their boundaries, for the score as shown (one
// decimal): 13.96 is shown as 14.0 and must not read "Good effort!".
describe("score bands", () => {
  it.each([
    [0, "improve", "You need to improve!"],
    [6.9, "improve", "You need to improve!"],
    [6.949, "improve", "You need to improve!"],
    [6.95, "good", "Good effort!"],
    [6.999999, "good", "Good effort!"],
    [7, "good", "Good effort!"],
    [10, "good", "Good effort!"],
    [13.9, "good", "Good effort!"],
    [13.949, "good", "Good effort!"],
    [13.9929, "congratulations", "Congratulations!"],
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
