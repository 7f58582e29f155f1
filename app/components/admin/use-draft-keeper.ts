/**
 * No lost work in the editor (docs/how-it-works.md, "No lost work"): while an editor types, this keeps the
 * form on the device (app/lib/draft-store.ts) and, for an existing draft, as the editor's autosave on the
 * server (POST /api/admin/{type}/{id}/autosave after a few seconds without typing); it says where the work
 * is (the save state), and retries a save the network lost, as soon as the browser is back online and
 * otherwise with back-off. The page (app/routes/admin/content-editor.tsx) wires it to the form, the leave
 * guard and the sign-in dialog.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { formValuesOf, type FormValues } from "#domain/content-form.ts";
import type { ContentTypeDefinition } from "#domain/content-types/index.ts";
import { browserStorage, dropDraft, keepDraft, pruneDrafts } from "#app/lib/draft-store.ts";
import { backoffDelay } from "#app/lib/retry.ts";

/** Quiet typing for this long sends an autosave of a draft. */
export const AUTOSAVE_IDLE_MS = 3000;
/** Typing is kept on the device this long after the last key (and at once when the page is left). */
const LOCAL_WRITE_MS = 400;
/** Retries of a save the network lost: 2 s, 4 s, 8 s… at most 30 s apart, and at once when back online. */
const RETRY = { firstDelayMs: 2000, maxDelayMs: 30_000 };

export type SaveState =
  /** Nothing typed since the page opened (or since the last save). */
  | "clean"
  /** Changes not saved, kept on this device. */
  | "local"
  /** An autosave or a save on its way. */
  | "saving"
  /** The draft's autosave holds the latest typing. */
  | "autosaved"
  /** The network is down: kept on this device, saved when it returns. */
  | "offline"
  /** The browser is online but the server could not be reached: kept here, tried again. */
  | "retrying"
  /** The session ended: kept on this device until the editor signs in again. */
  | "signedOut";

// ---- Which copy a page's save clears (its route's clientAction knows only the URL) ----

const keysByPath = new Map<string, string>();
/** Copies cleared by a successful save: a write still pending for them is dropped. */
const savedKeys = new Set<string>();

/** A save at `path` that goes through clears the local copy under `key`. */
export function registerDraftPath(path: string, key: string) {
  // Browser only: a server rendering the page keeps nothing of its users here.
  if (typeof window === "undefined") return;
  keysByPath.set(path, key);
  savedKeys.delete(key);
}

/** The save at `path` went through: its local copy is no longer needed. */
export function forgetDraftAt(path: string) {
  const key = keysByPath.get(path);
  if (!key) return;
  savedKeys.add(key);
  dropDraft(browserStorage(), key);
}

/** How a refused save came back from the page's clientAction: the network, or the session. */
export type SaveAnswer = { formError?: string } | undefined;

export type DraftKeeperOptions = {
  def: ContentTypeDefinition;
  /** The local copy's key (draftKey). */
  storageKey: string;
  /** The item's version the editor opened (the concurrency token), null for a new item. */
  base: string | null;
  /** The draft's autosave endpoint, or null (a new item, or one that is not a draft). */
  autosaveUrl: string | null;
  /** A save is on its way (the page's navigation is submitting). */
  submitting: boolean;
  /** The page's last action answer. */
  answer: SaveAnswer;
};

const formElement = () => {
  const form = typeof document === "undefined" ? null : document.getElementById("content-form");
  return form instanceof HTMLFormElement ? form : null;
};

