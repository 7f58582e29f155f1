import { describe, expect, it } from "vitest";
import { ANONYMOUS_NAME, displayName, initialsOf, safeAvatarUrl } from "./display.server.ts";

describe("display name and avatar (back-office.md §6)", () => {
  it("falls back from full name to username to the e-mail prefix to 'مستخدم'", () => {
    expect(displayName({ fullName: "  سيدي محمد ", username: "sidi" }, "s@example.org")).toBe("سيدي محمد");
    expect(displayName({ fullName: " ", username: "sidi" }, "s@example.org")).toBe("sidi");
    expect(displayName({ fullName: null, username: null }, "mariem.ba@example.org")).toBe("mariem.ba");
    expect(displayName(null, null)).toBe(ANONYMOUS_NAME);
    expect(ANONYMOUS_NAME).toBe("مستخدم");
  });

  it("makes up to two initials, skipping the Arabic article", () => {
    expect(initialsOf("عبد الرحمن")).toBe("عر");
    expect(initialsOf("Mariem Ba")).toBe("MB");
    expect(initialsOf("sidi")).toBe("S");
    expect(initialsOf("@@")).toBe("م");
  });

  it("shows only http(s) or same-site avatar URLs", () => {
    expect(safeAvatarUrl("https://cdn.example.org/a.jpg")).toBe("https://cdn.example.org/a.jpg");
    expect(safeAvatarUrl("/uploads/a.jpg")).toBe("/uploads/a.jpg");
    expect(safeAvatarUrl("javascript:alert(1)")).toBeNull();
    expect(safeAvatarUrl("//evil.example/a.jpg")).toBeNull();
    expect(safeAvatarUrl("")).toBeNull();
  });
});
