import { useTranslation } from "#app/lib/i18n.ts";
import { useToast } from "#app/components/ui/toast.tsx";

type Feed = { title: string; url: string };

/** The type's feed and each program's own feed (podcasts that belong to a program), when the type has feeds. */
export function ListFeeds({ feedUrl, programFeeds }: { feedUrl: string | null; programFeeds: Feed[] }) {
  const { t } = useTranslation();
  return (
    <>
      {feedUrl && <FeedAddress url={feedUrl} label={t("podcastFeed.label")} />}
      {programFeeds.length > 0 && (
        <details className="rounded-md border border-sand-300 bg-white px-3 py-2 text-sm" data-testid="program-feeds">
          <summary className="cursor-pointer font-bold">{t("podcastFeed.programFeeds")}</summary>
          <div className="mt-2 space-y-2">
            {programFeeds.map((f) => (
              <FeedAddress key={f.url} url={f.url} label={f.title} testId="program-feed" />
            ))}
          </div>
        </details>
      )}
    </>
  );
}

/** The address of the type's feed (domain/content-types/ `feed`), to give to Apple Podcasts and Spotify, with a copy button. */
function FeedAddress({ url, label, testId = "feed" }: { url: string; label: string; testId?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t("podcastFeed.copied"), variant: "success" });
    } catch {
      toast({ title: t("detail.copyFailed"), description: url, variant: "warning", duration: 6000 });
    }
  };
  return (
    <p data-testid={`${testId}-address`} className="flex flex-wrap items-center gap-2 rounded-md border border-sand-300 bg-sand-50 px-3 py-2 text-sm">
      <span dir="auto">{label}</span>
      <a href={url} dir="ltr" className="break-all font-mono text-desert-700 underline">
        {url}
      </a>
      <button
        type="button"
        onClick={() => void copy()}
        className="rounded-md border border-sand-300 bg-white px-3 py-1 font-bold hover:bg-sand-100"
        data-testid={`${testId}-copy`}
      >
        {t("podcastFeed.copy")}
      </button>
    </p>
  );
}
