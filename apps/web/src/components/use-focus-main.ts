import { useEffect } from "react";
import { useLocation, useNavigationType } from "react-router";

// The first page the document shows keeps the browser's own focus and scroll. Module state, not
// a ref: each layout (and /Home) has its own hook, and moving from one to another is navigation.
let firstPage = true;

/**
 * After a client-side navigation, do what a full page load would: a new page opens at the top
 * (Back and Forward keep the position the browser restores), and focus moves to its main region
 * so keyboard and screen-reader users start at the new content.
 */
export function useFocusMainOnNavigate(): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every new path
  useEffect(() => {
    if (firstPage) {
      firstPage = false;
      return;
    }
    if (navigationType !== "POP") window.scrollTo(0, 0);
    document.getElementById("main")?.focus({ preventScroll: true });
  }, [pathname]);
}
