-- Issue 39: push delivery (decision 0134). A subscription counts its deliveries failed in a row, for any reason (no
-- such host, refused, TLS, time-out, 5xx, refused by the outbound guard); one success resets it, and at
-- PUSH_MAX_FAILURES it is removed, where before only a 404 or 410 removed one and the rest were retried forever.
ALTER TABLE "push_subscriptions" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;
