import { subjectLabels } from "@gradecast/contract/classes";
import type { PredictionResult } from "@gradecast/contract/prediction";
import { type QuestionKey, questionByKey } from "@gradecast/contract/questionnaire";
import { Card } from "../../components/card.tsx";
import { useClasses } from "../classes/api.ts";
import { answerText } from "./format.ts";

// Issue 29: where a class's school record holds a value (term grades, absences, failures), the
// prediction used it instead of what the student typed. The screen says which values came from
// the school, and, for a student in classes of both subjects, which class the prediction is for.

export const schoolRecordMark = "From your school record";

/** True where the school record supplied the value the model saw. */
export const fromSchool = (result: Pick<PredictionResult, "sources">, key: QuestionKey) =>
  result.sources?.[key] === "school";

/** The small mark beside a value the school supplied. */
export function SchoolMark() {
  return <span className="tag tag-ok prediction-school-mark">{schoolRecordMark}</span>;
}

export function PredictionSource({
  result,
}: {
  result: Pick<PredictionResult, "inputs" | "sources" | "classId">;
}) {
  // Only a prediction made for a class needs the classes (an unverified student may list none).
  const classes = useClasses({ enabled: result.classId !== null });
  const school = (Object.keys(result.sources ?? {}) as QuestionKey[]).filter((k) =>
    fromSchool(result, k),
  );
  const mine = classes.data ?? [];
  const subjectsOfMine = new Set(mine.map((c) => c.subject));
  const klass = result.classId ? mine.find((c) => c.id === result.classId) : undefined;
  const forClass = klass && subjectsOfMine.size > 1 ? klass : undefined;
  if (school.length === 0 && !forClass) return null;
  return (
    <Card title="Where these values come from" className="prediction-source" level={2}>
      {forClass ? (
        <p data-testid="prediction-class">
          This prediction is for your class {forClass.name} ({subjectLabels[forClass.subject]}),
          with its school record.
        </p>
      ) : null}
      {school.length > 0 ? (
        <>
          <p>
            Your school's record holds these values, so the prediction used them instead of your
            answers. To change one, ask your teacher.
          </p>
          <ul className="list prediction-school-values">
            {school.map((key) => (
              <li key={key}>
                {questionByKey[key]?.label ?? key}:{" "}
                <strong>{answerText(key, result.inputs[key] as string | number | null)}</strong>{" "}
                <SchoolMark />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
