import { useEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { data, useFetcher, useRouteLoaderData } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/contact";
import type { RootLoaderData } from "#app/root.tsx";
import { useToast, type ToastInput } from "#app/components/ui/toast.tsx";
import { MailIcon, MapPinIcon, PhoneIcon } from "#app/components/ui/icons.tsx";
import { absoluteUrl, rootData } from "#app/lib/seo.ts";
import { useCount } from "#app/lib/i18n.ts";
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_MAX_BODY_BYTES,
  ContactSchema,
  contactFormValues,
  HONEYPOT_FIELD,
  type ContactField,
} from "#domain/schemas/contact.ts";
import { fieldErrorsOf, hasMissingField, type FieldErrors } from "#domain/schemas/shared.ts";
import { getDb } from "#server/db/client.server.ts";
import { ContactInputError, createContactMessage } from "#server/content/contacts.server.ts";
import { contactRateLimiter } from "#server/http/rate-limiters.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { readFormData, RequestBodyError } from "#server/http/request-body.server.ts";
import { logger } from "#server/ops/logger.server.ts";

type Values = Record<ContactField, string>;

/** What the action answers; the page turns it into a toast (JavaScript on) or a notice (JavaScript off). */
export type ContactResult =
  | { status: "sent" }
  | { status: "invalid"; fieldErrors: FieldErrors<ContactField>; missing: boolean; values: Values }
  | { status: "too-large" }
  | { status: "bad-request" }
  | { status: "rate-limited"; retryAfterSeconds: number; values: Values }
  | { status: "failed"; values: Values };

/** What the visitor typed, to put back in the form when it is shown again (React escapes it). */
function echo(form: FormData): Values {
  const text = (name: ContactField) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, CONTACT_LIMITS[name] * 2) : "";
  };
  return { name: text("name"), email: text("email"), subject: text("subject"), message: text("message") };
}

export async function action({ request }: Route.ActionArgs) {
  let form: FormData;
  try {
    form = await readFormData(request, CONTACT_MAX_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof RequestBodyError)) throw error;
    const result: ContactResult = { status: error.code === "BODY_TOO_LARGE" ? "too-large" : "bad-request" };
    return data(result, { status: error.status });
  }

  const parsed = ContactSchema.safeParse(contactFormValues(form));
  if (!parsed.success) {
    const result: ContactResult = {
      status: "invalid",
      fieldErrors: fieldErrorsOf<ContactField>(parsed.error),
      missing: hasMissingField(parsed.error),
      values: echo(form),
    };
    return data(result, { status: 400 });
  }

  const limit = await contactRateLimiter.hit(`contact:${clientAddress(request)}`);
  if (!limit.allowed) {
    const retryAfterSeconds = Math.max(1, Math.ceil(limit.retryAfterMs / 1000));
    const result: ContactResult = { status: "rate-limited", retryAfterSeconds, values: echo(form) };
    return data(result, { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } });
  }

  // The honeypot: people never see the field, robots fill it in. They get the same answer as everyone.
  const trap = form.get(HONEYPOT_FIELD);
  if (typeof trap === "string" && trap.trim() !== "") {
    logger.info("contact: honeypot filled, message dropped");
    return data<ContactResult>({ status: "sent" });
  }

  try {
    await createContactMessage(await getDb(), parsed.data);
  } catch (error) {
    if (error instanceof ContactInputError) {
      const result: ContactResult = { status: "invalid", fieldErrors: error.fieldErrors, missing: false, values: echo(form) };
      return data(result, { status: 400 });
    }
    logger.error({ err: error }, "contact: message could not be stored");
    const result: ContactResult = { status: "failed", values: echo(form) };
    return data(result, { status: 500 });
  }
  return data<ContactResult>({ status: "sent" });
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
    return data<ContactResult>({ status: "failed", values: typed }, { status: 503 });
  }
}

