/**
 * The newsroom's live desk on a coverage's edit page (issue 44, docs/decisions/0146-live-coverage.md): start and end
 * the live coverage, post entries from a phone over a poor link, and keep the entries in order while several editors
 * post at once. Everything goes through the admin API (contracts: PATCH /api/admin/{segment}/:id {"live"},
 * /api/admin/{segment}/:id/entries): staff never go through a CDN, so the list simply polls for what changed after
 * its cursor while the page is visible.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { isLive, type LiveEntry, type LiveState } from "#domain/live.ts";
import type { Language } from "#domain/language.ts";
import { formatDate } from "#domain/format.ts";
import { backoffDelay } from "#app/lib/retry.ts";
import { browserStorage } from "#app/lib/draft-store.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { CloseDialogButton, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { BLANK_DRAFT, EntryForm, bigButton, type EntryDraft } from "./entry-composer.tsx";
import {
  mergeEntries,
  newClientKey,
  outboxKey,
  outcomeOf,
  plainTextOf,
  postBody,
  readOutbox,
  writeOutbox,
  type OutboxPost,
  type SendOutcome,
} from "./desk-state.ts";

/** How long the composer keeps a post's text waiting for the server's first answer (a 4xx leaves it there to correct). */
export const COMPOSER_WAIT_MS = 4000;
/** How often the list asks for others' changes while the page is visible. */
export const DESK_POLL_MS = 3000;
/** A post without an answer after this long counts as lost on the network (kept, sent again: the server de-duplicates). */
export const SEND_TIMEOUT_MS = 10_000;

/** GET /api/admin/{segment}/:id/entries (contracts.md). */
type DeskAnswer = LiveState & { live: boolean; cursor: number; entries: LiveEntry[]; deleted: number[] };

const json = { "Content-Type": "application/json", Accept: "application/json" };

/** The message of the APIs' error shape `{error: {message, fields?}}` with each field's own (what to correct), or a general one. */
async function refusalOf(res: Response, fallback: string): Promise<string> {
  const answer = (await res.json().catch(() => null)) as { error?: { message?: unknown; fields?: Record<string, unknown> } } | null;
  const message = answer?.error?.message;
  const fields = Object.values(answer?.error?.fields ?? {}).filter((text): text is string => typeof text === "string");
  return [typeof message === "string" && message ? message : fallback, ...fields].join(" ");
}

