// The traffic of bench/soak: what the next request of a connection is, built the way the web app
// builds it, with the per-account pacing that keeps every request under the server's limits.

export const kinds = ["sign-in", "report search", "report creation", "prediction"] as const;
export type Kind = (typeof kinds)[number];

/** Shares of planned requests (a sign-in or prediction not due yet becomes a search). */
const weights: Record<Kind, number> = {
  "sign-in": 0.04,
  "report search": 0.46,
  "report creation": 0.2,
  prediction: 0.3,
};

/** Login: 10 a minute per address and email; one per account every 7 s stays at 9. */
const signInGapMs = 7_000;
/** POST /api/predict: 120 a minute per user; one every 0.55 s stays at 110. */
const predictGapMs = 550;
/** Report creations: 300 a minute per account; each teacher files at most one per 0.21 s. */
const createGapMs = 210;

export interface Account {
  email: string;
  password: string;
  role: "teacher" | "student";
  token: string;
}

export interface Planned {
  kind: Kind;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect: number;
  /** Set when the planned kind could not be sent yet and a search went instead. */
  fallback?: boolean;
  onAnswer?: (text: string) => void;
}

const firstNames = ["Ann", "Bob", "Carla", "Emma", "Hugo", "Mia", "Noah", "Rosa", "Zoe", "Omar"];
const lastNames = ["Smith", "Garcia", "Nguyen", "Rossi", "Tanaka", "Patel", "Kim", "O'Brien"];
const searches = ["smith", "Mia", "garc", "ann k", "NGUYEN", "o'b", "zoe", "ivan", "pat", "ross"];
const courses = ["Mathematics", "Physics", "Chemistry", "Biology", "History", "Literature"];
const behaviors = ["Excellent", "Good", "Average", "Needs Improvement", "Poor"];
const phrases = [
  "Steady progress this term.",
  "Hands in homework on time.",
  "Needs to revise the last chapter.",
  "Asks good questions in class.",
  "Lab notes are careful and complete.",
];

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const int = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** The questionnaire as the form sends it (values as strings), with some answers varied. */
function questionnaire(): string {
  return JSON.stringify({
    school: pick(["GP", "MS"]),
    sex: pick(["F", "M"]),
    age: String(int(15, 19)),
    address: pick(["U", "R"]),
    famsize: "GT3",
    Pstatus: "T",
    Medu: String(int(0, 4)),
    Fedu: String(int(0, 4)),
    Mjob: "services",
    Fjob: "other",
    reason: "course",
    guardian: "mother",
    traveltime: String(int(1, 4)),
    studytime: String(int(1, 4)),
    failures: String(int(0, 3)),
    schoolsup: "no",
    famsup: "yes",
    paid: "no",
    activities: pick(["yes", "no"]),
    nursery: "yes",
    higher: "yes",
    internet: "yes",
    romantic: pick(["yes", "no"]),
    famrel: String(int(1, 5)),
    freetime: String(int(1, 5)),
    goout: String(int(1, 5)),
    health: String(int(1, 5)),
    absences: String(int(0, 20)),
    G1: String(int(4, 19)),
    G2: String(int(4, 19)),
  });
}

function newReport(): string {
  return JSON.stringify({
    studentName: `${pick(firstNames)} ${pick(lastNames)}`,
    course: pick(courses),
    marks: int(0, 100),
    attendance: int(40, 100),
    assignments: int(0, 6),
    behavior: pick(behaviors),
    feedback: `${pick(phrases)} ${pick(phrases)}`,
  });
}

/** Accounts in the order they become due again: the front is the one idle the longest. */
class DueQueue {
  private items: { account: Account; due: number }[];
  constructor(accounts: Account[]) {
    this.items = accounts.map((account) => ({ account, due: 0 }));
  }
  /** The next account if it is due, moved to the back with its next due time. */
  take(gapMs: number): Account | undefined {
    const front = this.items[0];
    const now = performance.now();
    if (!front || front.due > now) return undefined;
    this.items.shift();
    front.due = now + gapMs;
    this.items.push(front);
    return front.account;
  }
}

export class Mix {
  private teachers: Account[];
  private signIns: DueQueue;
  private predictors: DueQueue;
  private creators: DueQueue;

  constructor(accounts: Account[]) {
    this.teachers = accounts.filter((a) => a.role === "teacher");
    this.signIns = new DueQueue(accounts);
    this.predictors = new DueQueue(accounts.filter((a) => a.role === "student"));
    this.creators = new DueQueue(this.teachers);
  }

  next(): Planned {
    let r = Math.random();
    let kind: Kind = "report search";
    for (const k of kinds) {
      if (r < weights[k]) {
        kind = k;
        break;
      }
      r -= weights[k];
    }
    if (kind === "sign-in") {
      const account = this.signIns.take(signInGapMs);
      if (account) return this.signIn(account);
    } else if (kind === "prediction") {
      const account = this.predictors.take(predictGapMs);
      if (account) return this.predict(account);
    } else if (kind === "report creation") {
      const account = this.creators.take(createGapMs);
      if (account) return this.create(account);
    }
    return { ...this.search(), fallback: kind !== "report search" };
  }

  private auth(account: Account, json: boolean): Record<string, string> {
    return {
      authorization: `Bearer ${account.token}`,
      ...(json ? { "content-type": "application/json" } : {}),
    };
  }

  private signIn(account: Account): Planned {
    return {
      kind: "sign-in",
      method: "POST",
      path: "/api/auth/login",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: account.email, password: account.password }),
      expect: 200,
      // The new ID token replaces the old one, as in the web app.
      onAnswer: (text) => {
        account.token = (JSON.parse(text) as { token: string }).token;
      },
    };
  }

  private search(): Planned {
    const q = encodeURIComponent(pick(searches));
    return {
      kind: "report search",
      method: "GET",
      path: `/api/reports?search=${q}&limit=25`,
      headers: this.auth(pick(this.teachers), false),
      expect: 200,
    };
  }

  private create(account: Account): Planned {
    return this.write("report creation", "/api/reports", account, newReport(), 201);
  }

  private predict(account: Account): Planned {
    return this.write("prediction", "/api/predict", account, questionnaire(), 200);
  }

  /** A JSON POST by the account, answered with `expect` when it went well. */
  private write(kind: Kind, path: string, account: Account, body: string, expect: number): Planned {
    return { kind, method: "POST", path, headers: this.auth(account, true), body, expect };
  }
}
