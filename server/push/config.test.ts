/** The VAPID settings' start-up check (server/config.server.ts, docs/decisions/0127-breaking-news-alerts.md). */
import { describe, expect, it } from "vitest";
import webpush from "web-push";
import { checkConfig } from "#server/config.server.ts";
import { pushOptIn, pushSettings } from "./subscriptions.server.ts";

describe("VAPID configuration", () => {
  const keys = webpush.generateVAPIDKeys();

  it("is off without keys, and on with both, the subject defaulting to the contact address", () => {
    const off = checkConfig({});
    expect(off.errors).toEqual([]);
    expect(off.config.drivers.push).toBe("off");
    expect(pushOptIn(off.config)).toBeNull();

    const on = checkConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, CONTACT_EMAIL: "desk@sahara-media.mr" });
    expect(on.errors).toEqual([]);
    expect(on.config.drivers.push).toBe("web-push");
    expect(pushSettings(on.config)).toEqual({ publicKey: keys.publicKey, privateKey: keys.privateKey, subject: "mailto:desk@sahara-media.mr" });
    // The page gets the public key only; the private one is a secret kept out of logs and the client bundle.
    expect(pushOptIn(on.config)).toEqual({ publicKey: keys.publicKey });
    expect(on.config.secretValues).toContain(keys.privateKey);
  });

  it("refuses one key without the other, malformed keys and a bad subject, never quoting the private key", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ VAPID_PUBLIC_KEY: keys.publicKey }, /Missing required environment variable: VAPID_PRIVATE_KEY/],
      [{ VAPID_PRIVATE_KEY: keys.privateKey }, /Missing required environment variable: VAPID_PUBLIC_KEY/],
      [{ VAPID_PUBLIC_KEY: "not-a-key", VAPID_PRIVATE_KEY: keys.privateKey }, /VAPID_PUBLIC_KEY must be a P-256 public key/],
      [{ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: `${keys.privateKey}AA` }, /VAPID_PRIVATE_KEY must be a P-256 private key/],
      [
        { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: "http://example.org" },
        /VAPID_SUBJECT must be a mailto: or https: address/,
      ],
      [{ VAPID_SUBJECT: "mailto:a@b.mr" }, /VAPID_SUBJECT is set without/],
    ];
    for (const [env, message] of cases) {
      const { errors, config } = checkConfig(env);
      expect(errors.join("\n")).toMatch(message);
      expect(errors.join("\n")).not.toContain(keys.privateKey);
      expect(config.drivers.push).toBe("off");
      // In production such a configuration refuses to start.
      expect(checkConfig({ ...env, NODE_ENV: "production" }).errors.length).toBeGreaterThan(0);
    }
  });
});
