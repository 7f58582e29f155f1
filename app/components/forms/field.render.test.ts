/**
 * The forms toolkit's fields rendered on the server (what a browser without JavaScript gets): the control
 * carries its id first, `aria-invalid` and an `aria-describedby` naming only what is shown under it; the
 * message is the translated key with its test id; the hint gives way to the message unless kept.
 */
import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import { Field, InputField, TextAreaField } from "./field.tsx";

function render(node: ReactNode): string {
  return renderToString(h(I18nextProvider, { i18n: createI18n("ar", translationsFor("ar")) }, node));
}

/** Attributes of the first `<tag …>` in `html`. */
function attributesOf(html: string, tag: string): Record<string, string> {
  const m = new RegExp(`<${tag}\\s([^>]*?)/?>`).exec(html);
  return m ? Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v])) : {};
}

describe("the forms toolkit's fields", () => {
  it("ties label, control and hint together, the control's id first", () => {
    const html = render(h(InputField, { id: "contact-name", name: "name", label: "الاسم", hint: "تلميح", look: "page", requiredMark: true, required: true }));
    expect(html).toMatch(
      /<label id="contact-name-label" for="contact-name" class="[^"]+">الاسم<span aria-hidden="true" class="text-red-700"> <!-- -->\*<\/span><\/label>/,
    );
    expect(html).toMatch(/<input id="contact-name"/);
    const input = attributesOf(html, "input");
    expect(input).toMatchObject({ name: "name", "aria-describedby": "contact-name-hint", required: "" });
    expect(input["aria-invalid"]).toBeUndefined();
    expect(html).toContain('<p id="contact-name-hint" class="mt-1 text-sm text-ink-soft">تلميح</p>');
  });

  it("shows the translated message instead of the hint, with its test id, and marks the control invalid", () => {
    const html = render(
      h(InputField, { id: "field-email", name: "email", label: "البريد", hint: "تلميح", error: "auth.invalidEmail", errorTestId: "error-email" }),
    );
    expect(attributesOf(html, "input")).toMatchObject({ "aria-invalid": "true", "aria-describedby": "field-email-error" });
    expect(html).toContain(`<p id="field-email-error" class="text-sm text-red-700" data-testid="error-email">${ar.auth.invalidEmail}</p>`);
    expect(html).not.toContain("field-email-hint");
  });

  it("keeps the hint under the message when asked, and names both", () => {
    const html = render(
      h(TextAreaField, { id: "proposal-summary", name: "summary", label: "الملخص", hint: "٣٠ حرفاً", keepHint: true, error: "proposal.errors.summaryTooShort" }),
    );
    expect(attributesOf(html, "textarea")["aria-describedby"]).toBe("proposal-summary-error proposal-summary-hint");
    expect(html).toContain('id="proposal-summary-hint"');
  });

  it("names a group of controls with a paragraph", () => {
    const html = render(h(Field, { id: "field-status", label: "الحالة", group: true, children: () => h("div", { role: "radiogroup" }) }));
    expect(html).toMatch(/^<div class="space-y-1.5"><p id="field-status-label" class="[^"]+">الحالة<\/p><div role="radiogroup"><\/div><\/div>$/);
  });
});
