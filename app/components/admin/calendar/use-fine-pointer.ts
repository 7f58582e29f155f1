import { useSyncExternalStore } from "react";

/** Dragging is a desktop enhancement: a fine pointer (a mouse). Phones and keyboards use "move"; the server draws no dragging. */
export function useFinePointer(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia("(pointer: fine)");
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia("(pointer: fine)").matches,
    () => false,
  );
}
