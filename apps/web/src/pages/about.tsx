import { Card } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";

export default function About() {
  return (
    <div className="stack">
      <PageHeader
        title="About Us"
        description="Gradecast helps students, teachers and schools see how learning is going, early enough to act."
      />
      <Card title="What Gradecast does">
        <ul className="list">
          <li>
            Teachers write a short report per student: course, marks, attendance, assignments,
            behavior and feedback.
          </li>
          <li>
            Students answer a questionnaire about their studies and daily life and get a predicted
            final score out of 20, with the reasons behind it.
          </li>
          <li>
            Teachers run classes: each class lists its students by risk of a low final, with the
            reasons a teacher may see, so that help comes early.
          </li>
          <li>An analytics report shows how a class or a school is doing.</li>
        </ul>
      </Card>
      <Card title="Our team">
        <p>
          Gradecast is built by a small team of teachers and software engineers who wanted the
          insight of learning analytics without sending student data to someone else's cloud. A
          school runs Gradecast on its own server; its data stays there.
        </p>
      </Card>
      <Card title="Roadmap">
        <ol className="list">
          <li>
            <strong>Now:</strong> accounts with email verification and two-step login for admins;
            teacher reports with a CSV export; classes that students join with a code or from an
            imported class list; a risk list per class with reasons and intervention notes; the
            student questionnaire with a predicted final, its reasons and an 80 % range, from the
            first week of term; the analytics report; user management and an audit log.
          </li>
          <li>
            <strong>Next:</strong> trends over a whole school year, and exports for school
            information systems.
          </li>
          <li>
            <strong>Later:</strong> more languages, and logging in with a school's own identity
            provider.
          </li>
        </ol>
      </Card>
      <p className="muted">
        The grade model learns from the UCI Student Performance data set (P. Cortez and A. Silva,
        2008), used under CC BY 4.0.
      </p>
    </div>
  );
}
