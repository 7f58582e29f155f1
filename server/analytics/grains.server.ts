/**
 * The grains of the audience rollups (audience_hourly and audience_daily, decision 0147). Every counted view and new
 * visitor is summed once per grain, each grain keeping some of the key columns and leaving the others blank ('' and
 * 0), so that each question reads only the rows it needs: a period's totals and timeline read the totals grain (at
 * most 81 rows a slot: 3 languages, 9 sources, 3 devices), the newsroom's rankings the ranking grain (a row per
 * item) and the public per-language lists the items grain (a row per item and language), never a row per page,
 * source, device and campaign together. The grain is the first column of both
 * tables' primary key: a period's rows of one grain are one range of the index. Device and campaign per item are
 * not rolled up (the raw rows keep them for ANALYTICS_RAW_DAYS).
 */
import { sql, type SQL } from "drizzle-orm";

export const GRAINS = {
  /** page, content_type, content_id, lang, source: an item's panel and the item API (its sources). */
  sources: 0,
  /** page, content_type, content_id, lang: the top items, sections and authors, the public «الأكثر قراءة». */
  items: 1,
  /** lang, source, device: a period's totals, breakdowns and timeline. */
  totals: 2,
  /** source, campaign, only where there is a campaign: newsletter clicks and push alert opens. */
  campaigns: 3,
  /** page, content_type, content_id: the newsroom's rankings of items, sections and authors, all languages together. */
  ranking: 4,
} as const;
export type Grain = keyof typeof GRAINS;

/** The key columns of a rollup row. */
export type RollupKey = { page: string; contentType: string; contentId: number; lang: string; source: string; device: string; campaign: string };
type KeyColumn = keyof RollupKey;

const KEPT: Record<Grain, readonly KeyColumn[]> = {
  sources: ["page", "contentType", "contentId", "lang", "source"],
  items: ["page", "contentType", "contentId", "lang"],
  totals: ["lang", "source", "device"],
  campaigns: ["source", "campaign"],
  ranking: ["page", "contentType", "contentId"],
};

/** The grains a row is summed at: the campaigns grain only for rows that have a campaign. */
export const grainsOf = (key: RollupKey): Grain[] =>
  key.campaign ? ["sources", "items", "totals", "campaigns", "ranking"] : ["sources", "items", "totals", "ranking"];

/** The key as a grain keeps it: the other columns blank. */
export function atGrain(key: RollupKey, grain: Grain): RollupKey {
  const kept = KEPT[grain];
  const blank = (column: KeyColumn) => !kept.includes(column);
  return {
    page: blank("page") ? "" : key.page,
    contentType: blank("contentType") ? "" : key.contentType,
    contentId: blank("contentId") ? 0 : key.contentId,
    lang: blank("lang") ? "" : key.lang,
    source: blank("source") ? "" : key.source,
    device: blank("device") ? "" : key.device,
    campaign: blank("campaign") ? "" : key.campaign,
  };
}

const SQL_COLUMNS: Record<KeyColumn, { name: string; blank: string }> = {
  page: { name: "page", blank: "''" },
  contentType: { name: "content_type", blank: "''" },
  contentId: { name: "content_id", blank: "0" },
  lang: { name: "lang", blank: "''" },
  source: { name: "source", blank: "''" },
  device: { name: "device", blank: "''" },
  campaign: { name: "campaign", blank: "''" },
};

const KEY_COLUMNS = Object.keys(SQL_COLUMNS) as KeyColumn[];

/**
 * The rollup rows of raw rows (audience_views, where content_type, content_id and campaign may be null) at every
 * grain in one scan (grouping sets), grouped by `slot` (an SQL expression of `at`): grain, slot, the key columns in
 * the rollups' order, views, visitors.
 */
export function rawRollupSelect(slot: SQL, where: SQL): SQL {
  const grains = Object.keys(GRAINS) as Grain[];
  // grouping() over the key columns: a bit per column a set leaves out, the first column the highest.
  const bitsOf = (grain: Grain) => KEY_COLUMNS.reduce((bits, c) => (bits << 1) | (KEPT[grain].includes(c) ? 0 : 1), 0);
  const all = sql.raw(KEY_COLUMNS.map((c) => SQL_COLUMNS[c].name).join(", "));
  const grainCase = sql.raw(
    `case grouping(${KEY_COLUMNS.map((c) => SQL_COLUMNS[c].name).join(", ")}) ${grains.map((g) => `when ${bitsOf(g)} then ${GRAINS[g]}`).join(" ")} end`,
  );
  const sets = sql.join(
    grains.map((g) => sql`(${slot}, ${sql.raw(KEPT[g].map((c) => SQL_COLUMNS[c].name).join(", "))})`),
    sql`, `,
  );
  const columns = sql.raw(KEY_COLUMNS.map((c) => `coalesce(${SQL_COLUMNS[c].name}, ${SQL_COLUMNS[c].blank}) as ${SQL_COLUMNS[c].name}`).join(", "));
  return sql`select (${grainCase})::smallint as grain, ${slot} as slot, ${columns},
      count(*) filter (where counted)::int as views, count(*) filter (where new_visitor)::int as visitors
    from (select at, ${all}, counted, new_visitor from audience_views where ${where}) raw
    group by grouping sets (${sets})
    having count(*) filter (where counted or new_visitor) > 0
      -- The campaigns grain: only rows that have one.
      and not (grouping(${all}) = ${sql.raw(String(bitsOf("campaigns")))} and campaign is null)`;
}
