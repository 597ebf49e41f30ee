/** A grade on the 0-20 scale of the UCI files: predictions are clamped to it. */
export const clampGrade = (v: number) => (v < 0 ? 0 : Math.min(v, 20));
