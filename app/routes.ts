import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/** Every URL of the product, in one place. */
export default [
  route("language", "routes/language.ts"),
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("404", "routes/public/not-found.tsx", { id: "not-found" }),
    route("*", "routes/public/not-found.tsx", { id: "unknown-url" }),
  ]),
] satisfies RouteConfig;
