/**
 * The bulk actions of the back-office lists (server/content/bulk.server.ts does them; the list's action bar,
 * app/components/admin/bulk-actions.tsx, offers them; docs/api.md, "Bulk actions").
 */
export const BULK_ACTIONS = ["publish", "unpublish", "schedule", "category", "tag", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most items one action changes: a page of a list is 20, "all matching" rarely more than a few hundred. */
export const MAX_BULK_ITEMS = 1000;

export const isBulkAction = (value: unknown): value is BulkAction => typeof value === "string" && (BULK_ACTIONS as readonly string[]).includes(value);
