/**
 * The two forms of the opinion page: the newsletter sign-up (double opt-in, the e-mail carries the link) and
 * the write-article box (a proposal to the newsroom). Both post to the /opinion action, through a fetcher when
 * JavaScript runs and as a plain form post when it does not; the same zod schema checks them here first.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useActionData, useFetcher } from "react-router";
import { useTranslation } from "react-i18next";
import { useToast } from "#app/components/ui/toast.tsx";
import { ArticleProposalSchema, NewsletterSchema, PROPOSAL_LIMITS, proposalFormValues, type ProposalField } from "#domain/schemas/newsletter.ts";
import { fieldErrorsOf } from "#domain/schemas/shared.ts";
import { HONEYPOT_FIELD } from "#domain/schemas/contact.ts";
import { useCount } from "#app/lib/i18n.ts";

export type OpinionActionData =
  | { intent: "newsletter"; ok: true }
  | { intent: "newsletter"; ok: false; errors?: { email?: string }; formError?: "MAIL_FAILED" | "RATE_LIMITED" }
  | { intent: "proposal"; ok: true }
  | { intent: "proposal"; ok: false; errors?: Partial<Record<ProposalField, string>>; formError?: "SAVE_FAILED" | "RATE_LIMITED" }
  | { intent: null; ok: false; formError: "UNKNOWN_INTENT" | "TOO_LARGE" | "BAD_REQUEST" };

type Field = ProposalField;
type FieldProps = { id: string; name: Field; required: true; "aria-invalid"?: true; "aria-describedby"?: string; className: string };

/** The result of the last post of this form, whether it went through the fetcher or a full page post. */
function useResult<I extends "newsletter" | "proposal">(intent: I, fetcherData: OpinionActionData | undefined) {
  const actionData = useActionData() as OpinionActionData | undefined;
  const data = fetcherData ?? actionData;
  return data?.intent === intent ? (data as Extract<OpinionActionData, { intent: I }>) : undefined;
}

const inputClass =
  "mt-1 block w-full rounded-md border border-sand-300 bg-white px-3 py-2 text-ink placeholder:text-ink-soft/70 focus:border-desert-600 focus:outline-none focus:ring-2 focus:ring-desert-500/40 aria-[invalid=true]:border-red-700";

export function NewsletterForm() {
  const { t } = useTranslation();
  const fetcher = useFetcher<OpinionActionData>({ key: "newsletter" });
  const result = useResult("newsletter", fetcher.data);
  const [clientError, setClientError] = useState<string | undefined>();
  const busy = fetcher.state !== "idle";
  const serverError = result && !result.ok ? result.errors?.email : undefined;
  const errorKey = clientError ?? serverError;
  const emailError = errorKey ? t(errorKey) : undefined;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = NewsletterSchema.safeParse({ email: new FormData(e.currentTarget).get("email") });
    if (!parsed.success) {
      e.preventDefault();
      setClientError(fieldErrorsOf<"email">(parsed.error).email);
    } else setClientError(undefined);
  }

  return (
    <section aria-labelledby="newsletter-title" className="rounded-xl bg-palm-800 p-5 text-white" data-testid="newsletter">
      <h2 id="newsletter-title" className="text-xl font-bold">
        {t("newsletter.title")}
      </h2>
      <p className="mt-2 text-sand-100">{t("newsletter.text")}</p>
      {result?.ok ? (
        <p role="status" className="mt-4 rounded-md bg-white/10 p-3 font-bold" data-testid="newsletter-sent">
          {t("newsletter.sent")}
        </p>
      ) : (
        <fetcher.Form method="post" action="/opinion" noValidate onSubmit={onSubmit} className="mt-4" data-testid="newsletter-form">
          <input type="hidden" name="intent" value="newsletter" />
          <label htmlFor="newsletter-email" className="block text-sm font-bold">
            {t("newsletter.email")}
          </label>
          <input
            id="newsletter-email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            dir="ltr"
            required
            maxLength={254}
            placeholder="name@example.com"
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? "newsletter-email-error" : undefined}
            className={`${inputClass} text-start`}
          />
          {emailError && (
            <p id="newsletter-email-error" className="mt-1 text-sm font-bold text-amber-200" data-testid="newsletter-error">
              {emailError}
            </p>
          )}
          {result && !result.ok && result.formError && (
            <p role="alert" className="mt-2 text-sm font-bold text-amber-200" data-testid="newsletter-failed">
              {t(result.formError === "RATE_LIMITED" ? "newsletter.rateLimited" : "newsletter.failed")}
            </p>
          )}
          <button
            type="submit"
            disabled={busy}
            className="mt-3 w-full rounded-md bg-white px-4 py-2 font-bold text-palm-800 hover:bg-sand-100 disabled:opacity-70"
            data-testid="newsletter-submit"
          >
            {busy ? t("newsletter.sending") : t("newsletter.submit")}
          </button>
        </fetcher.Form>
      )}
    </section>
  );
}

