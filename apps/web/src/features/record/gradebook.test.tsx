import {
  type ClassRecord,
  type RecordCell,
  type RecordField,
  type RecordRow,
  recordFields,
} from "@gradecast/contract/school-record";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import {
  columnHeaders,
  type FakeRoute,
  fakeServer,
  renderPage,
  signedInAs,
  testUser,
} from "../../test/render.tsx";
import { Gradebook } from "./gradebook.tsx";

// The gradebook (issue 29) as a teacher uses it: a value typed is saved on leaving the cell and
// says so; a refused value stays with the server's reason beside it; a value the network lost
// stays, marked not saved, with a retry; arrow keys, Tab and Enter move between cells; a column
// pasted from a spreadsheet fills the cells below and saves each; an admin only reads.

const by = { id: "uid-teacher", name: "Ms Reis" };
const cell = (value: RecordCell["value"]): RecordCell => ({
  value,
  setBy: by,
  setAt: "2026-11-20T10:00:00.000Z",
});
const empty = () =>
  Object.fromEntries(recordFields.map((field) => [field, null])) as RecordRow["values"];
const rows: RecordRow[] = [
  {
    studentId: "amy",
    name: "Amy Struggling",
    email: "amy@example.org",
    values: { ...empty(), G1: cell(8) },
  },
  { studentId: "ben", name: "Ben Steady", email: "ben@example.org", values: empty() },
  { studentId: "cal", name: "Cal Bright", email: "cal@example.org", values: empty() },
];

function recordOf(canEdit: boolean): ClassRecord {
  return {
    class: { id: "c1", name: "Maths 10B", subject: "mat", year: "2026/27" },
    canEdit,
    items: rows,
  };
}

/** A PUT that saves what it is sent and answers with the row as it now is. */
function saving(): Record<string, FakeRoute> {
  const routes: Record<string, FakeRoute> = {};
  for (const row of rows) {
    routes[`PUT /api/classes/c1/record/${row.studentId}`] = ({ body }) => {
      const { field, value } = body as { field: RecordField; value: number | boolean | null };
      return {
        body: {
          row: { ...row, values: { ...row.values, [field]: cell(value) } },
          message: "Saved.",
        },
      };
    };
  }
  return routes;
}

async function open(role: "teacher" | "admin", routes: Record<string, FakeRoute> = saving()) {
  const server = fakeServer({
    ...signedInAs(testUser(role)),
    "GET /api/classes/c1/record": () => ({ body: recordOf(role === "teacher") }),
    ...routes,
  });
  const view = renderPage(<Gradebook classId="c1" />, "/classes/c1");
  await screen.findByRole("table", { name: "The school record: one row per student" });
  return { server, ...view };
}

const input = (name: string) => screen.getByRole("textbox", { name }) as HTMLInputElement;
/** The state shown beside a cell (saving, saved, the reason it was refused, not saved). */
const stateOf = (name: string) =>
  document.getElementById(`${input(name).id}-status`)?.textContent ?? "";

const draft = "gradecast:gradebook-draft:uid-teacher";
const stored = () => localStorage.getItem(draft) ?? "";

