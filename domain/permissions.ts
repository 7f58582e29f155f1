/**
 * The permission vocabulary (back-office.md §6; documented in docs/permissions.md): the names a profile's
 * permission list holds. Content-type definitions (domain/content-types/) name the permissions their screens
 * need, so the words live here, on both sides; who holds what, and the checks, are
 * server/auth/permissions.server.ts's.
 */
export const PERMISSIONS = [
  /** Create and edit the content types' items (domain/content-types/); use the upload hub. */
  "content.write",
  /** Delete content items. */
  "content.delete",
  /**
   * Change what readers see (issue 40): publish, unpublish, schedule, approve, send back, the bulk actions that
   * change what is public, calendar moves of published items. Without it an account saves drafts and submits them.
   */
  "content.publish",
  /** Edit items the account neither wrote nor is credited on, and other people's author profiles (issue 40). */
  "content.others",
  /** Rename, merge and delete tags (issue 40): an editor's right; writers only create tags by typing them. */
  "tags.manage",
  /** Read the contact inbox, change a message's status, delete messages. */
  "contacts.manage",
  /** Upload to and delete from the video library. */
  "videos.manage",
  /** Invite staff, set roles and permissions, disable accounts. */
  "users.manage",
  /** Compose and send the newsletter to its subscribers (/admin/newsletter). */
  "newsletter.send",
  /**
   * Read the audience figures (issue 45): /admin/analytics, its API and CSV exports, and an item's panel on its edit
   * page. Readers' figures only (no address, no person), so every editor by default.
   */
  "analytics.view",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && (PERMISSIONS as readonly string[]).includes(value);
}
