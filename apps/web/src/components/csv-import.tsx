import { type FormEvent, type ReactNode, type RefObject, useId, useRef, useState } from "react";
import { ApiError } from "../api/client.ts";
import { type PageIntl, useIntl } from "../i18n/intl.tsx";
import { Button } from "./button.tsx";
import { errorMessage } from "./error-state.tsx";

// The shape the file imports share (the class list, the gradebook's values, the OneRoster
// bundle, issue 27): pick a file, Preview (the server's dry run: nothing is written), then
// Import or Cancel; a refused file lists every bad line with its reason (the 400's `fields`,
// keyed "line N", "file", or as the server names them), and nothing of it is saved.

export interface Refusal {
  message: string;
  /** "line 3" → reason, in line order; "file" for the whole file. */
  lines: [string, string][];
}

function lineOrder(key: string): number {
  const n = /^line (\d+)$/.exec(key)?.[1];
  return n ? Number(n) : 0;
}

export function refusalOf(err: unknown): Refusal {
  if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
    const lines = Object.entries(err.fields).sort(([a], [b]) => lineOrder(a) - lineOrder(b));
    return { message: err.message, lines };
  }
  return { message: errorMessage(err), lines: [] };
}

/**
 * "line 3" → "Line 3", "users.csv line 4" → "users.csv line 4", "file" → "File", "bundle" →
 * "Bundle", in the page's language; other keys as the server says.
 */
function keyLabel(intl: PageIntl, key: string): string {
  if (key === "file") return intl.formatMessage({ id: "imports.file" });
  if (key === "bundle") return intl.formatMessage({ id: "imports.bundle" });
  const line = /^line (\d+)$/.exec(key)?.[1];
  if (line) return intl.formatMessage({ id: "imports.line" }, { line });
  const fileLine = /^(\S+) line (\d+)$/.exec(key);
  if (fileLine) {
    return intl.formatMessage(
      { id: "imports.fileLine" },
      { file: fileLine[1]!, line: fileLine[2]! },
    );
  }
  return key;
}

