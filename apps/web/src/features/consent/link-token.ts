import { useState } from "react";

/**
 * The token of an emailed link (/consent?token=…), read once; the address bar then loses it
 * (history.replaceState) so that it stays out of the history, bookmarks and any Referer. The
 * token only ever travels to the API in a request's body.
 */
export function useLinkToken(): string {
  const [token] = useState(() => {
    const url = new URL(window.location.href);
    const found = url.searchParams.get("token") ?? "";
    if (found) {
      url.searchParams.delete("token");
      window.history.replaceState(
        window.history.state,
        "",
        `${url.pathname}${url.search}${url.hash}`,
      );
    }
    return found;
  });
  return token;
}
