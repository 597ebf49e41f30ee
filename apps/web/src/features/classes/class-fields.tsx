import { classLimits, subjects } from "@gradecast/contract/classes";
import { Field } from "../../components/field.tsx";
import { Select } from "../../components/select.tsx";
import type { useFormFields } from "../../components/use-form-fields.ts";
import { useT } from "../../i18n/intl.tsx";

// A class's name, subject and school year: the fields of creating a class and of editing one.

export type ClassFieldName = "name" | "subject" | "year";

export function ClassFields({
  field,
  examples,
}: {
  field: ReturnType<typeof useFormFields<ClassFieldName>>["field"];
  /** A new class: examples under the texts, and a subject to choose on purpose. */
  examples?: boolean;
}) {
  const { t } = useT();
  const subjectOptions = subjects.map((s) => ({
    value: s,
    label: t(`questionnaire.subject.option.${s}`),
  }));
  return (
    <>
      <Field
        label={t("classes.field.name")}
        hint={examples ? t("classes.field.nameExample") : undefined}
        maxLength={classLimits.name}
        {...field("name")}
      />
      <Select
        label={t("classes.field.subject")}
        options={subjectOptions}
        placeholder={examples ? t("classes.field.select") : undefined}
        {...field("subject")}
      />
      <Field
        label={t("classes.field.year")}
        hint={examples ? t("classes.field.yearExample") : undefined}
        maxLength={classLimits.year}
        {...field("year")}
      />
    </>
  );
}
