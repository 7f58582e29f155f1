-- How Mauritanians write names and words (issue 47, docs/decisions/0142): the analysis now reads compound names
-- glued and spaced, the Hassaniya g as ق and as ك, attached pronouns and duals (a taa marbuta written ت before
-- them). Stored texts must be read anew: every item is queued again, so the first drain (at start-up, or the
-- recurring one) rewrites its lexemes. The vocabulary stays: its folded terms did not change.
INSERT INTO search_queue (type, item_id)
  SELECT 'article', id FROM articles UNION ALL SELECT 'news', id FROM news UNION ALL SELECT 'program', id FROM programs
  UNION ALL SELECT 'podcast', id FROM podcasts UNION ALL SELECT 'coverage', id FROM coverages
  ON CONFLICT (type, item_id) DO UPDATE SET version = search_queue.version + 1;
