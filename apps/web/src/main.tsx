import { validateWithoutEval } from "@gradecast/contract/browser";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { SessionProvider } from "./auth/session.tsx";
import { Spinner } from "./components/spinner.tsx";
import { AppRoutes } from "./router.tsx";
import "./styles.css";

validateWithoutEval();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider>
        <Suspense fallback={<Spinner label="Loading..." className="spinner-page" />}>
          <AppRoutes />
        </Suspense>
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
