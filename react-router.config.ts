import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Pages are rendered by the Express server in server/app.ts; see docs/decisions/0001-stack.md.
} satisfies Config;
