/**
 * The newsletter mail (decision 0126): its HTML for mail clients, its text, and the headers of one-click
 * unsubscribe (RFC 8058), written once per send with a placeholder where each recipient's token goes.
 */
import escapeHtml from "escape-html";
import { getConfig, type Config } from "#server/config.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { localizedPath } from "#domain/addresses.ts";
import type { NewsletterSendKind } from "#domain/newsletter-sends.ts";
import { newsletterCampaign, taggedUrl } from "#domain/link-tags.ts";
import type { NewsletterItem } from "./items.server.ts";

export type NewsletterContent = { kind: NewsletterSendKind; language: Language; subject: string; intro: string | null; items: NewsletterItem[] };

/** A placeholder for the recipient's token, replaced per message (the body is written once per send). */
export const TOKEN_SLOT = "__NEWSLETTER_TOKEN__";

const absolute = (config: Config, url: string) => (/^https?:\/\//i.test(url) ? url : `${config.publicUrl}${url.startsWith("/") ? "" : "/"}${url}`);

/**
 * A page of ours as a link in a mail in `lang`: that language's address (issue 42), so a French subscriber lands on
 * the French page; files (images) and outside links come back unchanged.
 */
const addressIn = (config: Config, lang: Language, url: string) => absolute(config, localizedPath(lang, url));

/**
 * An item's link in the mail: its page in the mail's language, tagged as the newsletter's and, for a real send, as
 * that send's (`utm_campaign=send-<id>`: the dashboard counts each send's clicks from it, issue 45; opens are not
 * tracked). A preview has no send: the source alone.
 */
const itemLink = (config: Config, lang: Language, url: string, sendId: number | null) =>
  taggedUrl(addressIn(config, lang, url), { source: "newsletter", ...(sendId ? { campaign: newsletterCampaign(sendId) } : {}) });

export function unsubscribeUrl(token: string, sendId: number | null, config: Config = getConfig(), lang: Language = "ar") {
  return addressIn(config, lang, `/newsletter/unsubscribe?token=${token}${sendId ? `&send=${sendId}` : ""}`);
}

export function preferencesUrl(token: string, config: Config = getConfig(), lang: Language = "ar") {
  return addressIn(config, lang, `/newsletter/preferences?token=${token}`);
}

/**
 * The mail of a send, for one recipient's token (TOKEN_SLOT for the template). HTML for mail clients: tables,
 * inline styles only; in Arabic `dir="rtl"` and right alignment on every block (align and text-align), since
 * several clients drop the document's direction.
 */
export function renderNewsletter(
  content: NewsletterContent,
  { token, sendId, config = getConfig() }: { token: string; sendId: number | null; config?: Config },
) {
  const lang = content.language;
  const rtl = lang === "ar";
  const dir = rtl ? "rtl" : "ltr";
  const align = rtl ? "right" : "left";
  const site = lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR;
  const t = (key: string) => translate(lang, `newsletterMail.${key}`).replaceAll("{site}", site);
  const unsubscribe = unsubscribeUrl(token, sendId, config, lang);
  const preferences = preferencesUrl(token, config, lang);
  const e = escapeHtml;
  const cell = `dir="${dir}" align="${align}" style="direction:${dir};text-align:${align};`;
  const font = "font-family:Tahoma,Arial,sans-serif;";

  const itemsHtml = content.items
    .map((item) => {
      const url = itemLink(config, lang, item.url, sendId);
      const image = item.imageUrl
        ? `<tr><td ${cell}padding:0 0 8px 0;"><a href="${e(url)}"><img src="${e(absolute(config, item.imageUrl))}" alt="" width="560" style="display:block;width:100%;max-width:560px;height:auto;border:0;border-radius:6px;"></a></td></tr>`
        : "";
      const summary = item.summary ? `<tr><td ${cell}${font}font-size:15px;line-height:1.7;color:#444444;padding:0 0 6px 0;">${e(item.summary)}</td></tr>` : "";
      return `<tr><td ${cell}padding:16px 0;border-bottom:1px solid #eadfcc;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="direction:${dir};">${image}<tr><td ${cell}${font}font-size:19px;line-height:1.5;font-weight:bold;padding:0 0 6px 0;"><a href="${e(url)}" style="color:#8a4b14;text-decoration:none;">${e(item.title)}</a></td></tr>${summary}<tr><td ${cell}${font}font-size:13px;color:#777777;">${e(formatDate(item.publishDate, lang))} · <a href="${e(url)}" style="color:#8a4b14;">${e(t("readMore"))}</a></td></tr></table></td></tr>`;
    })
    .join("");
  const intro = content.intro
    ? `<tr><td ${cell}${font}font-size:16px;line-height:1.8;color:#222222;padding:0 0 8px 0;">${e(content.intro).replace(/\n/g, "<br>")}</td></tr>`
    : "";
  const html = `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(content.subject)}</title></head><body dir="${dir}" style="margin:0;padding:0;background:#f7f2ea;direction:${dir};text-align:${align};"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="background:#f7f2ea;direction:${dir};"><tr><td align="center" style="padding:24px 12px;"><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px;direction:${dir};"><tr><td ${cell}padding:24px 20px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="direction:${dir};"><tr><td ${cell}${font}font-size:14px;font-weight:bold;color:#8a4b14;padding:0 0 4px 0;">${e(site)}</td></tr><tr><td ${cell}${font}font-size:24px;font-weight:bold;line-height:1.4;color:#222222;padding:0 0 12px 0;">${e(content.subject)}</td></tr>${intro}${itemsHtml}<tr><td ${cell}${font}font-size:12px;line-height:1.7;color:#777777;padding:20px 0 0 0;">${e(t("why"))}<br><a href="${e(preferences)}" style="color:#8a4b14;">${e(t("preferences"))}</a> · <a href="${e(unsubscribe)}" style="color:#8a4b14;">${e(t("unsubscribe"))}</a></td></tr></table></td></tr></table></td></tr></table></body></html>`;

  const text = [
    site,
    content.subject,
    "",
    ...(content.intro ? [content.intro, ""] : []),
    ...content.items.flatMap((item) => [item.title, ...(item.summary ? [item.summary] : []), itemLink(config, lang, item.url, sendId), ""]),
    "--",
    t("why"),
    `${t("preferences")}: ${preferences}`,
    `${t("unsubscribe")}: ${unsubscribe}`,
  ].join("\n");
  const headers = {
    "List-Unsubscribe": `<${unsubscribe}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-Id": `${site.replace(/[<>"]/g, "")} <newsletter.${new URL(config.publicUrl).hostname}>`,
  };
  return { subject: content.subject, html, text, headers, links: [unsubscribe, preferences] };
}
