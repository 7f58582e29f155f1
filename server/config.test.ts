import { describe, expect, it } from "vitest";
import { checkConfig, ConfigError, looksLikeExampleValue, PRODUCTION_REFUSAL, publicConfig, startupCheck } from "./config.server.ts";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe("configuration check", () => {
  it("runs on the embedded defaults with nothing set", () => {
    const { config, errors, warnings } = checkConfig({});
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(config.drivers).toEqual({
      database: "pglite",
      storage: "local",
      video: "local",
      mail: "outbox",
      cache: "memory",
      social: "off",
      push: "off",
      cdnPurge: "none",
    });
    expect(config.PORT).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  it("requires the video key only when the hosted video library is selected", () => {
    expect(checkConfig({ BUNNY_STREAM_LIBRARY_ID: "123" }).errors).toEqual([]);
    const { errors, config } = checkConfig({ VIDEO_DRIVER: "bunny", BUNNY_STREAM_LIBRARY_ID: "123", BUNNY_STREAM_CDN_HOSTNAME: "vz-1.b-cdn.net" });
    expect(errors).toEqual(["Missing required environment variable: BUNNY_STREAM_API_KEY"]);
    // Outside production a misconfigured driver falls back to the embedded one.
    expect(config.drivers.video).toBe("local");
  });

  it("requires the storage settings only for the CDN storage driver", () => {
    const { errors } = checkConfig({ STORAGE_DRIVER: "bunny" });
    expect(errors).toEqual([
      "Missing required environment variable: CDN_URL",
      "Missing required environment variable: BUNNY_STORAGE_API_KEY",
      "Missing required environment variable: BUNNY_STORAGE_ZONE",
    ]);
    expect(checkConfig({ STORAGE_DRIVER: "local", BUNNY_STORAGE_ZONE: "" }).errors).toEqual([]);
  });

  it("warns about example, development and localhost values, and about non-CDN hosts", () => {
    const { warnings, errors } = checkConfig({
      STORAGE_DRIVER: "bunny",
      CDN_URL: "http://cdn.example.com",
      BUNNY_STORAGE_ZONE: "zone",
      BUNNY_STORAGE_API_KEY: "your-api-key",
      VIDEO_DRIVER: "bunny",
      BUNNY_STREAM_LIBRARY_ID: "42",
      BUNNY_STREAM_API_KEY: "0f1e2d3c-real",
      BUNNY_STREAM_CDN_HOSTNAME: "videos.localhost",
    });
    expect(errors).toEqual([]);
    expect(warnings).toContain("CDN_URL should start with https:// or contain .b-cdn.net");
    expect(warnings).toContain("BUNNY_STREAM_CDN_HOSTNAME should contain .b-cdn.net");
    expect(warnings).toContain("CDN_URL appears to contain example or development values");
    expect(warnings).toContain("BUNNY_STORAGE_API_KEY appears to contain example or development values");
    expect(warnings).toContain("BUNNY_STREAM_CDN_HOSTNAME appears to contain example or development values");
  });

  it("rejects a malformed database URL and invalid numbers", () => {
    expect(checkConfig({ DATABASE_URL: "https://db.example.org" }).errors).toContain(
      "DATABASE_URL must be a valid PostgreSQL URL (postgres://user:password@host:5432/database)",
    );
    expect(checkConfig({ DATABASE_URL: "postgres://u:p@db:5432/news" }).config.drivers.database).toBe("postgres");
    expect(checkConfig({ PORT: "eighty" }).errors[0]).toMatch(/^Invalid environment variable PORT/);
  });

  it("bounds the database's connections and queries by default, takes 0 for none, and wants the query time-out past the statement's", () => {
    const { config } = checkConfig({});
    expect([config.DATABASE_CONNECT_TIMEOUT_MS, config.DATABASE_STATEMENT_TIMEOUT_MS, config.DATABASE_QUERY_TIMEOUT_MS]).toEqual([5000, 5000, 6000]);
    expect([config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, config.DATABASE_KEEPALIVE_DELAY_MS]).toEqual([60_000, 10_000]);
    const off = checkConfig({ DATABASE_STATEMENT_TIMEOUT_MS: "0", DATABASE_QUERY_TIMEOUT_MS: "0", DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "0" });
    expect(off.errors).toEqual([]);
    expect(off.config.DATABASE_QUERY_TIMEOUT_MS).toBe(0);
    expect(checkConfig({ DATABASE_QUERY_TIMEOUT_MS: "50" }).errors[0]).toMatch(/^Invalid environment variable DATABASE_QUERY_TIMEOUT_MS: must be 0 \(none\)/);
    expect(checkConfig({ DATABASE_CONNECT_TIMEOUT_MS: "0" }).errors[0]).toMatch(/^Invalid environment variable DATABASE_CONNECT_TIMEOUT_MS/);
    expect(checkConfig({ DATABASE_STATEMENT_TIMEOUT_MS: "8000" }).errors).toEqual([
      "DATABASE_QUERY_TIMEOUT_MS (6000) must be longer than DATABASE_STATEMENT_TIMEOUT_MS (8000): a slow statement is cancelled by the server first, and only a silent server reaches the query time-out",
    ]);
    expect(checkConfig({ DATABASE_STATEMENT_TIMEOUT_MS: "8000", DATABASE_QUERY_TIMEOUT_MS: "10000" }).errors).toEqual([]);
  });

  it("takes a Graph API version of the form vNN.N, and refuses anything else at start", () => {
    expect(checkConfig({}).config.FACEBOOK_GRAPH_VERSION).toMatch(/^v\d+\.\d$/);
    expect(checkConfig({ FACEBOOK_GRAPH_VERSION: " v24.0 " })).toMatchObject({ errors: [], config: { FACEBOOK_GRAPH_VERSION: "v24.0" } });
    for (const bad of ["24.0", "v24", "V24.0", "v24.0.1", "latest", "v24.0/../me"]) {
      expect(checkConfig({ FACEBOOK_GRAPH_VERSION: bad }).errors, bad).toEqual([
        "Invalid environment variable FACEBOOK_GRAPH_VERSION: must be a Graph API version such as v26.0 (v, the major number, a dot, the minor number)",
      ]);
    }
    expect(() => startupCheck({ NODE_ENV: "production", FACEBOOK_GRAPH_VERSION: "19.0" }, quiet)).toThrow(PRODUCTION_REFUSAL);
  });

  it("refuses to start in production with the spec's message, and only warns elsewhere", () => {
    const bad = { NODE_ENV: "production", STORAGE_DRIVER: "s3" };
    expect(() => startupCheck(bad, quiet)).toThrow(ConfigError);
    expect(() => startupCheck(bad, quiet)).toThrow(PRODUCTION_REFUSAL);
    expect(() => startupCheck({ ...bad, NODE_ENV: "development" }, quiet)).not.toThrow();
    expect(() => startupCheck({ NODE_ENV: "production" }, quiet)).not.toThrow();
    expect(() => startupCheck({ NODE_ENV: "production", BETTER_AUTH_SECRET: "short" }, quiet)).toThrow(PRODUCTION_REFUSAL);
  });

  it("logs which drivers it uses", () => {
    const lines: string[] = [];
    startupCheck({ DATABASE_URL: "postgres://a:b@h/db", SMTP_URL: "smtp://mail:25" }, { ...quiet, info: (m) => lines.push(m) });
    expect(lines.join("\n")).toMatch(/database=postgres storage=local video=local mail=smtp cache=memory social=off/);
  });

  it("collects secret values and keeps them out of the public part", () => {
    const env = {
      BETTER_AUTH_SECRET: "s".repeat(40),
      BUNNY_STREAM_API_KEY: "stream-key-123456",
      FACEBOOK_PAGE_TOKEN: "EAAB-page-token-987654",
      FACEBOOK_PAGE_ID: "1234",
      DATABASE_URL: "postgres://user:db-password-55@host/db",
    };
    const { config } = checkConfig(env);
    expect(config.secretValues).toEqual(expect.arrayContaining(["s".repeat(40), "stream-key-123456", "EAAB-page-token-987654", "db-password-55"]));
    const exposed = JSON.stringify(publicConfig(config));
    for (const secret of config.secretValues) expect(exposed).not.toContain(secret);
  });

  it("purges no shared cache by default, and wants each purge driver's settings, keeping its secrets out of the logs", () => {
    expect(checkConfig({ BUNNY_API_KEY: "bunny-account-key-1" }).errors).toEqual([]);
    const varnish = checkConfig({ CDN_PURGE: "varnish" });
    expect(varnish.errors).toEqual(["Missing required environment variable: VARNISH_PURGE_URL"]);
    // Outside production a purge driver without its settings falls back to none.
    expect(varnish.config.drivers.cdnPurge).toBe("none");
    expect(checkConfig({ CDN_PURGE: "varnish", VARNISH_PURGE_URL: "ftp://cache/" }).errors).toEqual(["VARNISH_PURGE_URL must start with http:// or https://"]);
    const ok = checkConfig({ CDN_PURGE: "varnish", VARNISH_PURGE_URL: "http://127.0.0.1:6081/" });
    expect([ok.errors, ok.warnings, ok.config.drivers.cdnPurge]).toEqual([[], [], "varnish"]);

    expect(checkConfig({ CDN_PURGE: "bunny" }).errors).toEqual([
      "Missing required environment variable: BUNNY_API_KEY",
      "Missing required environment variable: BUNNY_PULL_ZONE_ID",
    ]);
    expect(checkConfig({ CDN_PURGE: "bunny", BUNNY_API_KEY: "k".repeat(20), BUNNY_PULL_ZONE_ID: "zone-a" }).errors[0]).toMatch(
      /BUNNY_PULL_ZONE_ID: must be the pull zone's numeric id/,
    );
    const bunny = checkConfig({ CDN_PURGE: "bunny", BUNNY_API_KEY: "bunny-account-key-1", BUNNY_PULL_ZONE_ID: "12345" });
    expect([bunny.errors, bunny.config.drivers.cdnPurge, bunny.config.BUNNY_API_URL]).toEqual([[], "bunny", "https://api.bunny.net"]);
    expect(bunny.config.secretValues).toContain("bunny-account-key-1");

    expect(checkConfig({ CDN_PURGE: "cloudflare", CLOUDFLARE_API_TOKEN: "cf-token-123456" }).errors).toEqual([
      "Missing required environment variable: CLOUDFLARE_ZONE_ID",
    ]);
    expect(checkConfig({ CLOUDFLARE_ZONE_ID: "not-a-zone" }).errors[0]).toMatch(/CLOUDFLARE_ZONE_ID/);
    const cloudflare = checkConfig({
      CDN_PURGE: "cloudflare",
      CLOUDFLARE_API_TOKEN: "cf-token-123456",
      CLOUDFLARE_ZONE_ID: "0123456789abcdef0123456789abcdef",
    });
    expect([cloudflare.errors, cloudflare.config.drivers.cdnPurge, cloudflare.config.CLOUDFLARE_API_URL]).toEqual([
      [],
      "cloudflare",
      "https://api.cloudflare.com/client/v4",
    ]);
    expect(cloudflare.config.secretValues).toContain("cf-token-123456");
    expect(checkConfig({ CDN_PURGE: "fastly" }).errors[0]).toMatch(/^Invalid environment variable CDN_PURGE/);
    // In production a purge driver without its settings refuses the start.
    expect(() => startupCheck({ NODE_ENV: "production", BETTER_AUTH_SECRET: "s".repeat(40), CDN_PURGE: "bunny" }, quiet)).toThrow(ConfigError);
  });

  it("keeps the audit log a year by default, and refuses a retention outside 1–3650 days (decision 0140)", () => {
    expect(checkConfig({}).config.AUDIT_RETENTION_DAYS).toBe(365);
    expect(checkConfig({ AUDIT_RETENTION_DAYS: "90" }).config.AUDIT_RETENTION_DAYS).toBe(90);
    for (const bad of ["0", "3651", "a year"]) expect(checkConfig({ AUDIT_RETENTION_DAYS: bad }).errors[0]).toMatch(/AUDIT_RETENTION_DAYS/);
  });

  it("recognises example-looking values", () => {
    for (const v of ["https://example.com", "changeme", "your-key-here", "http://localhost:3000", "xxxx"]) expect(looksLikeExampleValue(v)).toBe(true);
    for (const v of ["https://sahara.b-cdn.net", "9f8e7d6c5b4a"]) expect(looksLikeExampleValue(v)).toBe(false);
  });
});
