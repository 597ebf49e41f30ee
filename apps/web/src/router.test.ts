import { appPages, sidebarFor } from "@gradecast/contract/roles";
import { createRoutesFromElements, matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { routes } from "./router.tsx";

const table = createRoutesFromElements(routes);
const match = (path: string) => (matchRoutes(table, path) ?? []).map((m) => m.route);
const leaf = (path: string) => match(path).at(-1);
const needsSignIn = (path: string) => match(path).some((r) => r.id === "signed-in");

// The product's page routes, letter for letter, plus /reset-password (the emailed link's target).
const specPaths = [
  "/",
  "/login",
  "/Home",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/Verify",
  "/dashboard",
  "/student-dashboard",
  "/teacher-dashboard",
  "/profile",
  "/settings",
  "/about",
  "/help",
  "/contact",
  "/student-input",
  "/teacher-input",
  "/prediction",
  "/admin/users",
  "/admin/audit",
];

describe("route table", () => {
  it("has a page for every route of the product and every app page of the contract", () => {
    for (const path of [...specPaths, ...appPages.map((p) => p.path)]) {
      const route = leaf(path);
      expect(route, path).toBeDefined();
      expect(route?.id, path).not.toBe("not-found");
      expect(route?.path, path).toBe(path === "/" ? "/" : path);
    }
  });

  it("asks for a sign-in on exactly the app pages", () => {
    for (const page of appPages) expect(needsSignIn(page.path), page.path).toBe(true);
    for (const path of ["/", "/login", "/register", "/forgot-password", "/reset-password"]) {
      expect(needsSignIn(path), path).toBe(false);
    }
    for (const path of ["/about", "/help", "/contact", "/report"]) {
      expect(needsSignIn(path), path).toBe(false);
    }
  });

  it("keeps the capitals: /home and /verify are not pages", () => {
    expect(leaf("/home")?.id).toBe("not-found");
    expect(leaf("/verify")?.id).toBe("not-found");
    expect(leaf("/Dashboard")?.id).toBe("not-found");
    expect(leaf("/no/such/page")?.id).toBe("not-found");
  });
});

// The sidebar each role sees (docs/decisions/0002-sidebar.md);
// the layout adds Logout last.
describe("sidebar per role", () => {
  const labels = (role: "student" | "teacher" | "admin") => sidebarFor(role).map((i) => i.label);

  it("admin sees every item", () => {
    expect(labels("admin")).toEqual([
      "Dashboard",
      "Profile",
      "Student Input",
      "Prediction",
      "Teacher Input",
      "Student Dashboard",
      "Teacher Dashboard",
      "Classes",
      "How the model did",
      "Settings",
      "Users",
      "Audit log",
      "Data protection",
      "Model",
      "OneRoster import",
    ]);
  });

  it("teacher sees only Teacher Input, Student Dashboard, Teacher Dashboard, Settings and Profile, and Classes (issue 17)", () => {
    expect(new Set(labels("teacher"))).toEqual(
      new Set([
        "Teacher Input",
        "Student Dashboard",
        "Teacher Dashboard",
        "Settings",
        "Profile",
        "Classes",
        "How the model did",
      ]),
    );
  });

  it("student sees everything but Teacher Input (and no staff or admin screen)", () => {
    // the admin's list (pinned above) in the same order, less the staff and admin screens
    const staffOnly = [
      "Teacher Input",
      "Teacher Dashboard",
      "Classes",
      "How the model did",
      "Users",
      "Audit log",
      "Data protection",
      "Model",
      "OneRoster import",
    ];
    expect(labels("student")).toEqual(labels("admin").filter((l) => !staffOnly.includes(l)));
  });

  it("every sidebar item leads to a page of the router", () => {
    for (const role of ["student", "teacher", "admin"] as const) {
      for (const item of sidebarFor(role)) expect(leaf(item.path)?.path).toBe(item.path);
    }
  });
});
