import { useRef, useSyncExternalStore, type ReactNode } from "react";
import { data, useFetcher, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/contact";
import type { RootLoaderData } from "#app/root.tsx";
import { useToast, type ToastInput } from "#app/components/ui/toast.tsx";
import { MailIcon, MapPinIcon, PhoneIcon } from "#app/components/ui/icons.tsx";
import { InputField, TextAreaField } from "#app/components/forms/field.tsx";
import { schemaCheck, useFormCheck } from "#app/components/forms/form-check.ts";
import { Notice, SubmitButton, useOnAnswer } from "#app/components/forms/notice.tsx";
import { robotsMeta, rootData } from "#app/lib/seo.ts";
import { translationsOf } from "#app/lib/root-data.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_MAX_BODY_BYTES,
  ContactSchema,
  contactFormValues,
  HONEYPOT_FIELD,
  type ContactField,
} from "#domain/schemas/contact.ts";
import { fieldsOf, type FormAnswer } from "#domain/form-answer.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import { getDb } from "#server/db/client.server.ts";
import { ContactInputError, createContactMessage } from "#server/content/contacts.server.ts";
import { contactRateLimiter } from "#server/http/rate-limiters.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { RateLimitedError, ValidationError } from "#server/http/errors.server.ts";
import { checkForm, failedWhile, formAction, formSuccess } from "#server/http/form-action.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import formsScript from "#app/enhance/forms.js?url&no-inline";
import type { ReadingHandle } from "#app/lib/static-page.ts";

/** No React in the browser: the form is checked and sent by app/enhance/forms.js (decision 0131). */
export const handle: ReadingHandle = { hydrate: false, enhance: [formsScript] };

type ContactCode = "BODY_TOO_LARGE" | "BAD_REQUEST" | "REQUIRED" | "INVALID" | "RATE_LIMITED" | "FAILED";

/** What the action answers (domain/form-answer.ts); the page turns it into a toast (JavaScript on) or a notice (JavaScript off). */
export type ContactAnswer = FormAnswer<ContactField, ContactCode>;

/** The notice's `data-status`, one word per outcome. */
const STATUS_OF: Record<ContactCode, string> = {
  BODY_TOO_LARGE: "too-large",
  BAD_REQUEST: "bad-request",
  REQUIRED: "invalid",
  INVALID: "invalid",
  RATE_LIMITED: "rate-limited",
  FAILED: "failed",
};

/** What the visitor typed, to put back in the form when it is shown again (React escapes it). */
function echo(form: FormData): Record<ContactField, string> {
  const text = (name: ContactField) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, CONTACT_LIMITS[name] * 2) : "";
  };
  return { name: text("name"), email: text("email"), subject: text("subject"), message: text("message") };
}

export async function action({ request }: Route.ActionArgs) {
  // A refused body (over CONTACT_MAX_BODY_BYTES) comes back without values.
  return formAction<ContactAnswer>(request, { limit: CONTACT_MAX_BODY_BYTES, echo: (form) => (form ? { values: echo(form) } : {}) }, async (form) => {
    const message = checkForm(ContactSchema, contactFormValues(form));

    const limit = await contactRateLimiter.hit(`contact:${clientAddress(request)}`);
    if (!limit.allowed) throw new RateLimitedError("Too many messages from this address.", { retryAfterSeconds: limit.retryAfterMs / 1000 });

    // The honeypot: people never see the field, robots fill it in. They get the same answer as everyone.
    const trap = form.get(HONEYPOT_FIELD);
    if (typeof trap === "string" && trap.trim() !== "") {
      logger.info("contact: honeypot filled, message dropped");
      return formSuccess<ContactAnswer>();
    }

    try {
      await createContactMessage(await getDb(), message);
    } catch (error) {
      if (error instanceof ContactInputError) throw new ValidationError("The message was refused.", error.fieldErrors, { status: 400, code: "INVALID" });
      throw failedWhile("contact: message could not be stored", error);
    }
    return formSuccess<ContactAnswer>();
  });
}

