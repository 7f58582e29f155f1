/**
 * An item's relations: the field kinds stored beside the item rather than in its table (RELATION_KINDS in
 * domain/content-types/define.ts), authors and tags. The newsroom reads and writes them here, in the save's own
 * transaction, so an item, its byline and its tags change together or not at all.
 */
import { CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import type { Queryable } from "#server/db/client.server.ts";
import { authorsOfItems, forgetItemAuthors, setItemAuthors, type BylineAuthor } from "./authors.server.ts";
import { forgetItemTags, setItemTags, tagsOfItems, type ItemTag } from "./tags.server.ts";

export type ItemRelations = { authors?: BylineAuthor[]; tags?: ItemTag[] };

const kindsOf = (type: ContentType) => new Set(CONTENT_TYPE_DEFINITIONS[type].fields.map((f) => f.kind));

/** The relations of each of `ids` (items of one type), under their field names. */
export async function relationsOfItems(db: Queryable, type: ContentType, ids: readonly number[]): Promise<Map<number, ItemRelations>> {
  const kinds = kindsOf(type);
  const [byAuthor, byTag] = await Promise.all([
    kinds.has("authors") ? authorsOfItems(db, type, ids) : null,
    kinds.has("tags") ? tagsOfItems(db, type, ids) : null,
  ]);
  return new Map(
    ids.map((id) => {
      const relations: ItemRelations = {};
      if (byAuthor) relations.authors = byAuthor.get(id) ?? [];
      if (byTag) relations.tags = byTag.get(id) ?? [];
      return [id, relations];
    }),
  );
}

/** Writes a validated item's relations (author ids, tag names) in the caller's transaction. */
export async function writeRelations(tx: Queryable, type: ContentType, id: number, values: Record<string, unknown>): Promise<void> {
  for (const field of CONTENT_TYPE_DEFINITIONS[type].fields) {
    const value = values[field.name];
    if (field.kind === "authors") await setItemAuthors(tx, type, id, (value as number[] | undefined) ?? []);
    if (field.kind === "tags") await setItemTags(tx, type, id, (value as string[] | undefined) ?? []);
  }
}

/** Forgets the relations of deleted items. */
export async function forgetRelations(tx: Queryable, type: ContentType, ids: readonly number[]): Promise<void> {
  await forgetItemAuthors(tx, type, ids);
  await forgetItemTags(tx, type, ids);
}
