import type { BulkAction } from "#domain/bulk-actions.ts";
import type { FormFailure, FormSuccess } from "#domain/form-answer.ts";

/**
 * The list's answer (domain/form-answer.ts): a refused delete or bulk action (a delete that went through goes back
 * to the list), a bulk action done (`bulk`: what and how many), or a bulk delete to confirm first (a browser without
 * JavaScript: `confirmBulk`, the count and the fields to post again).
 */
export type ListAnswer =
  | (FormSuccess & { bulk?: { action: BulkAction; count: number }; confirmBulk?: { count: number; fields: Record<string, string> } })
  | (FormFailure<string, string> & { intent?: "bulk" });

/** What the failure toast and notice say for each code (translation keys). */
export const DELETE_FAILURES: Record<string, string> = {
  BODY_TOO_LARGE: "newsroom.ui.badRequest",
  BAD_REQUEST: "newsroom.ui.badRequest",
  NOT_FOUND: "newsroom.ui.notFound",
  FAILED: "newsroom.ui.deleteFailedDetail",
};

/** What the bar says of a refused bulk action: the first field's message (a translation key), else by its code. */
export function bulkFailureOf(answer: FormFailure<string, string>): string {
  const first = answer.fields ? Object.values(answer.fields)[0] : undefined;
  if (typeof first === "string" && first.startsWith("newsroom.")) return first;
  switch (answer.formError) {
    case "NOT_FOUND":
      return "newsroom.ui.notFound";
    case "BAD_REQUEST":
    case "BODY_TOO_LARGE":
      return "newsroom.ui.badRequest";
    default:
      return "newsroom.bulk.failedDetail";
  }
}

/** This view of the list with some parameters changed (null removes one; page 1 and status "all" are the defaults). */
export function linkWith(search: URLSearchParams, changes: Record<string, string | number | null>): string {
  const next = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === "" || (k === "page" && v === 1) || (k === "status" && v === "all")) next.delete(k);
    else next.set(k, String(v));
  }
  // The confirmation step is never carried over to another view of the list.
  if (!("delete" in changes)) next.delete("delete");
  const s = next.toString();
  return s ? `?${s}` : "?";
}
