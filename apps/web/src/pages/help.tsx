import { joinCodeLength } from "@gradecast/contract/classes";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageHeader } from "../components/page-header.tsx";

// /help: what people ask in their first weeks (issue 28), by topic: classes, predictions,
// privacy, then passwords and the account. Linked from every signed-in page's top bar.

interface Question {
  q: string;
  a: ReactNode;
}

const classes: Question[] = [
  {
    q: "How do I join my class?",
    a: (
      <>
        Verify your email address first, then open the{" "}
        <Link to="/student-dashboard">Student Dashboard</Link> and type the {joinCodeLength} letters
        and digits your teacher gave you under "Join a class". Codes never use 0, 1, I, L or O, so
        there is nothing to mix up: ask your teacher if a character looks like one.
      </>
    ),
  },
  {
    q: "My teacher added me by email. What do I do?",
    a: (
      <>
        <Link to="/register">Sign Up</Link> with the address the invitation was sent to and verify
        it with the emailed code: you are then in the class. If you already have an account with
        that address, log in and verify it.
      </>
    ),
  },
  {
    q: "I am a teacher. How do I start a class?",
    a: (
      <>
        Open <Link to="/classes">Classes</Link> and create one. Give your students its join code, or
        import a class list (a CSV file with a name and an email address per line): students with an
        account are enrolled at once, the others are invited by email. Each class page lists its
        students by risk, with the reasons and a CSV export.
      </>
    ),
  },
  {
    q: "Why can I not use the teacher pages yet?",
    a: (
      <>
        At most schools an admin approves each teacher account: until then it works as a student's,
        and we email you when the admin decides. Your <Link to="/dashboard">Dashboard</Link> says
        whether your request is still waiting.
      </>
    ),
  },
];

const predictions: Question[] = [
  {
    q: "What is my predicted final score?",
    a: (
      <>
        The final grade the model expects from your answers, out of 20, with a range it is 80 % sure
        of. Early in the term, before your term grades are known, the range is wider. The reasons
        beside it say which answers pushed it up or down the most.
      </>
    ),
  },
  {
    q: "How do I update it when I get a new term grade?",
    a: (
      <>
        Answer the questionnaire again on <Link to="/student-input">Student Input</Link> and
        predict: each prediction is kept, so you and your teachers see how it changes over the term.
      </>
    ),
  },
  {
    q: "What does the risk of not sitting the final mean?",
    a: (
      <>
        Some students end the year without a final grade. The model estimates how likely that is
        from answers like past failures and absences; a high risk is a reason to talk to your
        teachers early, not a verdict.
      </>
    ),
  },
];

const privacy: Question[] = [
  {
    q: "Who sees my answers?",
    a: (
      <>
        Your teachers see your predicted score and the reasons drawn from your school record (term
        grades, failures, absences, study time, school support). Your other answers, about family,
        going out or health, are summed as "Other answers" unless you choose "Share my full
        explanation with my teachers" on your prediction. You can turn that off again.
      </>
    ),
  },
  {
    q: "Where is our data kept?",
    a: (
      <>
        On your school's own Gradecast server: nothing is sent to another company. Admins manage
        accounts and every change they make is written to an audit log.
      </>
    ),
  },
];

const passwords: Question[] = [
  {
    q: "I forgot my password. How do I reset it?",
    a: (
      <>
        On the login page choose <Link to="/forgot-password">Forgot Password?</Link>, enter the
        email address of your account and send. We email you a link; open it, choose a new password
        twice, and log in with it.
      </>
    ),
  },
  {
    q: "The reset email has not arrived.",
    a: (
      <>
        Wait a few minutes and look in your spam folder. Check that you typed the address you
        registered with. You can ask for a new link up to five times an hour.
      </>
    ),
  },
  {
    q: "The reset link says it is invalid or expired.",
    a: (
      <>
        A link works once and for 30 minutes. Ask for a new one on the{" "}
        <Link to="/forgot-password">Forgot Password</Link> page and use the newest email.
      </>
    ),
  },
  {
    q: "Will resetting my password sign me out elsewhere?",
    a: (
      <>
        Yes. After a reset, every other device logged in to your account is logged out, so nobody
        who knew your old password stays in.
      </>
    ),
  },
  {
    q: "How do I change my password when I know it?",
    a: (
      <>
        Log in and open <Link to="/settings">Settings</Link>. Enter your current password and the
        new one.
      </>
    ),
  },
  {
    q: "Where is my verification code?",
    a: (
      <>
        We email a 6-digit code when you register. It works for 10 minutes. On the{" "}
        <Link to="/Verify">Verify</Link> page you can ask for a new one.
      </>
    ),
  },
];

export default function Help() {
  return (
    <div className="stack">
      <PageHeader
        title="Help"
        description="Answers to the questions we hear most: classes, predictions, privacy, and passwords."
      />
      <Topic id="faq-classes" title="Classes" questions={classes} />
      <Topic id="faq-predictions" title="Predictions" questions={predictions} />
      <Topic id="faq-privacy" title="Privacy" questions={privacy} />
      <Topic id="faq-title" title="Passwords and your account" questions={passwords} />
      <p>
        Still stuck? <Link to="/contact">Contact us</Link> and we will help.
      </p>
    </div>
  );
}

function Topic({ id, title, questions }: { id: string; title: string; questions: Question[] }) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id} className="card-title">
        {title}
      </h2>
      <dl className="faq">
        {questions.map((item) => (
          <div key={item.q} className="faq-item">
            <dt>{item.q}</dt>
            <dd>{item.a}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
