import { z } from "zod";
import { type QuestionKey, questionnaireSchema, questions } from "./questionnaire.ts";

// What the questionnaire's answers accept, as JSON Schema for the API document: each answer is
// checked by a transform (a number may arrive as text, as the original client sent it), which
// JSON Schema cannot see, so each field says its allowed codes or its range here, from the
// same catalogue. Registered on the fields of the very schema the server validates with.
const integerText = "^(0|[1-9][0-9]*)$";

function answerJson(key: QuestionKey): Record<string, unknown> {
  const question = questions.find((q) => q.key === key);
  if (!question) throw new Error(`No question ${key}`);
  const values = question.options.map((o) => o.value);
  const nullable = question.unknownLabel !== undefined || key === "subject" || key === "school";
  const described = {
    title: question.label,
    description:
      key === "school"
        ? "Not asked: the server uses the deployment's school (MODEL_SCHOOL), or none, whatever is sent."
        : question.help,
  };
  if (question.kind === "number") {
    const min = values[0] as number;
    const max = values[values.length - 1] as number;
    return {
      ...described,
      anyOf: [
        { type: "integer", minimum: min, maximum: max },
        {
          type: "string",
          pattern: integerText,
          description: `A whole number from ${min} to ${max}`,
        },
        ...(nullable ? [{ type: "null" }] : []),
      ],
    };
  }
  const choice = { type: "string", enum: values.map(String) };
  return nullable
    ? { ...described, anyOf: [choice, { type: "null" }] }
    : { ...described, ...choice };
}

for (const question of questions) {
  const field = questionnaireSchema.shape[question.key] as z.ZodType;
  z.globalRegistry.add(field, answerJson(question.key) as never);
}
