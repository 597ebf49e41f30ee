import type { Evaluation, EvaluationFigure } from "@gradecast/contract/evaluation";

// The evaluation that both the English and the Portuguese tests of how the model did show: two
// classes, setup A's figures (the RMSE worse than the model card's), calibration and groups.
// Each test names the classes in its own language and gives the server's sentence beside the
// worse figure and the female group's error it asserts.

export function evaluationOf(
  [maths, portuguese]: [string, string],
  { worseNote, femaleRmse }: { worseNote: string; femaleRmse: number },
): Evaluation {
  const fig = (
    measure: EvaluationFigure["measure"],
    value: number,
    expected: number | null,
    worse = false,
  ): EvaluationFigure => ({
    measure,
    value,
    interval: { low: value * 0.9, high: value * 1.1 },
    expected,
    worse,
    note: worse ? worseNote : null,
  });

  return {
    classes: [
      { id: "c1", name: maths, subject: "mat" },
      { id: "c2", name: portuguese, subject: "por" },
    ],
    classId: null,
    outcomes: 24,
    resamples: 1000,
    setups: [
      {
        setup: "A",
        n: 24,
        sat: 22,
        figures: [
          fig("rmse", 1.4, 0.83, true),
          fig("mae", 1.1, null),
          fig("accuracy", 0.9, 0.91),
          fig("brier", 0.05, 0.05),
          fig("auc", 0.9, 0.9),
          fig("coverage", 0.8, 0.84),
        ],
        calibration: {
          risk: [{ from: 0, to: 0.05, n: 20, predicted: 0.02, observed: 0.05 }],
          score: [{ from: 10, to: 12, n: 22, predicted: 11, observed: 11.5 }],
        },
        groups: [
          {
            kind: "class",
            label: maths,
            n: 12,
            sat: 11,
            rmse: 1.3,
            accuracy: 0.9,
            coverage: 0.8,
          },
          {
            kind: "sex",
            label: "Female",
            n: 13,
            sat: 12,
            rmse: femaleRmse,
            accuracy: 0.85,
            coverage: 0.77,
          },
        ],
        hiddenGroups: 2,
      },
    ],
  };
}

// The same school before any outcome is recorded.
export const noOutcomes = (evaluation: Evaluation): Evaluation => ({
  ...evaluation,
  outcomes: 0,
  setups: [],
});
