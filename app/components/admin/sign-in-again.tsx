/**
 * Signing in again without leaving the editor (docs/how-it-works.md, "No lost work"): when the session ended
 * while an editor was typing, this in-page dialog posts to the sign-in page's own action (/auth, with its
 * checks and rate limit) and comes back to this same address; the form stays as it was typed, and the page
 * then sends the save that was refused.
 */
import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { AUTH_ERRORS, type AccountFormError } from "#domain/schemas/auth.ts";
import { Field } from "#app/components/forms/field.tsx";
import { Notice } from "#app/components/forms/notice.tsx";
import { CloseDialogButton, ModalDialog } from "./modal-dialog.tsx";

type SignInAnswer = { ok: false; formError?: AccountFormError; fields?: Record<string, string> } | { ok: true } | undefined;

export function SignInAgainDialog({ open, email, onSignedIn, onClose }: { open: boolean; email: string; onSignedIn: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher<SignInAnswer>();
  const password = useRef<HTMLInputElement>(null);
  const busy = fetcher.state !== "idle";
  const wasBusy = useRef(false);
  /** The answer the dialog had when it posted: a redirect leaves it as it was (React Router keeps a fetcher's last data). */
  const before = useRef<SignInAnswer>(undefined);
  /** The same, for the page: a refusal older than the last post is not shown. */
  const [stale, setStale] = useState<SignInAnswer>(undefined);
  const answer = fetcher.data;

  // The post went through when it brought no new refusal: the sign-in page redirected here, signed in.
  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    if (answer === before.current || !answer || answer.ok !== false) onSignedIn();
  }, [busy, answer, onSignedIn]);

  const refusal = answer && answer.ok === false && answer !== stale ? answer : null;
  // Fields refused (REQUIRED, INVALID) are told by their first message.
  const code = refusal?.formError === "REQUIRED" || refusal?.formError === "INVALID" ? undefined : refusal?.formError;
  const message = refusal
    ? code
      ? (AUTH_ERRORS[code]?.message ?? "auth.signInFailed")
      : (Object.values(refusal.fields ?? {})[0] ?? "auth.signInFailed")
    : null;

  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      labelledBy="sign-in-again-title"
      describedBy="sign-in-again-text"
      initialFocus={password}
      testId="sign-in-dialog"
    >
      <h2 id="sign-in-again-title" className="text-lg font-bold">
        {t("autosave.signInTitle")}
      </h2>
      <p id="sign-in-again-text" className="mt-2 text-sm text-ink-soft">
        {t("autosave.signInText")}
      </p>
      <fetcher.Form
        method="post"
        action="/auth"
        className="mt-4 space-y-4"
        noValidate
        onSubmit={() => {
          before.current = fetcher.data;
          setStale(fetcher.data);
        }}
      >
        <input type="hidden" name="mode" value="signIn" />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        {message && (
          <Notice tone="error" testId="sign-in-again-error">
            {t(message)}
          </Notice>
        )}
        <Field id="sign-in-again-email" label={t("auth.email")}>
          {(control) => (
            <input
              {...control}
              name="email"
              type="email"
              dir="ltr"
              autoComplete="username"
              defaultValue={email}
              required
              className={`${control.className} h-11`}
              data-testid="sign-in-again-email"
            />
          )}
        </Field>
        <Field id="sign-in-again-password" label={t("auth.password")}>
          {(control) => (
            <input
              {...control}
              ref={password}
              name="password"
              type="password"
              dir="ltr"
              autoComplete="current-password"
              required
              className={`${control.className} h-11`}
              data-testid="sign-in-again-password"
            />
          )}
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          <CloseDialogButton testId="sign-in-again-cancel" />
          <button
            type="submit"
            disabled={busy}
            aria-busy={busy || undefined}
            className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-70"
            data-testid="sign-in-again-submit"
          >
            {busy ? t("autosave.signingIn") : t("autosave.signInSubmit")}
          </button>
        </div>
      </fetcher.Form>
    </ModalDialog>
  );
}
