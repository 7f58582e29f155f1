import type { ReactNode } from "react";
import { focalPosition, type FocalPoint } from "#domain/library.ts";

/**
 * A library file's picture in a grid (the library page's cards, the picker's tiles): a 4:3 box, the picture
 * cropped around its focal point, or `fallback` (the file's kind) when it has none. `children` sit on top (a badge).
 */
export function LibraryThumbnail({
  src,
  srcSet,
  sizes,
  width,
  height,
  focal,
  fallback,
  children,
}: {
  src: string | null;
  srcSet?: string;
  sizes?: string;
  width?: number;
  height?: number;
  focal: FocalPoint;
  fallback: ReactNode;
  children?: ReactNode;
}) {
  return (
    <span className="relative flex aspect-[4/3] w-full items-center justify-center overflow-hidden bg-sand-100">
      {src ? (
        <img
          src={src}
          srcSet={srcSet}
          sizes={sizes}
          alt=""
          loading="lazy"
          decoding="async"
          width={width}
          height={height}
          style={{ objectPosition: focalPosition(focal) }}
          className="h-full w-full object-cover"
        />
      ) : (
        fallback
      )}
      {children}
    </span>
  );
}
