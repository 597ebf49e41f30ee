import type { QuestionKey } from "@gradecast/contract/questionnaire";
import { useMemo } from "react";
import { useSiteInfo } from "../../api/site.ts";

// Issue 31: the questions this deployment lets a student leave out ("Prefer not to say"), from
// GET /api/site. Until it answers (or if it fails) none is offered: every question stays
// required, as before, and the server would refuse a null it does not allow anyway.

export function useOptionalQuestions(): ReadonlySet<QuestionKey> {
  const { state } = useSiteInfo();
  return useMemo(
    () =>
      new Set<QuestionKey>(state.status === "ready" ? (state.info.optionalQuestions ?? []) : []),
    [state],
  );
}
