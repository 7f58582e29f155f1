-- Search (public-site.md §7 "Search"; docs/decisions/0014-arabic-search.md).
-- ar_normalize() is the SQL twin of normalizeArabic() in domain/arabic.ts: same tables, same output, and a
-- test compares the two. It is IMMUTABLE so that indexes can be built on it: changing what it returns needs a
-- new migration that replaces it and rebuilds the indexes below (REINDEX), never an edit of this file.
-- plpgsql rather than a one-line SQL function on purpose: PostgreSQL inlines SQL functions and then costs
-- them as a few cheap operators, so on small tables it prefers normalising every row over the GIN indexes
-- (measured on the seeded PGlite database: ~300 ms a search against ~40 ms). A plpgsql function keeps the
-- COST we declare, which is the honest one for two regular-expression passes over an article.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ar_normalize(input text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000
AS $$
BEGIN
  RETURN btrim(
    regexp_replace(
      regexp_replace(
        translate(input,
          'أإآٱٲٳىیئؤةۀک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹ABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿŸŒÆ',
          'اااااايييوههك01234567890123456789abcdefghijklmnopqrstuvwxyzaaaaaaaaaaaacceeeeeeeeiiiiiiiinnoooooooooouuuuuuuuyyyyœæ'),
        '[\u0300-\u036F\u00AD\u0610-\u061A\u061C\u0640\u064B-\u065F\u0670\u06D6-\u06ED\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]', '', 'g'),
      '[\t\n\v\f\r \u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E\u00A0-\u00AC\u00AE-\u00BF\u00D7\u00F7\u060C\u061B\u061F\u066A-\u066C\u06D4\u1680\u2000-\u200A\u2010-\u205F\u3000\uFD3E\uFD3F]+', ' ', 'g'),
    ' ');
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS articles_search_fts_idx ON articles USING gin (to_tsvector('simple', ar_normalize(coalesce(title, '') || ' ' || coalesce(title_fr, '') || ' ' || coalesce(excerpt, '') || ' ' || coalesce(excerpt_fr, '') || ' ' || coalesce(content, '') || ' ' || coalesce(content_fr, ''))));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS articles_title_trgm_idx ON articles USING gin (ar_normalize(title) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS news_search_fts_idx ON news USING gin (to_tsvector('simple', ar_normalize(coalesce(title, '') || ' ' || coalesce(title_fr, '') || ' ' || coalesce(excerpt, '') || ' ' || coalesce(excerpt_fr, '') || ' ' || coalesce(content, '') || ' ' || coalesce(content_fr, ''))));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS news_title_trgm_idx ON news USING gin (ar_normalize(title) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS programs_search_fts_idx ON programs USING gin (to_tsvector('simple', ar_normalize(coalesce(title, '') || ' ' || coalesce(title_fr, '') || ' ' || coalesce(description, '') || ' ' || coalesce(content, ''))));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS programs_title_trgm_idx ON programs USING gin (ar_normalize(title) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS podcasts_search_fts_idx ON podcasts USING gin (to_tsvector('simple', ar_normalize(coalesce(title, '') || ' ' || coalesce(title_fr, '') || ' ' || coalesce(description, '') || ' ' || coalesce(content, ''))));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS podcasts_title_trgm_idx ON podcasts USING gin (ar_normalize(title) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS coverages_search_fts_idx ON coverages USING gin (to_tsvector('simple', ar_normalize(coalesce(title, '') || ' ' || coalesce(title_fr, '') || ' ' || coalesce(excerpt, '') || ' ' || coalesce(content, ''))));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS coverages_title_trgm_idx ON coverages USING gin (ar_normalize(title) gin_trgm_ops);
