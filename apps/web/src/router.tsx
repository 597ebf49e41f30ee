import { lazy } from "react";
import { Route, Routes } from "react-router";
import { RequireSignIn } from "./auth/guards.tsx";
import { PublicLayout } from "./components/public-layout.tsx";
import { AppMessagesRoute } from "./i18n/locale.tsx";

// Every page route of the product with its exact path (capitals in /Home and /Verify; matching
// is case-sensitive), each page its own lazily loaded chunk so /login stays small.
const Login = lazy(() => import("./pages/login.tsx"));
const Register = lazy(() => import("./pages/register.tsx"));
const ForgotPassword = lazy(() => import("./pages/forgot-password.tsx"));
const ResetPassword = lazy(() => import("./pages/reset-password.tsx"));
const About = lazy(() => import("./pages/about.tsx"));
const Help = lazy(() => import("./pages/help.tsx"));
const Contact = lazy(() => import("./pages/contact.tsx"));
const Privacy = lazy(() => import("./pages/privacy.tsx"));
const NotFound = lazy(() => import("./pages/not-found.tsx"));
const Home = lazy(() => import("./pages/home.tsx"));
const Report = lazy(() => import("./pages/report.tsx"));
const Unsubscribe = lazy(() => import("./pages/unsubscribe.tsx"));
const Consent = lazy(() => import("./pages/consent.tsx"));
const ConsentWithdraw = lazy(() => import("./pages/consent-withdraw.tsx"));
// The pages inside the app's frame, by their path, each loaded when first opened.
const appPages = {
  "/Verify": lazy(() => import("./pages/verify.tsx")),
  "/dashboard": lazy(() => import("./pages/dashboard.tsx")),
  "/profile": lazy(() => import("./pages/profile.tsx")),
  "/settings": lazy(() => import("./pages/settings.tsx")),
  "/student-dashboard": lazy(() => import("./pages/student-dashboard.tsx")),
  "/teacher-dashboard": lazy(() => import("./pages/teacher-dashboard.tsx")),
  "/student-input": lazy(() => import("./pages/student-input.tsx")),
  "/teacher-input": lazy(() => import("./pages/teacher-input.tsx")),
  "/prediction": lazy(() => import("./pages/prediction.tsx")),
  "/admin/users": lazy(() => import("./pages/admin-users.tsx")),
  "/admin/audit": lazy(() => import("./pages/admin-audit.tsx")),
  "/admin/data-protection": lazy(() => import("./pages/data-protection.tsx")),
  "/admin/model": lazy(() => import("./pages/admin-model.tsx")),
  "/admin/oneroster": lazy(() => import("./pages/admin-oneroster.tsx")),
  "/classes": lazy(() => import("./pages/classes.tsx")),
  "/classes/:id": lazy(() => import("./pages/class.tsx")),
  "/evaluation": lazy(() => import("./pages/evaluation.tsx")),
  "/notifications": lazy(() => import("./pages/notifications.tsx")),
};
// The signed-in frame (sidebar, roles) is not part of the first screen either (issue 33 made room
// in its budget for the messages' formatter): it loads with the first signed-in page.
const AppLayout = lazy(() =>
  import("./pages/app-layout.tsx").then((m) => ({ default: m.AppLayout })),
);
// TanStack Query is only needed past the sign-in screens: it loads with the pages that use it.
const QueryShell = lazy(() => import("./components/query-shell.tsx"));

/** The route table, also read by router.test.ts. */
export const routes = (
  <>
    <Route element={<PublicLayout />}>
      <Route path="/" element={<Login />} />
      <Route path="/login" caseSensitive element={<Login />} />
      {/* Their writes go through TanStack Query, loaded with them (not with /login). */}
      <Route element={<QueryShell />}>
        <Route path="/forgot-password" caseSensitive element={<ForgotPassword />} />
        <Route path="/reset-password" caseSensitive element={<ResetPassword />} />
        {/* Their text is in the catalogue's second part, loaded with them (issue 33). */}
        <Route element={<AppMessagesRoute />}>
          <Route path="/register" caseSensitive element={<Register />} />
          {/* The digest's one-click unsubscribe link (issue 32): no sign-in. */}
          <Route path="/unsubscribe" caseSensitive element={<Unsubscribe />} />
          {/* The guardian's consent links (issue 31): no account, the token is the proof. */}
          <Route path="/consent" caseSensitive element={<Consent />} />
          <Route path="/consent/withdraw" caseSensitive element={<ConsentWithdraw />} />
        </Route>
      </Route>
      {/* Their text is in the catalogue's second part, loaded with them (issue 33). */}
      <Route element={<AppMessagesRoute />}>
        <Route path="/about" caseSensitive element={<About />} />
        <Route path="/help" caseSensitive element={<Help />} />
        <Route path="/contact" caseSensitive element={<Contact />} />
        <Route path="/privacy" caseSensitive element={<Privacy />} />
        <Route id="not-found" path="*" element={<NotFound />} />
      </Route>
    </Route>
    {/* Past the sign-in screens the page needs the catalogue's second part (issue 33). */}
    <Route element={<QueryShell />}>
      <Route element={<AppMessagesRoute />}>
        {/* The analytics report shown inside the student dashboard's frame: no app chrome. */}
        <Route path="/report" caseSensitive element={<Report />} />
        <Route id="signed-in" element={<RequireSignIn />}>
          <Route path="/Home" caseSensitive element={<Home />} />
          <Route element={<AppLayout />}>
            {Object.entries(appPages).map(([path, Page]) => (
              <Route key={path} path={path} caseSensitive element={<Page />} />
            ))}
          </Route>
        </Route>
      </Route>
    </Route>
  </>
);

export function AppRoutes() {
  return <Routes>{routes}</Routes>;
}
