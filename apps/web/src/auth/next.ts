// Where to go after signing in. `?next=` comes from the address bar, so only a path of this site
// is accepted: anything that could leave the site (`//evil.example`, `https://…`, `/\evil`,
// `javascript:`) or loop back to a sign-in screen falls back to /Home.
export const afterLoginDefault = "/Home";

const signInPaths = new Set(["/", "/login", "/register", "/forgot-password", "/reset-password"]);

export function safeNext(next: string | null | undefined): string {
  if (!next) return afterLoginDefault;
  if (next.length > 2000) return afterLoginDefault;
  if (!next.startsWith("/") || next.startsWith("//")) return afterLoginDefault;
  // Browsers read a backslash as a slash and drop tabs and newlines in URLs.
  if (/[\\\s]/.test(next) || hasControlCharacter(next)) return afterLoginDefault;
  let url: URL;
  try {
    url = new URL(next, "https://gradecast.invalid");
  } catch {
    return afterLoginDefault;
  }
  if (url.origin !== "https://gradecast.invalid") return afterLoginDefault;
  if (signInPaths.has(url.pathname)) return afterLoginDefault;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The /login address that brings the user back to `path` after signing in. */
export function loginUrlFor(path: string): string {
  const next = safeNext(path);
  return next === afterLoginDefault && path !== afterLoginDefault
    ? "/login"
    : `/login?next=${encodeURIComponent(next)}`;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
