import type { Questionnaire } from "@gradecast/contract/questionnaire";
import { onAlertError, type StoredClassPrediction, sweepAlertBacklog } from "../alerts/backlog.ts";
import type { Services } from "../services.ts";
import { explain } from "./service.ts";

// The alerts of class predictions whose evaluation did not happen (the server stopped between a
// batch's commit and its alerts, or their transaction failed) are evaluated by a sweep at start
// and once a minute after (alerts/backlog.ts). A crossing's reasons come from the prediction's
// explanation, made again by the model in use when it is the one that made the prediction (none
// otherwise: the notification then names no reason).

const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

/** Evaluates the backlog left for longer than `olderThanMs`; how many predictions. */
export function sweepAlerts(
  services: Pick<Services, "db" | "model">,
  olderThanMs = 30_000,
): Promise<number> {
  const contributionsOf = (p: StoredClassPrediction) => {
    const result = explain(services.model, json(p.inputs) as Questionnaire);
    return result.modelVersion === p.model_version ? result.contributions : [];
  };
  return sweepAlertBacklog(services.db, contributionsOf, olderThanMs);
}

/** Sweeps now and every `everyMs` until stopped; failures are logged and retried. */
export function startAlertSweep(services: Services, everyMs = 60_000): () => void {
  onAlertError(services.db, (err) =>
    services.log.warn({ err }, "alerts not evaluated yet: the next sweep retries them"),
  );
  const sweep = () => {
    sweepAlerts(services).catch((err) =>
      services.log.warn({ err }, "could not sweep the alert backlog"),
    );
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
