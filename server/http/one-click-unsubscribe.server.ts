/**
 * A mail client's one-click unsubscribe (RFC 8058), answered here, before React Router. The client posts
 * `List-Unsubscribe=One-Click` to the address of the message's List-Unsubscribe header from its own origin (a
 * webmail client sends `Origin: https://mail.example.com`, a mail server none, a sandboxed frame `null`); React
 * Router's own origin check refuses any Origin that is not the request's (400, and an error with its stack in the
 * log), so such a request never reaches the route's action. It is answered here instead:
 *  - the exact one-click form (isOneClickForm) with a subscriber's token → 200, unsubscribed;
 *  - the exact form with a token that is not one → 400, logged at info (a client's mistake, not ours);
 *  - any other body → the origin check's 403 (refuseCrossOrigin): only the one-click form is exempt from it.
 * The button of our own page (an Origin of ours) goes on to the route (app/routes/public/newsletter-unsubscribe.tsx),
 * which renders the page; both unsubscribe through unsubscribeByToken.
 */
import type { NextFunction, Request, Response } from "express";
import type { Config } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { NewsletterTokenError, unsubscribeByToken } from "#server/newsletter/tokens.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { translate } from "./i18n.server.ts";
import { languageOfTarget } from "./language.server.ts";
import { parseFormData, RequestBodyError } from "./request-body.server.ts";
import { fromOurOrigin, isOneClickUnsubscribe, ONE_CLICK_MAX_BYTES, ourOrigins, refuseCrossOrigin } from "./request-guard.server.ts";

/** RFC 8058 §3.2: exactly this one field with this value, whoever posts it. */
export function isOneClickForm(form: FormData): boolean {
  const fields = [...form.keys()];
  return fields.length === 1 && form.get("List-Unsubscribe") === "One-Click";
}

/** The body, at most `max` bytes (the guard let only a declared length that small through); null when it broke off. */
function readSmallBody(req: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.once("end", () => resolve(size <= max ? new Uint8Array(Buffer.concat(chunks)) : null));
    req.once("error", () => resolve(null));
    req.once("aborted", () => resolve(null));
  });
}

/** Mounted after requestBodyGuard, before React Router's handler (server/app.server.ts). */
export function oneClickUnsubscribe(config: Pick<Config, "publicUrl" | "PUBLIC_URL">, database = getDb) {
  const ours = ourOrigins(config);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isOneClickUnsubscribe(req) || fromOurOrigin(req.headers.origin, req.headers.referer, ours)) return next();
    // The address of the message's link names the language (/fr/newsletter/unsubscribe…), as every reading page's.
    const lang = languageOfTarget(req.path, req.headers.cookie, req.headers["accept-language"]);
    const answer = (status: number, state: "done" | "invalid") =>
      void res
        .status(status)
        .set({ "Cache-Control": "no-store", "Content-Language": lang })
        .type("text/plain; charset=utf-8")
        .send(`${translate(lang, `newsletterPage.unsubscribe.${state}Title`)}\n${translate(lang, `newsletterPage.unsubscribe.${state}Text`)}\n`);
    const body = await readSmallBody(req, ONE_CLICK_MAX_BYTES);
    if (body === null) return; // the client left mid-body: nobody to answer
    let form: FormData;
    try {
      form = await parseFormData(body, req.headers["content-type"] ?? null);
    } catch (error) {
      if (!(error instanceof RequestBodyError)) return next(error);
      form = new FormData();
    }
    if (!isOneClickForm(form)) {
      logger.info({ reason: "not the one-click form", origin: req.headers.origin ?? null }, "one-click unsubscribe refused");
      return refuseCrossOrigin(req, res, ours);
    }
    try {
      await unsubscribeByToken(await database(), req.query.token, req.query.send);
    } catch (error) {
      if (!(error instanceof NewsletterTokenError)) return next(error);
      logger.info({ reason: "token not valid", origin: req.headers.origin ?? null }, "one-click unsubscribe refused");
      return answer(400, "invalid");
    }
    answer(200, "done");
  };
}
