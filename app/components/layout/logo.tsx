import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";

/**
 * The site logo with the spec's fallback chain: the configured logo, then the alternative one, then
 * nothing (the site name stays). An image that failed before hydration is caught on mount.
 */
export function Logo({ src, fallbackSrc, name, className = "" }: { src: string; fallbackSrc: string; name: string; className?: string }) {
  const [stage, setStage] = useState<0 | 1 | 2>(0);
  const img = useRef<HTMLImageElement>(null);
  const next = () => setStage((s) => (s === 0 ? 1 : 2));
  useEffect(() => {
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) next();
  }, [stage]);
  return (
    <Link to="/" className={`flex shrink-0 items-center gap-2 font-bold text-ink ${className}`} data-testid="site-logo">
      {stage < 2 && (
        <img
          ref={img}
          key={stage}
          src={stage === 0 ? src : fallbackSrc}
          onError={next}
          width={40}
          height={40}
          alt=""
          className="h-10 w-10"
          data-own-fallback=""
          // Where a page does not hydrate, app/enhance/reading.js follows the same chain from this.
          data-fallback-src={fallbackSrc}
        />
      )}
      <span className="text-lg leading-tight sm:text-xl">{name}</span>
    </Link>
  );
}
