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
  /** The same heading in European Portuguese (issue 33). */
  headingPt: string | RegExp;
  /** Who is signed in when the screen is checked. */
  audiences: readonly Audience[];
}

const signedIn = ["student", "teacher", "admin"] as const;

export const screens: readonly Screen[] = [
  { path: "/login", heading: "Login", headingPt: "Iniciar sessão", audiences: ["anonymous"] },
  { path: "/register", heading: "Sign Up", headingPt: "Registar", audiences: ["anonymous"] },
  {
    path: "/forgot-password",
    heading: "Forgot Password",
    headingPt: "Esqueceu-se da palavra-passe",
    audiences: ["anonymous"],
  },
  {
    path: "/reset-password?token=expired",
    heading: "Reset password",
    headingPt: "Repor a palavra-passe",
    audiences: ["anonymous"],
  },
  {
    path: "/about",
    heading: "About Us",
    headingPt: "Sobre nós",
    audiences: ["anonymous", "student"],
  },
  { path: "/help", heading: "Help", headingPt: "Ajuda", audiences: ["anonymous", "teacher"] },
  {
    path: "/contact",
    heading: "Contact Us",
    headingPt: "Contacte-nos",
    audiences: ["anonymous", "admin"],
  },
  {
    path: "/no-such-page",
    heading: "Page not found",
    headingPt: "Página não encontrada",
    audiences: ["anonymous"],
  },
  {
    path: "/Home",
    heading: /See how learning is going/,
    headingPt: /Veja como vai a aprendizagem/,
    audiences: signedIn,
  },
  {
    path: "/dashboard",
    heading: "Dashboard",
    headingPt: "Painel",
    audiences: ["student", "admin"],
  },
  { path: "/profile", heading: "Profile", headingPt: "Perfil", audiences: signedIn },
  { path: "/settings", heading: "Settings", headingPt: "Definições", audiences: signedIn },
  { path: "/Verify", heading: /Verif/, headingPt: /Verific/, audiences: ["student"] },
  {
    path: "/student-input",
    heading: "Student Input",
    headingPt: "Dados do aluno",
    audiences: ["student"],
  },
  { path: "/prediction", heading: "Prediction", headingPt: "Previsão", audiences: ["student"] },
  {
    path: "/student-dashboard",
    heading: "Student Dashboard",
    headingPt: "Painel dos alunos",
    audiences: signedIn,
  },
  {
    path: "/teacher-dashboard",
    heading: "Teacher Dashboard",
    headingPt: "Painel do professor",
    audiences: ["teacher", "admin"],
  },
  {
    path: "/teacher-input",
    heading: "Teacher Input",
    headingPt: "Dados do professor",
    audiences: ["teacher"],
  },
  { path: "/admin/users", heading: "Users", headingPt: "Utilizadores", audiences: ["admin"] },
  {
    path: "/admin/audit",
    heading: "Audit log",
    headingPt: "Registo de auditoria",
    audiences: ["admin"],
  },
  {
    path: "/admin/data-protection",
    heading: "Data protection",
    headingPt: "Proteção de dados",
    audiences: ["admin"],
  },
  {
    path: "/privacy",
    heading: "Privacy notice",
    headingPt: "Aviso de privacidade",
    audiences: ["anonymous", "student"],
  },
  { path: "/classes", heading: "Classes", headingPt: "Turmas", audiences: ["teacher", "admin"] },
  {
    path: "/classes/{classId}",
    heading: "Maths 10B",
    headingPt: "Maths 10B",
    audiences: ["teacher", "admin"],
  },
  {
    path: "/evaluation",
    heading: "How the model did",
    headingPt: "Como correu o modelo",
    audiences: ["teacher", "admin"],
  },
  // A page the role may not open says so.
  {
    path: "/admin/users",
    heading: "Not allowed",
    headingPt: "Sem permissão",
    audiences: ["student"],
  },
];

export const widths = [360, 1366] as const;
