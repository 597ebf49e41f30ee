/** A whole report the API accepts, for tests that file reports and change a field or two. */
export const validReport = {
  studentName: "Typed Name",
  course: "Mathematics",
  marks: 61,
  attendance: 88,
  assignments: 4,
  behavior: "Good",
  feedback: "Works well with others.",
};