/** A JSON call of the desk: the answer, or an Error with the server's message. */
async function call<T>(url: string, method: string, body: unknown, fallback: string): Promise<T> {
  const res = await fetch(url, { method, headers: json, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  if (!res.ok) throw new Error(await refusalOf(res, fallback));
  return (await res.json()) as T;
}

/** The live state and the entries, polled after a cursor while the page is visible, merged with this page's own changes. */
function useDeskEntries(url: string) {
  const [state, setState] = useState<LiveState | null>(null);
  const [entries, setEntries] = useState<LiveEntry[]>([]);
  const cursor = useRef<number | null>(null);

  const poll = useCallback(async () => {
    const res = await fetch(cursor.current === null ? url : `${url}?after=${cursor.current}`, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (!res.ok) return;
    const answer = (await res.json()) as DeskAnswer;
    cursor.current = Math.max(cursor.current ?? 0, answer.cursor);
    setState({ started_at: answer.started_at, ended_at: answer.ended_at });
    setEntries((list) => mergeEntries(list, answer.entries, answer.deleted));
  }, [url]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      clearTimeout(timer);
      if (document.visibilityState === "visible") await poll().catch(() => undefined);
      if (!stopped) timer = setTimeout(() => void tick(), DESK_POLL_MS);
    };
    const visible = () => document.visibilityState === "visible" && void tick();
    void tick();
    document.addEventListener("visibilitychange", visible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", visible);
    };
  }, [poll]);

  const changed = useCallback((entry: LiveEntry) => setEntries((list) => mergeEntries(list, [entry])), []);
  const removed = useCallback((id: number) => setEntries((list) => mergeEntries(list, [], [id])), []);
  return { state, setState, entries, changed, removed };
}

type FirstTry = { outcome: SendOutcome; message: string | null };

/**
 * The outbox: each post is kept in localStorage before it is sent, sent in order, removed once the server has it
 * (201, or 200 for a replay of its client_key); a network failure or a 5xx keeps it and tries again with back-off
 * and when the browser is back online; it is sent again when the page opens. A refused post (4xx) leaves the outbox
 * with the server's message. `enqueue` tells the composer how its post's first try went.
 */
function useOutbox(key: string, url: string, onSent: (entry: LiveEntry) => void, onRefused: (post: OutboxPost, message: string) => void, fallback: string) {
  const posts = useRef<OutboxPost[]>([]);
  const [waiting, setWaiting] = useState(0);
  const [stalled, setStalled] = useState(false);
  const sending = useRef(false);
  const failures = useRef(0);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const firstTries = useRef(new Map<string, (result: FirstTry) => void>());
  const handlers = useRef({ onSent, onRefused });
  useEffect(() => {
    handlers.current = { onSent, onRefused };
  }, [onSent, onRefused]);

  const keep = useCallback(
    (next: OutboxPost[]) => {
      posts.current = next;
      writeOutbox(browserStorage(), key, next);
      setWaiting(next.length);
    },
    [key],
  );

  const flush = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    clearTimeout(retry.current);
    try {
      while (posts.current.length) {
        const post = posts.current[0];
        let res: Response | null = null;
        try {
          res = await fetch(url, {
            method: "POST",
            headers: json,
            body: JSON.stringify(postBody(post)),
            credentials: "same-origin",
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          });
        } catch {
          res = null;
        }
        const outcome = outcomeOf(res?.status ?? null);
        if (outcome === "retry") {
          // Kept: the posts waiting are told so (the composer moves on), and tried again later.
          for (const told of firstTries.current.values()) told({ outcome, message: null });
          firstTries.current.clear();
          setStalled(true);
          failures.current += 1;
          retry.current = setTimeout(() => void flush(), backoffDelay(failures.current));
          return;
        }
        failures.current = 0;
        setStalled(false);
        const message = outcome === "refused" && res ? await refusalOf(res, fallback) : null;
        const entry = outcome === "sent" && res ? ((await res.json().catch(() => null)) as { entry?: LiveEntry } | null)?.entry : undefined;
        keep(posts.current.filter((p) => p.client_key !== post.client_key));
        if (entry) handlers.current.onSent(entry);
        const told = firstTries.current.get(post.client_key);
        firstTries.current.delete(post.client_key);
        if (told) told({ outcome, message });
        else if (message) handlers.current.onRefused(post, message);
      }
    } finally {
      sending.current = false;
    }
  }, [url, keep, fallback]);

  // What an earlier visit left (a reload, a closed tab) is sent again as the page opens, and whenever the link is back.
  useEffect(() => {
    posts.current = readOutbox(browserStorage(), key);
    setWaiting(posts.current.length);
    void flush();
    const online = () => {
      failures.current = 0;
      void flush();
    };
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      clearTimeout(retry.current);
    };
  }, [key, flush]);

  const enqueue = useCallback(
    (post: OutboxPost) =>
      new Promise<FirstTry>((resolve) => {
        keep([...posts.current, post]);
        firstTries.current.set(post.client_key, resolve);
        // A slow link never holds the composer long: past this the post waits in the outbox and the editor moves on.
        setTimeout(() => {
          if (firstTries.current.delete(post.client_key)) resolve({ outcome: "retry", message: null });
        }, COMPOSER_WAIT_MS);
        // Posting is also "try now" for the posts already waiting (in order, before this one).
        void flush();
      }),
    [keep, flush],
  );
  return { waiting, stalled, enqueue };
}

export type LiveDeskProps = {
  /** The coverage's id and its type's admin segment (the API's address). */
  id: number;
  segment: string;
  /** Whose outbox this is (the signed-in account): one device may serve several editors. */
  owner: string;
};

