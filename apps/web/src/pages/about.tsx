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
            <strong>Now:</strong> accounts with email verification, teacher reports, the student
            questionnaire and grade prediction, the analytics report.
          </li>
          <li>
            <strong>Next:</strong> per-class views for teachers, trends over a school year, and
            exports for school information systems.
          </li>
          <li>
            <strong>Later:</strong> more languages, and sign-in with a school's own identity
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
