/**
 * Roles and permissions: who holds what, and the checks (documented in docs/permissions.md). The permission
 * vocabulary is domain/permissions.ts's, where the content-type definitions name theirs.
 *
 * back-office.md §6: admin means profile role `admin` or the `is_admin` flag, and admins pass every permission
 * check; anyone else needs the named permission in their profile's permission list. The back-office itself is
 * open to staff (admins and editors); a reader — anyone who merely signed up — is refused at the door.
 */

import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import type { Permission } from "#domain/permissions.ts";

export { isPermission, PERMISSIONS, type Permission } from "#domain/permissions.ts";

/**
 * `writer` (issue 40, decision 0137): staff who write and submit their own items; `editor`: staff whose list
 * usually holds the editor's rights (ROLE_PRESETS). For both, what they may do is their permission list.
 */
export const ROLES = ["reader", "writer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The profile fields access depends on. */
export type AccessProfile = { role: string; isAdmin: boolean; permissions: readonly string[]; disabled?: boolean };

export function isAdmin(profile: AccessProfile | null | undefined): boolean {
  if (!profile || profile.disabled) return false;
  return profile.role === "admin" || profile.isAdmin === true;
}

/** Staff may enter the back-office; what they may do there depends on their permissions. */
export function isStaff(profile: AccessProfile | null | undefined): boolean {
  if (!profile || profile.disabled) return false;
  return isAdmin(profile) || profile.role === "editor" || profile.role === "writer";
}

export function can(profile: AccessProfile | null | undefined, permission: Permission): boolean {
  if (!profile || profile.disabled) return false;
  return isAdmin(profile) || profile.permissions.includes(permission);
}

/**
 * The ready-made roles an administrator picks when inviting or editing a member of staff (/admin/users, and
 * `npm run user:create -- --role`): each fills the permission boxes, which can still be adjusted. An
 * administrator's list stays empty (the role holds every permission).
 */
export const ROLE_PRESETS = {
  writer: ["content.write"],
  editor: [
    "content.write",
    "content.delete",
    "content.publish",
    "content.others",
    "tags.manage",
    "videos.manage",
    "contacts.manage",
    "newsletter.send",
    "analytics.view",
  ],
  admin: [],
} as const satisfies Record<Exclude<Role, "reader">, readonly Permission[]>;
export type StaffRole = keyof typeof ROLE_PRESETS;

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && Object.hasOwn(ROLE_PRESETS, value);
}

/** Changes what readers see: publish, unpublish, schedule, approve, send back (issue 40). */
export const canPublish = (profile: AccessProfile | null | undefined) => can(profile, "content.publish");

/** Edits items the account neither wrote nor is credited on, and others' author profiles (issue 40). */
export const canEditOthers = (profile: AccessProfile | null | undefined) => can(profile, "content.others");

/** Renames, merges and deletes tags (issue 40). */
export const canManageTags = (profile: AccessProfile | null | undefined) => can(profile, "tags.manage");

/**
 * Ownership (issue 40): may `actor` edit an item whose creator is `createdBy` and whose credited authors' linked
 * accounts are `creditedAccounts`? Always with content.others; otherwise only their own or one they are credited on.
 * The facts come from the database (server/content/ownership.server.ts); the rule is here.
 */
export function mayEditItem(
  actor: (AccessProfile & { id: string }) | null | undefined,
  item: { createdBy: string | null; creditedAccounts: readonly (string | null)[] },
): boolean {
  if (!actor || !isStaff(actor) || !can(actor, "content.write")) return false;
  if (canEditOthers(actor)) return true;
  return item.createdBy === actor.id || item.creditedAccounts.includes(actor.id);
}

/** Ownership of an author profile: one's own (linked to the account), or any with content.others. */
export function mayEditAuthorProfile(actor: (AccessProfile & { id: string }) | null | undefined, author: { userId: string | null }): boolean {
  if (!actor || !isStaff(actor) || !can(actor, "content.write")) return false;
  return canEditOthers(actor) || (author.userId !== null && author.userId === actor.id);
}

/** What a back-office page (and, unless it says otherwise, its action) requires. */
export type Access = "staff" | "admin" | Permission;

