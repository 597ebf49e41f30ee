import { messages } from "@gradecast/contract/messages";
import type { FastifyRequest } from "fastify";
import { forbidden } from "../domain-errors.ts";

// The calls that act on the session a browser's cookie names (logout, refresh) or that a signed-in
// page makes about its own sign-in (re-authentication) answer only the app's own pages (issue
// 26). SameSite cookies do not stop a page of a sibling subdomain (same site, other origin), so
// the browser's own headers decide: an Origin must be the app's (PUBLIC_URL's origin; without
// PUBLIC_URL, the host the request was sent to), and without an Origin, Fetch Metadata's
// Sec-Fetch-Site must say same-origin or none (typed or bookmarked). A request with neither
// header comes from no browser (every current browser sends Origin on a POST, and
// Sec-Fetch-Site since 2020-2023): a command-line client or a test, which no other site can make
// send anything, so it passes.

function ownOrigin(request: FastifyRequest, publicUrl: string | undefined, origin: string) {
  if (publicUrl) return origin === new URL(publicUrl).origin;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export function isFromOwnOrigin(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  const site = request.headers["sec-fetch-site"];
  if (origin !== undefined) return ownOrigin(request, publicUrl, origin);
  if (site === undefined) return true;
  return site === "same-origin" || site === "none";
}

/** 403 cross_origin_refused unless the request comes from the app's own origin. */
export function requireOwnOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  if (!isFromOwnOrigin(request, publicUrl)) {
    throw forbidden(messages.crossOriginRefused, "cross_origin_refused");
  }
}
