/**
 * Who may set which status of an item (issue 40, decision 0138; docs/permissions.md, "Workflow states"). Plain
 * rules shared by the server's save (server/content/newsroom/write.server.ts refuses with 403 PUBLISH_PERMISSION) and
 * the editor's status control (which offers only what the account may set).
 *
 *   draft → review → (changes_requested ↔ review) → approved → scheduled / published; unpublished is draft again.
 *
 * A writer (content.write without content.publish) saves drafts and submits them for review; everything else —
 * approving, sending back with a note, scheduling, publishing, unpublishing, and saving over an item that is
 * approved, scheduled or published — changes what readers will see and needs content.publish.
 */
import { EDITOR_STATUSES, type EditorStatus } from "#domain/content-types/define.ts";

/** The statuses an account without content.publish may choose. */
export const WRITER_STATUSES = ["draft", "review"] as const satisfies readonly EditorStatus[];

/** The states an item waits in for an editor or its writer: never public, not on the calendar. */
export const REVIEW_STATES = ["review", "changes_requested", "approved"] as const satisfies readonly EditorStatus[];

/** The editor form's input (and the JSON API's key) of the note a story is sent back with. */
export const REVIEW_NOTE_INPUT = "review_note";

/** Longest note an editor sends back with a story. */
export const REVIEW_NOTE_MAX = 2000;

/** Whether a status is seen by readers (now or at its time). */
export const isPublicStatus = (status: string) => status === "published" || status === "scheduled";

/**
 * Whether an account may save an item with status `to` when it is now `from` (null for a new item). An editor
 * may set every status. A writer may set draft and review on an item that is not public; saving a sent-back
 * item as it is keeps changes_requested (their edits before resubmitting).
 */
export function maySetStatus(canPublish: boolean, from: EditorStatus | null, to: EditorStatus): boolean {
  if (canPublish) return true;
  // Taking a public item back to draft or review is unpublishing it: an editor's call.
  if ((WRITER_STATUSES as readonly string[]).includes(to)) return from === null || !isPublicStatus(from);
  return to === "changes_requested" && from === "changes_requested";
}

/** The statuses the editor's control offers an account, in the workflow's order (the item's current one kept). */
export function statusChoices(canPublish: boolean, current: EditorStatus | null): EditorStatus[] {
  return EDITOR_STATUSES.filter((s) => s === current || maySetStatus(canPublish, current, s));
}

/** The status a new item starts with: an editor's follows the spec («منشور»), a writer's is a draft. */
export const defaultStatus = (canPublish: boolean): EditorStatus => (canPublish ? "published" : "draft");

/** An in-app notice as the dashboard shows it (server/content/workflow.server.ts reads them). */
export type StaffNoticeView = {
  id: number;
  kind: "submitted" | "changes_requested" | "published";
  type: string;
  segment: string;
  item_id: number;
  title: string;
  actor_name: string | null;
  note: string | null;
  created_at: string;
  read: boolean;
};
