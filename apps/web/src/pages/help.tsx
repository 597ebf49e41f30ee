import { Link } from "react-router";
import { PageHeader } from "../components/page-header.tsx";

const faq = [
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
        Yes. After a reset, every other device signed in to your account is signed out, so nobody
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
        description="Answers to the questions we hear most, starting with passwords."
      />
      <section aria-labelledby="faq-title" className="card">
        <h2 id="faq-title" className="card-title">
          Frequently asked questions
        </h2>
        <dl className="faq">
          {faq.map((item) => (
            <div key={item.q} className="faq-item">
              <dt>{item.q}</dt>
              <dd>{item.a}</dd>
            </div>
          ))}
        </dl>
      </section>
      <p>
        Still stuck? <Link to="/contact">Contact us</Link> and we will help.
      </p>
    </div>
  );
}
