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

export const appPages: readonly PageRule[] = [
  {
    path: "/dashboard",
    title: "Dashboard",
    roles: everyone,
    sidebar: "Dashboard",
    sidebarRoles: ["student", "admin"],
  },
  { path: "/profile", title: "Profile", roles: everyone, sidebar: "Profile" },
  {
    path: "/student-input",
    title: "Student Input",
    roles: ["student", "admin"],
    sidebar: "Student Input",
  },
  // The student's latest prediction, read back without predicting again (issue 28).
  { path: "/prediction", title: "Prediction", roles: ["student", "admin"], sidebar: "Prediction" },
  {
    path: "/teacher-input",
    title: "Teacher Input",
    roles: ["teacher", "admin"],
    sidebar: "Teacher Input",
  },
  {
    path: "/student-dashboard",
    title: "Student Dashboard",
    roles: everyone,
    sidebar: "Student Dashboard",
  },
  {
    path: "/teacher-dashboard",
    title: "Teacher Dashboard",
    roles: ["teacher", "admin"],
    sidebar: "Teacher Dashboard",
  },
  { path: "/classes", title: "Classes", roles: ["teacher", "admin"], sidebar: "Classes" },
  // How the model did against the outcomes recorded in the gradebooks (issue 29).
  {
    path: "/evaluation",
    title: "How the model did",
    roles: ["teacher", "admin"],
    sidebar: "How the model did",
  },
  { path: "/settings", title: "Settings", roles: everyone, sidebar: "Settings" },
  { path: "/admin/users", title: "Users", roles: ["admin"], sidebar: "Users" },
  { path: "/admin/audit", title: "Audit log", roles: ["admin"], sidebar: "Audit log" },
  // Retention, purges, deletions and students to review (issue 31).
  {
    path: "/admin/data-protection",
    title: "Data protection",
    roles: ["admin"],
    sidebar: "Data protection",
  },
  // The model's versions: train on the school's outcomes, promote, roll back (issue 30).
  { path: "/admin/model", title: "Model", roles: ["admin"], sidebar: "Model" },
  // Rosters from the school's information system (issue 34).
  {
    path: "/admin/oneroster",
    title: "OneRoster import",
    roles: ["admin"],
    sidebar: "OneRoster import",
  },
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