export function hasAccess(profile: AccessProfile | null | undefined, access: Access): boolean {
  if (access === "staff") return isStaff(profile);
  if (access === "admin") return isAdmin(profile);
  return isStaff(profile) && can(profile, access);
}

/**
 * Every back-office page, in menu order (back-office.md §2, "Admin menu"), with what it requires. The admin
 * menu is built from this list, so it only ever links to pages that exist; the authorisation matrix test
 * (tests/e2e/auth/matrix.e2e.test.ts) fails when a route under /admin in app/routes.ts is missing here, and
 * checks that each loader and action enforces what is declared. `action` is set when the page's action
 * requires something else than the page.
 */
export type AdminPage = { path: string; label: string; access: Access; action?: Access };

export const ADMIN_PAGES: readonly AdminPage[] = [
  { path: "/admin", label: "admin.dashboard", access: "staff" },
  // Each content type's list, in the registry's order (back-office.md §2): opening it and its action (the bulk
  // actions) need the type's write permission; a delete, single or bulk, the delete one besides (checked inside).
  ...ALL_CONTENT_TYPES.map(({ segment, permissions }) => ({
    path: `/admin/${segment}`,
    label: `admin.${segment}`,
    access: permissions.write,
  })),
  // The schedule of every type (issue 29): the types the account may write; a move needs the item type's write
  // permission, content.publish and ownership (issue 40, checked inside).
  { path: "/admin/calendar", label: "admin.calendar", access: "content.write" },
  { path: "/admin/videos", label: "admin.videos", access: "videos.manage" },
  { path: "/admin/contacts", label: "admin.contacts", access: "contacts.manage" },
  { path: "/admin/upload", label: "admin.upload", access: "content.write" },
  // Its delete needs content.delete besides (checked inside, deleteLibraryFileAs).
  { path: "/admin/library", label: "admin.library", access: "content.write" },
  // Tags of every type (issue 29): seen by whoever writes content; renamed, merged and deleted with tags.manage (issue 40).
  { path: "/admin/tags", label: "admin.tags", access: "content.write", action: "tags.manage" },
  // Author profiles (decision 0121): the newsroom's bylines, so content.write; deleting one needs content.delete
  // and linking an account users.manage, both checked inside.
  { path: "/admin/authors", label: "admin.authors", access: "content.write" },
  { path: "/admin/users", label: "admin.users", access: "users.manage" },
  // The newsletter (decision 0126): composing, previewing, sending and cancelling mail to every subscriber.
  { path: "/admin/newsletter", label: "admin.newsletter", access: "newsletter.send" },
  // Audience figures (issue 45, decision 0147): what readers read, from where, and what they searched for in vain.
  { path: "/admin/analytics", label: "analytics.title", access: "analytics.view" },
  // The audit log (issue 40, decision 0140): who did what, administrators only.
  { path: "/admin/audit", label: "audit.title", access: "admin" },
];

/**
 * Back-office pages reached from a menu page rather than from the menu: each content type's editor (new and
 * existing items), revisions and draft preview. Declared like the menu's pages, for the same checks.
 */
