import type { EnrolledStudent } from "@gradecast/contract/report-students";
import { reportLimits } from "@gradecast/contract/reports";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { useEnrolledStudents } from "./students-api.ts";
import { useReportText } from "./text.ts";

// The report form's student: a combobox (WAI-ARIA 1.2 pattern, list autocomplete) over the
// enrolled students of the teacher's classes. Choosing one links the report to the student's
// account (studentId, classId); anything else typed stays a free-text name, which only the
// author and admins will see until the report is linked to an enrolled student.

export interface StudentLink {
  studentId: string;
  classId: string;
}

export interface StudentPickerProps {
  name: string;
  link: StudentLink | null;
  onChange: (name: string, link: StudentLink | null) => void;
  error?: string | undefined;
  invalid?: boolean;
  /** The form message's id, when the error is the form's. */
  describedBy?: string | undefined;
  readOnly?: boolean | undefined;
}

const label = (s: EnrolledStudent) => `${s.name} (${s.className})`;

export function StudentPicker({
  name,
  link,
  onChange,
  error,
  invalid,
  describedBy,
  readOnly,
}: StudentPickerProps) {
  const { t } = useReportText();
  const id = `student${useId()}`;
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [search, setSearch] = useState(name.trim());
  // A short pause after typing before asking the server.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(name.trim()), 200);
    return () => clearTimeout(timer);
  }, [name]);
  const students = useEnrolledStudents(search, open && !readOnly);
  const options = students.data ?? [];
  const expanded = open && !readOnly;

  const choose = (s: EnrolledStudent) => {
    onChange(s.name, { studentId: s.studentId, classId: s.classId });
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (e.key === "Enter" && expanded && active >= 0 && options[active]) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === "Escape" && expanded) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const chosen = link
    ? options.find((o) => o.studentId === link.studentId && o.classId === link.classId)
    : undefined;
  const status = link
    ? chosen
      ? t("reports.picker.linkedInClass", { name, className: chosen.className })
      : t("reports.picker.linked", { name })
    : name.trim()
      ? t("reports.picker.freeText")
      : t("reports.picker.empty");
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div
      className={["field", "student-picker", error || invalid ? "field-invalid" : ""]
        .filter(Boolean)
        .join(" ")}
    >
      <label className="field-label" htmlFor={id}>
        {t("reports.field.studentName")}
      </label>
      <div className="student-combo">
        <input
          id={id}
          name="studentName"
          className="input"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={error || invalid ? true : undefined}
          aria-describedby={[`${id}-status`, errorId, describedBy].filter(Boolean).join(" ")}
          maxLength={reportLimits.studentName.max}
          value={name}
          readOnly={readOnly}
          onChange={(e) => {
            onChange(e.target.value, null);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <div
          id={listId}
          role="listbox"
          aria-label={t("reports.picker.list")}
          className="student-options"
          hidden={!expanded || options.length === 0}
        >
          {options.map((s, i) => (
            <div
              key={`${s.studentId}:${s.classId}`}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? "student-option active" : "student-option"}
              // Chosen on mousedown, before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(s);
              }}
            >
              {label(s)}
            </div>
          ))}
        </div>
        {expanded && options.length === 0 ? (
          <div className="student-options student-option-note">
            {students.isPending
              ? t("reports.picker.searching")
              : students.isError
                ? t("reports.picker.searchFailed")
                : t("reports.picker.noMatch")}
          </div>
        ) : null}
      </div>
      <p className="field-hint" id={`${id}-status`} aria-live="polite">
        {status}
      </p>
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
