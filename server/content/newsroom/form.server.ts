/**
 * The newsroom editor's form post, from multipart body to saved item: the editor's route action calls
 * `saveFromForm` and turns its outcome into a redirect or a re-rendered form. The form is parsed once, with the
 * type's schema; images are checked and stored only once the rest of the form passes it, and a stored image is
 * removed again when the save fails, so a refused form leaves no file behind. A failed image upload does not stop the save
 * (back-office.md §8: the item is saved without its image, with a warning). An image chosen from the media
 * library (`{field}__library`) is taken only when the library has that URL.
 */
import type { ContentTypeDefinition } from "#domain/content-types/index.ts";
import {
  asText,
  formValuesOf,
  imageFileInput,
  imageLibraryInput,
  imageRemoveInput,
  OVERWRITE_INPUT,
  UPDATED_AT_INPUT,
  type FormValues,
} from "#domain/content-form.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import type { Database } from "#server/db/client.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { REVIEW_NOTE_INPUT } from "#domain/workflow.ts";
import { getStorage, storeImage, UploadError, type StoredFile } from "#server/media/storage/index.server.ts";
import { removeImage } from "#server/media/storage/images.server.ts";
import { libraryDetailsByUrl, recordLibraryFileQuietly } from "#server/media/library.server.ts";
import type { StaffItem } from "./read.server.ts";
import { ContentConflictError, createItem, parseInput, ParsedInput, updateItem, type Author } from "./write.server.ts";
import { ItemLockedError, type ItemLock } from "../item-locks.server.ts";

export type ImageWarning = { key: string; values: Record<string, string | number> };

export type SaveOutcome =
  | { ok: true; item: StaffItem; imageFailed: ImageWarning | null }
  | {
      ok: false;
      status: 400 | 403 | 404 | 409 | 500;
      /** What was typed, for the form to show again. */
      values: FormValues;
      errors: FieldErrors;
      /** Someone saved since the editor opened the item: their version's token and time. */
      conflict?: { updatedAt: string; title: string };
      /** Another account holds the item's lock (decision 0139): who, since when. */
      locked?: ItemLock;
      /** The save itself failed (not the input): a translation key. */
      failure?: string;
    };

const chosenFile = (form: FormData, name: string): File | null => {
  const value = form.get(name);
  return value instanceof File && (value.size > 0 || value.name !== "") ? value : null;
};

/** The chosen library files that the library does not have as images (a stale page, a forged post): the field's message. */
async function libraryErrors(db: Database, picked: { field: string; url: string }[]): Promise<FieldErrors> {
  if (picked.length === 0) return {};
  const known = await libraryDetailsByUrl(
    db,
    picked.map((p) => p.url),
  );
  const errors: FieldErrors = {};
  for (const { field, url } of picked) if (known.get(url)?.kind !== "image") errors[field] = "libraryPicker.notInLibrary";
  return errors;
}

/** Saves a posted editor form as a new item (`id` null) or over item `id`. */
export async function saveFromForm(db: Database, def: ContentTypeDefinition, form: FormData, author: Author, id: number | null): Promise<SaveOutcome> {
  const values = formValuesOf(def, form);
  const images = def.fields.filter((f) => f.kind === "image");
  for (const field of images) if (form.get(imageRemoveInput(field.name)) === "on") values[field.name] = "";
  // A file chosen from the media library: its URL becomes the field's value, if the library has it.
  const picked = images.flatMap((field) => {
    const url = asText(form.get(imageLibraryInput(field.name))).trim();
    return url ? [{ field: field.name, url }] : [];
  });
  for (const { field, url } of picked) values[field] = url;

  const parsed = parseInput(def.type, values);
  const errors = { ...(parsed instanceof ParsedInput ? {} : parsed.errors), ...(await libraryErrors(db, picked)) };
  if (!(parsed instanceof ParsedInput) || Object.keys(errors).length) return { ok: false, status: 400, values, errors };

  const checked = { ...parsed.values };
  // The note an editor sends a story back with (decision 0138): kept with what was typed, checked by the save.
  const note = asText(form.get(REVIEW_NOTE_INPUT));
  if (note) values[REVIEW_NOTE_INPUT] = note;
  const stored: StoredFile[] = [];
  /** The images stored for this save, recorded in the media library once the save succeeds. */
  const uploaded: { url: string; file: File }[] = [];
  let imageFailed: ImageWarning | null = null;
  for (const field of images) {
    const file = chosenFile(form, imageFileInput(field.name));
    if (!file) continue;
    try {
      const saved = await storeImage(file, def.folders[field.name] ?? def.segment);
      stored.push(saved);
      uploaded.push({ url: saved.url, file });
      checked[field.name] = saved.url;
    } catch (error) {
      if (error instanceof UploadError) imageFailed = { key: error.messageKey, values: error.values };
      else {
        logger.error({ err: error, type: def.type }, "image could not be stored");
        imageFailed = { key: "newsroom.ui.imageStoreFailed", values: {} };
      }
    }
  }

  const forgetImages = async () => {
    for (const file of stored) await removeImage(getStorage(), file.key).catch((error: unknown) => logger.warn({ err: error }, "stored image not removed"));
  };

  try {
    const expected = asText(form.get(OVERWRITE_INPUT)) || asText(form.get(UPDATED_AT_INPUT)) || null;
    const input = new ParsedInput(checked, note || undefined);
    const item =
      id === null
        ? await createItem(db, def.type, input, author)
        : await updateItem(db, def.type, id, input, author, { expectedUpdatedAt: expected, respectLock: true });
    for (const { url, file } of uploaded) {
      await recordLibraryFileQuietly(db, { url, kind: "image", bytes: file.size, originalName: file.name, uploadedBy: author.id });
    }
    return { ok: true, item, imageFailed };
  } catch (error) {
    await forgetImages();
    if (error instanceof ValidationError) return { ok: false, status: 400, values, errors: error.fields ?? {} };
    if (error instanceof ContentConflictError) {
      return { ok: false, status: 409, values, errors: {}, conflict: { updatedAt: error.current.updated_at, title: error.current.title } };
    }
    if (error instanceof NotFoundError) return { ok: false, status: 404, values, errors: {}, failure: "newsroom.ui.notFound" };
    // A status this account may not set (a writer's «published»): 403 PUBLISH_PERMISSION, said in the form.
    if (error instanceof ForbiddenError && error.code === "PUBLISH_PERMISSION")
      return { ok: false, status: 403, values, errors: {}, failure: "workflow.refused" };
    if (error instanceof ItemLockedError) return { ok: false, status: 409, values, errors: {}, locked: error.lock };
    logger.error({ err: error, type: def.type, id }, "newsroom save failed");
    return { ok: false, status: 500, values, errors: {}, failure: "newsroom.ui.saveFailedDetail" };
  }
}
