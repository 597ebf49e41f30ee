// A form's draft kept on this device: what a user typed survives a reload and Back/Forward. In
// localStorage per user (one browser may serve several people), dropped once the form is sent.
// Logout forgets every draft (auth/session.tsx), the rule for shared computers. A session that
// ends without a logout (expired, ended from another device, refresh refused) forgets the drafts
// named in `endsWithSession` too: the student's questionnaire answers are personal, and a
// session ended from elsewhere is how someone who left a school computer signed in cleans up.

/** Every draft on this device, and whether it goes when the session ends without a logout. */
const endsWithSession = {
  questionnaire: true,
  // The teacher's report: kept until submitted or logout (a long form; issue 16's decision).
  report: false,
  // The gradebook's values not saved yet (issue 29): school grades of minors, gone with the session.
  gradebook: true,
} as const;
export type DraftName = keyof typeof endsWithSession;

const prefix = "gradecast:";
/** The storage key of a user's draft (a form with keys of its own builds on it). */
export const draftKey = (name: DraftName, userId: string) => `${prefix}${name}-draft:${userId}`;
const keyOf = draftKey;

/** Deletes the drafts of this device: every one at logout, the session-bound ones otherwise. */
export function forgetDrafts(why: "logout" | "sessionEnded"): void {
  try {
    const names = (Object.keys(endsWithSession) as DraftName[]).filter(
      (name) => why === "logout" || endsWithSession[name],
    );
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith(prefix)) continue;
      if (why === "logout" || names.some((name) => key.startsWith(`${prefix}${name}-draft:`))) {
        localStorage.removeItem(key);
      }
    }
  } catch {
    // storage unavailable: nothing kept
  }
}

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
  name: DraftName,
  empty: () => T,
  accept: (key: keyof T & string, value: string) => string | null,
): DeviceDraft<T> {
  const keyFor = (userId: string) => keyOf(name, userId);
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
