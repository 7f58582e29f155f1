import { useRouteLoaderData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { RootLoaderData } from "#app/root.tsx";
import { absoluteUrl } from "#app/lib/seo.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { taggedUrl } from "#domain/link-tags.ts";

/**
 * WhatsApp and Telegram, where readers here share: plain links to each app's documented share address
 * (wa.me/?text=, t.me/share/url), no script of theirs and no request until a reader taps one. The link shared is
 * the page's address in the language shown (issue 42): a French reader shares the French page, tagged with the app it
 * went through (`?utm_source=whatsapp`, `telegram`: domain/link-tags.ts), so the audience figures can tell the
 * readers it brings from the others (issue 45).
 */
export function ShareLinks({ title, path }: { title: string; path: string }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<RootLoaderData>("root");
  const localPath = useLocalPath();
  const url = absoluteUrl(root?.site.publicUrl ?? "", localPath(path));
  const links = [
    {
      app: "whatsapp",
      href: `https://wa.me/?text=${encodeURIComponent(`${title}\n${taggedUrl(url, { source: "whatsapp" })}`)}`,
      icon: "M12 3a9 9 0 0 0-7.8 13.5L3 21l4.6-1.2A9 9 0 1 0 12 3Zm4.4 12.3c-.2.5-1.1 1-1.6 1.1-.4 0-.9.2-2.9-.6-2.4-1-4-3.4-4.1-3.6-.1-.2-1-1.3-1-2.5s.6-1.8.9-2c.2-.3.5-.3.6-.3h.5c.2 0 .4 0 .6.5l.8 1.9c.1.1.1.3 0 .5l-.3.5-.4.4c-.1.1-.3.3-.1.6.2.3.8 1.3 1.7 2.1 1.2 1 2.2 1.3 2.5 1.5.3.1.5.1.6-.1l.9-1c.2-.3.4-.2.6-.1l1.8.9c.3.1.5.2.5.3.1.1.1.6-.2 1.2Z",
    },
    {
      app: "telegram",
      href: `https://t.me/share/url?url=${encodeURIComponent(taggedUrl(url, { source: "telegram" }))}&text=${encodeURIComponent(title)}`,
      icon: "M21.5 4.3 2.9 11.5c-1.3.5-1.2 1.3-.2 1.6l4.8 1.5 1.8 5.6c.2.6.4.8.9.8.4 0 .6-.2.9-.5l2.3-2.2 4.7 3.5c.9.5 1.5.2 1.7-.8L23 5.7c.3-1.4-.5-2-1.5-1.4ZM9.3 14l8.6-5.4c.4-.3.8-.1.5.2l-7.3 6.6-.3 3.2L9.3 14Z",
    },
  ] as const;
  return (
    <div className="flex items-center gap-2">
      {links.map((link) => (
        <a
          key={link.app}
          href={link.href}
          target="_blank"
          rel="noopener noreferrer"
          data-testid={`share-${link.app}`}
          className="inline-flex items-center gap-2 rounded-md border border-sand-300 bg-white px-3 py-2 text-sm font-bold text-ink hover:bg-sand-100"
        >
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
            <path d={link.icon} />
          </svg>
          {t(`detail.shareOn.${link.app}`)}
        </a>
      ))}
    </div>
  );
}
