import type { JobStatus } from "@gradecast/contract/jobs";
import type { ModelState, ModelVersionView } from "@gradecast/contract/model-lifecycle";

// The model versions, state and training jobs that both the English and the Portuguese Model
// screen tests show; each test gives the setups' weights, the card's figures and the candidates
// it asserts.

// The model card's one row (mathematics, setup A) with the figures a test asserts.
export const cardRow = (rmseSat: number, coverage: number): ModelState["card"][number] => ({
  subject: "mat",
  setup: "A",
  protocol: "+other (shipped)",
  rmseSat,
  brier: 0.054,
  coverage,
});

export const trainingJob = (over: Partial<JobStatus> = {}): JobStatus => ({
  id: "j1",
  kind: "model.train",
  state: "queued",
  progress: { done: 0, total: null },
  createdAt: "2026-11-28T06:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  error: null,
  ...over,
});

// The server's answer to "train a candidate": a queued job.
export const trainRoute = {
  "POST /api/admin/model/train": () => ({ status: 202, body: { job: trainingJob() } }),
};

// Versions trained with these weights, the shipped model in use, and the screen's state.
export function modelFixtures(weights: ModelVersionView["weights"]) {
  const version = (over: Partial<ModelVersionView>): ModelVersionView => ({
    id: "v",
    state: "candidate",
    shipped: false,
    createdAt: "2026-11-28T06:00:00.000Z",
    promotedAt: null,
    outcomes: 120,
    weights,
    gate: null,
    ...over,
  });

  const shipped = version({
    id: "hurdle-3.0.0-ship",
    shipped: true,
    state: "active",
    createdAt: null,
  });

  const modelState = (over: Partial<ModelState>): ModelState => ({
    active: shipped,
    card: [],
    minOutcomes: 50,
    outcomes: (["mat", "por"] as const).flatMap((subject) =>
      (["A", "B", "C"] as const).map((setup) => ({ subject, setup, rows: 60 })),
    ),
    students: { mat: 60, por: 60 },
    training: null,
    versions: [shipped],
    ...over,
  });

  // A promoted candidate in use, the shipped model retired behind it, and a training 4 steps
  // of 21 in.
  const trainingAfterPromotion: Partial<ModelState> = {
    active: version({ id: "cand-good", state: "active", promotedAt: "2026-11-28T06:00:00.000Z" }),
    versions: [
      version({ id: "cand-good", state: "active", promotedAt: "2026-11-28T06:00:00.000Z" }),
      { ...shipped, state: "retired" },
    ],
    training: trainingJob({
      state: "running",
      progress: { done: 4, total: 21 },
      startedAt: "2026-11-28T06:00:01.000Z",
    }),
  };

  return { version, shipped, modelState, trainingAfterPromotion };
}
