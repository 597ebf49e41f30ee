import {
  type OneRosterChangeKind,
  type OneRosterMode,
  type OneRosterResult,
  oneRosterChangeKinds,
  oneRosterLimits,
  oneRosterModes,
} from "@gradecast/contract/oneroster";
import { type ReactNode, useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Card } from "../../components/card.tsx";
import { FileImportForm, FileImportPreview, useFileImport } from "../../components/csv-import.tsx";
import { type PageIntl, useT } from "../../i18n/intl.tsx";
import { useOneRosterImport } from "./api.ts";
import "../classes/classes.css";

// The admin's OneRoster import (issue 34, decision 0025): a ZIP bundle and a mode; Preview shows
// what would change (nothing is written); Import applies it. A refused bundle lists each file,
// line and reason. The files' names (users.csv, ...) are the bundle's format: the same in every
// language.

/** Changes an import would write (unmapped classes and skipped lines write nothing). */
const writes = (r: OneRosterResult) =>
  oneRosterChangeKinds
    .filter((k) => k !== "unmappedClasses" && k !== "skipped" && k !== "studentsAlreadyEnrolled")
    .reduce((n, k) => n + r.changes[k].count, 0);

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** The mode choices' labels. */
const modeKeys: Record<OneRosterMode, string> = {
  bulk: "imports.oneroster.bulk",
  delta: "imports.oneroster.delta",
};

/**
 * What each kind of change means, for the preview: the English is the contract's
 * oneRosterChangeLabels (oneroster-import-pt.test.tsx keeps them equal).
 */
function changeLabel(intl: PageIntl, kind: OneRosterChangeKind): string {
  const ids: Record<OneRosterChangeKind, string> = {
    classesCreated: "imports.oneroster.change.classesCreated",
    classesUpdated: "imports.oneroster.change.classesUpdated",
    teachersApproved: "imports.oneroster.change.teachersApproved",
    teachersInvited: "imports.oneroster.change.teachersInvited",
    teachersAdded: "imports.oneroster.change.teachersAdded",
    teachersRestored: "imports.oneroster.change.teachersRestored",
    teachersRemoved: "imports.oneroster.change.teachersRemoved",
    studentsInvited: "imports.oneroster.change.studentsInvited",
    studentsAlreadyEnrolled: "imports.oneroster.change.studentsAlreadyEnrolled",
    enrolmentsEnded: "imports.oneroster.change.enrolmentsEnded",
    unmappedClasses: "imports.oneroster.change.unmappedClasses",
    skipped: "imports.oneroster.change.skipped",
  };
  return intl.formatMessage({ id: ids[kind] });
}

export function OneRosterImport() {
  const { intl, t } = useT();
  const upload = useOneRosterImport();
  const [mode, setMode] = useState<OneRosterMode>("bulk");
  const state = useFileImport(
    "oneroster",
    upload,
    t("imports.oneroster.missing"),
    (file, preview) => ({ file, mode, preview }),
  );
  const { inputId, done, busy } = state;

  return (
    <Card title={t("imports.oneroster.title")} className="roster-import">
      <p>
        {intl.formatMessage(
          { id: "imports.oneroster.intro" },
          { megabytes: oneRosterLimits.bytes / 1024 / 1024, code },
        )}
      </p>
      <p className="muted">{intl.formatMessage({ id: "imports.oneroster.subjects" }, { code })}</p>
      <FileImportForm
        state={state}
        label={t("imports.oneroster.file")}
        accept=".zip,application/zip"
        previewLabel={t("imports.preview")}
      >
        <fieldset className="field">
          <legend className="field-label">{t("imports.oneroster.mode")}</legend>
          {oneRosterModes.map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={`${inputId}-mode`}
                value={choice}
                checked={mode === choice}
                onChange={() => {
                  setMode(choice);
                  state.reset();
                }}
              />{" "}
              {t(modeKeys[choice])}
            </label>
          ))}
        </fieldset>
      </FileImportForm>
      {busy ? (
        <p className="muted" role="status">
          {busy === "preview" ? t("imports.oneroster.reading") : t("imports.oneroster.importing")}
        </p>
      ) : null}
      <FileImportPreview
        state={state}
        heading={<h3 className="roster-heading">{t("imports.willDo")}</h3>}
        writes={writes}
        confirmLabel={() => t("imports.oneroster.confirm")}
        nothing={<p>{t("imports.oneroster.nothing")}</p>}
      >
        {(preview) => (
          <>
            <p>{preview.message}</p>
            <OneRosterSummary result={preview} />
          </>
        )}
      </FileImportPreview>
      <Alert tone="success">
        {done ? (
          <>
            <span>{done.message} </span>
            <OneRosterSummary result={done} />
          </>
        ) : null}
      </Alert>
    </Card>
  );
}

export function OneRosterSummary({ result }: { result: OneRosterResult }) {
  const { intl, t } = useT();
  const read = Object.entries(result.read)
    .map(([file, count]) => t("imports.oneroster.readFile", { file, count }))
    .join(", ");
  return (
    <>
      <p className="muted">
        {read ? t("imports.oneroster.read", { read }) : t("imports.oneroster.readNothing")}
      </p>
      <dl className="roster-summary">
        {oneRosterChangeKinds.map((kind) => {
          const change = result.changes[kind];
          return (
            <div key={kind} className="roster-group">
              <dt>{t("imports.count", { label: changeLabel(intl, kind), count: change.count })}</dt>
              {change.items.length > 0 ? (
                <dd>
                  <ul className="roster-rows">
                    {change.items.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                    {change.count > change.items.length ? (
                      <li className="muted">
                        {t("imports.more", { count: change.count - change.items.length })}
                      </li>
                    ) : null}
                  </ul>
                </dd>
              ) : null}
            </div>
          );
        })}
        <div className="roster-group">
          <dt>
            {t(result.dryRun ? "imports.oneroster.emailsToSend" : "imports.oneroster.emailsSent", {
              count: result.emailsQueued,
            })}
          </dt>
        </div>
      </dl>
    </>
  );
}