export const ADMIN_SUBPAGES: readonly Omit<AdminPage, "label">[] = [
  ...ALL_CONTENT_TYPES.flatMap(({ segment, permissions }) =>
    ["new", ":id", ":id/revisions", ":id/preview"].map((rest) => ({ path: `/admin/${segment}/${rest}`, access: permissions.write })),
  ),
  // The newsroom's JSON API (every type needs the same permissions: reading and writing content.write,
  // DELETE content.delete).
  { path: "/api/admin/:type", access: "content.write" },
  { path: "/api/admin/:type/:id", access: "content.write" },
  // Bulk actions on a type's items (a delete needs content.delete besides; publish, unpublish and schedule
  // content.publish; others' items content.others — checked inside, authorizeBulk).
  { path: "/api/admin/:type/bulk", access: "content.write" },
  // The editor's autosave of a draft (the type's write permission is checked again inside).
  { path: "/api/admin/:type/:id/autosave", access: "content.write" },
  // Corrections of a published item (POST needs content.publish, checked inside; decision 0140).
  { path: "/api/admin/:type/:id/corrections", access: "content.write" },
  // Who is editing an item, and its internal notes (decision 0139): the type's write permission, and the item's
  // owner or content.others (checked inside, assertMayEdit).
  { path: "/api/admin/:type/:id/lock", access: "content.write" },
  { path: "/api/admin/:type/:id/notes", access: "content.write" },
  // A live coverage's entries (issue 44, decision 0146): public the moment they are posted, so content.publish for
  // reading and writing them; the coverage's owner or content.others (checked inside, assertMayEdit).
  { path: "/api/admin/coverage/:id/entries", access: "content.publish" },
  { path: "/api/admin/coverage/:id/entries/:entryId", access: "content.publish" },
  // The audit log's JSON and CSV (decision 0140): administrators only.
  { path: "/api/admin/audit", access: "admin" },
  { path: "/api/admin/audit.csv", access: "admin" },
  // Audience figures' JSON and CSV (issue 45): analytics.view, as /admin/analytics.
  { path: "/api/admin/analytics/items/:type/:id", access: "analytics.view" },
  { path: "/api/admin/analytics/top", access: "analytics.view" },
  { path: "/api/admin/analytics/searches", access: "analytics.view" },
  { path: "/api/admin/analytics.csv", access: "analytics.view" },
  // The contact inbox's JSON API: listing, reading, changing a status and deleting all need contacts.manage.
  { path: "/api/admin/contacts", access: "contacts.manage" },
  { path: "/api/admin/contacts/:id", access: "contacts.manage" },
  // The video library's JSON API (and where a half-sent file goes on): videos.manage, as /admin/videos.
  { path: "/api/admin/videos", access: "videos.manage" },
  { path: "/api/admin/videos/:guid", access: "videos.manage" },
  { path: "/api/admin/videos/:guid/upload", access: "videos.manage" },
  // The media library's JSON API: its files serve every form, so content.write, as /admin/library; a DELETE needs
  // content.delete besides (checked inside, deleteLibraryFileAs: a published item may lose its picture).
  { path: "/api/admin/library", access: "content.write" },
  { path: "/api/admin/library/:id", access: "content.write" },
  // The schedule's JSON API (moving an item is PATCH /api/admin/:type/:id).
  { path: "/api/admin/calendar", access: "content.write" },
  // The tags' JSON API (the form's suggestions, the tags screen): reading content.write, as /admin/tags; a merge,
  // a rename and a delete tags.manage (issue 40).
  { path: "/api/admin/tags", access: "content.write" },
  { path: "/api/admin/tags/merge", access: "tags.manage" },
  { path: "/api/admin/tags/:id", access: "content.write", action: "tags.manage" },
  // Author profiles' editor and JSON API (DELETE needs content.delete, linking an account users.manage; checked inside).
  // Anyone who writes makes a profile (a guest writer needs one, from the form's picker too); changing or deleting an
  // existing one needs its owner (the linked account) or content.others (issue 40, checked inside).
  { path: "/admin/authors/new", access: "content.write" },
  { path: "/admin/authors/:id", access: "content.write" },
  { path: "/api/admin/authors", access: "content.write" },
  { path: "/api/admin/authors/:id", access: "content.write" },
];

export function adminPageAccess(pathname: string): Access | undefined {
  return (ADMIN_PAGES.find((p) => p.path === pathname) ?? ADMIN_SUBPAGES.find((p) => p.path === pathname))?.access;
}

/**
 * Who may change whose access. Admins manage everyone but themselves (so nobody locks themselves out);
 * a non-admin holding `users.manage` manages only non-admins and grants only permissions they hold.
 */
export function canManageUser(actor: AccessProfile & { id: string }, target: AccessProfile & { id: string }): boolean {
  if (actor.id === target.id) return false;
  if (!can(actor, "users.manage")) return false;
  if (isAdmin(actor)) return true;
  return !(target.role === "admin" || target.isAdmin);
}

export function canGrant(actor: AccessProfile, role: Role, permissions: readonly Permission[]): boolean {
  if (!can(actor, "users.manage")) return false;
  if (isAdmin(actor)) return true;
  return role !== "admin" && permissions.every((p) => actor.permissions.includes(p));
}
