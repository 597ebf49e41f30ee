import type { ClassView } from "@gradecast/contract/classes";
import { subjectLabels } from "@gradecast/contract/classes";
import { Select } from "../../components/select.tsx";
import { useClasses } from "../classes/api.ts";

// The report's population, chosen in the host page (outside the frame, which holds the report
// alone): a teacher's classes together or one of them; the school or one class for an admin.
// The choice goes to GET /api/analytics/embed?classId=, whose token carries it to the report.

const label = (c: ClassView) => `${c.name} (${subjectLabels[c.subject]}, ${c.year})`;

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
  const all = role === "admin" ? "The whole school" : "All my classes";
  const options = [
    { value: "", label: all },
    ...(classes.data ?? []).map((c) => ({ value: c.id, label: label(c) })),
  ];
  return (
    <Select
      className="report-class-chooser"
      label="Report on"
      hint={
        classes.isError
          ? "Your classes could not be loaded: the report shows all of them."
          : role === "admin"
            ? "The school, or one class."
            : "All the classes you teach, or one of them."
      }
      options={options}
      value={classId}
      disabled={classes.isPending}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
