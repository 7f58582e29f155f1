-- The forgiving search (docs/decisions/0129-forgiving-search.md). The vocabulary of the stored texts gains a
-- consonant skeleton both scripts share (domain/search-lexicon.ts soundOf: Atar and أطار are both "tr"), with
-- an index, for the Latin ↔ Arabic arm; the typo arm reads the trigram index search_terms already has.
-- The analysis changed too (broken plurals, dropped hamza seats, French ligatures, modifier apostrophes):
-- the vocabulary is forgotten and every item queued again, so the first drain (at start-up, or the
-- recurring one) reads every text anew and writes the skeletons.
ALTER TABLE search_terms ADD COLUMN sound text NOT NULL DEFAULT '';
--> statement-breakpoint
CREATE INDEX search_terms_sound_idx ON search_terms (sound) WHERE sound <> '';
--> statement-breakpoint
DELETE FROM search_terms;
--> statement-breakpoint
INSERT INTO search_queue (type, item_id)
  SELECT 'article', id FROM articles UNION ALL SELECT 'news', id FROM news UNION ALL SELECT 'program', id FROM programs
  UNION ALL SELECT 'podcast', id FROM podcasts UNION ALL SELECT 'coverage', id FROM coverages
  ON CONFLICT (type, item_id) DO UPDATE SET version = search_queue.version + 1;
