import type { ClassView, MyClassInvitation } from "@gradecast/contract/classes";

// The invitation and the joined class that both the English and the Portuguese join-class tests
// show; each test names them in its own language.
export function invitationTo(name: string, teacher: string): MyClassInvitation {
  return {
    classId: "c1",
    name,
    subject: "mat",
    year: "2026/27",
    teachers: [{ name: teacher }],
    invitedAt: "2026-11-20T10:00:00.000Z",
  };
}

export function joinedClass(name: string, teacher: { name: string; email: string }): ClassView {
  return {
    id: "c2",
    name,
    subject: "por",
    year: "2026/27",
    teachers: [{ id: "t2", ...teacher }],
    studentCount: 12,
    createdAt: "2026-11-01T10:00:00.000Z",
  };
}
