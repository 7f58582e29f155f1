/**
 * What one render of a page did, for the page cache (server/http/page-cache.server.ts), carried by AsyncLocalStorage so
 * that loaders need not pass anything along (and what any other GET's answer read, for its surrogate keys: a scope
 * `responseCachePolicy` opens, not `kept`):
 *  - the items it showed as a detail page (server/content/views.server.ts `noteShownItem` notes them here): each is a
 *    surrogate key `<type>-<id>` of the answer; the view itself is counted by the page's beacon (POST /api/views,
 *    docs/decisions/0145-shared-cache.md), so that a copy served by a CDN counts too;
 *  - the read-cache tags of what it read (server/content/cache.server.ts `cached` notes them), and whether it read
 *    the database outside `cached` (`unkeyed`: what it shows cannot be named, so it carries every tag): together
 *    the answer's surrogate keys, which a purge by tag reaches (docs/decisions/0145-shared-cache.md);
 *  - whether it is degraded: a read failed and the page shows less than it should (a hidden section, no
 *    related items). A degraded page is served but never kept, and neither is the read that failed.
 * Outside a scope nothing is noted.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type RenderedView = { contentType: string; contentId: number };
/** `kept`: a page-cache render, whose answer is kept and served to everybody (so it sets no cookie, for one). */
export type RenderScope = { views: RenderedView[]; degraded: boolean; tags: Set<string>; unkeyed: boolean; kept: boolean };

const renders = new AsyncLocalStorage<RenderScope>();

/** Runs `render` with a fresh scope; resolves with its result and what the render recorded. */
export async function withRenderScope<T>(render: () => Promise<T>): Promise<{ result: T; scope: RenderScope }> {
  const scope: RenderScope = { ...newRenderScope(), kept: true };
  const result = await renders.run(scope, render);
  return { result, scope };
}

/** A scope of its own for `run`, for a request whose answer is not a page-cache render (server/http/page-cache.server.ts `responseCachePolicy`). */
export function newRenderScope(): RenderScope {
  return { views: [], degraded: false, tags: new Set(), unkeyed: false, kept: false };
}

/** Runs `handle` (an Express `next`) in `scope`: what the answer it leads to reads is noted there. */
export function runInRenderScope(scope: RenderScope, handle: () => void): void {
  renders.run(scope, handle);
}

/** The page-cache render under way, if any (not a request's own scope: its answer is that reader's alone). */
export function currentRenderScope(): RenderScope | undefined {
  const scope = renders.getStore();
  return scope?.kept ? scope : undefined;
}

/** Says that the answer shows this item (a detail page): its surrogate key `<type>-<id>`. */
export function noteItem(item: RenderedView): void {
  renders.getStore()?.views.push(item);
}

type ReadScope = { degraded: boolean; parent?: ReadScope };
const reads = new AsyncLocalStorage<ReadScope>();

/** Runs a read of the read cache in its own scope, nested in the caller's, and tells whether it degraded. */
export async function withReadScope<T>(read: () => Promise<T>): Promise<{ value: T; degraded: boolean }> {
  const scope: ReadScope = { degraded: false, parent: reads.getStore() };
  // Awaited inside the scope: a drizzle query builder returned as it is runs when awaited, and must run in here.
  const value = await reads.run(scope, async () => await read());
  return { value, degraded: scope.degraded };
}

/**
 * Says that a read failed and its caller shows less instead (a section hidden, an empty list): the cached
 * reads around it and the page being rendered are not kept, so the next reader tries again.
 */
export function markDegraded(): void {
  for (let s = reads.getStore(); s; s = s.parent) s.degraded = true;
  const render = renders.getStore();
  if (render) render.degraded = true;
}

/** Says that the render shows what a read of these read-cache tags returned (server/content/cache.server.ts `cached`). */
export function noteTags(tags: readonly string[]): void {
  const render = renders.getStore();
  if (render) for (const tag of tags) render.tags.add(tag);
}

/**
 * Every database query's hook (server/db/client.server.ts passes it to drizzle as its logger): a query a render runs
 * outside `cached` names no tag, so the render's answer cannot say what it shows and carries every tag.
 */
export function noteQuery(): void {
  const render = renders.getStore();
  if (render && !reads.getStore()) render.unkeyed = true;
}