export function LiveDesk({ id, segment, owner }: LiveDeskProps) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const lang = i18n.language as Language;
  const itemUrl = `/api/admin/${segment}/${id}`;
  const entriesUrl = `${itemUrl}/entries`;
  const desk = useDeskEntries(entriesUrl);
  const { changed, removed } = desk;
  // The composer's content: a new generation after each post (a fresh, empty editor), or a refused post back for correction.
  const [composer, setComposer] = useState<{ generation: number; draft: EntryDraft; error: string | null; focus: boolean }>({
    generation: 0,
    draft: BLANK_DRAFT,
    error: null,
    focus: false,
  });
  const [posting, setPosting] = useState(false);
  const [refused, setRefused] = useState<{ post: OutboxPost; message: string }[]>([]);
  const [ending, setEnding] = useState(false);
  const [toggling, setToggling] = useState(false);
  const failed = t("liveDesk.failed");

  const onRefused = useCallback((post: OutboxPost, message: string) => setRefused((list) => [...list, { post, message }]), []);
  const outbox = useOutbox(outboxKey(owner, id), entriesUrl, changed, onRefused, failed);

  const post = async (draft: EntryDraft) => {
    setPosting(true);
    const queued: OutboxPost = { ...draft, client_key: newClientKey(), queuedAt: new Date().toISOString() };
    const first = await outbox.enqueue(queued);
    setPosting(false);
    // Refused: the text stays in the composer, with the server's word on it; otherwise the composer is ready for the next.
    setComposer((c) =>
      first.outcome === "refused"
        ? { generation: c.generation + 1, draft, error: first.message, focus: true }
        : { generation: c.generation + 1, draft: BLANK_DRAFT, error: null, focus: true },
    );
  };

  const setLive = async (live: boolean) => {
    setToggling(true);
    try {
      const answer = await call<{ started_at: string | null; ended_at: string | null }>(itemUrl, "PATCH", { live }, failed);
      desk.setState({ started_at: answer.started_at, ended_at: answer.ended_at });
      setEnding(false);
    } catch (error) {
      toast({ title: t("liveDesk.toggleFailed"), description: (error as Error).message, variant: "destructive" });
    } finally {
      setToggling(false);
    }
  };

  const state = desk.state;
  const live = state ? isLive(state) : false;
  return (
    <section aria-labelledby="live-desk-title" className="space-y-4 rounded-lg border border-sand-200 bg-sand-50 p-3 sm:p-4" data-testid="live-desk">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h2 id="live-desk-title" className="text-lg font-bold">
            {t("liveDesk.title")}
          </h2>
          <p className="text-sm" role="status" data-testid="live-status" data-live={state ? String(live) : undefined}>
            {!state ? (
              t("liveDesk.loading")
            ) : live ? (
              <>
                <span className="me-1 inline-block rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white">{t("liveDesk.liveBadge")}</span>
                {t("liveDesk.liveSince", { time: formatDate(state.started_at, lang, "dateTime") })}
              </>
            ) : state.ended_at ? (
              t("liveDesk.ended", { start: formatDate(state.started_at, lang, "dateTime"), end: formatDate(state.ended_at, lang, "dateTime") })
            ) : (
              t("liveDesk.notLive")
            )}
          </p>
        </div>
        <button
          type="button"
          disabled={!state || toggling}
          aria-busy={toggling || undefined}
          onClick={() => (live ? setEnding(true) : void setLive(true))}
          className={`${bigButton} ${live ? "border border-red-300 bg-white text-red-800 hover:bg-red-50" : "bg-red-700 text-white hover:bg-red-800"} disabled:opacity-60`}
          data-testid="live-toggle"
          data-live={state ? String(live) : undefined}
        >
          {t(live ? "liveDesk.end" : state?.ended_at ? "liveDesk.restart" : "liveDesk.start")}
        </button>
      </div>
      <ModalDialog open={ending} onClose={() => setEnding(false)} labelledBy="live-end-title" describedBy="live-end-text" testId="live-end-dialog">
        <h2 id="live-end-title" className="text-lg font-bold">
          {t("liveDesk.endTitle")}
        </h2>
        <p id="live-end-text" className="mt-2 text-sm text-ink-soft">
          {t("liveDesk.endText")}
        </p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <CloseDialogButton testId="live-end-cancel" />
          <button
            type="button"
            disabled={toggling}
            onClick={() => void setLive(false)}
            className="rounded-md bg-red-700 px-4 py-2 text-sm font-bold text-white hover:bg-red-800"
            data-testid="live-end-confirm"
          >
            {t("liveDesk.end")}
          </button>
        </div>
      </ModalDialog>

      <div className="rounded-lg border border-sand-200 bg-white p-3">
        <h3 className="mb-2 font-bold">{t("liveDesk.composer.title")}</h3>
        <EntryForm
          key={composer.generation}
          prefix="entry"
          initial={composer.draft}
          focusBody={composer.focus}
          busy={posting}
          error={composer.error}
          submitLabel={t(posting ? "liveDesk.composer.posting" : "liveDesk.composer.post")}
          onSubmit={(draft) => void post(draft)}
          withPush
        />
      </div>
      <p
        className={`text-sm ${outbox.waiting ? "font-bold text-amber-900" : "text-ink-soft"}`}
        aria-live="polite"
        data-testid="entry-outbox"
        data-count={outbox.waiting}
        data-state={outbox.waiting ? (outbox.stalled ? "waiting" : "sending") : "empty"}
      >
        {outbox.waiting ? t(outbox.stalled ? "liveDesk.outbox.waiting" : "liveDesk.outbox.sending", { n: outbox.waiting }) : t("liveDesk.outbox.empty")}
      </p>
      {refused.map(({ post: kept, message }) => (
        <div key={kept.client_key} role="alert" className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm" data-testid="entry-refused">
          <p className="font-bold text-red-800">{t("liveDesk.outbox.refused", { message })}</p>
          <p dir="auto" className="line-clamp-2">
            {plainTextOf(kept.body)}
          </p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={`${bigButton} border border-sand-300 bg-white`}
              onClick={() => {
                setComposer((c) => ({ generation: c.generation + 1, draft: kept, error: message, focus: true }));
                setRefused((list) => list.filter((r) => r.post !== kept));
              }}
            >
              {t("liveDesk.outbox.correct")}
            </button>
            <button
              type="button"
              className={`${bigButton} border border-sand-300 bg-white`}
              onClick={() => setRefused((list) => list.filter((r) => r.post !== kept))}
            >
              {t("liveDesk.outbox.discard")}
            </button>
          </div>
        </div>
      ))}

      <DeskEntries url={entriesUrl} entries={desk.entries} onChanged={changed} onRemoved={removed} />
    </section>
  );
}

