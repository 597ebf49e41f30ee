import { ApiError } from "./client.ts";

export interface FormErrors<K extends string> {
  /** Messages for the form's own fields, shown beside them. */
  fields: Partial<Record<K, string>>;
  /** What no field of the form shows, for the form-level alert; null when nothing is left. */
  message: string | null;
}

/**
 * Splits a failed request's error between a form's fields and its form-level alert, so that a
 * message is shown once: beside its field when the form has that field, in the alert otherwise.
 */
export function formErrors<K extends string>(
  err: unknown,
  fieldNames: readonly K[],
): FormErrors<K> {
  if (!(err instanceof ApiError)) {
    return { fields: {}, message: err instanceof Error ? err.message : String(err) };
  }
  const fields: Partial<Record<K, string>> = {};
  const elsewhere: string[] = [];
  for (const [key, text] of Object.entries(err.fields)) {
    if ((fieldNames as readonly string[]).includes(key)) fields[key as K] = text;
    else elsewhere.push(text);
  }
  if (Object.keys(fields).length === 0) return { fields, message: err.message };
  return { fields, message: elsewhere.length > 0 ? elsewhere.join(" ") : null };
}
