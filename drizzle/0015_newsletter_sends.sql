-- 0015_newsletter_sends: reserved for issue work in progress; replaced by its migration.
SELECT 1;
