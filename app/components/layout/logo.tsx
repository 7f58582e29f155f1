import { Link } from "#app/lib/link.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";

/**
 * The site logo with the spec's fallback chain: the configured logo, then the alternative one, then nothing (the
 * site name stays). The chain is followed by app/enhance/reading.js from `data-fallback-src`, on every page.
 */
export function Logo({ src, fallbackSrc, name, className = "" }: { src: string; fallbackSrc: string; name: string; className?: string }) {
  const local = useLocalPath();
  return (
    <Link to={local("/")} className={`flex shrink-0 items-center gap-2 font-bold text-ink ${className}`} data-testid="site-logo">
      <img src={src} width={40} height={40} alt="" className="h-10 w-10" data-own-fallback="" data-fallback-src={fallbackSrc} />
      <span className="text-lg leading-tight sm:text-xl">{name}</span>
    </Link>
  );
}
