import { Link } from "react-router";
import { useCount, useTranslation } from "#app/lib/i18n.ts";

/**
 * The editor's warning about the item's pictures that have no alt text (issue 39, decision 0136): their
 * addresses and where to describe them. A warning only: the item saves and publishes all the same.
 */
export function AltTextNotice({ urls }: { urls: readonly string[] }) {
  const { t } = useTranslation();
  const counted = useCount();
  if (!urls.length) return null;
  return (
    <div
      role="status"
      data-testid="alt-warning"
      data-count={urls.length}
      className="rounded-md border border-s-4 border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p className="font-bold">{t("newsroom.ui.altMissingTitle")}</p>
      <p>{counted("newsroom.ui.altMissing", urls.length)}</p>
      <ul className="mt-1 list-disc ps-5">
        {urls.map((url) => (
          <li key={url} dir="ltr" className="text-start font-mono text-xs break-all" data-testid="alt-warning-url">
            {url}
          </li>
        ))}
      </ul>
      <p className="mt-1">
        <Link to="/admin/library" className="font-bold underline">
          {t("newsroom.ui.altMissingWhere")}
        </Link>
      </p>
    </div>
  );
}
