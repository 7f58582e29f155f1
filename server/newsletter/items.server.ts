/**
 * What a newsletter carries (decision 0126): the digest's automatic choice of the period's top items, the
 * editor's picker, and the chosen items as they are when the send is queued.
 */
import { inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { audienceDaily } from "#server/db/schema.server.ts";
import { GRAINS } from "#server/analytics/grains.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { isPublished } from "#server/content/published.server.ts";
import { columnOf, tableOf } from "#server/content/registry.server.ts";
import { ALL_CONTENT_TYPES, definitionOf, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import { NEWSLETTER_LIMITS, type DigestPeriod, type NewsletterItemRef } from "#domain/newsletter-sends.ts";

/** An item as the newsletter shows it, in the send's language. */
export type NewsletterItem = NewsletterItemRef & { title: string; summary: string | null; url: string; imageUrl: string | null; publishDate: string };

/** A candidate of the digest, with what ranked it. */
export type DigestCandidate = NewsletterItem & { priority: "high" | "medium" | "low"; reads: number };

const MAIL_TYPES = ALL_CONTENT_TYPES.filter((d) => d.detailPage).map((d) => d.type);

export const isNewsletterType = (type: string): type is ContentType => (MAIL_TYPES as readonly string[]).includes(type);

const PERIOD_MS: Record<DigestPeriod, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };

/** The schema key of a type's summary column (an article's excerpt, a podcast's description). */
const summaryKey = (type: ContentType) => {
  const d = definitionOf(type);
  return d.fields.find((f) => f.name === d.summaryField)!.column;
};

type CandidateRow = {
  type: string;
  id: number;
  slug: string;
  title: string;
  title_fr: string | null;
  summary: string | null;
  summary_fr: string | null;
  image_url: string | null;
  publish_date: string | Date;
  priority: string;
  reads: number;
};

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Published items of every type with a page, as the newsletter needs them: ranked by priority (a news item's
 * high, medium, low; other types count as medium), then reads (the item's running view count where its type
 * keeps one, plus today's distinct readers: its views of today's audience figures), then the newest. For French and English, items with a French
 * title come first. `where` narrows each type's rows.
 */
async function rankedItems(db: Database, language: Language, where: (type: ContentType) => SQL | undefined, limit: number): Promise<DigestCandidate[]> {
  const day = today();
  const selects = MAIL_TYPES.map((type) => {
    const t = tableOf(type);
    const priority = columnOf(type, "priority");
    const viewCount = definitionOf(type).viewCounter ? columnOf(type, "viewCount") : undefined;
    const summary = columnOf(type, summaryKey(type));
    const summaryFr = columnOf(type, `${summaryKey(type)}Fr`);
    return sql`select ${type}::text as type, ${t.id} as id, ${t.pageSlug} as slug, ${t.title} as title, ${t.titleFr} as title_fr,
      ${summary ?? sql`null`}::text as summary, ${summaryFr ?? sql`null`}::text as summary_fr, ${t.imageUrl} as image_url,
      ${t.publishDate} as publish_date, ${priority ?? sql`'medium'`}::text as priority,
      (${viewCount ?? sql`0`} + (select coalesce(sum(ad.views), 0) from ${audienceDaily} ad where ad.grain = ${GRAINS.ranking} and ad.content_type = ${type} and ad.content_id = ${t.id} and ad.day = ${day}::date))::int as reads
      from ${t} where ${isPublished(t, where(type))}`;
  });
  const frenchFirst = language === "ar" ? sql`` : sql`(title_fr is null or title_fr = ''), `;
  const rows = rowsOf<CandidateRow>(
    await db.execute(sql`select * from (${sql.join(selects, sql` union all `)}) items
      order by ${frenchFirst}case priority when 'high' then 0 when 'medium' then 1 else 2 end, reads desc, publish_date desc, id desc
      limit ${limit}`),
  );
  return rows.map((r) => asItem(r, language));
}

function asItem(r: CandidateRow, language: Language): DigestCandidate {
  const type = r.type as ContentType;
  const french = language !== "ar";
  return {
    type,
    id: Number(r.id),
    title: (french && r.title_fr) || r.title,
    summary: ((french && r.title_fr && r.summary_fr) || r.summary || null)?.slice(0, NEWSLETTER_LIMITS.summary) ?? null,
    url: publicUrl(type, r.slug, Number(r.id)),
    imageUrl: r.image_url,
    publishDate: new Date(r.publish_date).toISOString(),
    priority: r.priority === "high" || r.priority === "low" ? r.priority : "medium",
    reads: Number(r.reads),
  };
}

/** The digest's automatic choice: the period's top items in `language`, best first. */
export async function digestCandidates(
  db: Database,
  { period, language, now = new Date(), limit = NEWSLETTER_LIMITS.digestItems }: { period: DigestPeriod; language: Language; now?: Date; limit?: number },
): Promise<DigestCandidate[]> {
  const since = new Date(now.getTime() - PERIOD_MS[period]);
  return rankedItems(db, language, (type) => sql`${tableOf(type).publishDate} >= ${since.toISOString()}`, limit);
}

/** Items an editor may add: the latest published of every type (the one-off send's picker, the digest's "add"). */
export async function recentItems(db: Database, language: Language, limit = 60): Promise<DigestCandidate[]> {
  const since = new Date(Date.now() - 30 * 86_400_000);
  const items = await rankedItems(db, language, (type) => sql`${tableOf(type).publishDate} >= ${since.toISOString()}`, 500);
  return items.sort((a, b) => b.publishDate.localeCompare(a.publishDate)).slice(0, limit);
}

/** The chosen items, in the chosen order, as they are now: each must exist and be published (else 400). */
export async function resolveItems(db: Database, refs: NewsletterItemRef[], language: Language): Promise<NewsletterItem[]> {
  if (!refs.length) return [];
  const byType = new Map<ContentType, number[]>();
  for (const ref of refs) byType.set(ref.type, [...(byType.get(ref.type) ?? []), ref.id]);
  const found = new Map<string, DigestCandidate>();
  for (const [type, ids] of byType) {
    const rows = await rankedItems(db, language, (t) => (t === type ? inArray(tableOf(t).id, ids) : sql`false`), ids.length);
    for (const row of rows) found.set(`${row.type}:${row.id}`, row);
  }
  return refs.map((ref) => {
    const item = found.get(`${ref.type}:${ref.id}`);
    if (!item)
      throw new BadRequestError("ITEM_UNAVAILABLE", `The item ${ref.type}:${ref.id} is not published.`, {
        fields: { items: "newsletterAdmin.errors.itemUnavailable" },
      });
    return { type: item.type, id: item.id, title: item.title, summary: item.summary, url: item.url, imageUrl: item.imageUrl, publishDate: item.publishDate };
  });
}
