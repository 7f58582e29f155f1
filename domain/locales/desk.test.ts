/**
 * The desk's words of issue 46 in the three languages: the coverage list's heading plural like the other lists'
 * (the spec's «إدارة التغطيات»; English said "Manage coverage" beside "Manage podcasts"), the invitation's toast that
 * says what happened once (its title was «تم» above «تم إرسال الدعوة…»), the refused upload's complete message.
 */
import { describe, expect, it } from "vitest";
import ar from "./ar/common.json";
import fr from "./fr/common.json";
import en from "./en/common.json";

const FILES = { ar, fr, en };

describe("the desk's words (issue 46)", () => {
  it("heads the coverage list in the plural, as the other lists", () => {
    expect([ar.newsroom.t.coverage, fr.newsroom.t.coverage, en.newsroom.t.coverage]).toEqual([
      "إدارة التغطيات",
      "Gestion des couvertures",
      "Manage coverage reports",
    ]);
  });

  it("titles an invitation's toast by what happened, and its text says what comes next, not the same words again", () => {
    for (const [lang, file] of Object.entries(FILES)) {
      const title = file.desk.staffDone.invite;
      expect(title, lang).not.toBe(file.staff.doneTitle);
      expect(file.staff.invited.startsWith(file.staff.doneTitle), lang).toBe(false);
      expect(file.staff.invited, lang).not.toContain(title);
    }
  });

  it("names the types taken in a refused upload's message, in each language's own words", () => {
    for (const [lang, file] of Object.entries(FILES)) {
      expect(file.desk.upload.unsupported, lang).toContain("{{types}}");
      expect(file.desk.upload.unsupported, lang).not.toMatch(/\.\.\.|…/);
      if (lang !== "ar") expect(file.desk.upload.unsupported + file.desk.upload.cleared, lang).not.toMatch(/[\u0600-\u06FF]/);
    }
  });
});