/**
 * With JavaScript the form posts through this. A send the server could not answer — the network down, or an
 * error response instead of the action's own answer — is the spec's "failed" toast like any other failure,
 * with the typed text kept, rather than the error screen (issue 14). Without JavaScript the action answers.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Read before the server call consumes the body: what the visitor typed, to give back on failure.
  const typed = echo(await request.clone().formData());
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    // A 5xx status, as the action's own failure has: React Router then skips revalidating the page's loaders,
    // which would fail the same way and end on the error screen.
    return data<ContactAnswer>({ ok: false, formError: "FAILED", values: typed }, { status: 503 });
  }
}

/** A document POST answered 429 keeps the action's Retry-After (React Router only sends headers a route passes on). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = rootData(matches);
  const contact = (translationsOf(root) as { contact?: { title?: string; intro?: string } }).contact;
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const title = contact?.title ?? "";
  return [{ title: siteName ? `${title} | ${siteName}` : title }, { name: "description", content: contact?.intro ?? "" }, robotsMeta()];
};

type Count = ReturnType<typeof useCount>;

/** The toast (JavaScript on) or notice (JavaScript off) for an answer of the action, or of the browser's own check. */
function feedbackFor(answer: ContactAnswer, t: (key: string, options?: Record<string, unknown>) => string, count: Count): ToastInput {
  if (answer.ok) return { variant: "success", title: t("contact.successTitle"), description: t("contact.successText"), duration: 5000 };
  switch (answer.formError) {
    case "REQUIRED":
      return { variant: "destructive", title: t("contact.requiredTitle"), description: t("contact.requiredText") };
    case "INVALID": {
      const first = CONTACT_FIELDS.map((f) => answer.fields?.[f]).find(Boolean);
      return { variant: "destructive", title: t("contact.invalidTitle"), description: first ? t(first) : undefined };
    }
    case "BODY_TOO_LARGE":
      return { variant: "destructive", title: t("contact.failureTitle"), description: t("contact.tooLarge") };
    case "RATE_LIMITED":
      return {
        variant: "warning",
        title: t("contact.rateLimitedTitle"),
        description: count("contact.rateLimited", Math.ceil((answer.retryAfterSeconds ?? 60) / 60)),
      };
    default:
      return { variant: "destructive", title: t("contact.failureTitle"), description: t("contact.failureText") };
  }
}

/** The browser's check refused the form: REQUIRED when a field is empty (its message is the required one). */
const refusedHere = (fields: FieldErrors<ContactField>): ContactAnswer => ({
  ok: false,
  formError: Object.values(fields).includes("contact.requiredText") ? "REQUIRED" : "INVALID",
  fields,
});

const NO_ERRORS: FieldErrors<ContactField> = {};

const checkContact = schemaCheck<ContactField>(ContactSchema, contactFormValues);

function ContactCard({ icon, title, children, testId }: { icon: ReactNode; title: string; children: ReactNode; testId: string }) {
  return (
    <div className="flex items-start gap-4 rounded-xl border border-sand-200 bg-white p-5 shadow-sm" data-testid={testId}>
      <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-desert-600 text-white">{icon}</span>
      <div className="min-w-0">
        <h2 className="font-bold">{title}</h2>
        <div className="mt-1 break-words text-ink-soft">{children}</div>
      </div>
    </div>
  );
}

