/**
 * The two forms of the opinion page: the newsletter sign-up (double opt-in, the e-mail carries the link) and
 * the write-article box (a proposal to the newsroom). Both post to the /opinion action, through a fetcher when
 * JavaScript runs and as a plain form post when it does not; the same zod schema checks them here first
 * (the forms toolkit, app/components/forms/), and the action answers in the one form answer shape.
 */
import { useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { useLocalPath } from "#app/lib/addresses.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { InputField, TextAreaField } from "#app/components/forms/field.tsx";
import { schemaCheck, useFormCheck } from "#app/components/forms/form-check.ts";
import { SubmitButton, useOnAnswer } from "#app/components/forms/notice.tsx";
import { fieldsOf, formLevelError, type FormAnswer, type FormErrorCode, type FormFailure } from "#domain/form-answer.ts";
import { ArticleProposalSchema, NewsletterSchema, PROPOSAL_LIMITS, proposalFormValues, type ProposalField } from "#domain/schemas/newsletter.ts";
import { HONEYPOT_FIELD } from "#domain/schemas/contact.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";

/** What the /opinion action answers (domain/form-answer.ts), with the form it concerns. */
export type OpinionActionData =
  | (FormAnswer<"email", FormErrorCode> & { intent: "newsletter" })
  | (FormAnswer<ProposalField> & { intent: "proposal" })
  | (FormFailure<never, "UNKNOWN_INTENT" | "BODY_TOO_LARGE" | "BAD_REQUEST"> & { intent: null });

/** The result of the last post of this form, whether it went through the fetcher or a full page post. */
function useResult<I extends "newsletter" | "proposal">(intent: I, fetcherData: OpinionActionData | undefined) {
  const actionData = useActionData() as OpinionActionData | undefined;
  const data = fetcherData ?? actionData;
  return data?.intent === intent ? (data as Extract<OpinionActionData, { intent: I }>) : undefined;
}

const checkNewsletter = schemaCheck<"email">(NewsletterSchema, (d) => ({ email: d.get("email") }));
const checkProposal = schemaCheck<ProposalField>(ArticleProposalSchema, proposalFormValues);

export function NewsletterForm() {
  const { t } = useTranslation();
  const local = useLocalPath();
  const fetcher = useFetcher<OpinionActionData>({ key: "newsletter" });
  const result = useResult("newsletter", fetcher.data);
  const check = useFormCheck(checkNewsletter, fieldsOf(result));
  const failed = formLevelError(result);

  return (
    <section aria-labelledby="newsletter-title" className="rounded-xl bg-palm-800 p-5 text-white" data-testid="newsletter" data-form-region="newsletter">
      <h2 id="newsletter-title" className="text-xl font-bold">
        {t("newsletter.title")}
      </h2>
      <p className="mt-2 text-sand-100">{t("newsletter.text")}</p>
      {result?.ok ? (
        <p role="status" className="mt-4 rounded-md bg-white/10 p-3 font-bold" data-testid="newsletter-sent">
          {t("newsletter.sent")}
        </p>
      ) : (
        <fetcher.Form
          method="post"
          action={local("/opinion")}
          noValidate
          onSubmit={check.onSubmit}
          onChange={check.onChange}
          className="mt-4"
          data-testid="newsletter-form"
          data-enhance=""
          data-failed-title={t("errors.loadFailedTitle")}
          data-failed-text={t("newsletter.failed")}
        >
          <input type="hidden" name="intent" value="newsletter" />
          <InputField
            id="newsletter-email"
            name="email"
            label={t("newsletter.email")}
            look="dark"
            error={check.errors.email}
            errorTestId="newsletter-error"
            type="email"
            inputMode="email"
            autoComplete="email"
            dir="ltr"
            required
            maxLength={254}
            placeholder="name@example.com"
            controlClassName="text-start"
            check={{ required: t("newsletter.errors.emailRequired"), invalid: t("newsletter.errors.email"), tooLong: t("newsletter.errors.email") }}
          />
          {failed && (
            <p role="alert" className="mt-2 text-sm font-bold text-amber-200" data-testid="newsletter-failed">
              {t(failed === "RATE_LIMITED" ? "newsletter.rateLimited" : "newsletter.failed")}
            </p>
          )}
          <SubmitButton
            pending={fetcher.state !== "idle"}
            pendingLabel={t("newsletter.sending")}
            testId="newsletter-submit"
            tone="light"
            className="mt-3 w-full px-4 py-2"
          >
            {t("newsletter.submit")}
          </SubmitButton>
        </fetcher.Form>
      )}
    </section>
  );
}

export function ArticleProposalForm() {
  const { t } = useTranslation();
  const local = useLocalPath();
  const count = useCount();
  const toast = useToast();
  const fetcher = useFetcher<OpinionActionData>({ key: "proposal" });
  const result = useResult("proposal", fetcher.data);
  const formRef = useRef<HTMLFormElement>(null);
  const check = useFormCheck(checkProposal, fieldsOf(result));
  const failed = formLevelError(result);

  // A proposal that went through clears the form and says so, for the 5000 ms of a sent message (spec §9).
  const answered = fetcher.state === "idle" && fetcher.data?.intent === "proposal" ? fetcher.data : undefined;
  useOnAnswer(answered, (answer) => {
    if (answer.ok) {
      formRef.current?.reset();
      toast({ title: t("proposal.sentTitle"), description: t("proposal.sentText"), variant: "success", duration: 5000 });
      return;
    }
    const code = formLevelError(answer);
    if (!code) return;
    const limited = code === "RATE_LIMITED";
    toast({
      title: t("errors.loadFailedTitle"),
      description: t(limited ? "proposal.rateLimited" : "proposal.failed"),
      variant: limited ? "warning" : "destructive",
    });
  });

  const field = (name: ProposalField, label: string) => ({
    id: `proposal-${name}`,
    name,
    label: t(label),
    look: "page" as const,
    required: true,
    error: check.errors[name],
    errorTestId: `proposal-error-${name}`,
    check: {
      required: t("proposal.errors.required"),
      tooLong: t(name === "email" ? "proposal.errors.email" : `proposal.errors.${name}TooLong`),
      invalid: name === "email" ? t("proposal.errors.email") : undefined,
      ...(name === "summary" && { tooShort: t("proposal.errors.summaryTooShort"), min: PROPOSAL_LIMITS.summaryMin }),
    },
  });

  const sentWithoutScript = result?.ok && !fetcher.data;
  return (
    <section
      id="write-article"
      aria-labelledby="proposal-heading"
      className="scroll-mt-24 rounded-2xl border border-sand-200 bg-white p-5 sm:p-7"
      data-testid="write-article"
      data-form-region="proposal"
    >
      <h2 id="proposal-heading" className="text-2xl font-bold">
        {t("proposal.title")}
      </h2>
      <p className="mt-2 text-ink-soft">{t("proposal.text")}</p>
      {sentWithoutScript && (
        <p
          role="status"
          className="mt-4 rounded-md border border-palm-600 bg-sand-50 p-3 font-bold"
          data-testid="proposal-sent"
          // With JavaScript (app/enhance/forms.js) this is the toast the fetcher's answer gives above.
          data-answer="toast"
          data-toast-title={t("proposal.sentTitle")}
          data-toast-description={t("proposal.sentText")}
          data-toast-variant="success"
          data-toast-duration={5000}
        >
          {t("proposal.sentTitle")} — {t("proposal.sentText")}
        </p>
      )}
      <fetcher.Form
        ref={formRef}
        method="post"
        action={local("/opinion")}
        noValidate
        onSubmit={check.onSubmit}
        onChange={check.onChange}
        className="mt-5 grid gap-4 sm:grid-cols-2"
        data-testid="proposal-form"
        data-enhance=""
        data-failed-title={t("errors.loadFailedTitle")}
        data-failed-text={t("proposal.failed")}
      >
        <input type="hidden" name="intent" value="proposal" />
        <InputField {...field("name", "proposal.name")} type="text" autoComplete="name" maxLength={PROPOSAL_LIMITS.name} />
        <InputField
          {...field("email", "proposal.email")}
          type="email"
          inputMode="email"
          autoComplete="email"
          dir="ltr"
          maxLength={254}
          controlClassName="text-start"
        />
        <InputField {...field("title", "proposal.articleTitle")} className="sm:col-span-2" type="text" maxLength={PROPOSAL_LIMITS.title} />
        <TextAreaField
          {...field("summary", "proposal.summary")}
          className="sm:col-span-2"
          hint={count("proposal.summaryHint", PROPOSAL_LIMITS.summary, { min: PROPOSAL_LIMITS.summaryMin })}
          keepHint
          rows={6}
          maxLength={PROPOSAL_LIMITS.summary}
        />
        {/* Spam trap: hidden from people and assistive technology, out of the tab order, never autofilled. */}
        <div aria-hidden="true" className="sr-only">
          <label htmlFor="proposal-website">{t("contact.honeypot")}</label>
          <input id="proposal-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        {failed && (
          <p
            role="alert"
            className="text-sm font-bold text-red-800 sm:col-span-2"
            data-testid="proposal-failed"
            data-answer=""
            data-toast-title={t("errors.loadFailedTitle")}
            data-toast-description={t(failed === "RATE_LIMITED" ? "proposal.rateLimited" : "proposal.failed")}
            data-toast-variant={failed === "RATE_LIMITED" ? "warning" : "destructive"}
          >
            {t(failed === "RATE_LIMITED" ? "proposal.rateLimited" : "proposal.failed")}
          </p>
        )}
        <div className="sm:col-span-2">
          <SubmitButton pending={fetcher.state !== "idle"} pendingLabel={t("proposal.sending")} testId="proposal-submit" className="px-6 py-3">
            {t("proposal.submit")}
          </SubmitButton>
        </div>
      </fetcher.Form>
    </section>
  );
}
