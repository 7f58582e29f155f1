/**
 * Every test starts with an empty read cache (server/content/cache.server.ts), as it starts with a database of
 * its own: keys name what was read, not which database, and one test's pages are not another's. Within a test the
 * cache is on, as in production, so a read after a write sees the write only if the write invalidated.
 */
import { beforeEach } from "vitest";
import { clearCache } from "#server/content/cache.server.ts";

beforeEach(() => clearCache());
