import { useState, type DragEvent } from "react";
import { timeOf, wallTimeOf } from "#domain/calendar.ts";
import type { CalendarItem } from "#server/content/calendar.server.ts";
import { keyOf } from "./move-answer.ts";

/** Two digits: an hour or a minute of a wall time. */
export const pad = (n: number) => String(n).padStart(2, "0");

/** What an item being dragged needs: whether it is the one dragged, and its handlers. */
export type DragOf = (key: string) => {
  dragged: boolean;
  draggable: true | undefined;
  onDragStart: (event: DragEvent) => void;
  onDragEnd: () => void;
};

/** What a day or an hour that takes a drop needs. */
export type DropOn = (target: { day: string; hour?: number }) => {
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  "data-drop-target": "on" | undefined;
};

/**
 * Dragging an item to another day (week view: the same time that day) or hour (day view: the same minutes at
 * that hour) posts the same move as the dialog; a drop where it already is posts nothing.
 */
export function useCalendarDrag(items: CalendarItem[], enabled: boolean, submitMove: (item: CalendarItem, wall: string) => void) {
  const [dragging, setDragging] = useState<string | null>(null);
  const dropOn: DropOn = (target) => ({
    onDragOver: (event) => {
      if (dragging) event.preventDefault();
    },
    onDrop: (event) => {
      event.preventDefault();
      const item = items.find((i) => keyOf(i) === event.dataTransfer.getData("text/plain"));
      setDragging(null);
      if (!item) return;
      const time = timeOf(new Date(item.publish_date));
      const wall = `${target.day}T${target.hour === undefined ? time : `${pad(target.hour)}:${time.slice(3)}`}`;
      if (wall !== wallTimeOf(new Date(item.publish_date))) submitMove(item, wall);
    },
    "data-drop-target": dragging ? "on" : undefined,
  });
  const dragOf: DragOf = (key) => ({
    dragged: dragging === key,
    draggable: enabled || undefined,
    onDragStart: (event) => {
      event.dataTransfer.setData("text/plain", key);
      event.dataTransfer.effectAllowed = "move";
      setDragging(key);
    },
    onDragEnd: () => setDragging(null),
  });
  return { dropOn, dragOf };
}
