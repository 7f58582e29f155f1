import type { FormAnswer } from "#domain/form-answer.ts";

/** An item as the calendar shows it, by its type and id (the drag's payload, the answer's `key`). */
export const keyOf = (item: { type: string; id: number }) => `${item.type}-${item.id}`;

type Moved = { key: string; title: string; publish_date: string; status: string };

/** The calendar page's action answer (app/routes/admin/calendar.tsx): where the item went, or why it did not. */
export type MoveAnswer = FormAnswer<"publish_date", string> & { key?: string; moved?: Moved };
