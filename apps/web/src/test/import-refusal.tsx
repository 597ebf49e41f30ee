import type { User } from "@gradecast/contract/auth";
import { screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { fakeServer, refused, renderPage, signedInAs } from "./render.tsx";

// The file imports' refused file (the gradebook's CSV, the OneRoster bundle, in both
// languages): the server refuses the preview with its reasons, and the page lists them.

/** `page` at `path` as `user`, against a server that refuses every file sent to `route`. */
export function renderRefusingImport(
  user: User,
  route: string,
  error: Parameters<typeof refused>[0],
  page: ReactNode,
  path: string,
) {
  fakeServer({ ...signedInAs(user), [route]: refused(error) });
  return renderPage(page, path);
}

/** Chooses `file` in the field labelled `field`, asks for the preview, and returns the alert. */
export async function previewFile(
  user: ReturnType<typeof renderPage>["user"],
  field: string,
  file: File,
  preview: string,
) {
  await user.upload(await screen.findByLabelText(field), file);
  await user.click(screen.getByRole("button", { name: preview }));
  return screen.findByRole("alert");
}

/** The lines of a refusal's list, as read. */
export function listedLines(alert: HTMLElement) {
  return [...alert.querySelectorAll("li")].map((li) => li.textContent);
}
