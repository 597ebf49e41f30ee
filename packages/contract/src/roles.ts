// Roles, the pages each may use and the sidebar each sees. The web app's
// sidebar and route guards read this file; the server enforces the route entries (routes/), written in the
// same terms.
export const roles = ["student", "teacher", "admin"] as const;
export type Role = (typeof roles)[number];
/** A role's name as the screens show it. */
export const roleLabels: Readonly<Record<Role, string>> = {
  student: "Student",
  teacher: "Teacher",
  admin: "Admin",
};
export type Audience = "anonymous" | Role;

export interface PageRule {
  path: string;
  title: string;
  /** Roles that may open the page; "signedIn" means every role. */
  roles: readonly Role[] | "signedIn";
  /** Shown in the sidebar, in this order, when the role may open the page. */
  sidebar?: string;
  /** Narrower than `roles` where the sidebar hides an item the role may still open. */
  sidebarRoles?: readonly Role[];
}

const everyone = "signedIn" as const;

/** A page with a sidebar item, labelled with the page's title. */
function inSidebar(
  path: string,
  title: string,
  roles: PageRule["roles"],
  sidebarRoles?: readonly Role[],
): PageRule {
  return { path, title, roles, sidebar: title, ...(sidebarRoles && { sidebarRoles }) };
}

export const appPages: readonly PageRule[] = [
  inSidebar("/dashboard", "Dashboard", everyone, ["student", "admin"]),
  inSidebar("/profile", "Profile", everyone),
  inSidebar("/student-input", "Student Input", ["student", "admin"]),
  // The student's latest prediction, read back without predicting again (issue 28).
  inSidebar("/prediction", "Prediction", ["student", "admin"]),
  inSidebar("/teacher-input", "Teacher Input", ["teacher", "admin"]),
  inSidebar("/student-dashboard", "Student Dashboard", everyone),
  inSidebar("/teacher-dashboard", "Teacher Dashboard", ["teacher", "admin"]),
  inSidebar("/classes", "Classes", ["teacher", "admin"]),
  // How the model did against the outcomes recorded in the gradebooks (issue 29).
  inSidebar("/evaluation", "How the model did", ["teacher", "admin"]),
  inSidebar("/settings", "Settings", everyone),
  inSidebar("/admin/users", "Users", ["admin"]),
  inSidebar("/admin/audit", "Audit log", ["admin"]),
  // Retention, purges, deletions and students to review (issue 31).
  inSidebar("/admin/data-protection", "Data protection", ["admin"]),
  // The model's versions: train on the school's outcomes, promote, roll back (issue 30).
  inSidebar("/admin/model", "Model", ["admin"]),
  // Rosters from the school's information system (issue 34).
  inSidebar("/admin/oneroster", "OneRoster import", ["admin"]),
  // Issue 32: reached from the header's link (with the number unread), not the sidebar.
  { path: "/notifications", title: "Notifications", roles: everyone },
  { path: "/Verify", title: "Verify email", roles: everyone },
  { path: "/Home", title: "Home", roles: everyone },
];

export function canOpenPage(role: Role, path: string): boolean {
  const page = appPages.find((p) => p.path === path);
  if (!page) return true;
  return page.roles === "signedIn" || page.roles.includes(role);
}

/**
 * The sidebar: an admin sees every item; a teacher only Teacher Input,
 * Student Dashboard, Teacher Dashboard, Settings and Profile; any other role everything but
 * Teacher Input. Two decisions on top (docs/decisions/0002-sidebar.md): a student does not see
 * Teacher Dashboard, since reports about other students are not theirs to read, and admin
 * screens (Users, Audit log) are the admin's alone. Logout is always last.
 */
export function sidebarFor(role: Role): { path: string; label: string }[] {
  return appPages
    .filter(
      (p) =>
        p.sidebar !== undefined &&
        canOpenPage(role, p.path) &&
        (p.sidebarRoles === undefined || p.sidebarRoles.includes(role)),
    )
    .map((p) => ({ path: p.path, label: p.sidebar as string }));
}
