/**
 * The section pages' cards, shared by sections.server.ts and literature-samples.server.ts (the built-in samples are
 * cards of the same shape): each imports them from here, neither from the other.
 */
import type { REGIONS } from "#server/db/schema.server.ts";
import type { Card } from "./listings.server.ts";

/** An article's card as the section pages show it (its definition's `card`, domain/content-types/article.ts). */
export type SectionCard = Card<"article">;
export type Region = (typeof REGIONS)[number];
export type SectionContentType = SectionCard["contentType"];
/** A literature card: poems carry their first verse lines, everything else its excerpt. */
export type LiteratureItem = SectionCard & { isPoetry: boolean; verses: string[]; versesFr: string[] };
