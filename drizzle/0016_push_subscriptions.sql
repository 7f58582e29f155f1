-- 0016_push_subscriptions: reserved for issue work in progress; replaced by its migration.
SELECT 1;
