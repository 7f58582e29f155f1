import type { FormAnswer } from "#domain/form-answer.ts";
import type { TagSummary } from "#domain/tags.ts";

export type TagsIntent = "rename" | "merge" | "delete";

/** The tags page's action answer (app/routes/admin/tags.tsx). */
export type TagsAnswer = FormAnswer<string, "BODY_TOO_LARGE" | "BAD_REQUEST" | "INVALID" | "NOT_FOUND" | "CONFLICT" | "SLUG_TAKEN" | "REQUIRED" | "FAILED"> & {
  intent?: TagsIntent;
  /** The tag that remains (rename, merge). */
  name?: string;
};

/** The dialog open on the screen, if any. */
export type TagsDialog = { kind: "rename" | "delete"; tag: TagSummary } | { kind: "merge"; tags: TagSummary[] } | null;

export const inputClass =
  "h-11 w-full rounded-md border border-sand-300 bg-white px-3 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none";
export const smallButton = "inline-flex h-9 items-center rounded-md border border-sand-300 bg-white px-3 text-sm font-bold hover:bg-sand-100";
