import { Component, type ErrorInfo, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useT } from "../i18n/intl.tsx";
import { Button } from "./button.tsx";
import { isChunkLoadError } from "./chunk-error.ts";

interface BoundaryProps {
  /** A change (the address) clears the error, so other navigation keeps working. */
  resetKey: string;
  /** No frame around it (the app's outermost boundary): the screen brings its own main. */
  standalone: boolean;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error ?? new Error("Unknown render error") };
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (this.state.error && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null });
    }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Kept in the console for whoever debugs it; the screen says what to do.
    console.warn("Render failed", error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const screen = <RenderErrorScreen error={this.state.error} />;
    if (!this.props.standalone) return screen;
    return (
      <main id="main" className="public-main" tabIndex={-1}>
        {screen}
      </main>
    );
  }
}

// A full reload of the same address is the retry that always works: after a redeploy the old
// chunk names are gone, and React.lazy keeps a failed import for the life of the page.
function reload() {
  window.location.reload();
}

/** What a page that failed to load or render shows instead of a blank screen. */
export function RenderErrorScreen({ error }: { error: unknown }) {
  const { t } = useT();
  const chunk = isChunkLoadError(error);
  return (
    <div className="error-state" role="alert">
      <p className="error-state-title">
        {t(chunk ? "common.error.loadTitle" : "common.error.renderTitle")}
      </p>
      <p>{t(chunk ? "common.error.loadText" : "common.error.renderText")}</p>
      <p className="actions">
        <Button variant="secondary" onClick={reload}>
          {t(chunk ? "common.error.retry" : "common.error.reload")}
        </Button>
        {/* A plain link: a full load starts the app afresh, whatever broke. */}
        <a className="btn btn-ghost" href="/Home">
          {t("common.error.home")}
        </a>
      </p>
    </div>
  );
}

/** Catches a page's render or lazy-load error inside the frame around it, per address. */
export function RouteErrorBoundary({
  standalone = false,
  children,
}: {
  standalone?: boolean;
  children: ReactNode;
}) {
  const { key, pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={`${key} ${pathname}`} standalone={standalone}>
      {children}
    </ErrorBoundary>
  );
}
