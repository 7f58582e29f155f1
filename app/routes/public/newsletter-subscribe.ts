/**
 * The footer's newsletter sign-up (issue 46): every reading page's footer posts here, at `/newsletter/subscribe` in
 * the page's language, and the answer goes back to the page it came from, at the form: `?notice=newsletter-…`
 * and `#newsletter` (docs/decisions/0150-embeds-ask-first.md, "The footer's sign-up"). The notice is the same for every
 * reader, so the page the reader lands on may come from the page cache like any other; the address typed never
 * travels in it. With JavaScript, app/enhance/forms.js follows the same redirect and puts the footer of the
 * page it gets in place of the form.
 *
 * The subscription is the /opinion sign-up's (server/newsletter/subscriptions.server.ts: double opt-in, the same
 * answer for a new, pending or confirmed address), with the same schema and the same per-address budget.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/newsletter-subscribe";
import { NewsletterSchema } from "#domain/schemas/newsletter.ts";
import { localizedPath } from "#domain/addresses.ts";
import { FOOTER_NEWSLETTER_ANCHOR, footerNewsletterNotice, type FooterNewsletterOutcome } from "#domain/footer-newsletter.ts";
import { getDb } from "#server/db/client.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { newsletterRateLimiter } from "#server/http/rate-limiters.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { AppError, RateLimitedError } from "#server/http/errors.server.ts";
import { checkForm, failedWhile } from "#server/http/form-action.server.ts";
import { readFormData } from "#server/http/request-body.server.ts";
import { subscribeToNewsletter } from "#server/newsletter/subscriptions.server.ts";

/** An address typed (254) and the page's own address: a small form. */
const LIMIT_BYTES = 4 * 1024;

/** The page to go back to: a path on this site (a query kept), else the home page in the request's language. */
export function backTo(value: FormDataEntryValue | null, fallback: string): URL {
  const base = "http://site.invalid";
  if (typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\")) {
    try {
      const url = new URL(value, base);
      if (url.origin === base) return url;
    } catch {
      // not an address: the fallback
    }
  }
  return new URL(fallback, base);
}

/** The way back with the outcome said at the form: 303, so that a reload does not post again. */
function answer(back: URL, outcome: FooterNewsletterOutcome) {
  back.searchParams.set("notice", footerNewsletterNotice(outcome));
  return redirect(`${back.pathname}${back.search}#${FOOTER_NEWSLETTER_ANCHOR}`, { status: 303, headers: { "Cache-Control": "no-store" } });
}

/** The outcome an AppError stands for. */
function outcomeOf(error: AppError): FooterNewsletterOutcome {
  if (error.status === 429) return "limited";
  if (error.status >= 500) return "failed";
  if (error.code === "REQUIRED") return "required";
  return "invalid";
}

export async function action({ request }: Route.ActionArgs) {
  const home = localizedPath(languageOfRequest(request), "/");
  let back = new URL(home, "http://site.invalid");
  try {
    const form = await readFormData(request, LIMIT_BYTES);
    back = backTo(form.get("back"), home);
    const { email } = checkForm(NewsletterSchema, { email: form.get("email") });
    const limit = await newsletterRateLimiter.hit(`newsletter:${clientAddress(request)}`);
    if (!limit.allowed) throw new RateLimitedError("Too many posts from this address.", { retryAfterSeconds: limit.retryAfterMs / 1000 });
    try {
      await subscribeToNewsletter(await getDb(), { email, language: languageOfRequest(request) });
    } catch (error) {
      throw failedWhile("footer newsletter sign-up not saved", error);
    }
    return answer(back, "sent");
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return answer(back, outcomeOf(error));
  }
}

/** Nothing to show here: the sign-up is in every page's footer. */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(`${localizedPath(languageOfRequest(request), "/")}#${FOOTER_NEWSLETTER_ANCHOR}`);
}
