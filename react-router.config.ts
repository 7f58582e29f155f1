import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel builds (several checkouts, CI jobs) keep apart; server.js reads the same variable.
  buildDirectory: process.env.BUILD_DIR || "build",
} satisfies Config;
