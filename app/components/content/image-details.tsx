import { createContext, useContext, type ReactNode } from "react";
import type { ImageDetails, ImageDetailsMap } from "#domain/image-details.ts";

const ImageDetailsContext = createContext<ImageDetailsMap>({});

/**
 * The media library's details of a page's pictures (alt text, caption, credit, focal point), from its loader's
 * `images` (server/content/image-details.server.ts), for every card and image under it. Rendered on the server
 * for the reading pages that do not hydrate: no script is added to them.
 */
export function ImageDetailsProvider({ images, children }: { images: ImageDetailsMap | undefined; children: ReactNode }) {
  return <ImageDetailsContext.Provider value={images ?? {}}>{children}</ImageDetailsContext.Provider>;
}

/** The library's details of one picture, when the page's loader found it in the library. */
export function useImageDetails(url: string | null | undefined): ImageDetails | undefined {
  const images = useContext(ImageDetailsContext);
  return url ? images[url] : undefined;
}
