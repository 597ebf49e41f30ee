// A form's draft kept on this device: what a user typed survives a reload, Back/Forward and a
// session that ended. In localStorage per user (one browser may serve several people), dropped
// once the form is sent. The `gradecast:` prefix makes logout forget it (auth/session.tsx
// forgetUserData), the rule for shared computers.

export interface DeviceDraft<T extends Record<string, string>> {
  /** The saved draft, each value kept only if the form itself could have produced it. */
  load(userId: string): T;
  /** Saves the values; an empty form removes the draft. */
  save(userId: string, values: T): void;
  clear(userId: string): void;
}

/**
 * `accept` returns the value to restore for a field (possibly shortened), or null to drop it:
 * a stored draft may come from an older version of the form, or have been edited by hand.
 */
export function deviceDraft<T extends Record<string, string>>(
  name: string,
  empty: () => T,
  accept: (key: keyof T & string, value: string) => string | null,
): DeviceDraft<T> {
  const keyFor = (userId: string) => `gradecast:${name}-draft:${userId}`;
  return {
    load(userId) {
      const draft = empty();
      let stored: unknown;
      try {
        stored = JSON.parse(localStorage.getItem(keyFor(userId)) ?? "null");
      } catch {
        return draft;
      }
      if (!stored || typeof stored !== "object") return draft;
      for (const key of Object.keys(draft) as (keyof T & string)[]) {
        const value = (stored as Record<string, unknown>)[key];
        const kept = typeof value === "string" ? accept(key, value) : null;
        if (kept !== null) (draft as Record<string, string>)[key] = kept;
      }
      return draft;
    },
    save(userId, values) {
      try {
        if (Object.values(values).every((v) => v === "")) localStorage.removeItem(keyFor(userId));
        else localStorage.setItem(keyFor(userId), JSON.stringify(values));
      } catch {
        // Storage refused (private mode, full): the draft lasts as long as the page.
      }
    },
    clear(userId) {
      try {
        localStorage.removeItem(keyFor(userId));
      } catch {
        // nothing to clear
      }
    },
  };
}
