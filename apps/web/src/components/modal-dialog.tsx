import { type ReactNode, type RefObject, useEffect, useId, useRef } from "react";

// Every dialog of the app: a native <dialog> shown as a modal, its title naming it. Focus starts
// on the control marked `data-autofocus` (the safe one), Escape closes, and focus returns to the
// element that opened it.

/**
 * Shows a native <dialog> as a modal while the component is mounted. React's autoFocus runs
 * before showModal(), which then focuses the first control, so the control to start on is marked
 * `data-autofocus` and focused here. On close, however it happens, focus goes back to the element
 * that had it: the browser does so for Escape, not for a button that unmounts the dialog.
 */
function useModalDialog(ref: RefObject<HTMLDialogElement | null>): void {
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

export function ModalDialog({
  title,
  onClose,
  wide,
  children,
}: {
  title: ReactNode;
  /** Escape, or any other way the browser closes it. */
  onClose: () => void;
  /** Room for a form of several fields. */
  wide?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `dialog-title${useId()}`;
  useModalDialog(ref);
  return (
    <dialog
      ref={ref}
      className={wide ? "dialog dialog-wide" : "dialog"}
      aria-labelledby={titleId}
      onClose={onClose}
    >
      <div className="dialog-body">
        <h2 className="dialog-title" id={titleId}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
