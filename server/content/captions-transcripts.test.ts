/**
 * Captions and transcripts (docs/decisions/0111-captions-and-transcripts.md): the WebVTT signature check, the
 * registry's rules for the two fields with their messages, and the shape the JSON API and the detail page get
 * from a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWebVtt, captionsLabel } from "#domain/captions.ts";
import { definitionOf, TRANSCRIPT_MAX, type ContentType } from "#domain/content-types/index.ts";
import { formSchemaOf } from "#domain/content-types/schema.ts";
import { fieldErrorsOf } from "#domain/schemas/shared.ts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { webVtt } from "#server/db/demo-assets.server.ts";
import { loadPreviewPage } from "./detail-page.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { getForStaff } from "./newsroom/read.server.ts";
import { createItem, updateItem } from "./newsroom/write.server.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const editor = { id: "user-1", email: "amina.editor@example.org" };
const program = {
  title: "برنامج بترجمة ونص كامل",
  status: "published",
  description: "وصف البرنامج الذي يتجاوز عشرين حرفًا",
  program_type: "documentary",
  host_name: "أحمد",
};

/** The Arabic message of a field's first problem when `values` is checked by the type's schema, or null. */
function errorOf(type: ContentType, values: Record<string, unknown>, field: string): string | null {
  const result = formSchemaOf(type).safeParse(values);
  if (result.success) return null;
  const key = fieldErrorsOf(result.error)[field];
  return key ? translate("ar", key) : null;
}

describe("the WebVTT signature", () => {
  it("takes WEBVTT alone, with a byte order mark, or followed by a space, tab or line break", () => {
    for (const text of ["WEBVTT", "WEBVTT\n\n00:00.000 --> 00:01.000\nنص", "\uFEFFWEBVTT\n", "WEBVTT - عنوان\n", "WEBVTT\tx", "WEBVTT\r\n"]) {
      expect(isWebVtt(bytes(text)), JSON.stringify(text)).toBe(true);
    }
  });

  it("refuses other text and binary files: SubRip, a near miss, lower case, HTML, a WAV header", () => {
    for (const text of ["1\n00:00:00,000 --> 00:00:01,000\nنص", "WEBVTTX\n", "webvtt\n", " WEBVTT\n", "<html>", "RIFF\0\0\0\0WAVE", ""]) {
      expect(isWebVtt(bytes(text)), JSON.stringify(text)).toBe(false);
    }
  });

  it("is what the seed writes for the demo captions", () => {
    const file = webVtt(["السطر الأول", "سطر فيه --> سهم"]);
    expect(isWebVtt(bytes(file))).toBe(true);
    expect(file).toBe("WEBVTT\n\n1\n00:00.000 --> 00:02.000\nالسطر الأول\n\n2\n00:02.000 --> 00:04.000\nسطر فيه → سهم\n");
  });

  it("labels the track with the language's own name in the interface's language", () => {
    expect(captionsLabel("ar", "ar")).toBe("العربية");
    expect(captionsLabel("ar", "fr")).toBe("arabe");
    expect(captionsLabel("ar", "en")).toBe("Arabic");
  });
});

describe("the captions and transcript fields of the registry", () => {
  it("belong to the types that carry a video (captions) and to the shows (transcript), and the detail view reads them", () => {
    const names = (type: ContentType) => definitionOf(type).fields.map((f) => f.name);
    for (const type of ["coverage", "podcast", "program"] as const) {
      expect(names(type)).toContain("captions_url");
      expect(definitionOf(type).folders.captions_url).toMatch(/\/captions$/);
      expect(definitionOf(type).detail.media?.captions).toBe("captionsUrl");
    }
    for (const type of ["podcast", "program"] as const) {
      expect(names(type)).toContain("transcript");
      expect(definitionOf(type).detail.transcript).toBe("transcript");
    }
    for (const type of ["article", "news", "media"] as const) expect(names(type)).not.toContain("transcript");
  });

  it("takes a .vtt address on this site or over http(s), and refuses anything else with a clear message", () => {
    for (const url of ["/uploads/programs/captions/1-ab-ترجمة.vtt", "https://cdn.example.org/captions/ep12.VTT", "https://cdn.example.org/c.vtt?v=2", ""]) {
      expect(errorOf("program", { ...program, captions_url: url }, "captions_url"), url).toBeNull();
    }
    for (const url of ["/uploads/programs/captions/ep12.srt", "javascript:alert(1)//.vtt", "//evil.example/c.vtt", "/uploads/c.vtt.exe", "ftp://x/c.vtt"]) {
      expect(errorOf("program", { ...program, captions_url: url }, "captions_url"), url).toBe("رابط ملف الترجمة يجب أن ينتهي بـ ‎.vtt");
    }
  });

  it("keeps a transcript up to its limit and refuses a longer one", () => {
    expect(errorOf("podcast", { title: "حلقة", description: "وصف", host_name: "مريم", transcript: "ن".repeat(TRANSCRIPT_MAX) }, "transcript")).toBeNull();
    expect(errorOf("podcast", { title: "حلقة", description: "وصف", host_name: "مريم", transcript: "ن".repeat(TRANSCRIPT_MAX + 1) }, "transcript")).toBe(
      translate("ar", "newsroom.v.tooLong"),
    );
  });
});

for (const kind of testDatabaseKinds) {
  describe(`captions and transcripts stored and read (${kind})`, () => {
    let h: TestDatabase;
    beforeAll(async () => {
      h = await createTestDatabase(kind);
    });
    afterAll(() => h?.drop());

    it("the JSON API's item names them captions_url and transcript; blank is null", async () => {
      const transcript = "المقدّم: مرحبًا بكم.\n\nالضيف: شكرًا لكم.";
      const created = await createItem(h.db, "program", { ...program, captions_url: "/uploads/programs/captions/a.vtt", transcript }, editor);
      const item = await getForStaff(h.db, "program", created.id);
      expect(item).toMatchObject({ captions_url: "/uploads/programs/captions/a.vtt", transcript });

      const cleared = await updateItem(h.db, "program", created.id, { captions_url: "", transcript: "  " }, editor, { partial: true });
      expect(cleared).toMatchObject({ captions_url: null, transcript: null });
    });

    it("the detail page gets the captions address and the transcript with the item", async () => {
      const transcript = "الفقرة الأولى من الحلقة.\n\nالفقرة الثانية.";
      const created = await createItem(
        h.db,
        "podcast",
        {
          title: "حلقة بنص كامل",
          status: "published",
          description: "وصف",
          host_name: "مريم",
          video_url: "/uploads/v.mp4",
          captions_url: "/uploads/podcasts/captions/b.vtt",
          transcript,
        },
        editor,
      );
      const page = await loadPreviewPage(h.db, "podcast", created.id);
      expect(page.item.captionsUrl).toBe("/uploads/podcasts/captions/b.vtt");
      expect(page.item.transcript).toBe(transcript);
    });

    it("a refused captions address is refused by the data layer too, with the field's message", async () => {
      await expect(createItem(h.db, "coverage", { title: "تغطية مباشرة للحدث", captions_url: "/uploads/c.srt" }, editor)).rejects.toMatchObject({
        code: "VALIDATION",
        fields: expect.objectContaining({ captions_url: "newsroom.v.captionsUrl" }) as unknown,
      });
    });
  });
}
