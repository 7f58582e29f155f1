import { describe, expect, it } from "vitest";
import type { Config } from "#server/config.server.ts";
import { accountLink, languageOf } from "./emails.server.ts";

const config = { publicUrl: "https://sahara.test" } as Config;

describe("the account e-mails' links (issue 42)", () => {
  it("lead to the page in the mail's language: /fr/auth/reset for a French mail, the root for Arabic", () => {
    expect(accountLink(config, "reset", "tok", "fr")).toBe("https://sahara.test/fr/auth/reset?token=tok");
    expect(accountLink(config, "verify", "tok", "en")).toBe("https://sahara.test/en/auth/verify?token=tok");
    expect(accountLink(config, "invite", "tok", "ar")).toBe("https://sahara.test/auth/reset?token=tok&invite=1");
  });

  it("take the language of the page the form was sent from, else the stored choice", () => {
    const api = (headers: Record<string, string>) => new Request("https://sahara.test/api/auth/request-password-reset", { method: "POST", headers });
    expect(languageOf(api({ Referer: "https://sahara.test/fr/auth/forgot" }))).toBe("fr");
    // An Arabic page is Arabic whatever the cookie says.
    expect(languageOf(api({ Referer: "https://sahara.test/auth/forgot", Cookie: "i18nextLng=en" }))).toBe("ar");
    // The back-office has one address for all languages: its reader's stored choice.
    expect(languageOf(api({ Referer: "https://sahara.test/admin/users", Cookie: "i18nextLng=en" }))).toBe("en");
    expect(languageOf(api({ Cookie: "i18nextLng=fr" }))).toBe("fr");
    expect(languageOf(undefined)).toBe("ar");
  });
});
