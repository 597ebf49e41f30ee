/** Fired ("change") whenever who is signed in changes: sign-in, sign-out, session ended. */
export const sessionEvents = new EventTarget();

export function announceSessionChange(): void {
  sessionEvents.dispatchEvent(new Event("change"));
}
