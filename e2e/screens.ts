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

/** Each screen as a row: path, heading, heading in Portuguese, audiences. */
const rows: readonly [string, string | RegExp, string | RegExp, readonly Audience[]][] = [
  ["/login", "Login", "Iniciar sessão", ["anonymous"]],
  ["/register", "Sign Up", "Registar", ["anonymous"]],
  ["/forgot-password", "Forgot Password", "Esqueceu-se da palavra-passe", ["anonymous"]],
  ["/reset-password?token=expired", "Reset password", "Repor a palavra-passe", ["anonymous"]],
  ["/about", "About Us", "Sobre nós", ["anonymous", "student"]],
  ["/help", "Help", "Ajuda", ["anonymous", "teacher"]],
  ["/contact", "Contact Us", "Contacte-nos", ["anonymous", "admin"]],
  ["/no-such-page", "Page not found", "Página não encontrada", ["anonymous"]],
  ["/Home", /See how learning is going/, /Veja como vai a aprendizagem/, signedIn],
  ["/dashboard", "Dashboard", "Painel", ["student", "admin"]],
  ["/profile", "Profile", "Perfil", signedIn],
  ["/settings", "Settings", "Definições", signedIn],
  ["/Verify", /Verif/, /Verific/, ["student"]],
  ["/student-input", "Student Input", "Dados do aluno", ["student"]],
  ["/prediction", "Prediction", "Previsão", ["student"]],
  ["/student-dashboard", "Student Dashboard", "Painel dos alunos", signedIn],
  ["/teacher-dashboard", "Teacher Dashboard", "Painel do professor", ["teacher", "admin"]],
  ["/teacher-input", "Teacher Input", "Dados do professor", ["teacher"]],
  ["/admin/users", "Users", "Utilizadores", ["admin"]],
  ["/admin/audit", "Audit log", "Registo de auditoria", ["admin"]],
  ["/admin/data-protection", "Data protection", "Proteção de dados", ["admin"]],
  ["/privacy", "Privacy notice", "Aviso de privacidade", ["anonymous", "student"]],
  ["/classes", "Classes", "Turmas", ["teacher", "admin"]],
  ["/classes/{classId}", "Maths 10B", "Maths 10B", ["teacher", "admin"]],
  ["/evaluation", "How the model did", "Como correu o modelo", ["teacher", "admin"]],
  // A page the role may not open says so.
  ["/admin/users", "Not allowed", "Sem permissão", ["student"]],
];

export const screens: readonly Screen[] = rows.map(([path, heading, headingPt, audiences]) => ({
  path,
  heading,
  headingPt,
  audiences,
}));

export const widths = [360, 1366] as const;
