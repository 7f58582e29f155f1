import type { ReactNode } from "react";
import { isRouteErrorResponse, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { ErrorScreen } from "#app/components/layout/error-screens.tsx";
import { SignOutButton } from "./sign-out-button.tsx";

export type GuardReason = "access-denied" | "permission-needed" | "confirm-email" | "cross-origin" | "unauthenticated" | "not-yours";

const MESSAGES: Record<GuardReason, string> = {
  "access-denied": "admin.accessDenied",
  "permission-needed": "admin.permissionNeeded",
  "confirm-email": "admin.confirmEmail",
  "cross-origin": "adminShell.crossOrigin",
  unauthenticated: "adminShell.signInNeeded",
  // Ownership (issue 40): another person's item or author profile, for an account without content.others.
  "not-yours": "rights.notYours",
};

/** The guard's answer when the server refused (403 with a reason), else null. */
export function guardReasonOf(error: unknown): GuardReason | null {
  if (!isRouteErrorResponse(error) || (error.status !== 403 && error.status !== 401)) return null;
  const reason = (error.data as { reason?: string } | null)?.reason;
  return reason && reason in MESSAGES ? (reason as GuardReason) : null;
}

const button = "rounded-md px-4 py-2 font-bold";

/** Back to where the reader came from (the home page without JavaScript or history). */
function BackButton() {
  const { t } = useTranslation();
  return (
    <a
      href="/"
      data-testid="guard-back"
      onClick={(e) => {
        if (window.history.length > 1) {
          e.preventDefault();
          window.history.back();
        }
      }}
      className={`${button} border border-sand-300 hover:bg-sand-100`}
    >
      {t("adminShell.back")}
    </a>
  );
}

/** What the guard shows instead of a page (back-office.md §4 and §6). */
export function GuardScreen({ reason }: { reason: GuardReason }) {
  const { t } = useTranslation();
  let actions: ReactNode;
  if (reason === "access-denied" || reason === "confirm-email") {
    actions = (
      <>
        <BackButton />
        <SignOutButton className={`${button} bg-desert-600 text-white hover:bg-desert-700`} testId="guard-sign-out" />
      </>
    );
  } else if (reason === "permission-needed" || reason === "not-yours") {
    actions = (
      <>
        <BackButton />
        <Link to="/admin" className={`${button} bg-desert-600 text-white hover:bg-desert-700`} data-testid="guard-dashboard">
          {t("admin.dashboard")}
        </Link>
      </>
    );
  } else {
    actions = <BackButton />;
  }
  return (
    <section role="alert" data-testid={`guard-${reason}`} className="mx-auto max-w-xl px-4 py-16 text-center">
      <svg
        width="48"
        height="48"
        viewBox="0 0 24 24"
        aria-hidden="true"
        className="mx-auto text-desert-600"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
      >
        <rect x="5" y="11" width="14" height="10" rx="2" />
        <path d="M8 11V8a4 4 0 0 1 8 0v3" />
      </svg>
      <h1 className="mt-4 text-2xl font-bold">{t(MESSAGES[reason])}</h1>
      <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div>
    </section>
  );
}

/** Error boundary body for the admin pages: the guard's screens, or the generic error screen. */
export function AdminError({ error }: { error: unknown }) {
  const reason = guardReasonOf(error);
  return reason ? <GuardScreen reason={reason} /> : <ErrorScreen error={error} />;
}
