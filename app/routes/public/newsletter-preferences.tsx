import { useLocalPath } from "#app/lib/addresses.ts";
import { data, useActionData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/newsletter-preferences";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { fieldsOf, formErrorOf, type FormAnswer } from "#domain/form-answer.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import { NEWSLETTER_FREQUENCIES, NewsletterPreferencesSchema, type NewsletterFrequency } from "#domain/newsletter-sends.ts";
import { getDb } from "#server/db/client.server.ts";
import { NewsletterTokenError, subscriberByToken, updatePreferences } from "#server/newsletter/tokens.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { checkForm, formAction } from "#server/http/form-action.server.ts";

/**
 * A subscriber's newsletter preferences (decision 0126), reached from every newsletter's footer: the language
 * the newsletter comes in and how often (daily digest, weekly digest, nothing). The token of the link is the
 * key; a plain form, no JavaScript (app/lib/static-page.ts). Saving from an unsubscribed address with a
 * frequency subscribes it again.
 */
export const handle: ReadingHandle = { hydrate: false };

const NO_STORE = { "Cache-Control": "no-store" };

/** The one form answer (domain/form-answer.ts); TOKEN_INVALID shows the page's invalid-link state. */
type Answer = FormAnswer<"language" | "frequency", "BODY_TOO_LARGE" | "BAD_REQUEST" | "REQUIRED" | "INVALID" | "TOKEN_INVALID">;

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const subscriber = await subscriberByToken(await getDb(), token);
  const lang = languageOfRequest(request);
  if (!subscriber) {
    return data({ subscriber: null, token: null, title: translate(lang, "newsletterPage.preferences.invalidTitle") }, { status: 400, headers: NO_STORE });
  }
  const { email, language, frequency, status } = subscriber;
  return data({ subscriber: { email, language, frequency, status }, token, title: translate(lang, "newsletterPage.preferences.title") }, { headers: NO_STORE });
}

export async function action({ request }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  return formAction<Answer>(request, { limit: 16 * 1024, headers: NO_STORE }, async (form) => {
    const preferences = checkForm(NewsletterPreferencesSchema, { language: form.get("language") ?? "", frequency: form.get("frequency") ?? "" });
    try {
      await updatePreferences(await getDb(), token, preferences);
    } catch (error) {
      if (!(error instanceof NewsletterTokenError)) throw error;
      return data<Answer>({ ok: false, formError: "TOKEN_INVALID" }, { status: 400, headers: NO_STORE });
    }
    return data<Answer>({ ok: true }, { headers: NO_STORE });
  });
}

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => (actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);

export const meta: Route.MetaFunction = ({ data: loaded }) => [{ title: loaded?.title }, { name: "robots", content: "noindex" }];

const LANGUAGE_NAMES: Record<Language, string> = { ar: "العربية", fr: "Français", en: "English" };

export default function NewsletterPreferences({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const answer = useActionData<Answer>();
  const { subscriber, token } = loaderData;
  if (!subscriber || !token || formErrorOf(answer) === "TOKEN_INVALID") {
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 text-center" data-testid="newsletter-preferences" data-state="invalid">
        <h1 className="text-3xl font-bold">{t("newsletterPage.preferences.invalidTitle")}</h1>
        <p className="mt-3 text-lg text-ink-soft" role="alert">
          {t("newsletterPage.preferences.invalidText")}
        </p>
      </section>
    );
  }
  const fields = fieldsOf(answer) ?? {};
  const code = formErrorOf(answer);
  const unsubscribe = local(`/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
  return (
    <section className="mx-auto max-w-2xl px-4 py-12" data-testid="newsletter-preferences" data-state={subscriber.status}>
      <h1 className="text-3xl font-bold">{t("newsletterPage.preferences.title")}</h1>
      <p className="mt-2 text-ink-soft">
        {t("newsletterPage.preferences.for")} <bdi dir="ltr">{subscriber.email}</bdi>
      </p>
      {answer?.ok ? (
        <p role="status" className="mt-4 rounded-md bg-palm-50 p-3 font-bold text-palm-800" data-testid="preferences-saved">
          {t("newsletterPage.preferences.saved")}
        </p>
      ) : null}
      {answer && !answer.ok ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 font-bold text-red-800" data-testid="preferences-error">
          {t(code === "BAD_REQUEST" || code === "BODY_TOO_LARGE" ? "newsletterPage.preferences.badRequest" : "newsletterPage.preferences.checkFields")}
        </p>
      ) : null}
      {subscriber.status === "unsubscribed" && !answer?.ok ? (
        <p className="mt-4 rounded-md bg-sand-100 p-3">{t("newsletterPage.preferences.unsubscribedNote")}</p>
      ) : null}
      <form method="post" className="mt-6 space-y-6">
        <fieldset aria-describedby={fields.language ? "language-error" : undefined}>
          <legend className="mb-2 text-lg font-bold">{t("newsletterPage.preferences.language")}</legend>
          <div className="flex flex-wrap gap-4">
            {LANGUAGES.map((lang) => (
              <label key={lang} className="flex items-center gap-2">
                <input type="radio" name="language" value={lang} defaultChecked={subscriber.language === lang} className="h-5 w-5" />
                <span lang={lang}>{LANGUAGE_NAMES[lang]}</span>
              </label>
            ))}
          </div>
          {fields.language ? (
            <p id="language-error" className="mt-1 text-sm text-red-700">
              {t(fields.language)}
            </p>
          ) : null}
        </fieldset>
        <fieldset aria-describedby={fields.frequency ? "frequency-error" : undefined}>
          <legend className="mb-2 text-lg font-bold">{t("newsletterPage.preferences.frequency")}</legend>
          <div className="space-y-2">
            {NEWSLETTER_FREQUENCIES.map((frequency: NewsletterFrequency) => (
              <label key={frequency} className="flex items-center gap-2">
                <input type="radio" name="frequency" value={frequency} defaultChecked={subscriber.frequency === frequency} className="h-5 w-5" />
                <span>{t(`newsletterPage.preferences.frequencies.${frequency}`)}</span>
              </label>
            ))}
          </div>
          {fields.frequency ? (
            <p id="frequency-error" className="mt-1 text-sm text-red-700">
              {t(fields.frequency)}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700" data-testid="preferences-save">
          {t("newsletterPage.preferences.save")}
        </button>
      </form>
      {subscriber.status !== "unsubscribed" ? (
        <p className="mt-10 border-t border-sand-200 pt-6">
          <a href={unsubscribe} className="font-bold text-desert-700 underline">
            {t("newsletterPage.preferences.unsubscribe")}
          </a>
        </p>
      ) : null}
    </section>
  );
}
