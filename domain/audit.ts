/** What an audit row records (issue 40, decision 0140): the server's log (server/content/audit.server.ts) and its page. */
export const AUDIT_ACTIONS = [
  "publish",
  "unpublish",
  "schedule",
  "delete",
  "restore",
  "correction",
  "bulk",
  "permissions",
  "account_invited",
  "account_disabled",
  "account_enabled",
  "sign_in_lockout",
  "newsletter_send",
  // Live coverage (issue 44): a coverage started or ended, an entry posted, edited or deleted (its id in the details).
  "live_start",
  "live_end",
  "entry_create",
  "entry_edit",
  "entry_delete",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const isAuditAction = (value: unknown): value is AuditAction => typeof value === "string" && (AUDIT_ACTIONS as readonly string[]).includes(value);
