import { validateWithoutEval } from "@gradecast/contract/browser";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { SessionProvider } from "./auth/session.tsx";
import { PageLoading } from "./components/page-loading.tsx";
import { RouteErrorBoundary } from "./components/route-error-boundary.tsx";
import { LocaleProvider } from "./i18n/locale.tsx";
import { AppRoutes } from "./router.tsx";
import "./styles.css";

validateWithoutEval();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider>
        <LocaleProvider>
          {/* The last resort, for a page outside the frames (/Home, /report) or a frame itself:
            never a blank page. Each frame has its own, which keeps its navigation usable. */}
          <RouteErrorBoundary standalone>
            <Suspense fallback={<PageLoading />}>
              <AppRoutes />
            </Suspense>
          </RouteErrorBoundary>
        </LocaleProvider>
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
