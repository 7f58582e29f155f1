import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import { tagPath } from "#domain/tags.ts";
import { useLocalPath } from "#app/lib/addresses.ts";

/**
 * An item's tags under its body (decision 0122): each a link to the tag's page, in the page's HTML (the reading
 * pages are not hydrated). Nothing when the item has none.
 */
export function TagLinks({ tags }: { tags: readonly { id: number; slug: string; name: string }[] | undefined }) {
  const { t } = useTranslation();
  const local = useLocalPath();
  if (!tags?.length) return null;
  return (
    <nav aria-labelledby="item-tags-title" className="mt-8 border-t border-sand-200 pt-4" data-testid="item-tags">
      <h2 id="item-tags-title" className="mb-2 text-sm font-bold text-ink-soft">
        {t("tags.onItem")}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {tags.map((tag) => (
          <li key={tag.id}>
            <Link
              to={local(tagPath(tag.slug))}
              rel="tag"
              dir="auto"
              className="inline-flex min-h-9 items-center rounded-full border border-sand-300 bg-sand-50 px-3 text-sm font-bold text-ink hover:border-desert-600 hover:text-desert-700"
            >
              {tag.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
