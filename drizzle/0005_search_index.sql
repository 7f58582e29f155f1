-- Search (docs/decisions/0070-search-analysis.md, 0071-search-ranking-and-scale.md).
-- search_items holds one row per item of the five searched types with two lexeme sets made by the analysis
-- in domain/arabic.ts (title and French title; everything). The analysis runs in the application only:
-- the triggers below put a changed item on search_queue and server/search/search-index.server.ts turns the queue into
-- search_items rows (in the newsroom's own transaction, at start-up and before a search), so every writer,
-- a bulk import by SQL included, is covered and there is no SQL copy of the rules to keep in step.
-- The per-table expression indexes of 0002 are replaced: the planner saw the expression, not its
-- statistics, and re-normalised every row for common words.
DROP INDEX IF EXISTS articles_search_fts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS articles_title_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS news_search_fts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS news_title_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS programs_search_fts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS programs_title_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS podcasts_search_fts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS podcasts_title_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS coverages_search_fts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS coverages_title_trgm_idx;
--> statement-breakpoint
DROP FUNCTION IF EXISTS ar_normalize(text);
--> statement-breakpoint
CREATE TABLE search_items (
  type text NOT NULL,
  item_id integer NOT NULL,
  status text NOT NULL,
  publish_date timestamptz NOT NULL,
  title_vec tsvector NOT NULL,
  all_vec tsvector NOT NULL,
  PRIMARY KEY (type, item_id)
);
--> statement-breakpoint
-- The planner's figures for the 10,000 commonest lexemes of each column (the search reads them too, to
-- choose between walking the date index and reading a posting list).
ALTER TABLE search_items ALTER COLUMN title_vec SET STATISTICS 10000;
--> statement-breakpoint
ALTER TABLE search_items ALTER COLUMN all_vec SET STATISTICS 10000;
--> statement-breakpoint
-- A small pending list: every search reads it, and the planner, counting a long one, leaves the index.
CREATE INDEX search_items_title_idx ON search_items USING gin (title_vec) WITH (gin_pending_list_limit = 256);
--> statement-breakpoint
CREATE INDEX search_items_all_idx ON search_items USING gin (all_vec) WITH (gin_pending_list_limit = 256);
--> statement-breakpoint
CREATE INDEX search_items_recent_idx ON search_items (publish_date DESC, type, item_id DESC);
--> statement-breakpoint
-- The vocabulary of the stored texts, for "did you mean": each surface word once, with its folded form.
CREATE TABLE search_terms (
  word text PRIMARY KEY,
  term text NOT NULL,
  stop boolean NOT NULL
);
--> statement-breakpoint
CREATE INDEX search_terms_trgm_idx ON search_terms USING gin (term gin_trgm_ops);
--> statement-breakpoint
-- The letters readers confuse (domain/arabic.ts CONFUSABLE_FROM/TO), folded: ظابط finds ضابط.
CREATE INDEX search_terms_confusable_idx ON search_terms (translate(term, 'ظذثصط', 'ضزسست'));
--> statement-breakpoint
-- Items whose searched columns changed since search_items last read them; version counts the changes, so
-- that a change made while the queue is being read is not lost.
CREATE TABLE search_queue (
  type text NOT NULL,
  item_id integer NOT NULL,
  version integer NOT NULL DEFAULT 1,
  PRIMARY KEY (type, item_id)
);
--> statement-breakpoint
CREATE FUNCTION search_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_queue (type, item_id)
  VALUES (TG_ARGV[0], CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)
  ON CONFLICT (type, item_id) DO UPDATE SET version = search_queue.version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION search_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_items WHERE type = TG_ARGV[0];
  DELETE FROM search_queue WHERE type = TG_ARGV[0];
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER articles_search_write AFTER INSERT OR DELETE ON articles FOR EACH ROW EXECUTE FUNCTION search_enqueue('articles');
--> statement-breakpoint
CREATE TRIGGER articles_search_update AFTER UPDATE ON articles FOR EACH ROW
  WHEN ((OLD.title, OLD.title_fr, OLD.excerpt, OLD.excerpt_fr, OLD.content, OLD.content_fr, OLD.status, OLD.publish_date)
    IS DISTINCT FROM (NEW.title, NEW.title_fr, NEW.excerpt, NEW.excerpt_fr, NEW.content, NEW.content_fr, NEW.status, NEW.publish_date))
  EXECUTE FUNCTION search_enqueue('articles');
