import { describe, expect, it } from "vitest";
import { afterPaste, masked, maskRule, pasteNotice } from "./form.ts";

describe("report masks", () => {
  it("keeps the old value for a refused keystroke (the form then shows the rule)", () => {
    expect(masked("marks", "10", "101")).toBe("10");
    expect(masked("marks", "7", "7.")).toBe("7");
    expect(masked("marks", "7", "75")).toBe("75");
    expect(maskRule("marks")).toBe("Whole number from 0 to 100.");
    expect(maskRule("assignments")).toBe("Whole number from 0 to 6.");
  });

  it("takes a paste whole or not at all, never cut down to fit", () => {
    expect(afterPaste("marks", "", "1000", 0, 0)).toBeNull();
    expect(afterPaste("marks", "", "7.5", 0, 0)).toBeNull();
    expect(afterPaste("marks", "", " 75", 0, 0)).toBeNull();
    expect(afterPaste("marks", "", "75", 0, 0)).toBe("75");
    // In place of the selection: "1|0|0" with the middle digit selected, pasting 5.
    expect(afterPaste("marks", "100", "5", 1, 2)).toBeNull();
    expect(afterPaste("marks", "100", "5", 0, 3)).toBe("5");
    expect(afterPaste("attendance", "90", "5", 2, 2)).toBeNull();
    expect(afterPaste("assignments", "", "6", 0, 0)).toBe("6");
    expect(pasteNotice("marks")).toBe(
      "The pasted value was not entered. Whole number from 0 to 100.",
    );
  });
});
