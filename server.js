/**
 * The process entry: `node server.js` serves the production build; `node server.js --dev` serves the
 * sources through Vite with hot reload. Both run the same Express app (server/app.ts).
 */
import compression from "compression";
import express from "express";

const dev = process.argv.includes("--dev");
const buildDir = process.env.BUILD_DIR ?? "build";
const PRODUCTION_REFUSAL = "Application cannot start with invalid configuration in production mode";

async function main() {
  const server = express();
  server.disable("x-powered-by");
  server.use(compression());

  let appModule;
  if (dev) {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    server.use(vite.middlewares);
    appModule = await vite.ssrLoadModule("./server/app.ts");
    await appModule.prepare();
    const app = appModule.createApp();
    server.use(async (req, res, next) => {
      try {
        const fresh = await vite.ssrLoadModule("./server/app.ts");
        return fresh === appModule ? app(req, res, next) : fresh.createApp()(req, res, next);
      } catch (error) {
        if (typeof error === "object" && error instanceof Error) vite.ssrFixStacktrace(error);
        next(error);
      }
    });
  } else {
    appModule = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href);
    await appModule.prepare();
    // Hashed assets never change: cache them for a year. Everything else in the client build for an hour.
    server.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y", index: false }));
    server.use(express.static(`${buildDir}/client`, { maxAge: "1h", index: false }));
    server.use(appModule.createApp());
  }

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";
  const listener = server.listen(port, host, () => {
    const address = listener.address();
    const shown = typeof address === "object" && address ? address.port : port;
    appModule.logger.info(`serving on http://localhost:${shown}`);
  });
  const stop = () => listener.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  if (error && error.code === "CONFIG_INVALID") {
    console.error(PRODUCTION_REFUSAL);
    for (const problem of error.problems ?? []) console.error(`- ${problem}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
