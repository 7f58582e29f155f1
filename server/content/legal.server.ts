/**
 * The legal pages (/privacy, /terms) from editor-maintained Markdown in content/legal/{lang}/{page}.md.
 * Read on request and re-rendered only when the file changed, so an edit shows on the next page load.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { projectRoot } from "#server/paths.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import escapeHtml from "escape-html";
import { firstHeading, renderMarkdown } from "./markdown.server.ts";
import type { Language } from "#domain/language.ts";

export const LEGAL_PAGES = ["privacy", "terms"] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

export const legalFolder = () => path.join(projectRoot(), "content", "legal");

type Rendered = { title: string | null; html: string };
const cache = new Map<string, { mtimeMs: number; rendered: Rendered }>();

async function renderFile(file: string): Promise<Rendered | null> {
  let stat;
  try {
    stat = await fs.stat(file);
  } catch {
    return null;
  }
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === stat.mtimeMs) return hit.rendered;
  const source = await fs.readFile(file, "utf8");
  const rendered = { title: firstHeading(source), html: renderMarkdown(source) };
  cache.set(file, { mtimeMs: stat.mtimeMs, rendered });
  return rendered;
}

// Left-to-right isolates keep "+222 45 25 00 00" and an address in order inside Arabic text.
const ltr = (value: string) => `\u2066${value}\u2069`;

/** Fills the {{placeholders}} of the rendered page with the site's settings (escaped). */
function fillPlaceholders(html: string, lang: Language, config: Config): string {
  const values: Record<string, string> = {
    siteName: lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR,
    contactEmail: ltr(config.CONTACT_EMAIL),
    contactPhone: ltr(config.CONTACT_PHONE),
    contactAddress: lang === "ar" ? config.CONTACT_ADDRESS : config.CONTACT_ADDRESS_FR,
    publicUrl: config.publicUrl,
    // How long the audience figures keep what (issue 45): the privacy page says the configured durations.
    analyticsRawDays: String(config.ANALYTICS_RAW_DAYS),
    analyticsHourlyDays: String(config.ANALYTICS_HOURLY_DAYS),
  };
  return html.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? escapeHtml(values[name]) : whole));
}

/** The page in the reader's language, Arabic when that file is missing; null when neither exists. */
export async function loadLegalPage(
  page: LegalPage,
  lang: Language,
  { config = getConfig(), folder = legalFolder() }: { config?: Config; folder?: string } = {},
) {
  for (const candidate of lang === "ar" ? (["ar"] as const) : ([lang, "ar"] as const)) {
    const rendered = await renderFile(path.join(folder, candidate, `${page}.md`));
    if (rendered) {
      return { lang: candidate, title: rendered.title ?? page, html: fillPlaceholders(rendered.html, candidate, config) };
    }
  }
  return null;
}
