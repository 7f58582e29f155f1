/**
 * The footer's newsletter sign-up answers at the form (issue 46): its action (app/routes/public/newsletter-subscribe.ts)
 * sends the reader back to the page with `?notice=newsletter-<outcome>#newsletter`, and the footer reads the
 * notice from the address. A notice is not part of the page's address (app/lib/addresses.ts: no canonical, no
 * alternate keeps it) and says nothing about the reader, so the page that shows it may be kept by any cache.
 */

import { splitAddress } from "./addresses.ts";

export const FOOTER_NEWSLETTER_ANCHOR = "newsletter";

/** Pages with a sign-up of their own (public-site.md: /opinion's), where the footer's would be the same form twice. */
const OWN_SIGN_UP = new Set(["/opinion"]);

/** Whether the page at `pathname` (any language's address) shows the footer's sign-up. */
export const showsFooterNewsletter = (pathname: string) => !OWN_SIGN_UP.has(splitAddress(pathname).path);

export const FOOTER_NEWSLETTER_OUTCOMES = ["sent", "required", "invalid", "limited", "failed"] as const;
export type FooterNewsletterOutcome = (typeof FOOTER_NEWSLETTER_OUTCOMES)[number];

const PREFIX = "newsletter-";

export const footerNewsletterNotice = (outcome: FooterNewsletterOutcome) => `${PREFIX}${outcome}`;

/** The outcome a page's query string announces, if it announces one. */
export function footerNewsletterOutcome(search: string): FooterNewsletterOutcome | null {
  const notice = new URLSearchParams(search).get("notice");
  if (!notice?.startsWith(PREFIX)) return null;
  const outcome = notice.slice(PREFIX.length);
  return (FOOTER_NEWSLETTER_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as FooterNewsletterOutcome) : null;
}

/** The page's own address to come back to: its path and query, without a notice said before. */
export function footerNewsletterBack(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete("notice");
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}`;
}
