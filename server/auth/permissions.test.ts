import { describe, expect, it } from "vitest";
import {
  ADMIN_PAGES,
  ADMIN_SUBPAGES,
  adminPageAccess,
  can,
  canEditOthers,
  canGrant,
  canManageTags,
  canManageUser,
  canPublish,
  hasAccess,
  isAdmin,
  isPermission,
  isStaff,
  isStaffRole,
  mayEditAuthorProfile,
  mayEditItem,
  PERMISSIONS,
  ROLE_PRESETS,
  ROLES,
} from "./permissions.server.ts";

const reader = { role: "reader", isAdmin: false, permissions: [] as string[] };
const editor = { role: "editor", isAdmin: false, permissions: ["content.write"] };
const flaggedAdmin = { role: "reader", isAdmin: true, permissions: [] as string[] };
const roleAdmin = { role: "admin", isAdmin: false, permissions: [] as string[] };

describe("roles and permissions (back-office.md §6)", () => {
  it("counts role admin or the is_admin flag as admin, and admins pass every permission", () => {
    expect(isAdmin(flaggedAdmin)).toBe(true);
    expect(isAdmin(roleAdmin)).toBe(true);
    expect(isAdmin(editor)).toBe(false);
    for (const p of PERMISSIONS) expect(can(roleAdmin, p) && can(flaggedAdmin, p)).toBe(true);
  });

  it("gives others exactly the permissions in their list", () => {
    expect(can(editor, "content.write")).toBe(true);
    expect(can(editor, "content.delete")).toBe(false);
    expect(can(reader, "content.write")).toBe(false);
    expect(can(null, "content.write")).toBe(false);
  });

  it("lets staff (admins and editors) in, not readers, and nobody disabled", () => {
    expect(isStaff(editor)).toBe(true);
    expect(isStaff(reader)).toBe(false);
    expect(isStaff({ ...roleAdmin, disabled: true })).toBe(false);
    expect(can({ ...roleAdmin, disabled: true }, "content.write")).toBe(false);
    // A reader holding a permission still cannot use it: the back-office door comes first.
    expect(hasAccess({ ...reader, permissions: ["contacts.manage"] }, "contacts.manage")).toBe(false);
    expect(hasAccess(editor, "staff")).toBe(true);
    expect(hasAccess(editor, "admin")).toBe(false);
  });

  it("names only known permissions", () => {
    expect(isPermission("users.manage")).toBe(true);
    expect(isPermission("users.delete")).toBe(false);
    expect(isPermission(["users.manage"])).toBe(false);
  });

  it("lets nobody change their own access, and a non-admin manager neither touch admins nor grant beyond their own", () => {
    const manager = { id: "m", role: "editor", isAdmin: false, permissions: ["users.manage", "content.write"] };
    const admin = { id: "a", ...roleAdmin };
    expect(canManageUser(admin, { id: "a", ...roleAdmin })).toBe(false);
    expect(canManageUser(admin, { id: "e", ...editor })).toBe(true);
    expect(canManageUser(manager, { id: "e", ...editor })).toBe(true);
    expect(canManageUser(manager, admin)).toBe(false);
    expect(canManageUser({ id: "e", ...editor }, { id: "r", ...reader })).toBe(false);
    expect(canGrant(manager, "editor", ["content.write"])).toBe(true);
    expect(canGrant(manager, "editor", ["videos.manage"])).toBe(false);
    expect(canGrant(manager, "admin", [])).toBe(false);
    expect(canGrant(admin, "admin", [])).toBe(true);
  });

  it("declares each back-office page once, under /admin, with a known requirement", () => {
    const paths = ADMIN_PAGES.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const page of ADMIN_PAGES) {
      expect(page.path === "/admin" || page.path.startsWith("/admin/")).toBe(true);
      for (const access of [page.access, page.action ?? page.access]) expect(access === "staff" || access === "admin" || isPermission(access)).toBe(true);
    }
  });
});