export function ImportRefusal({ refusal, id }: { refusal: Refusal; id: string }) {
  const intl = useIntl();
  return (
    <div className="roster-refusal" id={id} role="alert">
      <p className="field-error">{refusal.message}</p>
      {refusal.lines.length > 0 ? (
        <ul className="list roster-errors">
          {refusal.lines.map(([key, reason]) => (
            <li key={key}>
              <strong>{keyLabel(intl, key)}:</strong> {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

interface Handlers<R> {
  onSuccess: (result: R) => void;
  onError: (err: unknown) => void;
}

export interface FileImport<R> {
  inputId: string;
  input: RefObject<HTMLInputElement | null>;
  preview: R | null;
  done: R | null;
  refusal: Refusal | null;
  busy: "preview" | "import" | null;
  /** Forgets the preview, the refusal and the last result (a new file, another option). */
  reset: () => void;
  choose: (file: File | null) => void;
  check: (event: FormEvent) => void;
  confirm: () => void;
  cancel: () => void;
}

/** The upload's request, as a mutation: what it sends says whether it is a preview. */
interface Upload<R, V> {
  mutate: (variables: V, handlers: Handlers<R>) => void;
  isPending: boolean;
  variables: { preview: boolean } | undefined;
}

/**
 * The state of a file import: `upload` posts the file as `{ file, preview }`, or as `variables`
 * makes it (a dry run when `preview`); `missing` is the refusal when Preview is pressed with no
 * file chosen.
 */
export function useFileImport<R>(
  prefix: string,
  upload: Upload<R, { file: File; preview: boolean }>,
  missing: string,
): FileImport<R>;
export function useFileImport<R, V>(
  prefix: string,
  upload: Upload<R, V>,
  missing: string,
  variables: (file: File, preview: boolean) => V,
): FileImport<R>;
export function useFileImport<R, V>(
  prefix: string,
  upload: Upload<R, V>,
  missing: string,
  variables?: (file: File, preview: boolean) => V,
): FileImport<R> {
  // Without `variables`, the first signature has made V `{ file, preview }`.
  const make = variables ?? ((file: File, preview: boolean) => ({ file, preview }) as V);
  const send = (file: File, preview: boolean, handlers: Handlers<R>) =>
    upload.mutate(make(file, preview), handlers);
  const busy = upload.isPending ? (upload.variables?.preview ? "preview" : "import") : null;
  const inputId = `${prefix}${useId()}`;
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<R | null>(null);
  const [done, setDone] = useState<R | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const fail = (err: unknown) => setRefusal(refusalOf(err));
  const reset = () => {
    setPreview(null);
    setRefusal(null);
    setDone(null);
  };
  return {
    inputId,
    input,
    preview,
    done,
    refusal,
    busy,
    reset,
    choose(chosen) {
      setFile(chosen);
      reset();
    },
    check(event) {
      event.preventDefault();
      reset();
      if (!file) {
        setRefusal({ message: missing, lines: [] });
        return;
      }
      send(file, true, { onSuccess: setPreview, onError: fail });
    },
    confirm() {
      if (!file) return;
      setRefusal(null);
      send(file, false, {
        onSuccess: (result) => {
          setDone(result);
          setPreview(null);
          setFile(null);
          if (input.current) input.current.value = "";
        },
        onError: fail,
      });
    },
    cancel: () => setPreview(null),
  };
}

/** The file field, any further fields (`children`), Preview, and the refusal under them. */
export function FileImportForm<R>({
  state,
  label,
  accept,
  previewLabel,
  children,
}: {
  state: FileImport<R>;
  label: string;
  accept: string;
  previewLabel: string;
  children?: ReactNode;
}) {
  const { inputId, refusal } = state;
  return (
    <>
      <form className="roster-form" onSubmit={state.check} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={inputId}>
            {label}
          </label>
          <input
            ref={state.input}
            id={inputId}
            className="input"
            type="file"
            accept={accept}
            aria-describedby={refusal ? `${inputId}-error` : undefined}
            aria-invalid={refusal ? true : undefined}
            onChange={(e) => state.choose(e.target.files?.[0] ?? null)}
          />
        </div>
        {children}
        <div className="actions">
          <Button type="submit" variant="secondary" loading={state.busy === "preview"}>
            {previewLabel}
          </Button>
        </div>
      </form>
      {refusal ? <ImportRefusal refusal={refusal} id={`${inputId}-error`} /> : null}
    </>
  );
}

interface FileImportPreviewProps<R> {
  state: FileImport<R>;
  heading: ReactNode;
  writes: (preview: R) => number;
  /** The Import button's text, given what it would write. */
  confirmLabel: (count: number) => string;
  nothing: ReactNode;
  children: (preview: R) => ReactNode;
}

/**
 * The preview, once there is one: its heading and summary (`children`), then Import and Cancel,
 * or `nothing` when it would write nothing (`writes` counts what it would write).
 */
export function FileImportPreview<R>({
  state,
  heading,
  writes,
  confirmLabel,
  nothing,
  children,
}: FileImportPreviewProps<R>) {
  const intl = useIntl();
  const { preview } = state;
  if (!preview) return null;
  const count = writes(preview);
  return (
    <div className="roster-preview">
      {heading}
      {children(preview)}
      {count === 0 ? (
        nothing
      ) : (
        <div className="actions">
          <Button onClick={state.confirm} loading={state.busy === "import"}>
            {confirmLabel(count)}
          </Button>
          <Button variant="ghost" onClick={state.cancel}>
            {intl.formatMessage({ id: "imports.cancel" })}
          </Button>
        </div>
      )}
    </div>
  );
}

/** A CSV file's import: the file field and Preview, then the preview (see FileImportPreview). */
export function CsvFileImport<R>({
  fileLabel,
  previewLabel,
  ...preview
}: FileImportPreviewProps<R> & { fileLabel: string; previewLabel: string }) {
  return (
    <>
      <FileImportForm
        state={preview.state}
        label={fileLabel}
        accept=".csv,text/csv"
        previewLabel={previewLabel}
      />
      <FileImportPreview {...preview} />
    </>
  );
}