export function useDraftKeeper({ def, storageKey, base, autosaveUrl, submitting, answer }: DraftKeeperOptions) {
  const [state, setState] = useState<SaveState>("clean");
  const [autosavedAt, setAutosavedAt] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  /** The save answer the editor has dealt with (signed in again since). */
  const [cleared, setCleared] = useState<SaveAnswer>(undefined);
  const dirtyRef = useRef(false);
  const localTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const autoTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const retries = useRef(0);
  const autoFailures = useRef(0);
  const autosaveAgain = useRef<() => Promise<void>>(() => Promise.resolve());
  const autosaving = useRef<AbortController | null>(null);
  const lastAutosaved = useRef<string | null>(null);
  const autosaveOn = useRef(autosaveUrl);
  const signedOut = useRef(false);
  /** A save was refused for an ended session: it goes again once signed in (the answer is gone by then). */
  const refusedSave = useRef(false);
  useEffect(() => {
    autosaveOn.current = autosaveUrl;
  }, [autosaveUrl]);

  const valuesNow = useCallback((): FormValues | null => {
    const form = formElement();
    return form ? formValuesOf(def, new FormData(form)) : null;
  }, [def]);

  /** Writes the form to the device now (unless a save has just cleared it). */
  const flush = useCallback(() => {
    clearTimeout(localTimer.current);
    if (!dirtyRef.current || savedKeys.has(storageKey)) return;
    const values = valuesNow();
    if (values) keepDraft(browserStorage(), storageKey, values, base);
  }, [base, storageKey, valuesNow]);

  const autosave = useCallback(
    () =>
      sendAutosave(
        { autoTimer, autosaveOn, signedOut, dirtyRef, lastAutosaved, autosaving, autoFailures, autosaveAgain },
        base,
        valuesNow,
        setState,
        setAutosavedAt,
      ),
    [base, valuesNow],
  );

  useEffect(() => {
    autosaveAgain.current = autosave;
  }, [autosave]);

  /** Something in the form changed: keep it here soon, autosave a draft when the typing stops. */
  const changed = useCallback(() => {
    dirtyRef.current = true;
    setDirty(true);
    savedKeys.delete(storageKey);
    clearTimeout(localTimer.current);
    localTimer.current = setTimeout(flush, LOCAL_WRITE_MS);
    if (autosaveOn.current && !signedOut.current) {
      clearTimeout(autoTimer.current);
      autoTimer.current = setTimeout(() => void autosave(), AUTOSAVE_IDLE_MS);
    }
    setState((s) => (s === "offline" || s === "retrying" || s === "signedOut" || s === "saving" ? s : "local"));
  }, [autosave, flush, storageKey]);

  /** Sends the form again (its save button), as a retry or after signing in again. */
  const resubmit = useCallback(() => {
    const form = formElement();
    const button = form?.querySelector<HTMLButtonElement>('[data-testid="save"]');
    if (form && button && !button.disabled) form.requestSubmit(button);
  }, []);

  /** Signed in again: autosaves resume, and a save that was refused is sent again. */
  const signedIn = useCallback(() => {
    signedOut.current = false;
    setCleared(answer);
    autosaveOn.current = autosaveUrl;
    setState(dirtyRef.current ? "local" : "clean");
    if (refusedSave.current) {
      refusedSave.current = false;
      resubmit();
    } else void autosave();
  }, [answer, autosave, autosaveUrl, resubmit]);

  // Old copies of any user go when an editor opens; typing left on the way out is kept.
  useEffect(() => {
    pruneDrafts(browserStorage());
    const keep = () => flush();
    const hidden = () => document.visibilityState === "hidden" && flush();
    window.addEventListener("pagehide", keep);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      window.removeEventListener("pagehide", keep);
      document.removeEventListener("visibilitychange", hidden);
      stopKeeping({ localTimer, autoTimer, retryTimer, autosaving });
    };
  }, [flush]);

  // A save on its way: the copy is written now (a crash during it loses nothing), autosaves wait.
  useEffect(() => {
    if (!submitting) return;
    flush();
    clearTimeout(autoTimer.current);
    clearTimeout(retryTimer.current);
    autosaving.current?.abort();
  }, [submitting, flush]);

  // A save lost on the network is sent again: when the browser is back online, and with back-off meanwhile.
  useEffect(() => {
    if (submitting) return;
    return answerRefusedSave({ retries, retryTimer, signedOut, refusedSave }, answer, cleared, resubmit);
  }, [answer, cleared, submitting, resubmit]);

  // An autosave lost on the network goes again when the browser is back online.
  useEffect(() => {
    if (state !== "offline" && state !== "retrying") return;
    const online = () => {
      if (!answer || answer.formError !== "OFFLINE") void autosave();
    };
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [state, answer, autosave]);

  /** Marks the form as changed (a restored copy), keeping it here at once. */
  const restored = useCallback(
    (values: FormValues) => {
      dirtyRef.current = true;
      setDirty(true);
      savedKeys.delete(storageKey);
      keepDraft(browserStorage(), storageKey, values, base);
      setState("local");
      if (autosaveOn.current) {
        clearTimeout(autoTimer.current);
        autoTimer.current = setTimeout(() => void autosave(), AUTOSAVE_IDLE_MS);
      }
    },
    [autosave, base, storageKey],
  );

  return { state: shownState(state, submitting, answer, cleared), autosavedAt, dirty, changed, flush, resubmit, signedIn, restored };
}

type Timer = ReturnType<typeof setTimeout> | undefined;

/** The keeper's refs an autosave reads and moves on. */
type AutosaveRefs = {
  autoTimer: RefObject<Timer>;
  autosaveOn: RefObject<string | null>;
  signedOut: RefObject<boolean>;
  dirtyRef: RefObject<boolean>;
  lastAutosaved: RefObject<string | null>;
  autosaving: RefObject<AbortController | null>;
  autoFailures: RefObject<number>;
  autosaveAgain: RefObject<() => Promise<void>>;
};

