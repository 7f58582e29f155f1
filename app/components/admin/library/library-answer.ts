import type { FormAnswer } from "#domain/form-answer.ts";
import type { LibraryFile, LibraryUsage } from "#domain/library.ts";

/** The library page's action answer (app/routes/admin/library.tsx): a save or a delete, with the uses that stopped one. */
export type LibraryAnswer = FormAnswer<string, "BODY_TOO_LARGE" | "BAD_REQUEST" | "INVALID" | "NOT_FOUND" | "IN_USE" | "FORBIDDEN"> & {
  intent?: "update" | "delete";
  usage?: LibraryUsage[];
};

/** The dialog's delete is one fetcher by key: the dialog goes with the file, and the page says it is done. */
export const DELETE_FETCHER = "library-delete";

/** The file whose details are open (`?file=ID`), with its uses. */
export type OpenFile = { file: LibraryFile; usage: LibraryUsage[] } | null;