/** A document POST answered 429 keeps the action's Retry-After (React Router only sends headers a route passes on). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = rootData(matches);
  const contact = (root?.translations as { contact?: { title?: string; intro?: string } } | undefined)?.contact;
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  const title = contact?.title ?? "";
  return [
    { title: siteName ? `${title} | ${siteName}` : title },
    { name: "description", content: contact?.intro ?? "" },
    { tagName: "link", rel: "canonical", href: absoluteUrl(root?.site.publicUrl ?? "", "/contact") },
  ];
};

type Count = ReturnType<typeof useCount>;

/** The toast (JavaScript on) or notice (JavaScript off) for an answer of the action. */
function feedbackFor(result: ContactResult, t: (key: string, options?: Record<string, unknown>) => string, count: Count): ToastInput {
  switch (result.status) {
    case "sent":
      return { variant: "success", title: t("contact.successTitle"), description: t("contact.successText"), duration: 5000 };
    case "invalid": {
      if (result.missing) return { variant: "destructive", title: t("contact.requiredTitle"), description: t("contact.requiredText") };
      const first = CONTACT_FIELDS.map((f) => result.fieldErrors[f]).find(Boolean);
      return { variant: "destructive", title: t("contact.invalidTitle"), description: first ? t(first) : undefined };
    }
    case "too-large":
      return { variant: "destructive", title: t("contact.failureTitle"), description: t("contact.tooLarge") };
    case "rate-limited":
      return {
        variant: "warning",
        title: t("contact.rateLimitedTitle"),
        description: count("contact.rateLimited", Math.ceil(result.retryAfterSeconds / 60)),
      };
    case "failed":
    case "bad-request":
      return { variant: "destructive", title: t("contact.failureTitle"), description: t("contact.failureText") };
  }
}

