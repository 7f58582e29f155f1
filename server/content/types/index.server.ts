/**
 * The per-type server hooks (./hooks.server.ts), one file per type that has behaviour of its own, found by the
 * type's key: adding a type with a hooks file is adding its line here. A type without one answers no hooks.
 */
import type { ContentType } from "#domain/content-types/index.ts";
import type { TypeHooks } from "./hooks.server.ts";
import coverage from "./coverage.server.ts";
import podcast from "./podcast.server.ts";
import program from "./program.server.ts";

const HOOKS: Partial<Record<ContentType, TypeHooks>> = { coverage, podcast, program };

const NONE: TypeHooks = {};

export function hooksOf(type: ContentType): TypeHooks {
  return HOOKS[type] ?? NONE;
}

export type { TypeFeed, TypeHooks } from "./hooks.server.ts";
