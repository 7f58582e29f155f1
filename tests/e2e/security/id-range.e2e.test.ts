/**
 * Ids and foreign keys against their column's range (issue 39, decision 0136): every API and form that takes an
 * id answers 0, -1, 2147483648 (one past PostgreSQL's integer), 1e309, 1.5 and 0x10 with a 4xx before any query
 * (a route param id: 404, it names nothing; a field: 400 with its message), never the 500 of "integer out of
 * range". The issue's own case first: a bulk category action with category_id 2147483648.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentEditor, startNewsroomServer, type NewsroomServer } from "#tests/e2e/newsroom/support.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";

type Who = "chief";

/** As text in a URL or a form field. */
const TEXT_VALUES = ["0", "-1", "2147483648", "1e309", "1.5", "0x10"];
/** As JSON tokens: numbers, and the same as strings. */
const JSON_VALUES = ["0", "-1", "2147483648", "1e309", "1.5", '"0x10"', '"2147483648"'];

describe("ids out of their column's range", () => {
  let server: NewsroomServer<Who>;
  let base: string;
  let newsId = 0;
  let categoryId = 0;

  const headers = (type?: string) => ({ cookie: server.personas.chief.cookie, origin: base, ...(type ? { "content-type": type } : {}) });
  const send = (method: string, path: string, body?: string, type = "application/json") =>
    fetch(base + path, { method, headers: headers(body === undefined ? undefined : type), body, redirect: "manual" });
  const form = (path: string, fields: Record<string, string>) =>
    send("POST", path, new URLSearchParams(fields).toString(), "application/x-www-form-urlencoded");

  beforeAll(async () => {
    server = await startNewsroomServer<Who>({
      chief: {
        ...contentEditor("ids@newsroom.test"),
        permissions: ["content.write", "content.delete", ...ISSUE40_RIGHTS, "contacts.manage", "newsletter.send"],
      },
    });
    base = server.url;
    const list = (await (await send("GET", "/api/admin/news")).json()) as { items: { id: number; category_id: string }[] };
    newsId = list.items[0].id;
    categoryId = Number(list.items[0].category_id);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers the issue's bulk category action with category_id 2147483648 with 400, not 500, and changes nothing", async () => {
    const res = await send("POST", "/api/admin/news/bulk", JSON.stringify({ action: "category", ids: [newsId], category_id: 2147483648 }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("INVALID_BULK");
    expect(Object.keys(body.error.fields)).toEqual(["category_id"]);
    const item = (await (await send("GET", `/api/admin/news/${newsId}`)).json()) as { category_id: string };
    expect(Number(item.category_id)).toBe(categoryId);
  });

  it("answers a route param id that cannot exist 404, on every API and page that takes one", async () => {
    const routes = [
      "/api/admin/news/:id",
      "/api/admin/news/:id/autosave",
      "/api/admin/library/:id",
      "/api/admin/authors/:id",
      "/api/admin/tags/:id",
      "/api/admin/contacts/:id",
      "/admin/news/:id",
      "/admin/news/:id/revisions",
      "/admin/news/:id/preview",
      "/admin/authors/:id",
    ];
    const answers: string[] = [];
    for (const route of routes) {
      for (const value of TEXT_VALUES) {
        const res = await send("GET", route.replace(":id", value));
        await res.arrayBuffer();
        answers.push(`${route} ${value} ${res.status}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith(" 404"))).toEqual([]);
  });

  it("answers an id or a foreign key out of range in a JSON body with a 4xx naming the field", async () => {
    const cases: [string, string, (v: string) => string, number, string][] = [
      ["POST", "/api/admin/news/bulk", (v) => `{"action":"category","ids":[${newsId}],"category_id":${v}}`, 400, "category_id"],
      ["POST", "/api/admin/news/bulk", (v) => `{"action":"publish","ids":[${v}]}`, 400, "ids"],
      ["PATCH", `/api/admin/news/${newsId}`, (v) => `{"category_id":${v}}`, 422, "category_id"],
      ["PATCH", `/api/admin/news/${newsId}`, (v) => `{"authors":[${v}]}`, 422, "authors"],
      ["POST", "/api/admin/tags/merge", (v) => `{"into":${v},"from":[${v}]}`, 422, "into"],
    ];
    const wrong: string[] = [];
    for (const [method, path, body, status, field] of cases) {
      for (const value of JSON_VALUES) {
        const res = await send(method, path, body(value));
        const answer = (await res.json()) as { error?: { fields?: Record<string, string> } };
        if (res.status !== status || !answer.error?.fields?.[field])
          wrong.push(`${method} ${path} ${value}: ${res.status} ${JSON.stringify(answer).slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers an id out of range in a form post with 400 (404 where the form names a message to act on)", async () => {
    const cases: [string, (v: string) => Record<string, string>, number][] = [
      ["/admin/library", (v) => ({ intent: "delete", id: v, force: "1" }), 400],
      ["/admin/library", (v) => ({ intent: "update", id: v }), 400],
      ["/admin/news", (v) => ({ intent: "delete", id: v }), 400],
      ["/admin/news", (v) => ({ intent: "bulk", action: "category", ids: String(newsId), category_id: v }), 400],
      ["/admin/news", (v) => ({ intent: "bulk", action: "publish", ids: v }), 400],
      ["/admin/calendar", (v) => ({ intent: "move", type: "news", id: v, publish_date: "2031-01-01T10:00" }), 400],
      ["/admin/tags", (v) => ({ intent: "delete", id: v }), 404],
      ["/admin/contacts", (v) => ({ intent: "status", id: v, status: "read" }), 404],
    ];
    const wrong: string[] = [];
    for (const [path, fields, status] of cases) {
      for (const value of TEXT_VALUES) {
        const res = await form(path, fields(value));
        await res.arrayBuffer();
        if (res.status !== status) wrong.push(`${path} ${JSON.stringify(fields(value))}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
