import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server bundle's entry is our Express app, which imports the React Router build itself.
    rollupOptions: isSsrBuild ? { input: "./server/app.server.ts" } : undefined,
    // Source maps stay off in production bundles (spec §9: source maps off).
    sourcemap: false,
  },
  plugins: [tailwindcss(), reactRouter()],
}));
