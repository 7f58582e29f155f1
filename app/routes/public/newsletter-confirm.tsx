import { useLocalPath } from "#app/lib/addresses.ts";
import { data } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/newsletter-confirm";
import { getDb } from "#server/db/client.server.ts";
import { confirmNewsletterSubscription } from "#server/newsletter/subscriptions.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";

/**
 * The link of the confirmation e-mail. A valid token confirms the subscriber (once, within 48 hours); any
 * other token gets a 400 page saying why, with the way to start again.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const result = await confirmNewsletterSubscription(await getDb(), token);
  const headers = { "Cache-Control": "no-store" };
  const status = result.ok ? ("confirmed" as const) : result.code === "TOKEN_EXPIRED" ? ("expired" as const) : ("invalid" as const);
  const title = translate(languageOfRequest(request), `newsletter.confirm.${status}Title`);
  return data({ status, title }, { status: result.ok ? 200 : 400, headers });
}

// A confirmation is a write: its answer (no-store) must reach the browser, and no cache may keep it.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const { status } = loaderData;
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="newsletter-confirm" data-status={status}>
      <p className={`text-6xl ${status === "confirmed" ? "text-palm-700" : "text-desert-600"}`} aria-hidden="true">
        {status === "confirmed" ? "✓" : "!"}
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t(`newsletter.confirm.${status}Title`)}</h1>
      <p className="mt-3 text-lg text-ink-soft">{t(`newsletter.confirm.${status}Text`)}</p>
      <Link to={local("/opinion")} className="mt-8 inline-block rounded-md bg-desert-600 px-5 py-3 font-bold text-white hover:bg-desert-700">
        {t("newsletter.confirm.back")}
      </Link>
    </section>
  );
}
