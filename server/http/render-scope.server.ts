/**
 * What one render of a page did, for the page cache (server/http/page-cache.server.ts), carried by AsyncLocalStorage so
 * that loaders need not pass anything along:
 *  - the views it would have counted (server/content/views.server.ts `countView` records them here instead of
 *    counting: the page cache counts them on every request it answers, hits included);
 *  - whether it is degraded: a read failed and the page shows less than it should (a hidden section, no
 *    related items). A degraded page is served but never kept, and neither is the read that failed.
 * Outside a page-cache render there is no scope and nothing changes.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type RenderedView = { contentType: string; contentId: number };
export type RenderScope = { views: RenderedView[]; degraded: boolean };

const renders = new AsyncLocalStorage<RenderScope>();

/** Runs `render` with a fresh scope; resolves with its result and what the render recorded. */
export async function withRenderScope<T>(render: () => Promise<T>): Promise<{ result: T; scope: RenderScope }> {
  const scope: RenderScope = { views: [], degraded: false };
  const result = await renders.run(scope, render);
  return { result, scope };
}

export function currentRenderScope(): RenderScope | undefined {
  return renders.getStore();
}

type ReadScope = { degraded: boolean; parent?: ReadScope };
const reads = new AsyncLocalStorage<ReadScope>();

/** Runs a read of the read cache in its own scope, nested in the caller's, and tells whether it degraded. */
export async function withReadScope<T>(read: () => Promise<T>): Promise<{ value: T; degraded: boolean }> {
  const scope: ReadScope = { degraded: false, parent: reads.getStore() };
  const value = await reads.run(scope, read);
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
