/**
 * The schedule at /admin/calendar (issue 29, docs/decisions/0125-calendar.md), in Chromium: items of several
 * types in their Nouakchott day and time, by week (Monday first, days stacked on a phone) and by day (by the
 * hour); moving one through the dialog (keyboard, phone) and by dragging it on a desktop; an item moved a few
 * seconds ahead that goes out by itself at its new time; the 409 of an item saved meanwhile; the JSON API's
 * answers and refusals and moving through PATCH; axe; the French back-office.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { fillDateTime } from "#tests/e2e/support/date-time.ts";
import { dayOf, timeOf, wallTimeOf } from "#domain/calendar.ts";
import {
  contentEditor,
  keepEvidence,
  mainViolations,
  open,
  publicPage,
  signedInPage,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  type NewsroomServer,
} from "./support.ts";

type Item = { id: number; url: string; status: string; publish_date: string; updated_at: string; title: string };
type CalendarAnswer = {
  from: string;
  to: string;
  truncated: boolean;
  items: (Omit<Item, "title"> & { type: string; title: string; edit_url: string; category_name: string | null })[];
};

/** How far ahead the publishing step moves an item: room for the move and the checks of the hidden state on a busy machine. */
const AHEAD_MS = 20_000;
/** How soon after its time the moved item must be public: well under the read cache's 60 s. */
const APPEARS_WITHIN_MS = 15_000;

const DAY_MS = 24 * 3600_000;
/** The Monday `weeks` weeks after this week's, at midnight in Nouakchott (UTC all year): the tests' dates are to come, whenever they run. */
const mondayAhead = (weeks: number) => {
  const today = new Date(`${dayOf(new Date())}T00:00:00Z`);
  return new Date(today.getTime() + (weeks * 7 - ((today.getUTCDay() + 6) % 7)) * DAY_MS);
};
/** The day `plus` days after `monday`, as the calendar names it (YYYY-MM-DD). */
const dayAfter = (monday: Date, plus: number) => new Date(monday.getTime() + plus * DAY_MS).toISOString().slice(0, 10);