function FieldShell({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-bold">
        {label}
        <span aria-hidden="true" className="text-red-700">
          {" "}
          *
        </span>
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-ink-soft">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-bold text-red-700" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

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

  // A plain POST (JavaScript off) renders the page again with the action's answer.
  const pageResult = actionData;
  const [errors, setErrors] = useState<FieldErrors<ContactField>>(pageResult?.status === "invalid" ? pageResult.fieldErrors : {});
  const values = pageResult && "values" in pageResult ? pageResult.values : undefined;
  const sending = fetcher.state !== "idle";

  // Each answer of the fetcher is handled once: its field messages go into state while rendering, and the
  // toast and form reset (outside React) happen in the effect below.
  const answered = fetcher.state === "idle" ? fetcher.data : undefined;
  const [handled, setHandled] = useState(answered);
  if (answered && answered !== handled) {
    setHandled(answered);
    if (answered.status === "sent") setErrors({});
    else if (answered.status === "invalid") setErrors(answered.fieldErrors);
  }
  const toasted = useRef<typeof answered>(undefined);
  useEffect(() => {
    if (!answered || toasted.current === answered) return;
    toasted.current = answered;
    toast(feedbackFor(answered, t, count));
    if (answered.status === "sent") formRef.current?.reset();
  }, [answered, toast, t, count]);

  const validate = (form: HTMLFormElement) => ContactSchema.safeParse(contactFormValues(new FormData(form)));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = validate(event.currentTarget);
    if (parsed.success) {
      setErrors({});
      return; // the fetcher sends it
    }
    event.preventDefault();
    const fieldErrors = fieldErrorsOf<ContactField>(parsed.error);
    setErrors(fieldErrors);
    const missing = hasMissingField(parsed.error);
    toast(feedbackFor({ status: "invalid", fieldErrors, missing, values: { name: "", email: "", subject: "", message: "" } }, t, count));
    const first = CONTACT_FIELDS.find((f) => fieldErrors[f]);
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  // Once a field shows an error, it is checked again as the visitor corrects it.
  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    const name = (event.target as EventTarget as HTMLInputElement).name as ContactField;
    if (!errors[name]) return;
    const parsed = validate(event.currentTarget);
    const next = parsed.success ? {} : fieldErrorsOf<ContactField>(parsed.error);
    setErrors((current) => ({ ...current, [name]: next[name] }));
  };

  const inputClass = (field: ContactField) =>
    `block w-full rounded-md border bg-white px-3 py-2 text-ink shadow-sm focus:border-desert-600 focus:outline-none focus:ring-2 focus:ring-desert-600/30 ${
      errors[field] ? "border-red-700" : "border-sand-300"
    }`;
  const describedBy = (field: ContactField) => (errors[field] ? `contact-${field}-error` : undefined);
  const notice = pageResult ? feedbackFor(pageResult, t, count) : null;
  const phoneHref = site ? `tel:${site.contact.phone.replace(/[^\d+]/g, "")}` : undefined;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10" data-testid="contact-page">
      <h1 className="text-3xl font-bold sm:text-4xl">{t("contact.title")}</h1>
      <p className="mt-3 max-w-2xl text-lg text-ink-soft">{t("contact.intro")}</p>

      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <section className="rounded-xl border border-sand-200 bg-white p-5 shadow-sm sm:p-8 lg:col-span-2" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title" className="mb-5 text-xl font-bold">
            {t("contact.formTitle")}
          </h2>
          {notice && (
            <div
              role={notice.variant === "success" ? "status" : "alert"}
              data-testid="contact-notice"
              data-status={pageResult?.status}
              className={`mb-6 rounded-md border-s-4 px-4 py-3 ${notice.variant === "success" ? "border-palm-600 bg-palm-600/10" : "border-red-700 bg-red-50"}`}
            >
              <p className="font-bold">{notice.title}</p>
              {notice.description && <p className="mt-1">{notice.description}</p>}
            </div>
          )}
          <fetcher.Form
            ref={formRef}
            method="post"
            noValidate={enhanced}
            onSubmit={onSubmit}
            onChange={onChange}
            className="relative grid gap-5 sm:grid-cols-2"
            data-testid="contact-form"
          >
            <FieldShell id="contact-name" label={t("contact.name")} error={errors.name && t(errors.name)}>
              <input
                id="contact-name"
                name="name"
                type="text"
                dir="auto"
                autoComplete="name"
                required
                maxLength={CONTACT_LIMITS.name}
                defaultValue={values?.name}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={describedBy("name")}
                className={inputClass("name")}
              />
            </FieldShell>
            <FieldShell id="contact-email" label={t("contact.email")} error={errors.email && t(errors.email)}>
              <input
                id="contact-email"
                name="email"
                type="email"
                dir="ltr"
                inputMode="email"
                autoComplete="email"
                required
                maxLength={CONTACT_LIMITS.email}
                defaultValue={values?.email}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={describedBy("email")}
                className={`${inputClass("email")} text-start`}
              />
            </FieldShell>
            <div className="sm:col-span-2">
              <FieldShell id="contact-subject" label={t("contact.subject")} error={errors.subject && t(errors.subject)}>
                <input
                  id="contact-subject"
                  name="subject"
                  type="text"
                  dir="auto"
                  required
                  maxLength={CONTACT_LIMITS.subject}
                  defaultValue={values?.subject}
                  aria-invalid={errors.subject ? true : undefined}
                  aria-describedby={describedBy("subject")}
                  className={inputClass("subject")}
                />
              </FieldShell>
            </div>
            <div className="sm:col-span-2">
              <FieldShell
                id="contact-message"
                label={t("contact.message")}
                error={errors.message && t(errors.message)}
                hint={count("contact.messageHint", CONTACT_LIMITS.message)}
              >
                <textarea
                  id="contact-message"
                  name="message"
                  dir="auto"
                  rows={7}
                  required
                  maxLength={CONTACT_LIMITS.message}
                  defaultValue={values?.message}
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={errors.message ? "contact-message-error" : "contact-message-hint"}
                  className={inputClass("message")}
                />
              </FieldShell>
            </div>
            {/* Spam trap: hidden from people and assistive technology, out of the tab order, never autofilled. */}
            <div aria-hidden="true" className="sr-only">
              <label htmlFor="contact-website">{t("contact.honeypot")}</label>
              <input id="contact-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
            </div>
            <div className="sm:col-span-2">
              <button
                type="submit"
                disabled={sending}
                data-testid="contact-submit"
                className="inline-flex min-w-40 items-center justify-center rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700 disabled:cursor-wait disabled:opacity-70"
              >
                {sending ? t("contact.sending") : t("contact.send")}
              </button>
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
