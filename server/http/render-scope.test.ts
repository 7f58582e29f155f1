/**
 * What a render notes for its surrogate keys (decision 0145), with the real database client: a query outside the read
 * cache makes the render `unkeyed` (it carries every tag), one inside `cached()` names the read's tags instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { cached } from "#server/content/cache.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { withRenderScope } from "./render-scope.server.ts";

describe("render scope notes", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("pglite");
  });
  afterAll(async () => t?.drop());

  it("marks a render that queries outside the read cache, and names the tags of one that reads through it", async () => {
    const direct = await withRenderScope(async () => await t.db.select({ id: categories.id }).from(categories));
    expect(direct.scope.unkeyed).toBe(true);

    const through = await withRenderScope(() =>
      cached("scope-test:one", ["news", "categories"], async () => await t.db.select({ id: categories.id }).from(categories)),
    );
    expect(through.scope.unkeyed).toBe(false);
    expect([...through.scope.tags]).toEqual(["news", "categories"]);

    // A second render served by the read cache's copy is named the same, with no query at all.
    const again = await withRenderScope(() =>
      cached("scope-test:one", ["news", "categories"], async () => await t.db.select({ id: categories.id }).from(categories)),
    );
    expect([...again.scope.tags]).toEqual(["news", "categories"]);
    expect(again.scope.unkeyed).toBe(false);
  });

  it("notes nothing outside a render", async () => {
    await expect(t.db.select({ id: categories.id }).from(categories)).resolves.toBeDefined();
  });
});
