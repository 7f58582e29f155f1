-- 0017_search_vocabulary: reserved for issue work in progress; replaced by its migration.
SELECT 1;