export default function ContactPage({ actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const count = useCount();
  const lang = i18n.language;
  const toast = useToast();
  const site = useRouteLoaderData<RootLoaderData>("root")?.site;
  const fetcher = useFetcher<typeof clientAction>();
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript the browser's own checks (required, type=email) run; with it, the shared schema does.
  const enhanced = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  // A plain POST (JavaScript off) renders the page again with the action's answer; the fetcher's answers
  // (JavaScript on) bring their field messages in, and each is told once, as a toast.
  const pageAnswer = actionData;
  const answered = fetcher.state === "idle" ? fetcher.data : undefined;
  const lastAnswer = fetcher.data ?? pageAnswer;
  const check = useFormCheck(checkContact, lastAnswer?.ok ? NO_ERRORS : fieldsOf(lastAnswer), {
    onInvalid: (fields) => toast(feedbackFor(refusedHere(fields), t, count)),
  });
  useOnAnswer(answered, (answer) => {
    toast(feedbackFor(answer, t, count));
    if (answer.ok) formRef.current?.reset();
  });

  const values = pageAnswer && !pageAnswer.ok ? pageAnswer.values : undefined;
  const notice = pageAnswer ? feedbackFor(pageAnswer, t, count) : null;
  const phoneHref = site ? `tel:${site.contact.phone.replace(/[^\d+]/g, "")}` : undefined;
  const field = (name: ContactField, label: string) => ({
    id: `contact-${name}`,
    name,
    label: t(label),
    look: "page" as const,
    requiredMark: true,
    required: true,
    error: check.errors[name],
    errorTestId: `contact-${name}-error`,
    maxLength: CONTACT_LIMITS[name],
    defaultValue: values?.[name],
    check: {
      required: t("contact.requiredText"),
      tooLong: t(`contact.${name}TooLong`),
      invalid: name === "email" ? t("contact.invalidEmail") : undefined,
    },
  });

  return (
    <div className="mx-auto max-w-7xl px-4 py-10" data-testid="contact-page">
      <h1 className="text-3xl font-bold sm:text-4xl">{t("contact.title")}</h1>
      <p className="mt-3 max-w-2xl text-lg text-ink-soft">{t("contact.intro")}</p>

      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <section
          className="rounded-xl border border-sand-200 bg-white p-5 shadow-sm sm:p-8 lg:col-span-2"
          aria-labelledby="contact-form-title"
          data-form-region="contact"
        >
          <h2 id="contact-form-title" className="mb-5 text-xl font-bold">
            {t("contact.formTitle")}
          </h2>
          {notice && pageAnswer && (
            <Notice
              tone={pageAnswer.ok ? "success" : "error"}
              testId="contact-notice"
              status={pageAnswer.ok ? "sent" : STATUS_OF[pageAnswer.formError ?? "FAILED"]}
              className="mb-6"
              toast={notice}
            >
              <p className="font-bold">{notice.title}</p>
              {notice.description && <p className="mt-1">{notice.description}</p>}
            </Notice>
          )}
          <fetcher.Form
            ref={formRef}
            method="post"
            noValidate={enhanced}
            onSubmit={check.onSubmit}
            onChange={check.onChange}
            className="relative grid gap-5 sm:grid-cols-2"
            data-testid="contact-form"
            data-enhance=""
            data-failed-title={t("contact.failureTitle")}
            data-failed-text={t("contact.failureText")}
            data-invalid-title={t("contact.invalidTitle")}
            data-required-title={t("contact.requiredTitle")}
            data-required-text={t("contact.requiredText")}
          >
            <InputField {...field("name", "contact.name")} type="text" dir="auto" autoComplete="name" />
            <InputField {...field("email", "contact.email")} type="email" dir="ltr" inputMode="email" autoComplete="email" controlClassName="text-start" />
            <InputField {...field("subject", "contact.subject")} className="sm:col-span-2" type="text" dir="auto" />
            <TextAreaField
              {...field("message", "contact.message")}
              className="sm:col-span-2"
              hint={count("contact.messageHint", CONTACT_LIMITS.message)}
              dir="auto"
              rows={7}
            />
            {/* Spam trap: hidden from people and assistive technology, out of the tab order, never autofilled. */}
            <div aria-hidden="true" className="sr-only">
              <label htmlFor="contact-website">{t("contact.honeypot")}</label>
              <input id="contact-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
            </div>
            <div className="sm:col-span-2">
              <SubmitButton
                pending={fetcher.state !== "idle"}
                pendingLabel={t("contact.sending")}
                testId="contact-submit"
                className="inline-flex min-w-40 items-center justify-center px-6 py-3"
              >
                {t("contact.send")}
              </SubmitButton>
            </div>
          </fetcher.Form>
        </section>

        <aside className="space-y-4" aria-label={t("contact.infoTitle")}>
          {site && (
            <>
              <ContactCard icon={<MailIcon />} title={t("contact.emailCard")} testId="contact-card-email">
                <a href={`mailto:${site.contact.email}`} dir="ltr" className="font-bold text-desert-700 hover:underline">
                  {site.contact.email}
                </a>
              </ContactCard>
              <ContactCard icon={<PhoneIcon />} title={t("contact.phoneCard")} testId="contact-card-phone">
                <a href={phoneHref} dir="ltr" className="font-bold text-desert-700 hover:underline">
                  {site.contact.phone}
                </a>
              </ContactCard>
              <ContactCard icon={<MapPinIcon />} title={t("contact.addressCard")} testId="contact-card-address">
                {lang === "ar" || !site.contact.addressFr ? (
                  <address className="not-italic" lang="ar" dir="rtl">
                    {site.contact.address}
                  </address>
                ) : (
                  <address className="not-italic">{site.contact.addressFr}</address>
                )}
              </ContactCard>
            </>
          )}
        </aside>
      </div>
    </div>
  );
}

/** Hydration never changes once it happened, so there is nothing to subscribe to. */
function noSubscription() {
  return () => {};
}
