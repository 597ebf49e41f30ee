import type { PredictionResult } from "@gradecast/contract/prediction";
import type { QuestionKey } from "@gradecast/contract/questionnaire";
import type { ReactNode } from "react";
import { Card } from "../../components/card.tsx";
import { useClasses } from "../classes/api.ts";
import { usePredictionText } from "./text.ts";

// Issue 29: where a class's school record holds a value (term grades, absences, failures), the
// prediction used it instead of what the student typed. The screen says which values came from
// the school, and, for a student in classes of both subjects, which class the prediction is for.

/** True where the school record supplied the value the model saw. */
export const fromSchool = (result: Pick<PredictionResult, "sources">, key: QuestionKey) =>
  result.sources?.[key] === "school";

/** The small mark beside a value the school supplied. */
export function SchoolMark() {
  const { intl } = usePredictionText();
  return (
    <span className="tag tag-ok prediction-school-mark">
      {intl.formatMessage({ id: "prediction.school.mark" })}
    </span>
  );
}

export function PredictionSource({
  result,
}: {
  result: Pick<PredictionResult, "inputs" | "sources" | "classId">;
}) {
  // Only a prediction made for a class needs the classes (an unverified student may list none).
  const classes = useClasses({ enabled: result.classId !== null });
  const text = usePredictionText();
  const { t } = text;
  const school = (Object.keys(result.sources ?? {}) as QuestionKey[]).filter((k) =>
    fromSchool(result, k),
  );
  const mine = classes.data ?? [];
  const subjectsOfMine = new Set(mine.map((c) => c.subject));
  const klass = result.classId ? mine.find((c) => c.id === result.classId) : undefined;
  const forClass = klass && subjectsOfMine.size > 1 ? klass : undefined;
  if (school.length === 0 && !forClass) return null;
  return (
    <Card title={t("prediction.school.title")} className="prediction-source" level={2}>
      {forClass ? (
        <p data-testid="prediction-class">
          {text.intl.formatMessage(
            { id: "prediction.school.forClass" },
            { name: forClass.name, subject: text.subject(forClass.subject) },
          )}
        </p>
      ) : null}
      {school.length > 0 ? (
        <>
          <p>
            {text.intl.formatMessage({ id: "prediction.school.intro" }, { count: school.length })}
          </p>
          <ul className="list prediction-school-values">
            {school.map((key) => (
              <li key={key}>
                {text.intl.formatMessage(
                  { id: "prediction.school.value" },
                  {
                    question: text.label(key),
                    answer: text.answer(key, result.inputs[key] as string | number | null),
                    b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
                  },
                )}{" "}
                <SchoolMark />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