/**
 * Sends the form to the draft's autosave (unless it is what went last): a network failure tries again with
 * back-off, an ended session stops autosaves, any other refusal leaves the save button.
 */
async function sendAutosave(
  k: AutosaveRefs,
  base: string | null,
  valuesNow: () => FormValues | null,
  setState: Dispatch<SetStateAction<SaveState>>,
  setAutosavedAt: (at: string) => void,
) {
  clearTimeout(k.autoTimer.current);
  const url = k.autosaveOn.current;
  if (!url || k.signedOut.current || !k.dirtyRef.current) return;
  const values = valuesNow();
  if (!values) return;
  const body = JSON.stringify({ values, updated_at: base });
  if (body === k.lastAutosaved.current) return;
  k.autosaving.current?.abort();
  const controller = new AbortController();
  k.autosaving.current = controller;
  setState("saving");
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      signal: controller.signal,
      credentials: "same-origin",
    });
    if (controller.signal.aborted) return;
    if (res.ok) {
      const answer = (await res.json()) as { autosave?: { saved_at?: string } };
      k.lastAutosaved.current = body;
      k.autoFailures.current = 0;
      setAutosavedAt(answer.autosave?.saved_at ?? new Date().toISOString());
      // Typing that arrived meanwhile is not in this autosave: it goes with the next one.
      const latest = valuesNow();
      setState(latest && JSON.stringify({ values: latest, updated_at: base }) !== body ? "local" : "autosaved");
    } else if (res.status === 401) {
      k.signedOut.current = true;
      setState("signedOut");
    } else {
      // Published or saved by someone since (409), or refused (400, 403, 404): the save button remains.
      k.autosaveOn.current = null;
      setState("local");
    }
  } catch {
    if (controller.signal.aborted) return;
    setState(navigator.onLine === false ? "offline" : "retrying");
    // Tried again with back-off (and at once when the browser is back online, below).
    k.autoFailures.current += 1;
    clearTimeout(k.autoTimer.current);
    k.autoTimer.current = setTimeout(() => void k.autosaveAgain.current(), backoffDelay(k.autoFailures.current, RETRY));
  } finally {
    if (k.autosaving.current === controller) k.autosaving.current = null;
  }
}

/** The keeper's refs a refused save's answer moves on. */
type RefusedSaveRefs = {
  retries: RefObject<number>;
  retryTimer: RefObject<Timer>;
  signedOut: RefObject<boolean>;
  refusedSave: RefObject<boolean>;
};

/**
 * A save lost on the network is sent again, when the browser is back online and with back-off meanwhile (the
 * returned cleanup stops listening); one refused for an ended session waits for the sign-in.
 */
function answerRefusedSave(k: RefusedSaveRefs, answer: SaveAnswer, cleared: SaveAnswer, resubmit: () => void) {
  const code = answer?.formError;
  if (code === "OFFLINE") {
    k.retries.current += 1;
    clearTimeout(k.retryTimer.current);
    k.retryTimer.current = setTimeout(resubmit, backoffDelay(k.retries.current, RETRY));
    const online = () => {
      clearTimeout(k.retryTimer.current);
      resubmit();
    };
    window.addEventListener("online", online, { once: true });
    return () => window.removeEventListener("online", online);
  }
  k.retries.current = 0;
  if (code === "UNAUTHENTICATED" && answer !== cleared) {
    k.signedOut.current = true;
    k.refusedSave.current = true;
  }
  return undefined;
}

/** What the last save's answer says wins over the autosaves' state until it is dealt with. */
function shownState(state: SaveState, submitting: boolean, answer: SaveAnswer, cleared: SaveAnswer): SaveState {
  const code = answer && answer !== cleared ? answer.formError : undefined;
  const offline = typeof navigator !== "undefined" && navigator.onLine === false;
  return submitting ? "saving" : code === "OFFLINE" ? (offline ? "offline" : "retrying") : code === "UNAUTHENTICATED" ? "signedOut" : state;
}

/**
 * The editor closes: the timers and the autosave on their way stop. The refs are read now, not when the effect
 * ran, since the timers set since are the ones to stop.
 */
function stopKeeping(k: {
  localTimer: RefObject<Timer>;
  autoTimer: RefObject<Timer>;
  retryTimer: RefObject<Timer>;
  autosaving: RefObject<AbortController | null>;
}) {
  clearTimeout(k.localTimer.current);
  clearTimeout(k.autoTimer.current);
  clearTimeout(k.retryTimer.current);
  k.autosaving.current?.abort();
}
