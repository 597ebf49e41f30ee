import { describe, expect, it } from "vitest";
import { formatDay, formatDayTime } from "./dates.ts";

// One date format for every screen and export (issue 28).
describe("dates", () => {
  it("writes a day as '27 Nov 2026', a date of YYYY-MM-DD as that day in any zone", () => {
    expect(formatDay("2026-11-27T14:05:00Z", "UTC")).toBe("27 Nov 2026");
    expect(formatDay("2026-11-27T23:30:00Z", "Asia/Tokyo")).toBe("28 Nov 2026");
    expect(formatDay("2026-11-27")).toBe("27 Nov 2026");
  });

  it("writes a time as '27 Nov 2026, 14:05' in 24 hours", () => {
    expect(formatDayTime("2026-11-27T14:05:00Z", "UTC")).toBe("27 Nov 2026, 14:05");
    expect(formatDayTime("2026-01-02T00:07:00Z", "UTC")).toBe("2 Jan 2026, 00:07");
  });
});
