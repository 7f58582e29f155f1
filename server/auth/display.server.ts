/** back-office.md §6: how a member of staff is named and pictured. */

export const ANONYMOUS_NAME = "مستخدم";

/** full_name, then username, then the part of the e-mail before the at-sign, then 'مستخدم'. */
export function displayName(profile: { fullName?: string | null; username?: string | null } | null | undefined, email?: string | null): string {
  const candidates = [profile?.fullName, profile?.username, email?.split("@")[0]];
  for (const c of candidates) {
    const v = c?.trim();
    if (v) return v;
  }
  return ANONYMOUS_NAME;
}

/** Up to two letters for the generated avatar: the first letter of the first two words. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  // The Arabic article is not an initial: "عبد الرحمن" is عر, not عا.
  const letters = words.slice(0, 2).map((w) => Array.from(/^ال./u.test(w) && Array.from(w).length > 3 ? w.slice(2) : w)[0] ?? "");
  return (letters.join("") || Array.from(ANONYMOUS_NAME)[0]).toLocaleUpperCase();
}

/** Only http(s) and same-site avatar URLs are shown; anything else falls back to the initials image. */
export function safeAvatarUrl(url: string | null | undefined): string | null {
  const v = url?.trim();
  if (!v) return null;
  if (v.startsWith("/") && !v.startsWith("//")) return v;
  return /^https?:\/\//i.test(v) ? v : null;
}
