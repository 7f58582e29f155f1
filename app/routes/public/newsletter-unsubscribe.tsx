import { useLocalPath } from "#app/lib/addresses.ts";
import { data, useActionData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/newsletter-unsubscribe";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { getDb } from "#server/db/client.server.ts";
import { NewsletterTokenError, subscriberByToken, unsubscribeByToken } from "#server/newsletter/tokens.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { isOneClickForm } from "#server/http/one-click-unsubscribe.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { formAction } from "#server/http/form-action.server.ts";

/**
 * The unsubscribe address of every newsletter (decision 0126). A GET only shows a confirmation with a button
 * (mail scanners open links: a GET never unsubscribes); the button posts the one-click form here and
 * unsubscribes. A mail client's one-click POST (RFC 8058, from no page of ours) never reaches this action: it is
 * answered before React Router's origin check by server/http/one-click-unsubscribe.server.ts. Any other body,
 * or a token that is not one, gets a 400 page saying so. No JavaScript: a plain form (app/lib/static-page.ts).
 */
export const handle: ReadingHandle = { hydrate: false };

const NO_STORE = { "Cache-Control": "no-store" };

type State = "confirm" | "already" | "done" | "invalid" | "bad-request";

/** The one form answer (domain/form-answer.ts), with the state the page shows and its title. */
type Answer = FormAnswer<never, "BAD_REQUEST" | "BODY_TOO_LARGE" | "TOKEN_INVALID"> & { state: State; title: string };

const titleOf = (request: Request, state: State) => translate(languageOfRequest(request), `newsletterPage.unsubscribe.${state}Title`);

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const send = url.searchParams.get("send");
  const subscriber = await subscriberByToken(await getDb(), token);
  const state: State = !subscriber ? "invalid" : subscriber.status === "unsubscribed" ? "already" : "confirm";
  return data(
    {
      state,
      email: subscriber?.email ?? null,
      token: subscriber ? token : null,
      send: subscriber && send && /^\d{1,10}$/.test(send) ? send : null,
      title: titleOf(request, state),
    },
    { status: subscriber ? 200 : 400, headers: NO_STORE },
  );
}

/** A body that is not the one-click form (unreadable, over 1 KB, or other fields) is the page's bad-request state. */
export async function action({ request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const echo = () => ({ state: "bad-request" as const, title: titleOf(request, "bad-request") });
  return formAction<Answer>(request, { limit: 1024, echo, headers: NO_STORE }, async (form) => {
    if (!isOneClickForm(form)) throw new BadRequestError("BAD_REQUEST", "Not the one-click unsubscribe form.");
    try {
      await unsubscribeByToken(await getDb(), url.searchParams.get("token"), url.searchParams.get("send"));
    } catch (error) {
      if (!(error instanceof NewsletterTokenError)) throw error;
      return data<Answer>({ ok: false, formError: "TOKEN_INVALID", state: "invalid", title: titleOf(request, "invalid") }, { status: 400, headers: NO_STORE });
    }
    return data<Answer>({ ok: true, state: "done", title: titleOf(request, "done") }, { headers: NO_STORE });
  });
}

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => (actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);

export const meta: Route.MetaFunction = ({ data: loaded }) => [{ title: loaded?.title }, { name: "robots", content: "noindex" }];

export default function NewsletterUnsubscribe({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const answer = useActionData<Answer>();
  const state: State = answer?.state ?? loaderData.state;
  const preferences = loaderData.token ? local(`/newsletter/preferences?token=${encodeURIComponent(loaderData.token)}`) : null;
  const done = state === "done" || state === "already";
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center" data-testid="newsletter-unsubscribe" data-state={state}>
      <p className={`text-6xl ${done ? "text-palm-700" : "text-desert-600"}`} aria-hidden="true">
        {done ? "✓" : state === "confirm" ? "✉" : "!"}
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t(`newsletterPage.unsubscribe.${state}Title`)}</h1>
      <p className="mt-3 text-lg text-ink-soft" role={state === "invalid" || state === "bad-request" ? "alert" : undefined}>
        {t(`newsletterPage.unsubscribe.${state}Text`)}
      </p>
      {loaderData.email && state === "confirm" ? (
        <p className="mt-2 font-bold">
          <bdi dir="ltr">{loaderData.email}</bdi>
        </p>
      ) : null}
      {state === "confirm" && loaderData.token ? (
        <form method="post" className="mt-8">
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit" className="rounded-md bg-desert-600 px-6 py-3 font-bold text-white hover:bg-desert-700" data-testid="unsubscribe-confirm">
            {t("newsletterPage.unsubscribe.button")}
          </button>
        </form>
      ) : null}
      {preferences ? (
        <p className="mt-8">
          <a href={preferences} className="font-bold text-desert-700 underline">
            {t(done ? "newsletterPage.unsubscribe.resubscribe" : "newsletterPage.unsubscribe.preferences")}
          </a>
        </p>
      ) : null}
    </section>
  );
}
