import type { ClassView } from "@gradecast/contract/classes";
import { Select } from "../../components/select.tsx";
import { useIntl } from "../../i18n/intl.tsx";
import { useClasses } from "../classes/api.ts";

// The report's population, chosen in the host page (outside the frame, which holds the report
// alone): a teacher's classes together or one of them; the school or one class for an admin.
// The choice goes to GET /api/analytics/embed?classId=, whose token carries it to the report.

export function ClassChooser({
  role,
  classId,
  onChange,
}: {
  role: "teacher" | "admin";
  classId: string;
  onChange: (classId: string) => void;
}) {
  const classes = useClasses();
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const label = (c: ClassView) =>
    t("analytics.chooser.option", {
      name: c.name,
      subject: t(`questionnaire.subject.option.${c.subject}`),
      year: c.year,
    });
  const all = role === "admin" ? t("analytics.chooser.school") : t("analytics.chooser.mine");
  const options = [
    { value: "", label: all },
    ...(classes.data ?? []).map((c) => ({ value: c.id, label: label(c) })),
  ];
  return (
    <Select
      className="report-class-chooser"
      label={t("analytics.chooser.label")}
      hint={
        classes.isError
          ? t("analytics.chooser.loadError")
          : role === "admin"
            ? t("analytics.chooser.hintAdmin")
            : t("analytics.chooser.hintTeacher")
      }
      options={options}
      value={classId}
      disabled={classes.isPending}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
