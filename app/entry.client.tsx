import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { watchDataRequests } from "./lib/request-id.ts";

// A failed data request's X-Request-Id becomes the error screen's number (app/lib/request-id.ts).
watchDataRequests();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
