/**
 * Counted strings in the e-mails: how long a link lives is written from the lifetime the code enforces, in the
 * plural form of the reader's language (domain/plural.ts), in the account e-mails (verification 24 hours,
 * reset 1 hour, invitation 7 days) and the newsletter confirmation (48 hours). The account e-mails go to the
 * outbox of a data folder of their own (no SMTP_URL), as on a fresh install.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { linkExpiry, translateCount } from "./i18n.server.ts";
import { readOutbox } from "#server/ops/mail.server.ts";
import { sendAccountMail } from "#server/auth/emails.server.ts";
import { confirmationMail } from "#server/newsletter/subscriptions.server.ts";
import type { Language } from "#domain/language.ts";

const HOUR = 3600;
const DAY = 24 * HOUR;

describe("counted strings in the e-mails", () => {
  it("write a link's life in hours up to two days, in days beyond, in each language's plural form", () => {
    const cases: [Language, number, string][] = [
      ["ar", HOUR, "ينتهي الرابط خلال ساعة واحدة."],
      ["ar", 2 * HOUR, "ينتهي الرابط خلال ساعتين."],
      ["ar", 5 * HOUR, "ينتهي الرابط خلال 5 ساعات."],
      ["ar", DAY, "ينتهي الرابط خلال 24 ساعة."],
      ["ar", 2 * DAY, "ينتهي الرابط خلال 48 ساعة."],
      ["ar", 7 * DAY, "ينتهي الرابط خلال 7 أيام."],
      ["ar", 30 * DAY, "ينتهي الرابط خلال 30 يوماً."],
      ["fr", HOUR, "Le lien expire dans 1 heure."],
      ["fr", DAY, "Le lien expire dans 24 heures."],
      ["fr", 7 * DAY, "Le lien expire dans 7 jours."],
      ["en", HOUR, "The link expires in one hour."],
      ["en", DAY, "The link expires in 24 hours."],
      ["en", 7 * DAY, "The link expires in 7 days."],
      // Part of an hour still counts as one: the mail never promises less than the link gives.
      ["en", 90 * 60, "The link expires in 2 hours."],
    ];
    for (const [lang, seconds, text] of cases) expect(linkExpiry(lang, seconds), `${lang} ${seconds}`).toBe(text);
  });

  it("fall back to Arabic for a key a language lacks, and to the key when no language has it", () => {
    expect(translateCount("fr", "detail.views", 2)).toBe("2 vues");
    expect(translateCount("en", "no.such.key", 2)).toBe("no.such.key");
  });

  it("say 48 hours in the newsletter confirmation, in its reader's language", () => {
    const config = checkConfig({ PUBLIC_URL: "https://sahara.test" }).config;
    const link = "https://sahara.test/newsletter/confirm?token=abc";
    const want: Record<Language, string> = {
      ar: "ينتهي الرابط خلال 48 ساعة.",
      fr: "Le lien expire dans 48 heures.",
      en: "The link expires in 48 hours.",
    };
    for (const lang of ["ar", "fr", "en"] as const) {
      const mail = confirmationMail(lang, link, config);
      expect(mail.text.split("\n"), lang).toContain(want[lang]);
      expect(mail.html, lang).toContain(`<p>${want[lang]}</p>`);
      expect(mail.subject, lang).toContain(lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR);
    }
  });

  it("say each account link's own life, and that reset and invitation links work once", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-counts-"));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const config = checkConfig({ PUBLIC_URL: "https://sahara.test", DATA_DIR: dataDir }).config;
    const want: Record<Language, Record<"verify" | "reset" | "invite", string>> = {
      ar: {
        verify: "إذا لم تنشئ هذا الحساب، فتجاهل هذه الرسالة. ينتهي الرابط خلال 24 ساعة.",
        reset: "إذا لم تطلب ذلك، فتجاهل هذه الرسالة ولن يتغير شيء. ينتهي الرابط خلال ساعة واحدة. لا يعمل الرابط إلا مرة واحدة.",
        invite: "إذا لم تكن تتوقع هذه الدعوة، فتجاهل هذه الرسالة. ينتهي الرابط خلال 7 أيام. لا يعمل الرابط إلا مرة واحدة.",
      },
      fr: {
        verify: "Si vous n’avez pas créé ce compte, ignorez ce message. Le lien expire dans 24 heures.",
        reset: "Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : rien ne changera. Le lien expire dans 1 heure. Il ne sert qu’une fois.",
        invite: "Si vous n’attendiez pas cette invitation, ignorez ce message. Le lien expire dans 7 jours. Il ne sert qu’une fois.",
      },
      en: {
        verify: "If you did not create this account, ignore this message. The link expires in 24 hours.",
        reset: "If you did not ask for this, ignore this message and nothing will change. The link expires in one hour. It works once.",
        invite: "If you were not expecting this invitation, ignore this message. The link expires in 7 days. It works once.",
      },
    };
    for (const lang of ["ar", "fr", "en"] as const) {
      for (const kind of ["verify", "reset", "invite"] as const) {
        const to = `${kind}-${lang}@sahara.test`;
        await sendAccountMail(config, kind, { to, token: "t0ken", lang, inviter: "Aicha" });
        const mail = readOutbox(config).find((m) => m.to === to)!;
        expect(mail.text.split("\n"), `${lang} ${kind}`).toContain(want[lang][kind]);
      }
    }
  });
});
