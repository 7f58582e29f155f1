/**
 * Addresses that moved (issue 42, docs/decisions/0144-archive-and-moved-addresses.md): the `moved_addresses` table
 * of old language-neutral paths and where they lead now. Written in the transaction of the change that moves a page
 * (a tag renamed or merged, server/content/tags.server.ts; a published item's slug changed,
 * server/content/newsroom/write.server.ts); read only when a reading page would answer 404, so a page that exists
 * costs nothing (app/entry.server.tsx, app/routes/public/not-found.tsx).
 */
import { eq, inArray, or } from "drizzle-orm";
import { isLocalizable, languageOfAddress, localizedPath, neutralPath } from "#domain/addresses.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import type { Queryable } from "#server/db/client.server.ts";
import { movedAddresses } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";
import { tableOf } from "./registry.server.ts";

/** Paths are compared in one spelling: percent-encoded, Unicode NFC (a browser may send either form of an Arabic slug). */
export function canonicalPath(path: string): string {
  return path
    .split("/")
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment).normalize("NFC"));
      } catch {
        return segment;
      }
    })
    .join("/");
}

/**
 * Records that the page at `from` now lives at `to` (both language-neutral). Chains collapse: what led to `from`
 * now leads to `to` (A→B then B→C gives A→C and B→C), and `to`, live again, leads nowhere else (B→A after A→B
 * leaves B→A only, never a loop).
 */
export async function recordMove(tx: Queryable, from: string, to: string): Promise<void> {
  const [oldPath, newPath] = [canonicalPath(from), canonicalPath(to)];
  if (oldPath === newPath) return;
  await tx.delete(movedAddresses).where(eq(movedAddresses.oldPath, newPath));
  await tx.update(movedAddresses).set({ newPath, movedAt: new Date() }).where(eq(movedAddresses.newPath, oldPath));
  await tx
    .insert(movedAddresses)
    .values({ oldPath, newPath })
    .onConflictDoUpdate({ target: movedAddresses.oldPath, set: { newPath, movedAt: new Date() } });
}

/** A new page at `path` (an item created with an old item's slug): the address is its own, no longer a move. */
export async function claimAddress(tx: Queryable, path: string): Promise<void> {
  await tx.delete(movedAddresses).where(eq(movedAddresses.oldPath, canonicalPath(path)));
}

/** Forgets the moves that lead to pages which are gone (a deleted tag): their old addresses answer 404 again. */
export async function forgetMovesTo(tx: Queryable, paths: readonly string[]): Promise<void> {
  if (!paths.length) return;
  await tx.delete(movedAddresses).where(inArray(movedAddresses.newPath, paths.map(canonicalPath)));
}

/** Where an old language-neutral path leads now, or null. */
export async function movedTo(db: Queryable, path: string): Promise<string | null> {
  const wanted = canonicalPath(path);
  // Tag slugs are lower case: an old address typed in capitals finds its row too.
  const lower = wanted.toLowerCase();
  const rows = await db
    .select({ oldPath: movedAddresses.oldPath, newPath: movedAddresses.newPath })
    .from(movedAddresses)
    .where(lower === wanted ? eq(movedAddresses.oldPath, wanted) : or(eq(movedAddresses.oldPath, wanted), eq(movedAddresses.oldPath, lower)));
  return (rows.find((r) => r.oldPath === wanted) ?? rows[0])?.newPath ?? null;
}

/**
 * Whether the page a move leads to is one readers may open. An item's address is live only while the item is
 * published: a story unpublished (a draft, scheduled again) or deleted after its slug changed must not lead its old
 * address to a 404, nor give away its new slug (a 301 to a 404 helps nobody). Items keep `slug_redirects` for when
 * they are published again. Tags' moves are forgotten when the tag is deleted (forgetMovesTo).
 */
async function leadsToLivePage(db: Queryable, to: string): Promise<boolean> {
  const [, section, slug, ...rest] = to.split("/");
  const def = rest.length === 0 && slug ? ALL_CONTENT_TYPES.find((d) => d.detailPage && d.publicPath === `/${section}`) : undefined;
  if (!def) return true;
  const t = tableOf(def.type);
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(isPublished(t, eq(t.pageSlug, decodeURIComponent(slug))))
    .limit(1);
  return rows.length > 0;
}

const lookedUp = new WeakSet<Request>();

/**
 * The 301 a request that would answer 404 gets when its address moved: the new address in the request's language
 * (`/fr/tags/old` → `/fr/tags/new`), the query kept. Null for anything else (not a GET or HEAD, not a reading page,
 * no move recorded), which then answers its 404.
 */
export async function movedAddressResponse(db: Queryable, request: Request): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  // Asked once per request: the not-found route's loader asks first, the document's 404 (app/entry.server.tsx) after.
  if (lookedUp.has(request)) return null;
  lookedUp.add(request);
  const url = new URL(request.url);
  const path = neutralPath(url.pathname);
  if (!isLocalizable(path)) return null;
  const to = await movedTo(db, path);
  if (!to || !(await leadsToLivePage(db, to))) return null;
  const location = localizedPath(languageOfAddress(url.pathname), to) + url.search;
  return new Response(null, { status: 301, headers: { Location: location, "Cache-Control": "public, max-age=3600" } });
}
