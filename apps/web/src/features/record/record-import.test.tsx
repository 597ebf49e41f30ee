import type { RecordImport as ImportAnswer } from "@gradecast/contract/school-record";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { listedLines, previewFile, renderRefusingImport } from "../../test/import-refusal.tsx";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { RecordImport } from "./record-import.tsx";

// The gradebook's CSV import (issue 29): the preview lists each value that would change, from
// and to, per student, and writes nothing; Import applies the same file; a refused file lists
// every bad line with its reason.

const csv = "email;G1;G2\namy@example.org;8;9\nben@example.org;14;15\n";
const change = (
  line: number,
  who: "amy" | "ben",
  field: "G1" | "G2",
  from: number | null,
  to: number,
) => ({
  line,
  studentId: who,
  name: who === "amy" ? "Amy Struggling" : "Ben Steady",
  email: `${who}@example.org`,
  field,
  from,
  to,
});

function answer(dryRun: boolean): ImportAnswer {
  return {
    dryRun,
    rows: 2,
    changes: [
      change(2, "amy", "G1", 6, 8),
      change(2, "amy", "G2", null, 9),
      change(3, "ben", "G1", null, 14),
    ],
    unchanged: 1,
    message: dryRun ? "3 values would change." : "3 values were saved.",
  };
}

function chooseFile(text: string) {
  return new File([text], "record.csv", { type: "text/csv" });
}

describe("the gradebook's CSV import", () => {
  it("previews the values that change, then imports them", async () => {
    const sent: { dryRun: string | null; body: unknown }[] = [];
    fakeServer({
      ...signedInAs(testUser("teacher")),
      "POST /api/classes/c1/record/import": ({ url, body }) => {
        const dryRun = url.searchParams.get("dryRun");
        sent.push({ dryRun, body });
        return { body: answer(dryRun === "true") };
      },
    });
    const { user } = renderPage(<RecordImport classId="c1" />, "/classes/c1");
    const heading = await screen.findByRole("heading", { name: "Import values from a CSV file" });
    expect(heading.parentElement?.textContent).toMatch(
      /email, then any of G1, G2, absences, failures, G3, sat, in any order, separated by commas or semicolons/,
    );
    await user.upload(screen.getByLabelText("CSV file of values"), chooseFile(csv));
    await user.click(screen.getByRole("button", { name: "Preview the import" }));

    const rows = await screen.findAllByTestId("import-change");
    expect(rows.map((r) => r.textContent)).toEqual([
      "Amy Struggling (amy@example.org, line 2): First period grade (G1) 6 → 8; Second period grade (G2) blank → 9",
      "Ben Steady (ben@example.org, line 3): First period grade (G1) blank → 14",
    ]);
    expect(screen.getByText("1 value in the file is already in the record.")).toBeTruthy();
    expect(sent).toEqual([{ dryRun: "true", body: csv }]);

    await user.click(screen.getByRole("button", { name: "Import 3 values" }));
    await screen.findByText("3 values were saved.");
    expect(sent[1]).toEqual({ dryRun: "false", body: csv });
    expect(screen.queryAllByTestId("import-change")).toHaveLength(0);
  });

  it("lists each bad line of a refused file with its reason", async () => {
    const { user } = renderRefusingImport(
      testUser("teacher"),
      "POST /api/classes/c1/record/import",
      {
        code: "validation",
        message: "The file was not imported: fix the lines listed and try again.",
        fields: {
          "line 12": "No student with this email is in the class.",
          "line 3": "First period grade (G1) is a whole number from 0 to 20.",
        },
      },
      <RecordImport classId="c1" />,
      "/classes/c1",
    );
    const alert = await previewFile(
      user,
      "CSV file of values",
      chooseFile(csv),
      "Preview the import",
    );
    await waitFor(() =>
      expect(listedLines(alert)).toEqual([
        "Line 3: First period grade (G1) is a whole number from 0 to 20.",
        "Line 12: No student with this email is in the class.",
      ]),
    );
    expect(alert.textContent).toContain("The file was not imported");
    expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
  });
});