describe("roles and rights of issue 40 (decision 0137)", () => {
  const writer = { id: "w", role: "writer", isAdmin: false, permissions: [...ROLE_PRESETS.writer] as string[] };
  const editor = { id: "e", role: "editor", isAdmin: false, permissions: [...ROLE_PRESETS.editor] as string[] };
  const admin = { id: "a", ...roleAdmin };

  it("has a writer role, staff like an editor, and ready-made roles over the permission list", () => {
    expect(ROLES).toEqual(["reader", "writer", "editor", "admin"]);
    expect(isStaff(writer)).toBe(true);
    expect(isStaff({ ...writer, disabled: true })).toBe(false);
    expect(hasAccess(writer, "staff")).toBe(true);
    expect(ROLE_PRESETS.writer).toEqual(["content.write"]);
    expect([...ROLE_PRESETS.editor].sort()).toEqual(
      [
        "analytics.view",
        "contacts.manage",
        "content.delete",
        "content.others",
        "content.publish",
        "content.write",
        "newsletter.send",
        "tags.manage",
        "videos.manage",
      ].sort(),
    );
    // The editor's preset never grants managing people: that stays an administrator's pick.
    expect(ROLE_PRESETS.editor).not.toContain("users.manage");
    expect(ROLE_PRESETS.admin).toEqual([]);
    for (const list of Object.values(ROLE_PRESETS)) for (const p of list) expect(isPermission(p)).toBe(true);
    expect(isStaffRole("writer") && isStaffRole("editor") && isStaffRole("admin")).toBe(true);
    expect(isStaffRole("reader") || isStaffRole("toString") || isStaffRole("Writer")).toBe(false);
  });

  it("separates publishing, others' items and tag management from writing", () => {
    expect([canPublish(writer), canEditOthers(writer), canManageTags(writer)]).toEqual([false, false, false]);
    expect([canPublish(editor), canEditOthers(editor), canManageTags(editor)]).toEqual([true, true, true]);
    expect([canPublish(admin), canEditOthers(admin), canManageTags(admin)]).toEqual([true, true, true]);
    expect(canPublish({ ...editor, disabled: true })).toBe(false);
    expect(canPublish(null)).toBe(false);
    // Each right alone is just that right.
    const publisher = { ...writer, permissions: ["content.write", "content.publish"] };
    expect([canPublish(publisher), canEditOthers(publisher), canManageTags(publisher)]).toEqual([true, false, false]);
  });

  it("lets a writer edit the items they created or are credited on, and nobody else's; an editor any", () => {
    const own = { createdBy: "w", creditedAccounts: [] };
    const credited = { createdBy: "someone", creditedAccounts: [null, "w"] };
    const others = { createdBy: "someone", creditedAccounts: ["e", null] };
    const orphan = { createdBy: null, creditedAccounts: [] };
    expect([own, credited, others, orphan].map((i) => mayEditItem(writer, i))).toEqual([true, true, false, false]);
    expect([own, credited, others, orphan].map((i) => mayEditItem(editor, i))).toEqual([true, true, true, true]);
    expect(mayEditItem(admin, others)).toBe(true);
    // content.others without content.write writes nothing; a reader or disabled account nothing either.
    expect(mayEditItem({ ...writer, permissions: ["content.others"] }, others)).toBe(false);
    expect(mayEditItem({ ...writer, role: "reader" }, own)).toBe(false);
    expect(mayEditItem({ ...writer, disabled: true }, own)).toBe(false);
    expect(mayEditItem(null, own)).toBe(false);
  });

  it("lets a writer edit only the author profile linked to their account", () => {
    expect(mayEditAuthorProfile(writer, { userId: "w" })).toBe(true);
    expect(mayEditAuthorProfile(writer, { userId: "a" })).toBe(false);
    expect(mayEditAuthorProfile(writer, { userId: null })).toBe(false);
    expect(mayEditAuthorProfile(editor, { userId: "a" })).toBe(true);
    expect(mayEditAuthorProfile(editor, { userId: null })).toBe(true);
  });

  it("declares tag management with the new right", () => {
    const declared = [...ADMIN_PAGES, ...ADMIN_SUBPAGES];
    const of = (path: string) => declared.find((p) => p.path === path)!;
    expect(of("/admin/tags")).toMatchObject({ access: "content.write", action: "tags.manage" });
    expect(adminPageAccess("/api/admin/tags/merge")).toBe("tags.manage");
    expect(of("/api/admin/tags/:id")).toMatchObject({ access: "content.write", action: "tags.manage" });
  });

  it("lets a manager holding only a writer's rights grant no more than that", () => {
    const manager = { id: "m", role: "editor", isAdmin: false, permissions: ["users.manage", "content.write"] };
    expect(canGrant(manager, "writer", [...ROLE_PRESETS.writer])).toBe(true);
    expect(canGrant(manager, "editor", [...ROLE_PRESETS.editor])).toBe(false);
    expect(canGrant(admin, "editor", [...ROLE_PRESETS.editor])).toBe(true);
    expect(can(writer, "content.delete")).toBe(false);
  });
});