describe.skipIf(!hasChromium)("the schedule at /admin/calendar", () => {
  let browser: Browser;
  let server: NewsroomServer<"editor">;
  let base: string;
  let categoryId = 0;
  const token = `c${Date.now().toString(36)}`;

  const call = (method: string, path: string, body?: unknown) =>
    fetch(base + path, {
      method,
      headers: { cookie: server.personas.editor.cookie, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });

  const body = "<p>نص كامل يتجاوز عشرين حرفًا بكثير كما يكتبه المحرر في غرفة الأخبار.</p>";
  const inputs: Record<string, (title: string) => Record<string, unknown>> = {
    news: (title) => ({ title, excerpt: "مقتطف الخبر للاختبار", content: body, category_id: categoryId, priority: "medium", location: "نواكشوط" }),
    articles: (title) => ({ title, excerpt: "مقتطف المقال للاختبار", content: body, category_id: categoryId }),
    podcasts: (title) => ({ title, description: "وصف حلقة البودكاست", host_name: "مريم بنت أحمد" }),
    programs: (title) => ({ title, description: "وصف البرنامج الذي يتجاوز عشرين حرفًا", program_type: "documentary", host_name: "أحمد ولد محمد" }),
  };
  /** An item made through the JSON API: `segment`, its title, its status and publish date (an instant). */
  const make = async (segment: string, title: string, status: string, publishDate: string) => {
    const res = await call("POST", `/api/admin/${segment}`, { ...inputs[segment](title), status, publish_date: publishDate });
    expect(res.status, `${segment}: ${await res.clone().text()}`).toBe(201);
    return (await res.json()) as Item;
  };
  const staff = async (segment: string, id: number) => (await (await call("GET", `/api/admin/${segment}/${id}`)).json()) as Item;

  /** The calendar entry of an item, and the day (week view) or hour (day view) it is drawn in. */
  const entry = (page: Page, type: string, id: number) => page.locator(`[data-testid="calendar-item"][data-key="${type}-${id}"]`);
  const placeOf = (page: Page, type: string, id: number) =>
    entry(page, type, id).evaluate((el) => ({
      day: el.closest("[data-testid=calendar-day]")?.getAttribute("data-day") ?? null,
      hour: el.closest("[data-testid=calendar-hour]")?.getAttribute("data-hour") ?? null,
      time: el.getAttribute("data-time"),
      status: el.getAttribute("data-status"),
      type: el.querySelector("[data-testid=calendar-type]")?.textContent ?? null,
    }));

  /** Waits until the page shows the view of that day (the URL changes a moment before the page does). */
  const showing = (page: Page, view: string, date: string) => page.locator(`[data-testid="calendar-page"][data-view="${view}"][data-date="${date}"]`).waitFor();

  /** Opens the move dialog of an item with the keyboard, types the new time and saves; waits for the page's answer. */
  const moveThroughDialog = async (page: Page, type: string, id: number, wall: string) => {
    await entry(page, type, id).locator('[data-testid="calendar-move"]').focus();
    await page.keyboard.press("Enter");
    const dialog = page.locator('[data-testid="calendar-move-dialog"]');
    await dialog.waitFor();
    await fillDateTime(page, "calendar-move-time", wall);
    await page.click('[data-testid="calendar-move-save"]');
    await dialog.waitFor({ state: "hidden" });
  };

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({ editor: contentEditor("desk@newsroom.test", "مكتب التحرير") }));
    const { categories } = (await (await fetch(`${base}/api/categories`)).json()) as { categories: { id: number; slug: string }[] };
    categoryId = categories.find((c) => c.slug === "politics")!.id;
  });
  afterAll(() => stopNewsroomBrowser(browser, server));

  it("shows items of several types in their Nouakchott day and time, by week (Monday first) and by the hour, and steps between weeks", async () => {
    const week = mondayAhead(5);
    // A week to come (from its Monday): the podcast on its first minute, the news item on Wednesday morning, the
    // program on Sunday's last minute, a draft never; the article on the next Monday.
    const podcast = await make("podcasts", `حلقة أول الأسبوع ${token}`, "scheduled", `${dayAfter(week, 0)}T00:00:00Z`);
    const news = await make("news", `خبر صباح الأربعاء ${token}`, "scheduled", `${dayAfter(week, 2)}T09:30:00Z`);
    const program = await make("programs", `برنامج آخر الأحد ${token}`, "scheduled", `${dayAfter(week, 6)}T23:59:00Z`);
    const draft = await make("news", `مسودة لا تظهر ${token}`, "draft", `${dayAfter(week, 2)}T10:00:00Z`);
    const article = await make("articles", `مقال الأسبوع التالي ${token}`, "scheduled", `${dayAfter(week, 7)}T00:00:00Z`);
    const past = await make("news", `خبر منشور قديم ${token}`, "published", "2020-06-03T08:15:00Z");
    const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(
      page,
      "calendar-week",
      async () => {
        await open(page, `${base}/admin/calendar?view=week&date=${dayAfter(week, 2)}`);
        expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
        expect(await page.locator("[data-testid=calendar-day]").evaluateAll((days) => days.map((d) => d.getAttribute("data-day")))).toEqual([
          dayAfter(week, 0),
          dayAfter(week, 1),
          dayAfter(week, 2),
          dayAfter(week, 3),
          dayAfter(week, 4),
          dayAfter(week, 5),
          dayAfter(week, 6),
        ]);
        expect(await page.textContent(`[data-testid="calendar-day"][data-day="${dayAfter(week, 0)}"] h3`)).toContain("الاثنين");
        expect(await placeOf(page, "podcast", podcast.id)).toEqual({
          day: dayAfter(week, 0),
          hour: null,
          time: "00:00",
          status: "scheduled",
          type: "حلقة بودكاست",
        });
        expect(await placeOf(page, "news", news.id)).toEqual({ day: dayAfter(week, 2), hour: null, time: "09:30", status: "scheduled", type: "خبر" });
        expect(await placeOf(page, "program", program.id)).toEqual({ day: dayAfter(week, 6), hour: null, time: "23:59", status: "scheduled", type: "برنامج" });
        expect(await entry(page, "news", draft.id).count(), "a draft is not on the calendar").toBe(0);
        expect(await entry(page, "article", article.id).count(), "next week's article").toBe(0);
        expect(await entry(page, "news", news.id).textContent()).toContain("مجدول");

        // By the hour: the news item in the 09:00 row of Wednesday.
        await page.click('[data-testid="calendar-view-day"]');
        await showing(page, "day", dayAfter(week, 2));
        expect(await placeOf(page, "news", news.id)).toMatchObject({ day: null, hour: "9", time: "09:30" });
        expect(await entry(page, "podcast", podcast.id).count()).toBe(0);

        // Next week, then back to this one.
        await page.click('[data-testid="calendar-view-week"]');
        await showing(page, "week", dayAfter(week, 2));
        await page.click('[data-testid="calendar-next"]');
        await showing(page, "week", dayAfter(week, 7));
        expect(await placeOf(page, "article", article.id)).toMatchObject({ day: dayAfter(week, 7), time: "00:00" });
        await page.click('[data-testid="calendar-previous"]');
        await showing(page, "week", dayAfter(week, 0));
        await entry(page, "news", news.id).waitFor();

        // A published item of a past week says so.
        await open(page, `${base}/admin/calendar?view=week&date=2020-06-03`);
        expect(await placeOf(page, "news", past.id)).toMatchObject({ day: "2020-06-03", time: "08:15", status: "published" });
        expect(await entry(page, "news", past.id).textContent()).toContain("منشور");

        // Today's link leads to this week.
        await page.click('[data-testid="calendar-today"]');
        await page.waitForURL((u) => u.searchParams.get("date") === dayOf(new Date()) || u.searchParams.get("date") === dayOf(new Date(Date.now() - 60_000)));
        expect(errors).toEqual([]);
      },
      server.output,
    );
    await context.close();
  });

  it("works without JavaScript: the week is drawn and the previous, next and today links lead on", async () => {
    const week = mondayAhead(9);
    const item = await make("podcasts", `حلقة بلا جافاسكربت ${token}`, "scheduled", `${dayAfter(week, 2)}T18:00:00Z`);
    const { context, page } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(`${base}/admin/calendar?view=week&date=${dayAfter(week, -5)}`);
    expect(await entry(page, "podcast", item.id).count()).toBe(0);
    await page.click('[data-testid="calendar-next"]');
    await showing(page, "week", dayAfter(week, 0));
    expect(await placeOf(page, "podcast", item.id)).toMatchObject({ day: dayAfter(week, 2), time: "18:00" });
    await page.click('[data-testid="calendar-today"]');
    await page.waitForURL((u) => u.searchParams.get("view") === "week" && u.searchParams.get("date") !== dayAfter(week, 0));
    await context.close();
  });

  it("moves an item through the dialog on a phone, with the keyboard, into its new slot; the days stack", async () => {
    const week = mondayAhead(13);
    const news = await make("news", `خبر ينقل بالهاتف ${token}`, "scheduled", `${dayAfter(week, 1)}T10:00:00Z`);
    const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: PHONE });
    await keepEvidence(
      page,
      "calendar-move-phone",
      async () => {
        await open(page, `${base}/admin/calendar?view=week&date=${dayAfter(week, 1)}`);
        // Stacked: each day below the one before, as wide as the page.
        const boxes = await page.locator("[data-testid=calendar-day]").evaluateAll((days) => days.map((d) => d.getBoundingClientRect().toJSON() as DOMRect));
        for (let i = 1; i < boxes.length; i++) expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

        await moveThroughDialog(page, "news", news.id, `${dayAfter(week, 4)}T15:45`);
        expect(await page.textContent('[data-testid="calendar-moved"]')).toContain(`خبر ينقل بالهاتف ${token}`);
        await expect.poll(() => placeOf(page, "news", news.id)).toMatchObject({ day: dayAfter(week, 4), time: "15:45", status: "scheduled" });
        expect((await staff("news", news.id)).publish_date).toBe(`${dayAfter(week, 4)}T15:45:00.000Z`);

        // Into another week: the notice links to it.
        await moveThroughDialog(page, "news", news.id, `${dayAfter(week, 8)}T08:00`);
        await entry(page, "news", news.id).waitFor({ state: "detached" });
        await page.click('[data-testid="calendar-moved-link"]');
        await showing(page, "week", dayAfter(week, 8));
        expect(await placeOf(page, "news", news.id)).toMatchObject({ day: dayAfter(week, 8), time: "08:00" });
        expect(errors).toEqual([]);
      },
      server.output,
    );
    await context.close();
  });

  it("moves an item by dragging it to another day on a desktop", async () => {
    const week = mondayAhead(17);
    const program = await make("programs", `برنامج يسحب ${token}`, "scheduled", `${dayAfter(week, 1)}T20:30:00Z`);
    const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(
      page,
      "calendar-drag",
      async () => {
        await open(page, `${base}/admin/calendar?view=week&date=${dayAfter(week, 1)}`);
        await entry(page, "program", program.id).dragTo(page.locator(`[data-testid="calendar-day"][data-day="${dayAfter(week, 4)}"]`));
        await page.locator('[data-testid="calendar-moved"]').waitFor();
        await expect.poll(() => placeOf(page, "program", program.id)).toMatchObject({ day: dayAfter(week, 4), time: "20:30" });
        expect((await staff("programs", program.id)).publish_date).toBe(`${dayAfter(week, 4)}T20:30:00.000Z`);
        expect(errors).toEqual([]);
      },
      server.output,
    );
    await context.close();
  });

  it("publishes an item moved to a few seconds ahead at its new time, by itself", async () => {
    const title = `خبر ينشر بعد النقل ${token}`;
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const news = await make("news", title, "scheduled", tomorrow.toISOString());
    const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(
      page,
      "calendar-publish",
      async () => {
        await open(page, `${base}/admin/calendar?view=day&date=${dayOf(tomorrow)}`);
        // Readers do not have it; /news is read (and cached) meanwhile.
        expect((await publicPage(base, news.url)).status).toBe(404);
        expect((await publicPage(base, "/news")).text.includes(title)).toBe(false);
        const due = new Date(Date.now() + AHEAD_MS);
        // The newsroom's wall time of `due`, to the second.
        await moveThroughDialog(page, "news", news.id, `${wallTimeOf(due)}:${String(due.getUTCSeconds()).padStart(2, "0")}`);
        expect(await page.getAttribute('[data-testid="calendar-moved"]', "data-status")).toBe("scheduled");
        const moved = await staff("news", news.id);
        expect(moved.status).toBe("scheduled");
        expect(Math.abs(Date.parse(moved.publish_date) - due.getTime())).toBeLessThan(1_000);
        expect((await publicPage(base, news.url)).status).toBe(404);
        expect(Date.now(), "the hidden state was checked before the item's time").toBeLessThan(due.getTime());
        await expect
          .poll(async () => ({ page: (await publicPage(base, news.url)).status, list: (await publicPage(base, "/news")).text.includes(title) }), {
            timeout: due.getTime() + APPEARS_WITHIN_MS - Date.now(),
            interval: 500,
          })
          .toEqual({ page: 200, list: true });
        expect(Date.now(), "not before its time").toBeGreaterThanOrEqual(due.getTime() - 1_000);
        expect((await staff("news", news.id)).status).toBe("published");
        expect(errors).toEqual([]);
      },
      server.output,
    );
    await context.close();
  }, 180_000);

  it("refuses a move of an item someone saved meanwhile (409), says so, and shows its current time", async () => {
    const week = mondayAhead(21);
    const news = await make("news", `خبر يعدله زميل ${token}`, "scheduled", `${dayAfter(week, 1)}T11:00:00Z`);
    const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(
      page,
      "calendar-conflict",
      async () => {
        await open(page, `${base}/admin/calendar?view=week&date=${dayAfter(week, 1)}`);
        await entry(page, "news", news.id).waitFor();
        // A colleague moves it in the editor (through the API) after the calendar was drawn.
        expect((await call("PATCH", `/api/admin/news/${news.id}`, { publish_date: `${dayAfter(week, 3)}T12:00:00Z` })).status).toBe(200);
        await moveThroughDialog(page, "news", news.id, `${dayAfter(week, 4)}T09:00`);
        const notice = page.locator('[data-testid="calendar-move-failed"]');
        await notice.waitFor();
        expect(await notice.getAttribute("data-status")).toBe("CONFLICT");
        expect(await notice.textContent()).toContain("حفظ شخص آخر هذا العنصر بعد عرض الجدول");
        // The colleague's time stands, and the calendar shows it.
        expect((await staff("news", news.id)).publish_date).toBe(`${dayAfter(week, 3)}T12:00:00.000Z`);
        await expect.poll(() => placeOf(page, "news", news.id)).toMatchObject({ day: dayAfter(week, 3), time: "12:00" });
        // Moved again from what is shown now: it goes through.
        await moveThroughDialog(page, "news", news.id, `${dayAfter(week, 4)}T09:00`);
        await page.locator('[data-testid="calendar-moved"]').waitFor();
        expect((await staff("news", news.id)).publish_date).toBe(`${dayAfter(week, 4)}T09:00:00.000Z`);
        // The browser logs the refused request; nothing else went wrong.
        expect(errors).toEqual(["Failed to load resource: the server responded with a status of 409 (Conflict)"]);
      },
      server.output,
    );
    await context.close();
  });

  it("answers GET /api/admin/calendar with the range's items and refuses bad ranges with 400; PATCH moves an item", async () => {
    const ahead = mondayAhead(25);
    const year = ahead.getUTCFullYear() + 1;
    const news = await make("news", `خبر الواجهة البرمجية ${token}`, "scheduled", `${dayAfter(ahead, 1)}T07:00:00Z`);
    const podcast = await make("podcasts", `حلقة الواجهة البرمجية ${token}`, "scheduled", `${dayAfter(ahead, 2)}T07:00:00Z`);
    const draft = await make("news", `مسودة الواجهة البرمجية ${token}`, "draft", `${dayAfter(ahead, 1)}T08:00:00Z`);
    const res = await call("GET", `/api/admin/calendar?from=${dayAfter(ahead, 0)}&to=${dayAfter(ahead, 7)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const answer = (await res.json()) as CalendarAnswer;
    expect([answer.from, answer.to]).toEqual([`${dayAfter(ahead, 0)}T00:00:00.000Z`, `${dayAfter(ahead, 7)}T00:00:00.000Z`]);
    const mine = answer.items.filter((i) => i.title.includes(token));
    expect(mine.map((i) => [i.type, i.id, i.status, i.publish_date])).toEqual([
      ["news", news.id, "scheduled", `${dayAfter(ahead, 1)}T07:00:00.000Z`],
      ["podcast", podcast.id, "scheduled", `${dayAfter(ahead, 2)}T07:00:00.000Z`],
    ]);
    expect(mine[0]).toMatchObject({ url: news.url, edit_url: `/admin/news/${news.id}` });
    expect(typeof mine[0].category_name, "the category's Arabic name").toBe("string");
    expect(answer.items.some((i) => i.id === draft.id && i.type === "news")).toBe(false);
    // Zoned date-times work too; neither parameter is this week.
    expect((await call("GET", `/api/admin/calendar?from=${dayAfter(ahead, 1)}T06:00:00Z&to=${dayAfter(ahead, 1)}T07:00:01%2B00:00`)).status).toBe(200);
    const week = (await (await call("GET", "/api/admin/calendar")).json()) as CalendarAnswer;
    expect(Date.parse(week.to) - Date.parse(week.from)).toBe(7 * 24 * 3600_000);

    const refusals: [string, string][] = [
      [`?to=${dayAfter(ahead, 7)}`, "from"],
      [`?from=${dayAfter(ahead, 0)}`, "to"],
      [`?from=yesterday&to=${dayAfter(ahead, 7)}`, "from"],
      [`?from=${year}-02-30&to=${year}-03-08`, "from"],
      [`?from=${dayAfter(ahead, 7)}&to=${dayAfter(ahead, 0)}`, "to"],
      [`?from=${dayAfter(ahead, 0)}&to=${dayAfter(ahead, 0)}`, "to"],
      [`?from=${year}-01-01&to=${year}-06-01`, "to"],
      [`?from=${dayAfter(ahead, 0)}&to=${dayAfter(ahead, 7)}&type=news`, "type"],
    ];
    for (const [query, field] of refusals) {
      const refused = await call("GET", `/api/admin/calendar${query}`);
      expect(refused.status, query).toBe(400);
      const { error } = (await refused.json()) as { error: { code: string; message: string; fields: Record<string, string> } };
      expect(error.code, query).toBe("INVALID_QUERY");
      expect(Object.keys(error.fields), query).toContain(field);
    }
    expect((await fetch(`${base}/api/admin/calendar?from=${dayAfter(ahead, 0)}&to=${dayAfter(ahead, 7)}`)).status).toBe(401);
    expect((await call("POST", "/api/admin/calendar", {})).status).toBe(405);

    // Moving through PATCH /api/admin/{type}/{id}: publish_date (and the updated_at read, for a 409).
    const stale = mine[0].updated_at;
    const later = await call("PATCH", `/api/admin/news/${news.id}`, { publish_date: `${dayAfter(ahead, 3)}T10:00:00Z`, updated_at: stale });
    expect(later.status).toBe(200);
    expect((await later.json()) as Item).toMatchObject({ status: "scheduled", publish_date: `${dayAfter(ahead, 3)}T10:00:00.000Z` });
    expect((await call("PATCH", `/api/admin/news/${news.id}`, { publish_date: `${dayAfter(ahead, 4)}T10:00:00Z`, updated_at: stale })).status).toBe(409);
    // A scheduled item into the past: the form's rule refuses "scheduled" then; with status published it goes out.
    const past = await call("PATCH", `/api/admin/news/${news.id}`, { publish_date: "2024-01-01T10:00:00Z" });
    expect(past.status).toBe(422);
    expect(((await past.json()) as { error: { fields: Record<string, string> } }).error.fields.publish_date).toBe("اختر موعد نشر في المستقبل للجدولة");
    const published = await call("PATCH", `/api/admin/news/${news.id}`, { publish_date: "2024-01-01T10:00:00Z", status: "published" });
    expect(published.status).toBe(200);
    expect(((await published.json()) as Item).status).toBe("published");
  });

  it("has no serious accessibility problem, in the week, the day and the move dialog", async () => {
    const week = mondayAhead(29);
    await make("news", `خبر فحص الإتاحة ${token}`, "scheduled", `${dayAfter(week, 1)}T09:00:00Z`);
    const { context, page } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP });
    await open(page, `${base}/admin/calendar?view=week&date=${dayAfter(week, 1)}`);
    expect(await mainViolations(page)).toEqual([]);
    await open(page, `${base}/admin/calendar?view=day&date=${dayAfter(week, 1)}`);
    expect(await mainViolations(page)).toEqual([]);
    await page.locator('[data-testid="calendar-move"]').first().click();
    await page.locator('[data-testid="calendar-move-dialog"]').waitFor();
    expect(await mainViolations(page)).toEqual([]);
    await context.close();
  });

  it("speaks French in the French back-office, with its menu entry", async () => {
    const week = mondayAhead(33);
    const item = await make("podcasts", `Épisode du calendrier ${token}`, "scheduled", `${dayAfter(week, 1)}T16:20:00Z`);
    const { context, page, errors } = await signedInPage(browser, server, server.personas.editor, { viewport: DESKTOP, locale: "fr" });
    await open(page, `${base}/admin`);
    await page.click('[data-testid="admin-menu-link-calendar"]');
    await page.waitForURL((u) => u.pathname === "/admin/calendar");
    await open(page, `${base}/admin/calendar?view=week&date=${dayAfter(week, 1)}`);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("ltr");
    expect(await page.textContent("main h1")).toBe("Calendrier de publication");
    expect(await page.textContent('[data-testid="calendar-view-week"]')).toBe("Semaine");
    expect(await page.textContent('[data-testid="calendar-view-day"]')).toBe("Jour");
    expect(await page.textContent('[data-testid="calendar-next"]')).toBe("Semaine suivante");
    const monday = new Intl.DateTimeFormat("fr", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(week);
    expect(await page.textContent(`[data-testid="calendar-day"][data-day="${dayAfter(week, 0)}"] h3`)).toContain(monday);
    expect(await page.textContent('[data-testid="calendar-heading"]')).toContain("heure de Nouakchott");
    const shown = entry(page, "podcast", item.id);
    expect(await shown.textContent()).toContain("Programmé");
    expect(await shown.locator('[data-testid="calendar-move"]').textContent()).toContain("Déplacer");
    await shown.locator('[data-testid="calendar-move"]').click();
    const dialog = page.locator('[data-testid="calendar-move-dialog"]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Nouvelle date (heure de Nouakchott)");
    expect(await page.inputValue('[data-testid="calendar-move-time"]')).toBe(`${dayAfter(week, 1)}T${timeOf(new Date(`${dayAfter(week, 1)}T16:20:00Z`))}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
