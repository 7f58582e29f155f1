-- 0014_podcast_programs: reserved for issue work in progress; replaced by its migration.
SELECT 1;
