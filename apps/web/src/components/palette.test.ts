import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bandColors, palette } from "./palette.ts";

// A chart cannot read the stylesheet's custom properties, so its colours are written again in
// palette.ts: these checks keep the two the same, band colours included.
const css = readFileSync(new URL("../styles.css", import.meta.url), "utf8");
const token = (name: string) => css.match(new RegExp(`--${name}:\\s*([^;]+);`))?.[1]?.trim();

describe("the charts' palette", () => {
  it("has the stylesheet's colours", () => {
    for (const [key, name] of [
      ["primary", "color-primary"],
      ["danger", "color-danger"],
      ["warning", "color-warning"],
      ["success", "color-success"],
      ["text", "color-text"],
      ["muted", "color-muted"],
      ["grid", "color-border"],
    ] as const) {
      expect(token(name), name).toBe(palette[key]);
    }
  });

  it("colours each score band as the stylesheet does", () => {
    for (const [band, color] of Object.entries(bandColors)) {
      const value = token(`band-${band}`) ?? "";
      const named = /^var\(--([\w-]+)\)$/.exec(value)?.[1];
      expect(named ? token(named) : value, band).toBe(color);
    }
  });
});
