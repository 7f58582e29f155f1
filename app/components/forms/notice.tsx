/**
 * The forms toolkit's answers: the message box the server renders (so it shows without JavaScript too), the
 * submit button that says it is busy, and the hooks that act once on each answer of the server (a toast).
 */
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { useNavigation } from "react-router";
import { useToast } from "#app/components/ui/toast.tsx";

export type NoticeTone = "info" | "success" | "error";

const TONES: Record<NoticeTone, string> = {
  info: "border-sand-300 bg-sand-50 text-ink",
  success: "border-palm-600 bg-emerald-50 text-emerald-950",
  error: "border-red-600 bg-red-50 text-red-900",
};

/** A message box: a status, or an alert when it says something failed. `status` is its `data-status`. */
export function Notice({
  tone = "info",
  children,
  testId,
  status,
  className,
  toast,
}: {
  tone?: NoticeTone;
  children: ReactNode;
  testId?: string;
  status?: string;
  className?: string;
  /** With JavaScript (app/enhance/forms.js) the answer is this toast instead of the box. */
  toast?: { title: string; description?: string; variant?: string; duration?: number };
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      data-status={status}
      data-answer={toast && "toast"}
      data-toast-title={toast?.title}
      data-toast-description={toast?.description}
      data-toast-variant={toast?.variant}
      data-toast-duration={toast?.duration}
      className={`rounded-md border border-s-4 px-4 py-3 text-sm ${TONES[tone]}${className ? ` ${className}` : ""}`}
    >
      {children}
    </div>
  );
}

const BUTTON_TONES = {
  primary: "bg-desert-600 text-white hover:bg-desert-700",
  /** On a dark band. */
  light: "bg-white text-palm-800 hover:bg-sand-100",
} as const;

/**
 * The form's submit button, disabled while it is on its way: `pending` for a fetcher's form, otherwise while
 * the page's navigation submits. `className` places and sizes it (margin, width, padding), never colours it.
 */
export function SubmitButton({
  children,
  pendingLabel,
  pending,
  testId,
  tone = "primary",
  className = "w-full px-4 py-3",
}: {
  children: ReactNode;
  pendingLabel: string;
  pending?: boolean;
  testId?: string;
  tone?: keyof typeof BUTTON_TONES;
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = pending ?? navigation.state === "submitting";
  return (
    <button
      type="submit"
      disabled={busy}
      data-testid={testId}
      data-pending-label={pendingLabel}
      className={`rounded-md font-bold ${BUTTON_TONES[tone]} disabled:cursor-wait disabled:opacity-70 ${className}`}
    >
      {busy ? pendingLabel : children}
    </button>
  );
}

/** Runs `react` once for each new answer of the server (an action's data, a fetcher's), after rendering. */
export function useOnAnswer<A>(answer: A | null | undefined, react: (answer: A) => void) {
  const latest = useRef(react);
  useEffect(() => {
    latest.current = react;
  });
  const seen = useRef<A | null>(null);
  useEffect(() => {
    if (!answer || seen.current === answer) return;
    seen.current = answer;
    latest.current(answer);
  }, [answer]);
}

/**
 * Shows a server answer as a toast once per `key` (the inline notice covers the no-JavaScript case). Title and
 * message are translation keys.
 */
export function useAnswerToast(answer: { title: string; message: string; variant?: "destructive" | "success" } | null | undefined, key: unknown) {
  const toast = useToast();
  const { t } = useTranslation();
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!answer || shown.current === key) return;
    shown.current = key;
    toast({ title: t(answer.title), description: t(answer.message), variant: answer.variant ?? "destructive" });
  }, [answer, key, t, toast]);
}
