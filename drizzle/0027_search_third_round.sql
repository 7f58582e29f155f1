-- Search, third round (issue 47, docs/decisions/0152): the analysis now folds the Maghrebi fa and qaf (ڢ ڧ), the v
-- written ڥ, the Moroccan g (ݣ, read as ق and as ك like گ), the African fa, qaf and noon and Urdu's ں; stores a
-- compound name glued with its head's other writings (أبي/أبو/أبا, بن/ابن, منت/بنت, ولد/ول) and محمد glued before
-- the article; and reads ك after a taa marbuta written ت, a pronoun on a broken plural, duals and sound plurals in
-- construct.
-- Stored texts must be read anew: every item is queued again, so the first drain (at start-up, or the recurring
-- one) rewrites its lexemes. The vocabulary's words with a newly folded letter are forgotten, so that the drain
-- offers them again with their new folded term (did-you-mean and the split of words run together read it).
DELETE FROM search_terms WHERE word ~ '[ڢڥࢻڧࢼںࢽݣ]';
--> statement-breakpoint
INSERT INTO search_queue (type, item_id)
  SELECT 'article', id FROM articles UNION ALL SELECT 'news', id FROM news UNION ALL SELECT 'program', id FROM programs
  UNION ALL SELECT 'podcast', id FROM podcasts UNION ALL SELECT 'coverage', id FROM coverages
  ON CONFLICT (type, item_id) DO UPDATE SET version = search_queue.version + 1;
