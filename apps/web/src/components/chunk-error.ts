// The messages browsers give when a dynamic import() fails (network, or a chunk removed by a
// redeploy): Chromium, Firefox and Safari word it differently.
const chunkErrorPatterns = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
];

/** Whether an error is a lazily loaded chunk that could not be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return chunkErrorPatterns.some((p) => p.test(message));
}