--> statement-breakpoint
CREATE TRIGGER articles_search_truncate AFTER TRUNCATE ON articles FOR EACH STATEMENT EXECUTE FUNCTION search_forget('articles');
--> statement-breakpoint
CREATE TRIGGER news_search_write AFTER INSERT OR DELETE ON news FOR EACH ROW EXECUTE FUNCTION search_enqueue('news');
--> statement-breakpoint
CREATE TRIGGER news_search_update AFTER UPDATE ON news FOR EACH ROW
  WHEN ((OLD.title, OLD.title_fr, OLD.excerpt, OLD.excerpt_fr, OLD.content, OLD.content_fr, OLD.status, OLD.publish_date)
    IS DISTINCT FROM (NEW.title, NEW.title_fr, NEW.excerpt, NEW.excerpt_fr, NEW.content, NEW.content_fr, NEW.status, NEW.publish_date))
  EXECUTE FUNCTION search_enqueue('news');
--> statement-breakpoint
CREATE TRIGGER news_search_truncate AFTER TRUNCATE ON news FOR EACH STATEMENT EXECUTE FUNCTION search_forget('news');
--> statement-breakpoint
CREATE TRIGGER programs_search_write AFTER INSERT OR DELETE ON programs FOR EACH ROW EXECUTE FUNCTION search_enqueue('programs');
--> statement-breakpoint
CREATE TRIGGER programs_search_update AFTER UPDATE ON programs FOR EACH ROW
  WHEN ((OLD.title, OLD.title_fr, OLD.description, OLD.content, OLD.status, OLD.publish_date)
    IS DISTINCT FROM (NEW.title, NEW.title_fr, NEW.description, NEW.content, NEW.status, NEW.publish_date))
  EXECUTE FUNCTION search_enqueue('programs');
--> statement-breakpoint
CREATE TRIGGER programs_search_truncate AFTER TRUNCATE ON programs FOR EACH STATEMENT EXECUTE FUNCTION search_forget('programs');
--> statement-breakpoint
CREATE TRIGGER podcasts_search_write AFTER INSERT OR DELETE ON podcasts FOR EACH ROW EXECUTE FUNCTION search_enqueue('podcasts');
--> statement-breakpoint
CREATE TRIGGER podcasts_search_update AFTER UPDATE ON podcasts FOR EACH ROW
  WHEN ((OLD.title, OLD.title_fr, OLD.description, OLD.content, OLD.status, OLD.publish_date)
    IS DISTINCT FROM (NEW.title, NEW.title_fr, NEW.description, NEW.content, NEW.status, NEW.publish_date))
  EXECUTE FUNCTION search_enqueue('podcasts');
--> statement-breakpoint
CREATE TRIGGER podcasts_search_truncate AFTER TRUNCATE ON podcasts FOR EACH STATEMENT EXECUTE FUNCTION search_forget('podcasts');
--> statement-breakpoint
CREATE TRIGGER coverages_search_write AFTER INSERT OR DELETE ON coverages FOR EACH ROW EXECUTE FUNCTION search_enqueue('coverages');
--> statement-breakpoint
CREATE TRIGGER coverages_search_update AFTER UPDATE ON coverages FOR EACH ROW
  WHEN ((OLD.title, OLD.title_fr, OLD.excerpt, OLD.content, OLD.status, OLD.publish_date)
    IS DISTINCT FROM (NEW.title, NEW.title_fr, NEW.excerpt, NEW.content, NEW.status, NEW.publish_date))
  EXECUTE FUNCTION search_enqueue('coverages');
--> statement-breakpoint
CREATE TRIGGER coverages_search_truncate AFTER TRUNCATE ON coverages FOR EACH STATEMENT EXECUTE FUNCTION search_forget('coverages');
--> statement-breakpoint
-- What is already stored is indexed by the first drain after this migration (at start-up).
INSERT INTO search_queue (type, item_id)
  SELECT 'articles', id FROM articles UNION ALL SELECT 'news', id FROM news UNION ALL SELECT 'programs', id FROM programs
  UNION ALL SELECT 'podcasts', id FROM podcasts UNION ALL SELECT 'coverages', id FROM coverages;
