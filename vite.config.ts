import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import path from "node:path";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  build: {
    // The server bundle's entry is our Express app, which imports the React Router build itself.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
    // Source maps stay off in production bundles (spec §9: source maps off).
    sourcemap: false,
  },
  plugins: [tailwindcss(), reactRouter()],
}));
