import { type RefObject, useEffect } from "react";

/**
 * Shows a native <dialog> as a modal while the component is mounted. React's autoFocus runs
 * before showModal(), which then focuses the first control, so the control to start on is marked
 * `data-autofocus` and focused here. On close, however it happens, focus goes back to the element
 * that had it: the browser does so for Escape, not for a button that unmounts the dialog.
 */
export function useModalDialog(ref: RefObject<HTMLDialogElement | null>): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [ref]);
}
