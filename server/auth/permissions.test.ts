import { describe, expect, it } from "vitest";
import { ADMIN_PAGES, can, canGrant, canManageUser, hasAccess, isAdmin, isPermission, isStaff, PERMISSIONS } from "./permissions.server.ts";

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
