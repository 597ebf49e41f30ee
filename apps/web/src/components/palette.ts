import type { Band } from "@gradecast/contract/score";

// The colours of what is drawn on a canvas, which cannot read CSS custom properties: the design
// tokens of styles.css's :root, by the same values (palette.test.ts holds them equal), and two
// tints that only charts use.
export const palette = {
  primary: "#1d4ed8",
  danger: "#b42318",
  warning: "#8a4b00",
  success: "#146c43",
  text: "#1b2430",
  muted: "#4b5563",
  /** --color-border: grid lines. */
  grid: "#d5dae1",
  /** A likely range around a line. */
  soft: "#93b4f5",
  /** One bar or line set apart ("you"). */
  accent: "#b45309",
};

/** The score bands' colours, one set for every screen: as --band-* in styles.css. */
export const bandColors: Record<Band, string> = {
  improve: palette.danger,
  good: palette.warning,
  congratulations: palette.success,
};