/** The entries, newest first, each with its actions: edit in place, pin, key event, delete (after a question). */
function DeskEntries({
  url,
  entries,
  onChanged,
  onRemoved,
}: {
  url: string;
  entries: readonly LiveEntry[];
  onChanged: (entry: LiveEntry) => void;
  onRemoved: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const lang = i18n.language as Language;
  const [editing, setEditing] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [editError, setEditError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<LiveEntry | null>(null);
  const failed = t("liveDesk.failed");

  const patch = async (entry: LiveEntry, changes: Record<string, unknown>) => {
    try {
      onChanged(await call<LiveEntry>(`${url}/${entry.id}`, "PATCH", changes, failed));
      return true;
    } catch (error) {
      toast({ title: t("liveDesk.saveFailed"), description: (error as Error).message, variant: "destructive" });
      return false;
    }
  };
  const save = async (entry: LiveEntry, draft: EntryDraft) => {
    setSaving(true);
    setEditError(null);
    try {
      const { push: _push, ...fields } = draft;
      onChanged(await call<LiveEntry>(`${url}/${entry.id}`, "PATCH", fields, failed));
      setEditing(null);
    } catch (error) {
      setEditError((error as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const remove = async (entry: LiveEntry) => {
    try {
      await call(`${url}/${entry.id}`, "DELETE", undefined, failed);
      onRemoved(entry.id);
    } catch (error) {
      toast({ title: t("liveDesk.deleteFailed"), description: (error as Error).message, variant: "destructive" });
    } finally {
      setDeleting(null);
    }
  };

  return (
    <div className="space-y-2">
      <h3 className="font-bold">{t("liveDesk.entries.title", { n: entries.length })}</h3>
      {!entries.length && (
        <p className="text-sm text-ink-soft" data-testid="desk-entries-empty">
          {t("liveDesk.entries.empty")}
        </p>
      )}
      <ol className="space-y-3" data-testid="desk-entries">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className={`rounded-lg border bg-white p-3 ${entry.pinned ? "border-desert-600" : "border-sand-200"}`}
            data-testid="desk-entry"
            data-entry-id={entry.id}
            data-pinned={entry.pinned || undefined}
            data-key-event={entry.key_event || undefined}
          >
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-soft">
              <time dateTime={entry.at}>{formatDate(entry.at, lang, "dateTime")}</time>
              <span className="font-bold text-ink">{entry.author}</span>
              {entry.edited_at && (
                <span data-testid="desk-entry-edited">{t("liveDesk.entries.edited", { time: formatDate(entry.edited_at, lang, "dateTime") })}</span>
              )}
              {entry.pinned && <span className="rounded bg-desert-600 px-1.5 py-0.5 font-bold text-white">{t("liveDesk.entries.pinned")}</span>}
              {entry.key_event && <span className="rounded bg-amber-100 px-1.5 py-0.5 font-bold text-amber-900">{t("liveDesk.entries.keyEvent")}</span>}
            </p>
            {editing === entry.id ? (
              <div className="mt-2">
                <EntryForm
                  prefix="edit"
                  initial={{ ...BLANK_DRAFT, ...entry, image: entry.image?.url ?? null, image_alt: entry.image?.alt ?? null }}
                  focusBody
                  busy={saving}
                  error={editError}
                  submitLabel={t(saving ? "liveDesk.edit.saving" : "liveDesk.edit.save")}
                  onSubmit={(draft) => void save(entry, draft)}
                  onCancel={() => setEditing(null)}
                  withPush={false}
                />
              </div>
            ) : (
              <>
                {/* Sanitised by the server (the editor's allow-list). */}
                <div
                  className="prose-sm mt-1 text-base leading-relaxed [&_a]:underline"
                  dir="auto"
                  data-testid="desk-entry-body"
                  dangerouslySetInnerHTML={{ __html: entry.body }}
                />
                {entry.image && <img src={entry.image.url} alt={entry.image.alt} className="mt-2 max-h-40 rounded-md" />}
                {entry.video_id && <p className="mt-1 text-xs text-ink-soft">{t("liveDesk.composer.videoChosen", { name: entry.video_id })}</p>}
                {entry.embed_url && (
                  <p className="mt-1 truncate text-xs" dir="ltr">
                    {entry.embed_url}
                  </p>
                )}
                <div className="mt-2 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={`${bigButton} border border-sand-300`}
                    onClick={() => {
                      setEditError(null);
                      setEditing(entry.id);
                    }}
                    data-testid="desk-entry-edit"
                  >
                    {t("liveDesk.entries.edit")}
                  </button>
                  <button
                    type="button"
                    aria-pressed={entry.pinned}
                    className={`${bigButton} border border-sand-300 ${entry.pinned ? "bg-sand-200" : ""}`}
                    onClick={() => void patch(entry, { pinned: !entry.pinned })}
                    data-testid="desk-entry-pin"
                  >
                    {t(entry.pinned ? "liveDesk.entries.unpin" : "liveDesk.entries.pin")}
                  </button>
                  <button
                    type="button"
                    aria-pressed={entry.key_event}
                    className={`${bigButton} border border-sand-300 ${entry.key_event ? "bg-sand-200" : ""}`}
                    onClick={() => void patch(entry, { key_event: !entry.key_event })}
                    data-testid="desk-entry-key"
                  >
                    {t(entry.key_event ? "liveDesk.entries.unkey" : "liveDesk.entries.key")}
                  </button>
                  <button
                    type="button"
                    className={`${bigButton} border border-red-200 text-red-800 hover:bg-red-50`}
                    onClick={() => setDeleting(entry)}
                    data-testid="desk-entry-delete"
                  >
                    {t("liveDesk.entries.delete")}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ol>
      <ModalDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        labelledBy="live-delete-title"
        describedBy="live-delete-text"
        testId="live-delete-dialog"
      >
        <h2 id="live-delete-title" className="text-lg font-bold">
          {t("liveDesk.deleteTitle")}
        </h2>
        <p id="live-delete-text" className="mt-2 text-sm text-ink-soft">
          {t("liveDesk.deleteText")}
        </p>
        {deleting && (
          <p className="mt-3 line-clamp-3 rounded-md bg-sand-50 px-3 py-2 text-sm" dir="auto">
            {plainTextOf(deleting.body)}
          </p>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <CloseDialogButton testId="live-delete-cancel" />
          <button
            type="button"
            onClick={() => deleting && void remove(deleting)}
            className="rounded-md bg-red-700 px-4 py-2 text-sm font-bold text-white hover:bg-red-800"
            data-testid="live-delete-confirm"
          >
            {t("liveDesk.entries.delete")}
          </button>
        </div>
      </ModalDialog>
    </div>
  );
}
