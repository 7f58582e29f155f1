/**
 * The JSON API's one error shape, `{ code, message, errors? }`, and the mapping from the domain's errors
 * (each with a stable code) to statuses. Field messages are the spec's Arabic words: the back-office and
 * its integrations work in Arabic (back-office.md §1).
 */
import { data } from "react-router";
import { ContentConflictError, ContentNotFoundError, ContentValidationError } from "#server/content/newsroom.server.ts";
import { ContactNotFoundError, ContactValidationError } from "#server/content/contacts.server.ts";
import { translate } from "./i18n.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { RequestBodyError } from "./request-body.server.ts";
import { UploadError } from "#server/media/storage/index.server.ts";
import { VideoLibraryError } from "#server/media/video/types.server.ts";

const NO_STORE = { "Cache-Control": "no-store" };

export function jsonError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return data({ code, message, ...extra }, { status, headers: NO_STORE });
}

export function json<T>(body: T, status = 200) {
  return data(body, { status, headers: NO_STORE });
}

/** A translation key as Arabic text, with `{{name}}` placeholders filled in. */
export function arabic(key: string, values: Record<string, string | number> = {}): string {
  return translate("ar", key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

export function arabicErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, arabic(key)]));
}

/**
 * Runs an API handler; known failures become their status and the error shape, anything else a logged 500.
 * Responses thrown by the guard (401, 403) pass through untouched.
 */
export async function answerJson<T>(handler: () => Promise<T>): Promise<T | ReturnType<typeof jsonError>> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof ContentValidationError) return jsonError(422, error.code, arabic("newsroom.v.invalid"), { errors: arabicErrors(error.errors) });
    if (error instanceof UploadError) return jsonError(422, error.code, arabic(error.messageKey, error.values));
    if (error instanceof ContentConflictError) return jsonError(409, error.code, arabic("newsroom.v.conflict"), { current: error.current });
    if (error instanceof ContentNotFoundError) return jsonError(404, error.code, "Not found");
    if (error instanceof ContactValidationError) return jsonError(422, error.code, arabic("contacts.updateFailed"), { errors: arabicErrors(error.errors) });
    if (error instanceof ContactNotFoundError) return jsonError(404, error.code, arabic("contacts.notFound"));
    if (error instanceof VideoLibraryError) {
      logger.warn({ err: error }, "video library request failed");
      return jsonError(502, error.code, error.message);
    }
    if (error instanceof RequestBodyError) return jsonError(error.status, error.code, error.message);
    if (error instanceof Response || (error && typeof error === "object" && "type" in error && error.type === "DataWithResponseInit")) throw error;
    logger.error({ err: error }, "API request failed");
    return jsonError(500, "INTERNAL", "Something went wrong");
  }
}