export function ArticleProposalForm() {
  const { t } = useTranslation();
  const count = useCount();
  const toast = useToast();
  const fetcher = useFetcher<OpinionActionData>({ key: "proposal" });
  const result = useResult("proposal", fetcher.data);
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<Partial<Record<Field, string>> | null>(null);
  const busy = fetcher.state !== "idle";
  const errors = clientErrors ?? (result && !result.ok ? result.errors : undefined) ?? {};

  // A proposal that went through clears the form and says so, for the 5000 ms of a sent message (spec §9).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.intent === "proposal" && fetcher.data.ok) {
      formRef.current?.reset();
      toast({ title: t("proposal.sentTitle"), description: t("proposal.sentText"), variant: "success", duration: 5000 });
    } else if (fetcher.state === "idle" && fetcher.data?.intent === "proposal" && !fetcher.data.ok && fetcher.data.formError) {
      const limited = fetcher.data.formError === "RATE_LIMITED";
      toast({
        title: t("errors.loadFailedTitle"),
        description: t(limited ? "proposal.rateLimited" : "proposal.failed"),
        variant: limited ? "warning" : "destructive",
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = ArticleProposalSchema.safeParse(proposalFormValues(new FormData(e.currentTarget)));
    if (!parsed.success) {
      e.preventDefault();
      setClientErrors(fieldErrorsOf<Field>(parsed.error));
    } else setClientErrors(null);
  }

  const field = (name: Field, label: string, input: (props: FieldProps) => ReactNode, hint?: string) => {
    const error = errors[name] ? t(errors[name]) : undefined;
    const describedBy = [hint ? `proposal-${name}-hint` : null, error ? `proposal-${name}-error` : null].filter(Boolean).join(" ") || undefined;
    return (
      <div className={name === "summary" ? "sm:col-span-2" : undefined}>
        <label htmlFor={`proposal-${name}`} className="block text-sm font-bold">
          {label}
        </label>
        {input({
          id: `proposal-${name}`,
          name,
          required: true,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": describedBy,
          className: inputClass,
        })}
        {hint && (
          <p id={`proposal-${name}-hint`} className="mt-1 text-sm text-ink-soft">
            {hint}
          </p>
        )}
        {error && (
          <p id={`proposal-${name}-error`} className="mt-1 text-sm font-bold text-red-800" data-testid={`proposal-error-${name}`}>
            {error}
          </p>
        )}
      </div>
    );
  };

  const sentWithoutScript = result?.ok && !fetcher.data;
  return (
    <section
      id="write-article"
      aria-labelledby="proposal-heading"
      className="scroll-mt-24 rounded-2xl border border-sand-200 bg-white p-5 sm:p-7"
      data-testid="write-article"
    >
      <h2 id="proposal-heading" className="text-2xl font-bold">
        {t("proposal.title")}
      </h2>
      <p className="mt-2 text-ink-soft">{t("proposal.text")}</p>
      {sentWithoutScript && (
        <p role="status" className="mt-4 rounded-md border border-palm-600 bg-sand-50 p-3 font-bold" data-testid="proposal-sent">
          {t("proposal.sentTitle")} — {t("proposal.sentText")}
        </p>
      )}
      <fetcher.Form
        ref={formRef}
        method="post"
        action="/opinion"
        noValidate
        onSubmit={onSubmit}
        className="mt-5 grid gap-4 sm:grid-cols-2"
        data-testid="proposal-form"
      >
        <input type="hidden" name="intent" value="proposal" />
        {field("name", t("proposal.name"), (p) => (
          <input {...p} type="text" autoComplete="name" maxLength={PROPOSAL_LIMITS.name} />
        ))}
        {field("email", t("proposal.email"), (p) => (
          <input {...p} type="email" inputMode="email" autoComplete="email" dir="ltr" maxLength={254} className={`${inputClass} text-start`} />
        ))}
        <div className="sm:col-span-2">
          {field("title", t("proposal.articleTitle"), (p) => (
            <input {...p} type="text" maxLength={PROPOSAL_LIMITS.title} />
          ))}
        </div>
        {field(
          "summary",
          t("proposal.summary"),
          (p) => (
            <textarea {...p} rows={6} maxLength={PROPOSAL_LIMITS.summary} />
          ),
          count("proposal.summaryHint", PROPOSAL_LIMITS.summary, { min: PROPOSAL_LIMITS.summaryMin }),
        )}
        {/* Spam trap: hidden from people and assistive technology, out of the tab order, never autofilled. */}
        <div aria-hidden="true" className="sr-only">
          <label htmlFor="proposal-website">{t("contact.honeypot")}</label>
          <input id="proposal-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        {result && !result.ok && result.formError && (
          <p role="alert" className="text-sm font-bold text-red-800 sm:col-span-2" data-testid="proposal-failed">
            {t(result.formError === "RATE_LIMITED" ? "proposal.rateLimited" : "proposal.failed")}
          </p>
        )}
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={busy}
            className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700 disabled:opacity-70"
            data-testid="proposal-submit"
          >
            {busy ? t("proposal.sending") : t("proposal.submit")}
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}
