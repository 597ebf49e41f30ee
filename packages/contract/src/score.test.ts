import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { bandMessages, bandOf, formatScore, noPredictionMessage, scoreMessage } from "./score.ts";

// The score bands (below 7, below 14, the rest) at their boundaries, for the score as shown (one
// decimal): 13.96 is shown as 14.0 and must not read "Good effort!".
describe("score bands", () => {
  const shown = {
    improve: "You need to improve!",
    good: "Good effort!",
    congratulations: "Congratulations!",
  } as const;
  const scores = {
    improve: [0, 6.9, 6.949],
    good: [6.95, 6.999999, 7, 10, 13.9, 13.949],
    congratulations: [13.9929, 14, 20],
  } as const;
  const cases = Object.entries(scores).flatMap(([band, list]) =>
    list.map((score) => [score, band, shown[band as keyof typeof shown]] as const),
  );
  it.each(cases)("%d is %s: %s", (score, band, message) => {
    expect(bandOf(score)).toBe(band);
    expect(bandMessages[bandOf(score)]).toBe(message);
    expect(scoreMessage(score)).toBe(message);
  });

  it.each([null, undefined, Number.NaN])("no score (%s) shows 'No prediction available.'", (v) => {
    expect(scoreMessage(v)).toBe("No prediction available.");
    expect(noPredictionMessage).toBe(messages.noPrediction);
  });
});

describe("formatScore", () => {
  it("writes every score with one decimal, rounded as its band is", () => {
    expect(formatScore(7)).toBe("7.0");
    expect(formatScore(13.2499)).toBe("13.2");
    expect(formatScore(13.95)).toBe("14.0");
    expect(bandOf(13.95)).toBe("congratulations");
  });
});