describe("the gradebook", () => {
  it("is a table with a row per student and labelled cells, each saying who set it", async () => {
    await open("teacher");
    const table = screen.getByRole("table");
    expect(columnHeaders(table)).toEqual([
      "Student",
      "G1",
      "G2",
      "Absences",
      "Failures",
      "G3",
      "Sat the final",
      "History",
    ]);
    expect(within(table).getByRole("rowheader", { name: "Ben Steady" })).toBeTruthy();
    expect(input("G1 for Amy Struggling").value).toBe("8");
    expect(input("G1 for Amy Struggling").title).toMatch(/^Set by Ms Reis on /);
  });

  it("saves a value typed when the teacher leaves the cell, and says it is saved", async () => {
    const { server, user } = await open("teacher");
    await user.click(input("G2 for Amy Struggling"));
    await user.keyboard("9{Tab}");
    await waitFor(() => expect(stateOf("G2 for Amy Struggling")).toBe("Saved"));
    expect(server.calls.filter((c) => c.route.startsWith("PUT"))).toEqual([
      { route: "PUT /api/classes/c1/record/amy", body: { field: "G2", value: 9 } },
    ]);
    expect(input("G2 for Amy Struggling").value).toBe("9");
  });

  it("keeps a refused value on screen with the server's reason beside the cell", async () => {
    const reason = "Second period grade (G2) is a whole number from 0 to 20.";
    const { user } = await open("teacher", {
      "PUT /api/classes/c1/record/amy": () => ({
        status: 400,
        body: {
          error: { code: "validation", message: "Check the value.", fields: { value: reason } },
        },
      }),
    });
    await user.click(input("G2 for Amy Struggling"));
    await user.keyboard("25{Enter}");
    await waitFor(() => expect(stateOf("G2 for Amy Struggling")).toBe(reason));
    expect(input("G2 for Amy Struggling").value).toBe("25");
    expect(input("G2 for Amy Struggling").getAttribute("aria-invalid")).toBe("true");
  });

  it("keeps a value the network lost, marked not saved, and saves it on retry", async () => {
    let online = false;
    const routes = saving();
    const put = routes["PUT /api/classes/c1/record/ben"]!;
    const { server, user } = await open("teacher", {
      ...routes,
      "PUT /api/classes/c1/record/ben": (request) => {
        if (!online) throw new TypeError("Failed to fetch");
        return put(request);
      },
    });
    await user.click(input("Absences for Ben Steady"));
    await user.keyboard("12{Tab}");
    await waitFor(() => expect(stateOf("Absences for Ben Steady")).toBe("Not saved"));
    expect(input("Absences for Ben Steady").value).toBe("12");
    expect(screen.getByRole("alert").textContent).toMatch(/1 value is not saved yet/);
    // Kept on this device, so a reload would not lose it.
    expect(JSON.parse(stored()).c1).toEqual({ "ben:absences": "12" });

    online = true;
    await user.click(screen.getByRole("button", { name: "Retry Absences for Ben Steady" }));
    await waitFor(() => expect(stateOf("Absences for Ben Steady")).toBe("Saved"));
    expect(server.calls.filter((c) => c.route === "PUT /api/classes/c1/record/ben")).toHaveLength(
      2,
    );
    expect(stored()).toBe("");
  });

  it("brings back the values not saved when the gradebook opens again", async () => {
    localStorage.setItem(draft, JSON.stringify({ c1: { "cal:G3": "13" } }));
    await open("teacher");
    expect(input("G3 for Cal Bright").value).toBe("13");
    expect(stateOf("G3 for Cal Bright")).toBe("Not saved");
  });

  it("moves between cells with the arrow keys, Tab, Shift+Tab and Enter", async () => {
    const { user } = await open("teacher");
    await user.click(input("G1 for Amy Struggling"));
    // Each key pressed in turn, and the cell it moves to.
    const moves: [keys: string, cell: string][] = [
      ["{ArrowDown}", "G1 for Ben Steady"],
      ["{Enter}", "G1 for Cal Bright"],
      ["{ArrowUp}{ArrowRight}", "G2 for Ben Steady"],
      ["{ArrowLeft}", "G1 for Ben Steady"],
      ["{Tab}", "G2 for Ben Steady"],
      ["{Shift>}{Tab}{/Shift}", "G1 for Ben Steady"],
    ];
    for (const [keys, cell] of moves) {
      await user.keyboard(keys);
      expect(document.activeElement).toBe(input(cell));
    }
  });

  it("fills consecutive cells from a column pasted from a spreadsheet and saves each", async () => {
    const { server } = await open("teacher");
    const first = input("G2 for Amy Struggling");
    first.focus();
    fireEvent.paste(first, { clipboardData: { getData: () => "9\r\n14\r\n17\r\n" } });
    await waitFor(() => {
      for (const name of ["Amy Struggling", "Ben Steady", "Cal Bright"]) {
        expect(stateOf(`G2 for ${name}`)).toBe("Saved");
      }
    });
    expect(input("G2 for Ben Steady").value).toBe("14");
    const puts = server.calls.filter((c) => c.route.startsWith("PUT"));
    expect(puts).toEqual([
      { route: "PUT /api/classes/c1/record/amy", body: { field: "G2", value: 9 } },
      { route: "PUT /api/classes/c1/record/ben", body: { field: "G2", value: 14 } },
      { route: "PUT /api/classes/c1/record/cal", body: { field: "G2", value: 17 } },
    ]);
  });

  it("fills a block across columns (tab separated)", async () => {
    const { server } = await open("teacher");
    const first = input("Absences for Ben Steady");
    fireEvent.paste(first, { clipboardData: { getData: () => "3\t1\n0\t0" } });
    await waitFor(() => expect(stateOf("Failures for Cal Bright")).toBe("Saved"));
    expect(server.calls.filter((c) => c.route.startsWith("PUT")).map((c) => c.body)).toEqual([
      { field: "absences", value: 3 },
      { field: "failures", value: 1 },
      { field: "absences", value: 0 },
      { field: "failures", value: 0 },
    ]);
  });

  it("lets an admin read the record and change nothing", async () => {
    const { server, user } = await open("admin");
    expect(screen.getByText(/Only the class's teachers change the record/)).toBeTruthy();
    expect(input("G1 for Amy Struggling").readOnly).toBe(true);
    await user.click(input("G1 for Amy Struggling"));
    await user.keyboard("5{Tab}");
    expect(input("G1 for Amy Struggling").value).toBe("8");
    expect(server.calls.some((c) => c.route.startsWith("PUT"))).toBe(false);
    expect(screen.queryByLabelText("CSV file of values")).toBeNull();
  });

  it("shows a student's history with the corrections", async () => {
    const { user } = await open("teacher", {
      "GET /api/classes/c1/record/amy/history": () => ({
        body: {
          items: [
            { field: "G1", value: 8, setBy: by, setAt: "2026-11-20T10:00:00.000Z", via: "grid" },
            { field: "G1", value: 6, setBy: by, setAt: "2026-11-10T10:00:00.000Z", via: "import" },
          ],
        },
      }),
    });
    await user.click(screen.getByRole("button", { name: "History of Amy Struggling" }));
    const entries = await screen.findAllByTestId("history-entry");
    expect(entries).toHaveLength(2);
    expect(entries[0]!.textContent).toContain("8 (correction: was 6)");
    expect(entries[1]!.textContent).toContain("CSV import");
  });
});

describe("the gradebook on a phone", () => {
  it("shows one student at a time as a form, with previous and next", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const server = fakeServer({
      ...signedInAs(testUser("teacher")),
      "GET /api/classes/c1/record": () => ({ body: recordOf(true) }),
      ...saving(),
    });
    const { user } = renderPage(<Gradebook classId="c1" />, "/classes/c1");
    const form = await screen.findByRole("group", { name: "Amy Struggling (1 of 3)" });
    expect(screen.queryByRole("table")).toBeNull();
    expect((within(form).getByLabelText("First period grade (G1)") as HTMLInputElement).value).toBe(
      "8",
    );
    await user.click(screen.getByRole("button", { name: "Next student" }));
    const ben = screen.getByRole("group", { name: "Ben Steady (2 of 3)" });
    await user.type(within(ben).getByLabelText("Absences"), "4");
    await user.tab();
    await waitFor(() =>
      expect(server.calls.filter((c) => c.route.startsWith("PUT"))).toEqual([
        { route: "PUT /api/classes/c1/record/ben", body: { field: "absences", value: 4 } },
      ]),
    );
    await user.selectOptions(screen.getByLabelText("Student"), "Cal Bright");
    expect(screen.getByRole("group", { name: "Cal Bright (3 of 3)" })).toBeTruthy();
  });
});
