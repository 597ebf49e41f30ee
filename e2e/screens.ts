import type { Audience } from "@gradecast/contract/roles";

// Every screen, as each audience reaches it: the list the accessibility, keyboard and screenshot
// run (screens.test.ts) walks at 360 and 1366 pixels wide. A new screen is one line here.
export interface Screen {
  /**
   * The address typed, as a person would. `{classId}` stands for the demo class the test makes
   * (screens.test.ts), so that its page shows students, predictions and a report.
   */
  path: string;
  /** The page's level-1 heading once it has loaded. */
  heading: string | RegExp;
  /** Who is signed in when the screen is checked. */
  audiences: readonly Audience[];
}

const signedIn = ["student", "teacher", "admin"] as const;

export const screens: readonly Screen[] = [
  { path: "/login", heading: "Login", audiences: ["anonymous"] },
  { path: "/register", heading: "Sign Up", audiences: ["anonymous"] },
  { path: "/forgot-password", heading: "Forgot Password", audiences: ["anonymous"] },
  { path: "/reset-password?token=expired", heading: "Reset password", audiences: ["anonymous"] },
  { path: "/about", heading: "About Us", audiences: ["anonymous", "student"] },
  { path: "/help", heading: "Help", audiences: ["anonymous", "teacher"] },
  { path: "/contact", heading: "Contact Us", audiences: ["anonymous", "admin"] },
  { path: "/no-such-page", heading: "Page not found", audiences: ["anonymous"] },
  { path: "/Home", heading: /See how learning is going/, audiences: signedIn },
  { path: "/dashboard", heading: "Dashboard", audiences: ["student", "admin"] },
  { path: "/profile", heading: "Profile", audiences: signedIn },
  { path: "/settings", heading: "Settings", audiences: signedIn },
  { path: "/Verify", heading: /Verif/, audiences: ["student"] },
  { path: "/student-input", heading: "Student Input", audiences: ["student"] },
  { path: "/prediction", heading: "Prediction", audiences: ["student"] },
  { path: "/student-dashboard", heading: "Student Dashboard", audiences: signedIn },
  { path: "/teacher-dashboard", heading: "Teacher Dashboard", audiences: ["teacher", "admin"] },
  { path: "/teacher-input", heading: "Teacher Input", audiences: ["teacher"] },
  { path: "/admin/users", heading: "Users", audiences: ["admin"] },
  { path: "/admin/audit", heading: "Audit log", audiences: ["admin"] },
  { path: "/admin/data-protection", heading: "Data protection", audiences: ["admin"] },
  { path: "/privacy", heading: "Privacy notice", audiences: ["anonymous", "student"] },
  { path: "/classes", heading: "Classes", audiences: ["teacher", "admin"] },
  { path: "/classes/{classId}", heading: "Maths 10B", audiences: ["teacher", "admin"] },
  { path: "/evaluation", heading: "How the model did", audiences: ["teacher", "admin"] },
  // A page the role may not open says so.
  { path: "/admin/users", heading: "Not allowed", audiences: ["student"] },
];

export const widths = [360, 1366] as const;
