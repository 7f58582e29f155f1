/**
 * The account e-mails: address verification, password reset and staff invitation. Each carries one link to
 * a page of ours (/auth/verify, /auth/reset), written in the reader's language (the address of the page the
 * request came from, else its language cookie) and leading to that language's address of the page (/fr/auth/reset,
 * issue 42), and is sent through the mail module (SMTP, or the outbox file; the link is never logged).
 */
import escapeHtml from "escape-html";
import { type Language } from "#domain/language.ts";
import { isAddressedByLanguage, languageOfAddress, localizedPath } from "#domain/addresses.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { linkExpiry, translate } from "#server/http/i18n.server.ts";
import { sendMail, type SentMail } from "#server/ops/mail.server.ts";
import type { Config } from "#server/config.server.ts";
// auth.ts imports this module too: its constants are read when a mail is written, never while modules load.
import { INVITATION_SECONDS, RESET_SECONDS, VERIFICATION_SECONDS } from "./lifetimes.server.ts";

export type AccountMail = "verify" | "reset" | "invite";

const PATHS: Record<AccountMail, string> = { verify: "/auth/verify", reset: "/auth/reset", invite: "/auth/reset" };

/** How long a message's link lives (what better-auth is told) and whether it works once: the mail says so. */
function lifetimeOf(kind: AccountMail): { seconds: number; once: boolean } {
  if (kind === "verify") return { seconds: VERIFICATION_SECONDS, once: false };
  return { seconds: kind === "reset" ? RESET_SECONDS : INVITATION_SECONDS, once: true };
}

/** The link a message carries, to the page in the mail's language. The token travels only in the link, never in a log field of its own. */
export function accountLink(config: Config, kind: AccountMail, token: string, lang: Language = "ar"): string {
  const url = new URL(localizedPath(lang, PATHS[kind]), config.publicUrl);
  url.searchParams.set("token", token);
  if (kind === "invite") url.searchParams.set("invite", "1");
  return url.toString();
}

/**
 * The language of the reader who asked: the sign-in forms post to /api/auth (one address for all languages), so
 * the page they were sent from (Referer: /fr/auth/forgot) names it; without one, the request's stored choice.
 */
export function languageOf(request: Request | undefined): Language {
  if (!request) return "ar";
  const referer = request.headers.get("Referer");
  if (referer && URL.canParse(referer)) {
    const { pathname } = new URL(referer);
    if (isAddressedByLanguage(pathname)) return languageOfAddress(pathname);
  }
  return languageOfRequest(request);
}

export async function sendAccountMail(
  config: Config,
  kind: AccountMail,
  { to, token, lang, inviter }: { to: string; token: string; lang: Language; inviter?: string },
): Promise<SentMail> {
  const t = (key: string) => translate(lang, `authMail.${kind}.${key}`);
  const site = lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR;
  const link = accountLink(config, kind, token, lang);
  const fill = (s: string) => s.replaceAll("{site}", site).replaceAll("{inviter}", inviter ?? site);
  const subject = fill(t("subject"));
  const intro = fill(t("intro"));
  const action = fill(t("action"));
  const lifetime = lifetimeOf(kind);
  // The link's life is a counted string (domain/plural.ts): "24 ساعة", "ساعة واحدة", "7 أيام", "7 days".
  const outro = [fill(t("outro")), linkExpiry(lang, lifetime.seconds), lifetime.once ? translate(lang, "mail.worksOnce") : ""].filter(Boolean).join(" ");
  const dir = lang === "ar" ? "rtl" : "ltr";
  const text = `${intro}\n\n${action}:\n${link}\n\n${outro}\n\n— ${site}`;
  const html =
    `<div dir="${dir}" lang="${lang}" style="font-family:sans-serif;line-height:1.6">` +
    `<p>${escapeHtml(intro)}</p>` +
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#9a4a17;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>` +
    `<p style="font-size:13px;color:#555">${escapeHtml(link)}</p>` +
    `<p>${escapeHtml(outro)}</p><p>— ${escapeHtml(site)}</p></div>`;
  return sendMail({ to, subject, text, html, links: [link] }, config);
}
