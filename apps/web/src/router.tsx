import { lazy } from "react";
import { Route, Routes } from "react-router";
import { RequireSignIn } from "./auth/guards.tsx";
import { AppLayout } from "./components/app-layout.tsx";
import { PublicLayout } from "./components/public-layout.tsx";

// Every route of SPEC.md section 2 with its exact path (capitals in /Home and /Verify; matching
// is case-sensitive), each page its own lazily loaded chunk so /login stays small.
const Login = lazy(() => import("./pages/login.tsx"));
const Register = lazy(() => import("./pages/register.tsx"));
const ForgotPassword = lazy(() => import("./pages/forgot-password.tsx"));
const ResetPassword = lazy(() => import("./pages/reset-password.tsx"));
const About = lazy(() => import("./pages/about.tsx"));
const Help = lazy(() => import("./pages/help.tsx"));
const Contact = lazy(() => import("./pages/contact.tsx"));
const NotFound = lazy(() => import("./pages/not-found.tsx"));
const Home = lazy(() => import("./pages/home.tsx"));
const Verify = lazy(() => import("./pages/verify.tsx"));
const Dashboard = lazy(() => import("./pages/dashboard.tsx"));
const Profile = lazy(() => import("./pages/profile.tsx"));
const Settings = lazy(() => import("./pages/settings.tsx"));
const StudentDashboard = lazy(() => import("./pages/student-dashboard.tsx"));
const TeacherDashboard = lazy(() => import("./pages/teacher-dashboard.tsx"));
const StudentInput = lazy(() => import("./pages/student-input.tsx"));
const TeacherInput = lazy(() => import("./pages/teacher-input.tsx"));
const Prediction = lazy(() => import("./pages/prediction.tsx"));
const AdminUsers = lazy(() => import("./pages/admin-users.tsx"));
const AdminAudit = lazy(() => import("./pages/admin-audit.tsx"));
const Report = lazy(() => import("./pages/report.tsx"));
// TanStack Query is only needed past the sign-in screens: it loads with the pages that use it.
const QueryShell = lazy(() => import("./components/query-shell.tsx"));

/** The route table, also read by router.test.ts. */
export const routes = (
  <>
    <Route element={<PublicLayout />}>
      <Route path="/" element={<Login />} />
      <Route path="/login" caseSensitive element={<Login />} />
      <Route path="/register" caseSensitive element={<Register />} />
      <Route path="/forgot-password" caseSensitive element={<ForgotPassword />} />
      <Route path="/reset-password" caseSensitive element={<ResetPassword />} />
      <Route path="/about" caseSensitive element={<About />} />
      <Route path="/help" caseSensitive element={<Help />} />
      <Route path="/contact" caseSensitive element={<Contact />} />
      <Route id="not-found" path="*" element={<NotFound />} />
    </Route>
    <Route element={<QueryShell />}>
      {/* The analytics report shown inside the student dashboard's frame: no app chrome. */}
      <Route path="/report" caseSensitive element={<Report />} />
      <Route id="signed-in" element={<RequireSignIn />}>
        <Route path="/Home" caseSensitive element={<Home />} />
        <Route element={<AppLayout />}>
          <Route path="/Verify" caseSensitive element={<Verify />} />
          <Route path="/dashboard" caseSensitive element={<Dashboard />} />
          <Route path="/profile" caseSensitive element={<Profile />} />
          <Route path="/settings" caseSensitive element={<Settings />} />
          <Route path="/student-dashboard" caseSensitive element={<StudentDashboard />} />
          <Route path="/teacher-dashboard" caseSensitive element={<TeacherDashboard />} />
          <Route path="/student-input" caseSensitive element={<StudentInput />} />
          <Route path="/teacher-input" caseSensitive element={<TeacherInput />} />
          <Route path="/prediction" caseSensitive element={<Prediction />} />
          <Route path="/admin/users" caseSensitive element={<AdminUsers />} />
          <Route path="/admin/audit" caseSensitive element={<AdminAudit />} />
        </Route>
      </Route>
    </Route>
  </>
);

export function AppRoutes() {
  return <Routes>{routes}</Routes>;
}
