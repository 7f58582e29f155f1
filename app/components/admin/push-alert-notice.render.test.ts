/**
 * What the editor sees of an item's breaking-news alert, and the readers' opt-in box as the server renders it
 * (docs/decisions/0127-breaking-news-alerts.md).
 */
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import { renderUnderRoot, visibleText } from "#tests/helpers/render.ts";
import { PushAlertNotice } from "./push-alert-notice.tsx";
import { PushOptIn } from "#app/components/content/push-opt-in.tsx";

const render = renderUnderRoot;
const text = visibleText;
const alert = (state: "queued" | "sending" | "sent" | "held", sent = 0, failed = 0, removed = 0) => ({ state, sent, failed, removed, finishedAt: null });

describe("the alert on the item's edit page", () => {
  it("says how many subscribers got it, in the editor's language", () => {
    expect(text(render(h(PushAlertNotice, { alert: alert("sent", 11) })))).toBe("تنبيه الأخبار العاجلة أُرسل التنبيه إلى 11 مشتركًا");
    expect(text(render(h(PushAlertNotice, { alert: alert("sent", 2) })))).toContain("أُرسل التنبيه إلى مشتركَين");
    // (The French thousands separator is a narrow space, which text() folds like any space.)
    expect(text(render(h(PushAlertNotice, { alert: alert("sent", 1200, 3, 5) }), "fr"))).toBe(
      "Alerte info urgente Alerte envoyée à 1 200 abonnés Non remises : 3 ; abonnements expirés supprimés : 5",
    );
    expect(text(render(h(PushAlertNotice, { alert: alert("queued") })))).toContain("التنبيه في الطريق إلى المشتركين عند النشر.");
    expect(text(render(h(PushAlertNotice, { alert: alert("sending", 100) })))).toContain("يُرسَل التنبيه الآن…");
    expect(render(h(PushAlertNotice, { alert: null }))).toBe("");
  });

  it("says when the hour's cap held the alert, and how many of the cap went out in the last hour (decision 0134)", () => {
    const held = { ...alert("held"), cap: { perHour: 6, lastHour: 6 } };
    expect(text(render(h(PushAlertNotice, { alert: held })))).toBe(
      "تنبيه الأخبار العاجلة لم يُرسَل التنبيه: بلغت التنبيهات في الساعة الأخيرة الحدَّ المسموح (6). التنبيهات المرسلة في الساعة الأخيرة: 6 من 6",
    );
    expect(text(render(h(PushAlertNotice, { alert: held }), "fr"))).toBe(
      "Alerte info urgente Alerte non envoyée : la limite de 6 alertes par heure était atteinte. Alertes envoyées dans la dernière heure : 6 sur 6",
    );
    expect(text(render(h(PushAlertNotice, { alert: { ...alert("sent", 3), cap: { perHour: 6, lastHour: 2 } } }), "en"))).toBe(
      "Breaking-news alert Alert sent to 3 subscribers Alerts sent in the last hour: 2 of 6",
    );
  });
});

describe("the readers' opt-in box", () => {
  it("is rendered hidden, its words in the page's language, only with a public key", () => {
    const html = render(h(PushOptIn, { optIn: { publicKey: "BPUBLIC" } }));
    expect(html).toMatch(/<section hidden="" data-push-opt-in=""/);
    expect(html).toContain('data-key="BPUBLIC"');
    expect(html).toContain('data-on="فعّل تنبيهات الأخبار العاجلة"');
    expect(html).toContain('data-off="أوقف تنبيهات الأخبار العاجلة"');
    expect(render(h(PushOptIn, { optIn: { publicKey: "BPUBLIC" } }), "fr")).toContain('data-on="Activer les alertes info urgente"');
    expect(render(h(PushOptIn, { optIn: null }))).toBe("");
  });
});
