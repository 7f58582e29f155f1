/**
 * The file and date controls in the page's language (issue 28), rendered on the server: the file input's
 * button and "no file chosen" are the page's words, not the browser's; the date control names its months in
 * the page's language, posts the ISO value the native control posted, and reads Arabic digits.
 */
import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import type { Language } from "#domain/language.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };
import { chosenFilesText, FileInput } from "./file-input.tsx";
import { DateTimeInput, latinDigits, monthNames, partsOf, valueOf } from "./date-time-input.tsx";

function render(node: ReactNode, lang: Language = "ar"): string {
  return renderToString(h(I18nextProvider, { i18n: createI18n(lang, translationsFor(lang)) }, node));
}

const attrs = (html: string, tag: string, marker: string) => {
  const m = new RegExp(`<${tag}\\s([^>]*${marker}[^>]*?)/?>`).exec(html);
  return m ? Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v])) : {};
};

describe("FileInput", () => {
  it("keeps a real, focusable file input and says choose / nothing chosen in Arabic", () => {
    const html = render(
      h(FileInput, { id: "video-file", name: "file", accept: "video/*", required: true, "aria-describedby": "video-file-hint", "data-testid": "video-file" }),
    );
    const input = attrs(html, "input", 'type="file"');
    expect(input).toMatchObject({ id: "video-file", name: "file", accept: "video/*", required: "", "data-testid": "video-file", class: "peer sr-only" });
    expect(input["aria-describedby"]).toBe("video-file-hint video-file-chosen");
    expect(input.tabindex).toBeUndefined();
    expect(html).toContain(`for="video-file"`);
    expect(html).toContain(`>${ar.formControls.file.choose}</label>`);
    expect(html).toMatch(new RegExp(`<span id="video-file-chosen"[^>]*data-testid="video-file-name"[^>]*>${ar.formControls.file.none}</span>`));
    expect(html).not.toMatch(/Choose File|No file chosen/);
  });

  it("speaks French on a French page, in the plural when several files may be chosen", () => {
    const html = render(h(FileInput, { id: "f", name: "files", multiple: true }), "fr");
    expect(html).toContain(`>${fr.formControls.file.chooseMany}</label>`);
    expect(html).toContain(fr.formControls.file.none);
  });

  it("lists several chosen names the page language's way", () => {
    expect(chosenFilesText([], "ar")).toBeNull();
    expect(chosenFilesText(["a.mp4"], "ar")).toBe("a.mp4");
    expect(chosenFilesText(["a.mp4", "b.mp4"], "fr")).toBe("a.mp4 et b.mp4");
  });
});

describe("DateTimeInput", () => {
  it("names the months in the page's language, Gregorian, Latin digits", () => {
    expect(monthNames("ar")[0]).toBe("يناير");
    expect(monthNames("fr")[7]).toBe("août");
    expect(monthNames("en")[11]).toBe("December");
  });

  it("reads and writes the value the native controls posted", () => {
    expect(partsOf("2026-03-07")).toEqual({ year: "2026", month: "3", day: "7", hour: "", minute: "" });
    expect(partsOf("2026-03-07T09:05:00Z")).toMatchObject({ hour: "09", minute: "05" });
    // A saved time's seconds are kept (there is no field for them), whole minutes post as datetime-local did.
    expect(valueOf(partsOf("2026-03-07T09:05:42"), "datetime")).toBe("2026-03-07T09:05:42");
    expect(valueOf(partsOf("2026-03-07T09:05:00"), "datetime")).toBe("2026-03-07T09:05");
    expect(partsOf("mm/dd/yyyy")).toEqual({ year: "", month: "", day: "", hour: "", minute: "" });
    expect(valueOf(partsOf("2026-03-07"), "date")).toBe("2026-03-07");
    expect(valueOf({ year: "2026", month: "3", day: "7", hour: "9", minute: "5" }, "datetime")).toBe("2026-03-07T09:05");
    expect(valueOf({ year: "", month: "", day: "", hour: "", minute: "" }, "datetime")).toBe("");
    // Half filled: posted as it is, so the server's check names the field rather than dropping the date.
    expect(valueOf({ year: "2026", month: "", day: "7", hour: "", minute: "" }, "date")).toBe("2026--07");
  });

  it("accepts Arabic-Indic digits", () => {
    expect(latinDigits("٢٠٢٦")).toBe("2026");
    expect(latinDigits("۱۲")).toBe("12");
  });

  it("renders a labelled group of day, named month and year, the hidden input posting the ISO value, no native date", () => {
    const html = render(
      h(DateTimeInput, { id: "air", name: "air_date", defaultValue: "2026-08-15", "aria-labelledby": "air-label", required: true, "data-testid": "in" }),
    );
    expect(html).toMatch(/role="group" aria-labelledby="air-label"/);
    expect(attrs(html, "input", 'type="hidden"')).toMatchObject({ name: "air_date", value: "2026-08-15" });
    expect(attrs(html, "input", 'id="air"')).toMatchObject({
      "aria-label": ar.formControls.date.day,
      value: "15",
      inputMode: "numeric",
      "aria-required": "true",
    });
    expect(html).toContain(`aria-label="${ar.formControls.date.month}"`);
    expect(html).toMatch(/<option value="8" selected="">أغسطس<\/option>/);
    expect(html).not.toMatch(/type="date"|type="datetime-local"|\srequired=""/);
    expect(html).not.toContain("hour");
  });

  it("adds hour and minute, left to right, for a date-time", () => {
    const html = render(
      h(DateTimeInput, { name: "publish_date", mode: "datetime", defaultValue: "2026-08-15T18:30", "aria-label": "x", "data-testid": "pd" }),
      "fr",
    );
    expect(attrs(html, "input", 'type="hidden"')).toMatchObject({ value: "2026-08-15T18:30" });
    expect(attrs(html, "input", 'data-testid="pd-hour"')).toMatchObject({ value: "18", "aria-label": fr.formControls.date.hour });
    expect(attrs(html, "input", 'data-testid="pd-minute"')).toMatchObject({ value: "30" });
    expect(html).toMatch(/<option value="8" selected="">août<\/option>/);
  });
});
