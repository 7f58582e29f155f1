import { useEffect } from "react";

/**
 * The public pages' enhancement modules (app/enhance/*.js, decision 0132) start themselves on the static
 * document the server renders. When React renders the same page in the browser instead (a client-side
 * navigation from an app page, the newsroom's preview), the component loads the module and hands it its markup:
 * one implementation of each behaviour either way. Returns the cleanup for a useEffect.
 */
export function inApp<M>(url: string, use: (module: M) => void | (() => void)): () => void {
  let cancelled = false;
  let cleanup: void | (() => void);
  import(/* @vite-ignore */ url).then(
    (module: M) => {
      if (!cancelled) cleanup = use(module);
    },
    () => {
      // The page still works as HTML: links are links, forms are forms.
    },
  );
  return () => {
    cancelled = true;
    cleanup?.();
  };
}

/** A page's modules with an `enhance(root)` (the player, the video filter), run on the document once the page is in place. */
export function useEnhanceInApp(...urls: string[]) {
  useEffect(() => {
    const cleanups = urls.map((url) => inApp(url, (m: { enhance?: (root: ParentNode) => void }) => m.enhance?.(document)));
    return () => cleanups.forEach((c) => c());
    // The modules are fixed per page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
