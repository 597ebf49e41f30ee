import {
  type OneRosterResult,
  oneRosterChangeKinds,
  oneRosterChangeLabels,
} from "@gradecast/contract/oneroster";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { previewFile, renderRefusingImport } from "../../test/import-refusal.tsx";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { OneRosterImport } from "./oneroster-import.tsx";

// The admin's OneRoster import (issue 34): a bundle is chosen, previewed (nothing written), then
// imported; a refused bundle lists each file, line and reason; no bundle chosen is said beside
// the field.

function result(dryRun: boolean, over: Partial<OneRosterResult["changes"]> = {}): OneRosterResult {
  const changes = Object.fromEntries(
    oneRosterChangeKinds.map((k) => [k, { count: 0, items: [] as string[] }]),
  ) as OneRosterResult["changes"];
  return {
    dryRun,
    mode: "bulk",
    read: { "users.csv": 3, "enrollments.csv": 4 },
    changes: { ...changes, ...over },
    emailsQueued: 1,
    message: dryRun
      ? "Nothing has changed yet: this is what the import would do."
      : "The roster was imported.",
  };
}

const zip = () => new File(["PK fake"], "roster.zip", { type: "application/zip" });

describe("OneRoster import screen", () => {
  it("says beside the field when no bundle is chosen", async () => {
    fakeServer(signedInAs(testUser("admin")));
    const { user } = renderPage(<OneRosterImport />, "/admin/oneroster");
    await user.click(await screen.findByRole("button", { name: "Preview" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Choose a ZIP bundle first.");
    expect(screen.getByLabelText("ZIP bundle").getAttribute("aria-invalid")).toBe("true");
  });

  it("previews in the chosen mode, then imports and says how many emails were queued", async () => {
    const planned = result(true, {
      classesCreated: { count: 1, items: ["Maths 10A (mat, 2027)"] },
      studentsInvited: { count: 1, items: ["nia@example.org -> Maths 10A"] },
      teachersRestored: { count: 1, items: ["tess@example.org -> Maths 10A"] },
    });
    const server = fakeServer({
      ...signedInAs(testUser("admin")),
      "POST /api/admin/oneroster": ({ url }) => ({
        body:
          url.searchParams.get("dryRun") === "true"
            ? planned
            : { ...planned, dryRun: false, message: "The roster was imported." },
      }),
    });
    const { user } = renderPage(<OneRosterImport />, "/admin/oneroster");
    await user.upload(await screen.findByLabelText("ZIP bundle"), zip());
    await user.click(screen.getByRole("radio", { name: /Delta/ }));
    await user.click(screen.getByRole("button", { name: "Preview" }));
    expect(await screen.findByText("What the import will do")).toBeTruthy();
    expect(screen.getByText("Maths 10A (mat, 2027)")).toBeTruthy();
    expect(screen.getByText(`${oneRosterChangeLabels.teachersRestored}: 1`)).toBeTruthy();
    expect(screen.getByText("Invitation emails to send: 1")).toBeTruthy();
    const routes = () => server.calls.filter((c) => c.route === "POST /api/admin/oneroster");
    expect(routes()).toHaveLength(1);

    await user.click(screen.getByRole("button", { name: "Import" }));
    expect(await screen.findByText("Invitation emails to be written and sent: 1")).toBeTruthy();
    expect(screen.getByText(/The roster was imported/)).toBeTruthy();
    expect(routes()).toHaveLength(2);
  });

  it("lists each file, line and reason of a refused bundle", async () => {
    const { user } = renderRefusingImport(
      testUser("admin"),
      "POST /api/admin/oneroster",
      {
        code: "invalid_input",
        message: "The bundle was not imported: 2 lines need fixing. Nothing was changed.",
        fields: {
          "users.csv line 4": "email is not an email address.",
          "enrollments.csv line 2": 'classSourcedId "nope" is not in the bundle.',
        },
      },
      <OneRosterImport />,
      "/admin/oneroster",
    );
    const alert = await previewFile(user, "ZIP bundle", zip(), "Preview");
    expect(alert.textContent).toContain("2 lines need fixing");
    expect(alert.textContent).toContain("users.csv line 4: email is not an email address.");
    expect(alert.textContent).toContain(
      'enrollments.csv line 2: classSourcedId "nope" is not in the bundle.',
    );
    expect(screen.queryByRole("button", { name: "Import" })).toBeNull();
  });
});
