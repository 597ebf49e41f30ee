import { classLimits, subjectLabels, subjects } from "@gradecast/contract/classes";
import { Field } from "../../components/field.tsx";
import { Select } from "../../components/select.tsx";
import type { useFormFields } from "../../components/use-form-fields.ts";

// A class's name, subject and school year: the fields of creating a class and of editing one.

export type ClassFieldName = "name" | "subject" | "year";

const subjectOptions = subjects.map((s) => ({ value: s, label: subjectLabels[s] }));

export function ClassFields({
  field,
  examples,
}: {
  field: ReturnType<typeof useFormFields<ClassFieldName>>["field"];
  /** A new class: examples under the texts, and a subject to choose on purpose. */
  examples?: boolean;
}) {
  return (
    <>
      <Field
        label="Name"
        hint={examples ? "For example Maths 10B." : undefined}
        maxLength={classLimits.name}
        {...field("name")}
      />
      <Select
        label="Subject"
        options={subjectOptions}
        placeholder={examples ? "Select…" : undefined}
        {...field("subject")}
      />
      <Field
        label="School year"
        hint={examples ? "For example 2026/27." : undefined}
        maxLength={classLimits.year}
        {...field("year")}
      />
    </>
  );
}
