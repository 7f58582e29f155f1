/**
 * Which origins are this site (issue 28): without PUBLIC_URL the loopback names of the same port are one site
 * (a set-up opened at 127.0.0.1 works); with it, only its origin; another port or host is refused either way.
 * The refusal a browser sees is a page in the reader's language.
 */
import { describe, expect, it } from "vitest";
import { fromOurOrigin, ourOrigins } from "./request-guard.server.ts";
import { crossOriginPage } from "./refusal-page.server.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };

describe("the site's origins", () => {
  it("takes localhost, 127.0.0.1 and [::1] on the same port as one site when PUBLIC_URL is not set", () => {
    const origins = ourOrigins({ publicUrl: "http://localhost:3000", PUBLIC_URL: undefined });
    expect(origins).toEqual(["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]);
    expect(fromOurOrigin("http://127.0.0.1:3000", null, origins)).toBe(true);
    expect(fromOurOrigin("http://[::1]:3000", null, origins)).toBe(true);
    expect(fromOurOrigin(null, "http://127.0.0.1:3000/setup?token=x", origins)).toBe(true);
  });

  it("still refuses another port, another host, https, a null origin and nothing at all", () => {
    const origins = ourOrigins({ publicUrl: "http://localhost:3000", PUBLIC_URL: undefined });
    for (const other of ["http://127.0.0.1:3001", "http://localhost:8080", "https://localhost:3000", "http://evil.example", "http://127.0.0.2:3000", "null"]) {
      expect(fromOurOrigin(other, null, origins), other).toBe(false);
    }
    expect(fromOurOrigin(null, null, origins)).toBe(false);
    expect(fromOurOrigin(null, "not a url", origins)).toBe(false);
  });

  it("with PUBLIC_URL set, counts only its origin, even a loopback one", () => {
    expect(ourOrigins({ publicUrl: "https://saharamedia.net", PUBLIC_URL: "https://saharamedia.net" })).toEqual(["https://saharamedia.net"]);
    const explicit = ourOrigins({ publicUrl: "http://localhost:3000", PUBLIC_URL: "http://localhost:3000" });
    expect(explicit).toEqual(["http://localhost:3000"]);
    expect(fromOurOrigin("http://127.0.0.1:3000", null, explicit)).toBe(false);
  });

  it("keeps the one-origin form of the rule", () => {
    expect(fromOurOrigin("https://saharamedia.net", null, "https://saharamedia.net")).toBe(true);
    expect(fromOurOrigin("https://evil.example", "https://saharamedia.net/x", "https://saharamedia.net")).toBe(false);
  });
});

describe("the cross-origin refusal page", () => {
  it("says why in the reader's language and direction, and where the site is", () => {
    const arabic = crossOriginPage("ar", "http://localhost:3000");
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain(ar.requestRefused.title);
    expect(arabic).toContain(ar.adminShell.crossOrigin);
    expect(arabic).toContain('<bdi dir="ltr">http://localhost:3000</bdi>');
    expect(arabic).toContain('href="http://localhost:3000/"');
    expect(arabic).not.toContain("{{origin}}");
    const french = crossOriginPage("fr", "https://saharamedia.net");
    expect(french).toContain('<html lang="fr" dir="ltr">');
    expect(french).toContain(fr.requestRefused.title);
    expect(french).toContain("Requête refusée : elle ne provient pas de ce site.");
  });
});
