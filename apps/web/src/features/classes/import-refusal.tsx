import { ApiError } from "../../api/client.ts";
import { errorMessage } from "../../components/error-state.tsx";

// A refused CSV import (the roster, the school record): the server's message and every bad line
// with its reason, in line order (the 400's `fields`, keyed "line N", or "file").

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

export function ImportRefusal({ refusal, id }: { refusal: Refusal; id: string }) {
  return (
    <div className="roster-refusal" id={id} role="alert">
      <p className="field-error">{refusal.message}</p>
      {refusal.lines.length > 0 ? (
        <ul className="list roster-errors">
          {refusal.lines.map(([key, reason]) => (
            <li key={key}>
              <strong>{key === "file" ? "File" : key.replace("line", "Line")}:</strong> {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
