/**
 * The live desk as the server renders it on a coverage's edit page (issue 44): its controls are there from the first
 * paint, named in the back-office's language, and the state is told as loading until the browser has asked for it.
 */
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import { renderUnderRoot, visibleText } from "#tests/helpers/render.ts";
import { LiveDesk } from "./live-desk.tsx";
import { BLANK_DRAFT, EntryForm } from "./entry-composer.tsx";

const desk = h(LiveDesk, { id: 7, segment: "coverage", owner: "u1" });
/** The tag carrying `testId`, to read its attributes whatever their order. */
const tagOf = (html: string, testId: string) => new RegExp(`<[a-z]+[^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0] ?? "";
const testIds = (html: string) => [...html.matchAll(/data-testid="([a-z0-9_-]+)"/g)].map((m) => m[1]);

describe("the live desk on a coverage's edit page", () => {
  it("has its toggle, status, composer, outbox and list, in Arabic", () => {
    const html = renderUnderRoot(desk);
    expect(testIds(html)).toEqual(
      expect.arrayContaining([
        "live-desk",
        "live-status",
        "live-toggle",
        "entry-composer",
        "input-entry_body",
        "entry-key-event",
        "entry-pinned",
        "entry-push",
        "entry-image",
        "entry-video",
        "entry-embed",
        "entry-post",
        "entry-outbox",
        "desk-entries",
      ]),
    );
    const text = visibleText(html);
    expect(text).toContain("التغطية المباشرة");
    expect(text).toContain("جارٍ التحميل…");
    expect(text).toContain("بدء التغطية المباشرة");
    expect(text).toContain("نشر");
    // The toggle waits for the state; the alert waits for a key event.
    expect(tagOf(html, "live-toggle")).toContain('disabled=""');
    expect(tagOf(html, "entry-push")).toContain('disabled=""');
  });

  it("speaks French in the French back-office", () => {
    const text = visibleText(renderUnderRoot(desk, "fr"));
    for (const words of ["Couverture en direct", "Lancer le direct", "Fait marquant", "Épingler en haut", "Envoyer une alerte", "Publier"]) {
      expect(text).toContain(words);
    }
  });

  it("edits an entry in place with the same fields, its own test ids and no alert", () => {
    const html = renderUnderRoot(
      h(EntryForm, {
        prefix: "edit",
        initial: { ...BLANK_DRAFT, body: "<p>نص</p>", key_event: true, image: "/uploads/a.jpg", image_alt: "صورة" },
        focusBody: false,
        busy: false,
        error: "رُفض",
        submitLabel: "حفظ التعديل",
        onSubmit: () => undefined,
        onCancel: () => undefined,
        withPush: false,
      }),
    );
    const ids = testIds(html);
    expect(ids).toEqual(expect.arrayContaining(["edit-form", "input-edit_body", "edit-key-event", "edit-image-alt", "edit-post", "edit-cancel", "edit-error"]));
    expect(ids).not.toContain("edit-push");
    expect(tagOf(html, "edit-key-event")).toContain('checked=""');
    expect(tagOf(html, "edit-pinned")).not.toContain("checked");
    expect(html).toContain('aria-invalid="true"');
  });
});
