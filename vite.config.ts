import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, minifySync, type Plugin } from "vite";

/**
 * The public pages' enhancement modules (app/enhance/*.js) reach the browser as `?url` assets, which Vite copies
 * as they are: minify them in the build, as the bundled chunks are, so their comments stay in the source only
 * (the pages' JavaScript budget, issue 30; docs/decisions/0132-video-player-without-react.md).
 */
function minifyEnhancements(): Plugin {
  return {
    name: "minify-enhancements",
    apply: "build",
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== "asset" || !file.fileName.endsWith(".js")) continue;
        if (!file.originalFileNames.some((name) => name.startsWith("app/enhance/"))) continue;
        const { code, errors } = minifySync(file.fileName, String(file.source));
        if (errors.length) this.error(`${file.fileName}: ${errors.map((e) => e.message).join("; ")}`);
        file.source = code;
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server bundle's entry is our Express app, which imports the React Router build itself.
    rollupOptions: isSsrBuild ? { input: "./server/app.server.ts" } : undefined,
    // Source maps stay off in production bundles (spec §9: source maps off).
    sourcemap: false,
    // A script is never inlined as a data: URL, whatever its size: the CSP (script-src 'self') would refuse it,
    // and it would be copied into every page instead of cached once.
    assetsInlineLimit: (file: string) => (file.endsWith(".js") || file.endsWith(".mjs") ? false : undefined),
  },
  plugins: [tailwindcss(), reactRouter(), minifyEnhancements()],
}));
